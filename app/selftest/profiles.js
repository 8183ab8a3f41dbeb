async ({ exp, check, $, text, sleep, until, shown, type, open, focused, resize }) => {
  const P = exp.profiles;
  const ed = () => $("#profile-editor");
  const key = (k) => ed().querySelector('[data-key="' + CSS.escape(k) + '"]');
  const concept = (iri) => ed().querySelector('.concept[data-concept="' + CSS.escape(iri) + '"]');
  const firstInput = (iri) => concept(iri)?.querySelector(".value input, .value textarea");
  const row = (label) => [...document.querySelectorAll("#profiles .profile")].find((li) => li.querySelector(".profile-open strong")?.textContent === label);
  const pick = (iri) => {
    const s = $("#add-concept");
    s.value = iri;
    s.dispatchEvent(new Event("change"));
  };
  const add = (iri, value) => {
    pick(iri);
    type("#add-value", value);
    $("#add-value").closest("form").requestSubmit();
  };
  const painted = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 150))));

  open("profiles");
  $("#new-profile").click();
  type("#profile-label", P.label);
  $("#profile-submit").click();
  check("editor: a second profile is created through the window", await until(() => row(P.label)), text("#profiles"));
  check("editor: each profile row offers open, rename, duplicate and delete",
    row(P.label).querySelectorAll(".profile-open, .profile-actions button").length === 4, row(P.label)?.textContent);
  row(P.label).querySelector(".profile-open").click();
  check("editor: opening a profile shows its editor alone, focus on its name",
    await until(() => shown(ed()) && text("#editor-title") === P.label && focused() === "editor-title" && !shown($("#profiles")) && !shown($("#new-profile"))),
    text("#profile-editor") + " focus " + focused());
  check("editor: an empty profile says how to start", /no details yet/i.test(text("#profile-editor")), text("#profile-editor"));
  const id = ed().dataset.profileId;

  add(P.emailIRI, P.email);
  check("editor: an added email shows under Contact, typed in Tessera, never used",
    await until(() => firstInput(P.emailIRI)?.value === P.email && concept(P.emailIRI).closest('[data-group="contact"]') && /typed in Tessera/i.test(concept(P.emailIRI).textContent) && /never used/.test(concept(P.emailIRI).textContent)),
    concept(P.emailIRI)?.textContent);
  pick(P.phoneIRI);
  check("editor: a phone is asked for in a telephone input", $("#add-value").type === "tel", $("#add-value").type);
  add(P.phoneIRI, P.badPhone);
  check("editor: a wrong phone number is refused beside the form, the field marked",
    await until(() => shown($("#add-error")) && /phone/i.test(text("#add-error")) && $("#add-value").getAttribute("aria-invalid") === "true") && !concept(P.phoneIRI),
    text("#add-error"));
  check("editor: the refusal does not repeat the value", !text("#add-error").includes(P.badPhone), text("#add-error"));
  add(P.phoneIRI, P.phone);
  check("editor: a phone number is kept and shown as its country writes it",
    await until(() => firstInput(P.phoneIRI)?.value === P.phoneShown && !shown($("#add-error"))), firstInput(P.phoneIRI)?.value);
  pick(P.bdayIRI);
  check("editor: a date is asked for with a date picker", $("#add-value").type === "date", $("#add-value").type);
  add(P.emailIRI, P.email2);
  check("editor: a second email is listed beside the preferred one",
    await until(() => concept(P.emailIRI)?.querySelectorAll(".value").length === 2 && concept(P.emailIRI).querySelector(".preferred") && concept(P.emailIRI).textContent.includes(P.email2)),
    concept(P.emailIRI)?.textContent);
  key("promote:" + P.emailIRI + "#1").click();
  check("editor: make preferred puts the second email first",
    await until(() => firstInput(P.emailIRI)?.value === P.email2 && concept(P.emailIRI).querySelectorAll(".value")[1].textContent.includes(P.email)),
    concept(P.emailIRI)?.textContent);

  // The rest of a person's details, so that the editor shows every group.
  for (const [iri, v] of P.more) add(iri, v), await until(() => firstInput(iri) || concept(iri));
  check("editor: a birth date is kept from the date picker, under Dates",
    await until(() => firstInput(P.bdayIRI)?.type === "date" && firstInput(P.bdayIRI).value === P.bday && concept(P.bdayIRI).closest('[data-group="dates"]')),
    firstInput(P.bdayIRI)?.value);
  check("editor: once the profile has a country, its phone is shown as that country writes it",
    await until(() => firstInput(P.phoneIRI)?.value === P.phoneNational), firstInput(P.phoneIRI)?.value);
  check("editor: the groups come in order", [...ed().querySelectorAll(".group[data-group]")].map((g) => g.dataset.group).join(",") === "name,contact,address,dates,fields",
    [...ed().querySelectorAll(".group[data-group]")].map((g) => g.dataset.group).join(","));

  key("rename:" + id).click();
  check("editor: Rename opens a labelled field with focus", await until(() => focused() === "rename-" + id && $('label[for="rename-' + id + '"]')), focused());
  type("#rename-" + id, P.renamed);
  $("#rename-" + id).closest("form").requestSubmit();
  check("editor: the profile takes its new name", await until(() => text("#editor-title") === P.renamed && !$("#rename-" + id)), text("#editor-title"));

  if (exp.dialog.realKeys) {
    // Real key presses on the X display (xdotool), as a keyboard sends them.
    const keys = (k) => window.go.app.SelfTest.PressKeys(k);
    const ring = (e) => {
      const cs = getComputedStyle(e);
      return (cs.outlineStyle !== "none" && parseFloat(cs.outlineWidth) > 0) || cs.boxShadow !== "none";
    };
    const name = (e) => (e && (e.dataset.key || e.id || e.tagName)) || "none";
    $("#editor-title").focus();
    const seen = [], rings = [];
    for (let i = 0; i < 40 && document.activeElement?.id !== "add-concept"; i++) {
      await keys("Tab");
      await sleep(30);
      const a = document.activeElement;
      seen.push(name(a));
      if (!ring(a)) rings.push(name(a));
    }
    check("editor, real keys: Tab walks the editor to the Add form", document.activeElement?.id === "add-concept" && seen.some((k) => k.startsWith("input:")), seen.join(" "));
    check("editor, real keys: every control Tab reaches shows a focus ring", rings.length === 0, rings.join(" "));
    const last = () => firstInput(P.lastIRI);
    last().focus();
    await keys("End BackSpace BackSpace BackSpace");
    check("editor, real keys: a changed value offers Save", await until(() => last().value === "Lovel" && shown(key("save:" + P.lastIRI + "#0"))), last().value);
    await keys("Escape");
    check("editor, real keys: Escape puts the value back", await until(() => last().value === "Lovelace" && !shown(key("save:" + P.lastIRI + "#0"))), last().value);
    await keys("BackSpace BackSpace BackSpace BackSpace BackSpace a c e Return");
    check("editor, real keys: Enter saves the value, focus stays on it",
      await until(() => last()?.value === "Lovace" && document.activeElement === last() && /just now/.test(concept(P.lastIRI).textContent)), last()?.value);
    last().focus();
    await keys("End BackSpace BackSpace BackSpace BackSpace BackSpace BackSpace L o v e l a c e Return");
    await until(() => last()?.value === "Lovelace" && document.activeElement === last());
  }

  for (const [w, h] of [[800, 600], [400, 300]]) {
    const ok = await resize(w, h, 39, 59);
    await painted();
    const wide = document.documentElement.scrollWidth;
    check("editor: at " + w + "x" + h + " nothing is wider than the window", ok && wide <= innerWidth + 1, wide + " in " + innerWidth + "x" + innerHeight);
    const narrow = getComputedStyle($(".sidebar")).flexDirection === "row";
    check("editor: at " + w + "x" + h + " the sections are " + (w < 700 ? "a tab bar" : "a sidebar"), narrow === (w < 700), getComputedStyle($(".sidebar")).flexDirection);
  }
  await resize(P.shot[0], P.shot[1], 39, 59);
  $("main").scrollTop = 0;
  document.scrollingElement.scrollTop = 0;
  key("back").focus();
  await painted();
  await window.go.app.SelfTest.Screenshot("profiles");

  key("back").click();
  check("editor: back to the list, the row shows the new name and 8 details",
    await until(() => shown($("#profiles")) && row(P.renamed) && /8 details/.test(row(P.renamed).textContent)), text("#profiles"));
  row(P.renamed).querySelector('[data-key^="dup:"]').click();
  const copy = P.renamed + " (copy)";
  check("editor: Duplicate adds a copy with the same details", await until(() => row(copy) && /8 details/.test(row(copy).textContent)), text("#profiles"));
  const ask = $("#ask-delete");
  row(copy).querySelector('[data-key^="del:"]').click();
  check("editor: Delete asks first, naming the profile, focus on Keep it",
    await until(() => ask.open && text("#ask-delete-title").includes(copy) && focused() === "ask-delete-cancel"), text("#ask-delete") + " focus " + focused());
  $("#ask-delete-cancel").click();
  check("editor: Keep it keeps the profile, focus back on its Delete",
    await until(() => !ask.open && row(copy) && document.activeElement === row(copy).querySelector('[data-key^="del:"]')), focused());
  row(copy).querySelector('[data-key^="del:"]').click();
  await until(() => ask.open);
  $("#ask-delete-ok").click();
  check("editor: Delete profile deletes it", await until(() => !ask.open && !row(copy) && row(P.renamed)), text("#profiles"));

  type("#profile-search", "analytical");
  const rows = () => [...document.querySelectorAll("#profiles .profile")];
  check("editor: searching every profile finds the one holding the value, and says what matched",
    await until(() => rows().length === 1 && row(P.renamed) && /Email: ada@analytical/.test(row(P.renamed).querySelector(".hit-matches")?.textContent) && /1 profile matches/.test(text("#profile-search-count"))),
    text("#profiles") + " / " + text("#profile-search-count"));
  type("#profile-search", "");
  check("editor: an empty search lists every profile again", await until(() => rows().length === 2 && !$(".hit-matches")), text("#profiles"));

  // Activity: a fill confirmation through the app's real queue, approved here.
  const dlg = () => $("#confirm");
  await window.go.app.SelfTest.AskActivityFill(P.renamed);
  check("activity: the fill for the new profile opens in the dialog", await until(() => dlg()?.open && dlg().dataset.kind === "fill"), "");
  await until(() => !$("#cf-approve").disabled, 5000);
  $("#cf-approve").click();
  check("activity: approving closes the dialog", await until(() => !dlg()?.open), "");
  open("activity");
  const acts = () => [...document.querySelectorAll("#activity-list .act")];
  const release = () => acts().find((li) => li.dataset.event === "release" && li.dataset.site === P.site);
  const report = () => acts().find((li) => li.dataset.event === "report" && li.dataset.site === P.site);
  check("activity: the approved fill is listed, in words, with its fields, profile and browser",
    await until(() => release() && release().textContent.includes("Filled 2 details on " + P.site + " from " + P.renamed) &&
      /Email/.test(release().textContent) && /Phone/.test(release().textContent) && /approved/.test(release().textContent) && /Chromium/.test(release().textContent) && /main page/.test(release().textContent), 10000),
    text("#activity-list"));
  check("activity: what the page accepted is listed above it, newest first",
    await until(() => report() && /accepted 2 of 2/.test(report().textContent) && acts()[0] === report() && acts()[1] === release()), acts()[0]?.textContent);
  check("activity: the other events are there too",
    acts().some((li) => li.dataset.event === "decline" && /timed out/.test(li.textContent)) && acts().some((li) => li.dataset.event === "proposal"), text("#activity-list"));
  check("activity: no value is shown", ![P.email, P.email2, "7946", "Lovelace", "London"].some((v) => text("#view-activity").includes(v)), "");
  const site = $("#activity-site");
  site.value = P.site;
  site.dispatchEvent(new Event("change"));
  check("activity: filtering by site keeps that site's entries only",
    await until(() => acts().length > 0 && acts().every((li) => li.dataset.site === P.site) && / of /.test(text("#activity-count")) && shown($("#activity-clear"))),
    text("#activity-count") + " " + acts().map((li) => li.dataset.site).join(","));
  site.value = "";
  site.dispatchEvent(new Event("change"));
  type("#activity-search", "timed out");
  check("activity: searching finds the declined fill only",
    await until(() => acts().length === 1 && acts()[0].dataset.event === "decline"), acts().map((li) => li.dataset.event).join(","));
  $("#activity-clear").click();
  check("activity: Show all clears the search and the filters",
    await until(() => acts().length >= 3 && $("#activity-search").value === "" && !shown($("#activity-clear")) && focused() === "activity-search"), text("#activity-count"));
  for (const [w, h] of [[800, 600], [400, 300]]) {
    const ok = await resize(w, h, 39, 59);
    await painted();
    const wide = document.documentElement.scrollWidth;
    check("activity: at " + w + "x" + h + " nothing is wider than the window", ok && wide <= innerWidth + 1 && shown($("#activity-search")), wide + " in " + innerWidth + "x" + innerHeight);
  }
  await resize(P.shot[0], P.shot[1], 39, 59);
  $("main").scrollTop = 0;
  document.scrollingElement.scrollTop = 0;
  await painted();
  await window.go.app.SelfTest.Screenshot("activity");
  open("status");
}