async ({ exp, check, $, text, sleep, until, shown, type, open, focused }) => {
  const T = exp.transfer;
  const files = await window.go.app.SelfTest.WriteImportFile();
  const painted = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 150))));
  const item = (label) => [...document.querySelectorAll("#import-items .import-item")].find((li) => li.querySelector(".import-label").textContent === label);

  const gb = $('#country-list option[value="GB"]');
  check("editor: the country suggestions are named in the person's language, as Go names them (x/text)",
    !!gb && T.gbName !== "" && gb.textContent === T.gbName && $("#country-list").options.length === T.countries && !!$("#language-list"),
    (gb && gb.textContent) + " / " + T.gbName + " / " + ($("#country-list") && $("#country-list").options.length));
  open("profiles");
  $("main").scrollTop = 0;
  await painted();
  await window.go.app.SelfTest.Screenshot("profile-list");
  check("transfer: Import… and Export… are offered with the vault unlocked", await until(() => shown($("#import-open")) && shown($("#export-open"))), "");
  $("#import-open").click();
  check("transfer: Import opens its panel, focus in the file field", await until(() => shown($("#import-panel")) && focused() === "import-path"), focused());
  type("#import-path", files.vcf + ".missing");
  $("#import-preview-btn").click();
  check("transfer: a file that is not there is said so, nothing previewed",
    await until(() => shown($("#import-error")) && /no such file/i.test(text("#import-error")) && !shown($("#import-preview"))), text("#import-error"));
  type("#import-path", files.vcf);
  $("#import-preview-btn").click();
  check("transfer: the preview names the format and both contacts, each ticked, into a new profile",
    await until(() => shown($("#import-preview")) && /vCard file holds 2 profiles/.test(text("#import-summary")) && item(T.first) && item(T.second) &&
      [...document.querySelectorAll(".import-check")].every((c) => c.checked) && item(T.first).querySelector(".import-into").value === ""),
    text("#import-summary") + " / " + text("#import-items"));
  check("transfer: the preview names the kinds of value, never a value",
    /Email/.test(text("#import-items")) && /Organisation/.test(text("#import-items")) && !text("#import-items").includes("@") && !text("#import-items").includes("Analytical"),
    text("#import-items"));
  check("transfer: Import counts the profiles ticked", text("#import-apply") === "Import 2 profiles", text("#import-apply"));
  // The first into the profile edited earlier: its email is a conflict.
  const sel = item(T.first).querySelector(".import-into");
  const target = [...sel.options].find((o) => o.textContent.includes(T.into));
  sel.value = target.value;
  sel.dispatchEvent(new Event("change"));
  check("transfer: into an existing profile, the email it holds is a conflict kept beside it",
    await until(() => /1 conflict \(kept beside yours\)/.test(item(T.first).querySelector(".import-counts").textContent)),
    item(T.first).querySelector(".import-counts").textContent);
  item(T.first).querySelector("details").open = true;
  $("#import-title").scrollIntoView();
  item(T.first).querySelector(".import-check").focus();
  await painted();
  await window.go.app.SelfTest.Screenshot("import-preview");
  item(T.second).querySelector(".import-check").click();
  check("transfer: unticking one says Import 1 profile", text("#import-apply") === "Import 1 profile", text("#import-apply"));
  $("#import-apply").click();
  check("transfer: Import says what it did, the panel is ready for another file",
    await until(() => /Imported 1 profile: .*1 kept beside yours/.test(text("#import-done")) && shown($("#import-form")) && !shown($("#import-preview")) && focused() === "import-title", 10000),
    text("#import-done") + " / " + text("#import-apply-error") + " / " + focused());
  check("transfer: the contact not ticked is not in the list", ![...document.querySelectorAll("#profiles .profile")].some((li) => li.textContent.includes(T.second)), text("#profiles"));
  $("#import-cancel").click();
  check("transfer: Cancel closes the panel, focus back on Import…", await until(() => !shown($("#import-panel")) && focused() === "import-open"), focused());

  // Export the edited profile to a passphrase.
  $("#export-open").click();
  check("transfer: Export lists the profiles, all ticked, and proposes a file",
    await until(() => shown($("#export-panel")) && $("#export-list").querySelectorAll("input:checked").length >= 2 && /\.tessera$/.test($("#export-path").value)),
    text("#export-list") + " " + $("#export-path").value);
  for (const c of $("#export-list").querySelectorAll("input")) c.checked = c.parentElement.textContent.trim() === T.into;
  type("#export-pass", "short");
  type("#export-confirm", "short");
  type("#export-path", files.export);
  $("#export-submit").click();
  check("transfer: a weak export passphrase is refused, nothing written", await until(() => shown($("#export-error")) && /weak/i.test(text("#export-error"))), text("#export-error"));
  type("#export-pass", T.pass);
  type("#export-confirm", T.pass);
  $("#export-submit").click();
  check("transfer: the export says what it wrote where",
    await until(() => text("#export-done") === "Exported 1 profile to " + files.export + "." && !shown($("#export-error")), 15000), text("#export-done") + " / " + text("#export-error"));
  $("#export-cancel").click();

  // Back up everything from Settings.
  open("settings");
  check("settings: the backup card is there, with a file proposed", await until(() => shown($("#backup-form")) && /tessera-backup-.*\.tessera$/.test($("#backup-path").value)), $("#backup-path").value);
  type("#backup-pass", T.pass);
  type("#backup-confirm", T.pass);
  type("#backup-path", files.backup);
  $("#backup-submit").click();
  check("settings: Back up now shows progress, then what it wrote",
    await until(() => shown($("#backup-progress")) || /Backed up/.test(text("#backup-done")), 5000) && await until(() => /^Backed up [0-9]+ profiles to /.test(text("#backup-done")) && !shown($("#backup-progress")), 15000),
    text("#backup-done") + " / " + text("#backup-error"));

  // Lock, unlock with the passphrase: the import is in Activity.
  open("status");
  $("#lock-now").click();
  await until(() => shown($("#unlock-form")));
  await painted();
  await window.go.app.SelfTest.Screenshot("unlock");
  type("#unlock-pass", exp.vault.passphrase);
  $("#unlock-submit").click();
  check("transfer: lock, then the passphrase unlocks", await until(() => shown($("#lock-now")), 20000), text("#vault-title"));
  open("activity");
  const entry = () => [...document.querySelectorAll("#activity-list .act")].find((li) => /Imported [0-9]+ details into /.test(li.textContent));
  check("transfer: Activity shows the import into the profile, from a vCard file",
    await until(() => entry() && entry().textContent.includes(T.into) && /vCard file/.test(entry().textContent)), text("#activity-list").slice(0, 300));
  check("transfer: Activity shows the export and the backup", /Exported .* to an encrypted file/.test(text("#activity-list")) && /Backed up/.test(text("#activity-list")), "");

  // The country typed by its name is kept as its code, and the region
  // field then suggests that country's regions.
  open("profiles");
  // The list is loaded again after the unlock: wait for the row.
  const prow = () => [...document.querySelectorAll("#profiles .profile")].find((li) => li.querySelector(".profile-open strong")?.textContent === T.into);
  check("editor: the profile imported into is listed after the unlock", await until(() => prow()), text("#profiles").slice(0, 200));
  prow().querySelector(".profile-open").click();
  const cc = () => $('#profile-editor .concept[data-concept="https://schema.org/addressCountry"]');
  await until(() => cc() && cc().querySelector("input"));
  const ci = cc().querySelector("input");
  check("editor: the country field suggests countries by name", ci.getAttribute("list") === "country-list", ci.outerHTML.slice(0, 120));
  ci.focus();
  ci.value = T.usName;
  ci.dispatchEvent(new Event("input", { bubbles: true }));
  cc().querySelector('button[data-key^="save:"]').click();
  check("editor: a country typed by its name is stored as its code",
    await until(() => cc() && cc().querySelector("input") && cc().querySelector("input").value === "US"), cc() && cc().querySelector("input").value);
  check("editor: the region field then suggests that country's regions, as Go lists them",
    await until(() => $("#region-list") && $("#region-list").options.length === T.usRegions && [...$("#region-list").options].some((o) => o.value === "California")),
    ($("#region-list") && $("#region-list").options.length) + " / " + T.usRegions);
  const addSel = $("#add-concept");
  addSel.value = "https://schema.org/addressRegion";
  addSel.dispatchEvent(new Event("change"));
  check("editor: the region value field points at the suggestions", await until(() => $("#add-value") && $("#add-value").getAttribute("list") === "region-list"), $("#add-value") && $("#add-value").outerHTML.slice(0, 120));
  $('#profile-editor [data-key="back"]').click();
  await until(() => shown($("#profiles")) && !shown($("#profile-editor")));
  open("status");

  if (exp.dialog.realKeys) {
    // The same import, with the keyboard alone: the second contact.
    const keys = (k) => window.go.app.SelfTest.PressKeys(k);
    const typeKeys = (s) => window.go.app.SelfTest.TypeText(s);
    const tabTo = async (pred, n = 40) => {
      for (let i = 0; i < n && !pred(document.activeElement); i++) await keys("Tab");
      return pred(document.activeElement);
    };
    open("profiles");
    await until(() => shown($("#import-open")));
    $("#new-profile").focus();
    check("keys: Tab reaches Import…", await tabTo((e) => e && e.id === "import-open"), focused());
    await keys("Return");
    check("keys: Enter opens the import panel, focus in the file field", await until(() => focused() === "import-path"), focused());
    await typeKeys(files.vcf);
    await keys("Return");
    check("keys: Enter previews", await until(() => shown($("#import-preview")) && item(T.first)), text("#import-summary"));
    check("keys: Tab reaches the first contact's tick box", await tabTo((e) => e === item(T.first).querySelector(".import-check")), focused());
    await keys("space");
    check("keys: Space unticks it", await until(() => !item(T.first).querySelector(".import-check").checked), "");
    check("keys: Tab reaches Import", await tabTo((e) => e && e.id === "import-apply"), focused());
    await keys("Return");
    check("keys: Enter imports the second contact as a new profile",
      await until(() => /Imported 1 profile \(1 new\)/.test(text("#import-done")) && [...document.querySelectorAll("#profiles .profile")].some((li) => li.textContent.includes(T.second)), 10000),
      text("#import-done") + " / " + text("#import-apply-error"));
    await keys("Escape");
    check("keys: Escape closes the panel", await until(() => !shown($("#import-panel"))), "");
    // Lock, unlock and read Activity with the keyboard alone.
    const tab = (v) => $('.nav-item[data-view="' + v + '"]');
    tab("profiles").focus();
    await keys("shift+Tab");
    check("keys: Shift+Tab reaches the Status tab", await until(() => document.activeElement === tab("status"), 3000), focused());
    await keys("Return");
    check("keys: Enter opens Status", await until(() => shown($('[data-panel="status"]'))), "");
    check("keys: Tab reaches Lock now", await tabTo((e) => e && e.id === "lock-now"), focused());
    await keys("Return");
    check("keys: Enter locks, focus in the passphrase field", await until(() => shown($("#unlock-form")) && focused() === "unlock-pass"), focused());
    await typeKeys(exp.vault.passphrase);
    await keys("Return");
    check("keys: the passphrase typed and Enter unlock", await until(() => shown($("#lock-now")), 20000), text("#vault-title") + " " + text("#unlock-error"));
    tab("status").focus();
    check("keys: Tab reaches the Activity tab", await tabTo((e) => e === tab("activity"), 10), focused());
    await keys("Return");
    check("keys: Activity shows both imports, the newest first",
      await until(() => [...document.querySelectorAll("#activity-list .act")].filter((li) => /Imported [0-9]+ details? into /.test(li.textContent)).length === 2 &&
        /Imported .* into Charles Babbage/.test($("#activity-list .act").textContent)),
      text("#activity-list").slice(0, 200));
  }
  open("status");
}