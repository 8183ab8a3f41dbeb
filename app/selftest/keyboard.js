(async () => {
  const exp = %s;
/* prelude */
  const keys = (k) => window.go.app.SelfTest.PressKeys(k);
  // typeKeys types s with X key presses into the focused element. Under
  // load the X server has been seen to drop some of xdotool's presses (a
  // 29-character passphrase arrived short, and every later check failed
  // for it): a text field that does not come to hold what was typed is
  // emptied and typed once more, and a field still short fails the "key
  // presses arrived" check at the end.
  const retyped = [], lost = [];
  const typeKeys = async (s) => {
    const el = document.activeElement;
    const field = el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA") ? el : null;
    const before = field ? field.value : "";
    await window.go.app.SelfTest.TypeText(s);
    if (!field || await until(() => field.value === before + s, 2000)) return;
    retyped.push(name(field) + " (" + field.value.length + " of " + (before + s).length + ")");
    if (before !== "" || document.activeElement !== field) {
      lost.push(name(field));
      return;
    }
    await keys("ctrl+a BackSpace");
    await window.go.app.SelfTest.TypeText(s);
    if (!(await until(() => field.value === s, 2000))) lost.push(name(field));
  };
  const name = (e) => (e && (e.dataset?.key || e.id || e.textContent?.trim().slice(0, 20) || e.tagName)) || "none";
  const focused = () => name(document.activeElement);
  const ring = (e) => {
    const cs = getComputedStyle(e);
    return (cs.outlineStyle !== "none" && parseFloat(cs.outlineWidth) > 0) || cs.boxShadow !== "none";
  };
  const noRing = new Set(), reached = new Set();
  // tabTo presses Tab (or Shift+Tab) until pred holds for the focused
  // element, noting every control reached that shows no focus ring.
  const tabTo = async (pred, back = false, n = 60) => {
    for (let i = 0; i < n; i++) {
      const a = document.activeElement;
      if (a && a !== document.body && pred(a)) return true;
      await keys(back ? "shift+Tab" : "Tab");
      await sleep(30);
      const b = document.activeElement;
      if (b && b !== document.body) {
        reached.add(name(b));
        if (!ring(b)) noRing.add(name(b));
      }
    }
    return pred(document.activeElement);
  };
  const id = (i) => (e) => e && e.id === i;
  const tab = (v) => $('.nav-item[data-view="' + v + '"]');
  const openTab = async (v) => {
    const ok = await tabTo((e) => e === tab(v), true) || await tabTo((e) => e === tab(v));
    await keys("Return");
    return ok && await until(() => shown($('[data-panel="' + v + '"]')));
  };
  try {
    check("keys only: first run offers the set-up form", await until(() => shown($("#setup-form")), 10000), $("#vault-card")?.dataset.vaultState);
    check("keys only: Tab reaches the passphrase field", await tabTo(id("setup-pass")), focused());
    await typeKeys(exp.pass);
    check("keys only: the meter rates what is typed", await until(() => ["ok", "good"].includes($("#setup-strength").dataset.tone)), $("#setup-strength").dataset.tone + ": " + text("#setup-strength-text"));
    check("keys only: Tab reaches the confirmation", await tabTo(id("setup-confirm")), focused());
    await typeKeys(exp.pass);
    await keys("Return");
    check("keys only: Enter sets the vault up and unlocks it, focus on Lock now",
      await until(() => $("#vault-card").dataset.vaultState === "unlocked" && shown($("#lock-now")) && document.activeElement?.id === "lock-now", 20000),
      text("#vault-title") + " " + text("#setup-error") + " focus " + focused());

    check("keys only: Shift+Tab and Enter open Profiles", await openTab("profiles"), focused());
    check("keys only: Tab reaches New profile", await tabTo(id("new-profile")), focused());
    await keys("Return");
    check("keys only: Enter opens the name field", await until(() => document.activeElement?.id === "profile-label"), focused());
    await typeKeys(exp.label);
    await keys("Return");
    const row = (label) => [...document.querySelectorAll("#profiles .profile")].find((li) => li.querySelector(".profile-open strong")?.textContent === label);
    check("keys only: Enter creates the profile", await until(() => row(exp.label) && !shown($("#profile-form"))), text("#profiles"));
    check("keys only: Tab reaches the profile", await tabTo((e) => e === row(exp.label)?.querySelector(".profile-open")), focused());
    await keys("Return");
    const ed = () => $("#profile-editor");
    check("keys only: Enter opens the editor", await until(() => shown(ed()) && text("#editor-title") === exp.label), focused());
    check("keys only: Tab reaches the detail picker", await tabTo(id("add-concept")), focused());
    // Type-ahead picks an option of a closed select; arrows as a fallback.
    await typeKeys(exp.cityLabel.split(" ")[0]);
    for (let i = 0; i < 80 && $("#add-concept").value !== exp.cityIRI; i++) await keys("Down");
    check("keys only: the keyboard picks " + exp.cityLabel, $("#add-concept").value === exp.cityIRI, $("#add-concept").value);
    check("keys only: Tab reaches the value", await tabTo(id("add-value")), focused());
    await typeKeys(exp.city);
    await keys("Return");
    const cityInput = () => ed()?.querySelector('.concept[data-concept="' + CSS.escape(exp.cityIRI) + '"] .value input');
    check("keys only: Enter adds the city", await until(() => cityInput()?.value === exp.city), cityInput()?.value);
    check("keys only: Shift+Tab reaches the city", await tabTo((e) => e === cityInput(), true), focused());
    await keys("End " + "BackSpace ".repeat(exp.city.length));
    await typeKeys(exp.cityNew);
    await keys("Return");
    check("keys only: Enter saves the edited city", await until(() => cityInput()?.value === exp.cityNew && /just now/.test(cityInput().closest(".concept").textContent)), cityInput()?.value);
    check("keys only: Tab reaches Back to profiles", await tabTo((e) => e.dataset?.key === "back", true), focused());
    await keys("Return");
    check("keys only: Enter goes back to the list", await until(() => shown($("#profiles")) && !shown(ed())), "");

    const files = await window.go.app.SelfTest.WriteImportFile();
    check("keys only: Tab reaches Import…", await tabTo(id("import-open"), true) || await tabTo(id("import-open")), focused());
    await keys("Return");
    check("keys only: Enter opens the import panel, focus in the file field", await until(() => document.activeElement?.id === "import-path"), focused());
    await typeKeys(files.vcf);
    await keys("Return");
    check("keys only: Enter previews both contacts", await until(() => shown($("#import-preview")) && text("#import-preview").includes(exp.first) && text("#import-preview").includes(exp.second), 10000), text("#import-summary") + " " + text("#import-error"));
    check("keys only: Tab reaches Import", await tabTo(id("import-apply")), focused());
    await keys("Return");
    check("keys only: Enter imports both as new profiles",
      await until(() => /Imported 2 profiles \(2 new\)/.test(text("#import-done")) && row(exp.first) && row(exp.second), 10000),
      text("#import-done") + " / " + text("#import-apply-error"));
    await keys("Escape");
    check("keys only: Escape closes the panel", await until(() => !shown($("#import-panel"))), "");

    check("keys only: the keyboard opens Status", await openTab("status"), focused());
    check("keys only: Tab reaches Lock now", await tabTo(id("lock-now")), focused());
    await keys("Return");
    check("keys only: Enter locks, focus in the passphrase field", await until(() => shown($("#unlock-form")) && document.activeElement?.id === "unlock-pass"), focused());
    await typeKeys(exp.pass);
    await keys("Return");
    check("keys only: the passphrase typed and Enter unlock", await until(() => shown($("#lock-now")), 20000), text("#vault-title") + " " + text("#unlock-error"));
    check("keys only: the keyboard opens Activity", await openTab("activity"), focused());
    check("keys only: Activity lists the import of both contacts",
      await until(() => [...document.querySelectorAll("#activity-list .act")].some((li) => /Imported [0-9]+ details? into Charles Babbage/.test(li.textContent)) &&
        [...document.querySelectorAll("#activity-list .act")].some((li) => /Imported [0-9]+ details? into Ada Lovelace/.test(li.textContent)), 10000),
      text("#activity-list").slice(0, 300));

    // Change passphrase, in Settings, with the keys: a wrong current one
    // first, then the right one; the progress is watched as it goes.
    check("keys only: the keyboard opens Settings", await openTab("settings"), focused());
    check("keys only: Tab reaches the current passphrase", await tabTo(id("passwd-current")), focused());
    await typeKeys(exp.pass + " typo");
    check("keys only: Tab reaches the new passphrase", await tabTo(id("passwd-new")), focused());
    await typeKeys(exp.newPass);
    check("keys only: the new passphrase is rated by the first run's meter",
      await until(() => ["ok", "good"].includes($("#passwd-strength").dataset.tone) && text("#passwd-strength-text") !== ""), text("#passwd-strength-text"));
    check("keys only: Tab reaches the confirmation of the new passphrase", await tabTo(id("passwd-confirm")), focused());
    await typeKeys(exp.newPass);
    await keys("Return");
    check("passphrase: a wrong current passphrase is refused, saying what to do, focus back on it",
      await until(() => shown($("#passwd-error")) && /current passphrase is wrong, so nothing changed/.test(text("#passwd-error")) && document.activeElement?.id === "passwd-current" && $("#passwd-current").getAttribute("aria-invalid") === "true", 20000),
      text("#passwd-error") + " focus " + focused());
    await window.go.app.SelfTest.SetWindowSize(exp.shot[0], exp.shot[1]);
    await until(() => Math.abs(innerWidth - exp.shot[0]) < 40, 5000);
    $("#passwd-card").scrollIntoView({ block: "center" });
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 200))));
    await window.go.app.SelfTest.Screenshot("passphrase");
    const seen = [];
    const watch = setInterval(() => {
      const b = $("#passwd-bar");
      if (shown($("#passwd-progress"))) seen.push(text("#passwd-phase") + "|" + (b.hasAttribute("value") ? b.value + "/" + b.max : "-"));
    }, 5);
    await keys("ctrl+a BackSpace");
    await typeKeys(exp.pass);
    await keys("Return");
    check("passphrase: the right one changes it, the fields emptied, focus on the card's title",
      await until(() => /Passphrase changed/.test(text("#passwd-done")) && !shown($("#passwd-error")) && $("#passwd-new").value === "" && document.activeElement?.id === "passwd-title", 30000),
      text("#passwd-done") + " " + text("#passwd-error") + " focus " + focused());
    clearInterval(watch);
    check("passphrase: progress is shown while it runs, its phases in words, then hidden",
      seen.some((x) => x.startsWith("Checking your current passphrase")) && seen.some((x) => x.startsWith("Sealing the new passphrase")) && !shown($("#passwd-progress")), [...new Set(seen)].join(", "));
    check("keys only: the keyboard opens Status", await openTab("status"), focused());
    check("keys only: Tab reaches Lock now", await tabTo(id("lock-now")), focused());
    await keys("Return");
    await until(() => document.activeElement?.id === "unlock-pass");
    await typeKeys(exp.pass);
    await keys("Return");
    check("passphrase: the old one no longer unlocks", await until(() => /wrong passphrase/i.test(text("#unlock-error")), 20000), text("#unlock-error"));
    await keys("ctrl+a BackSpace");
    await typeKeys(exp.newPass);
    await keys("Return");
    check("passphrase: the new one unlocks", await until(() => shown($("#lock-now")) && $("#vault-card").dataset.vaultState === "unlocked", 20000), text("#vault-title") + " " + text("#unlock-error"));
    check("keys only: the key presses typed arrived (a field typed again at most once)", lost.length === 0,
      "lost in: " + lost.join(", ") + "; typed again: " + retyped.join(", "));
    check("keys only: every control Tab reached shows a focus ring", reached.size > 10 && noRing.size === 0, "without: " + [...noRing].join(", ") + " / reached " + reached.size);
    check("no error banner at the end", $("#banner").hidden, text("#banner"));
  } catch (e) {
    check("script ran to the end", false, String((e && e.message) || e) + " " + ((e && e.stack) || ""));
  }
  await window.go.app.SelfTest.Report({ ok: false, checks, status: {} });
})();