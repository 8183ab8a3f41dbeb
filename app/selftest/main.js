(async () => {
  const exp = %s;
/* prelude */
  try {
    check("status screen shows the vault state",
      await until(() => $("#vault-card").dataset.vaultState === exp.status.vault && text("#vault-title") !== "" && text("#vault-title") !== "Checking…" && text("#vault-text") !== ""),
      $("#vault-card")?.dataset.vaultState + ": " + text("#vault-title"));
    check("status screen shows the version and the build", await until(() => text("#version") === (exp.status.build ? exp.status.version + " (" + exp.status.build + ")" : exp.status.version)), text("#version"));
    check("status screen shows the browser channel", !exp.status.socket || text("#socket") === exp.status.socket, text("#socket"));
    check("no browser listed before one connects", $("#clients").childElementCount === 0 && shown($("#clients-empty")), text("#clients"));
    check("no error banner", $("#banner").hidden, text("#banner"));
    for (const v of ["profiles", "activity", "settings", "status"]) {
      $('.nav-item[data-view="' + v + '"]').click();
      const ok = await until(() => shown($('[data-panel="' + v + '"]')) &&
        [...document.querySelectorAll(".view")].filter(shown).length === 1 &&
        $('.nav-item[data-view="' + v + '"]').getAttribute("aria-selected") === "true");
      check("section " + v + " opens alone", ok, text('[data-panel="' + v + '"] h1'));
      if (v === "activity") check("activity says why there is nothing to read before there is a vault", await until(() => shown($("#activity-locked")) && text("#activity-locked").length > 40 && !shown($("#activity-tools"))), text("#activity-locked"));
      if (v === "settings") check("settings say there are no sites to list before there is a vault", await until(() => shown($("#sites-locked")) && /no vault yet/.test(text("#sites-locked")) && !shown($("#sites-empty"))), text("#sites-locked"));
      // The vault card fills in once Go answers its first view() call.
      if (v === "profiles") check("profiles say what to do before there is a vault", await until(() => shown($("#profiles-locked")) && text("#profiles-locked").length > 40 && $("#profiles").childElementCount === 0 && !shown($("#new-profile"))), text("#profiles-locked"));
    }
    await window.go.app.SelfTest.ConnectBrowser();
    // The stand-in is not Tessera's host started by a browser, so the app
    // does not believe the extension origin it names.
    check("a connecting browser appears live with its name, not verified, its claimed origin not shown as its own",
      await until(() => [...document.querySelectorAll("#clients .client")].some((li) => li.textContent.includes(exp.client.name) && /not verified/.test(li.textContent) && li.querySelector(".cf-badge.warn").title !== "" && !li.textContent.includes(exp.client.origin) && li.querySelector("time").textContent.startsWith("since"))),
      text("#clients"));
    check("the empty-list note is gone", !shown($("#clients-empty")), text("#clients-empty"));

    // The vault, as a person sets it up: typing and clicking only.
    const pass = exp.vault.passphrase, label = exp.vault.profile;
    const state = () => $("#vault-card").dataset.vaultState + ": " + text("#vault-title");
    const open = (v) => $('.nav-item[data-view="' + v + '"]').click();
    const type = (s, value) => {
      const i = $(s);
      i.focus();
      i.value = value;
      i.dispatchEvent(new Event("input", { bubbles: true }));
    };
    const focused = () => document.activeElement?.id || document.activeElement?.tagName;
    check("a new vault offers the set-up form",
      await until(() => shown($("#setup-form")) && !shown($("#unlock-form")) && !shown($("#lock-now")) && $('label[for="setup-pass"]') && $('label[for="setup-confirm"]')),
      state());
    // The strength meter: Go rates what is typed with the rule that
    // setting up applies.
    type("#setup-pass", "password1");
    check("first run: the meter calls a common password too weak and says why",
      await until(() => $("#setup-strength").dataset.tone === "bad" && /common words/.test(text("#setup-strength-text"))),
      $("#setup-strength").dataset.tone + ": " + text("#setup-strength-text"));
    $("#setup-suggest").click();
    check("first run: Suggest shows a six-word recovery passphrase once, in the field too, and rated acceptable",
      await until(() => shown($("#setup-suggested")) && text("#setup-suggested-words").split(" ").length === 6 &&
        $("#setup-pass").value === text("#setup-suggested-words") && ["ok", "good"].includes($("#setup-strength").dataset.tone) && focused() === "setup-suggested-words"),
      text("#setup-suggested-words") + " / " + text("#setup-strength-text") + " / " + focused());
    await window.go.app.SelfTest.SetWindowSize(exp.profiles.shot[0], exp.profiles.shot[1]);
    await until(() => Math.abs(innerWidth - exp.profiles.shot[0]) < 40, 5000);
    $("#setup-confirm").focus();
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 200))));
    await window.go.app.SelfTest.Screenshot("first-run");
    type("#setup-pass", pass);
    check("first run: typing a passphrase of one's own hides the suggestion", !shown($("#setup-suggested")) && text("#setup-suggested-words") === "", text("#setup-suggested-words"));
    type("#setup-confirm", pass + "x");
    $("#setup-submit").click();
    check("a mistyped confirmation shows an inline error",
      await until(() => shown($("#setup-error")) && /match/i.test(text("#setup-error")) && $("#setup-pass").getAttribute("aria-invalid") === "true"),
      text("#setup-error"));
    check("a mistyped confirmation creates no vault", $("#vault-card").dataset.vaultState === "uninitialized" && shown($("#setup-form")), state());
    type("#setup-pass", pass);
    type("#setup-confirm", pass);
    $("#setup-submit").click();
    check("setting up the vault unlocks it",
      await until(() => text("#vault-title") === "Unlocked" && $("#vault-card").dataset.vaultState === "unlocked" && shown($("#lock-now")) && !shown($("#setup-form")) && !shown($("#setup-error")), 20000),
      state() + " " + text("#setup-error"));
    check("focus moves to Lock now", focused() === "lock-now", focused());
    check("no recovery warning when a passphrase is set", !shown($("#recovery-note")), text("#recovery-note"));
    check("the passphrase fields are emptied", $("#setup-pass").value === "" && $("#setup-confirm").value === "", "");

    open("profiles");
    check("an unlocked vault offers New profile",
      await until(() => shown($("#new-profile")) && shown($("#profiles-empty")) && !shown($("#profiles-locked"))),
      text('[data-panel="profiles"]'));
    $("#new-profile").click();
    check("New profile opens a labelled field with focus",
      await until(() => shown($("#profile-form")) && focused() === "profile-label" && $('label[for="profile-label"]')), focused());
    type("#profile-label", label);
    $("#profile-submit").click();
    const listed = () => [...document.querySelectorAll("#profiles .profile")].find((li) => li.querySelector("strong")?.textContent === label);
    check("the new profile is listed with its entry count and time",
      await until(() => listed() && /No details yet/.test(listed().textContent) && listed().querySelector("time")?.textContent.startsWith("updated") && !shown($("#profile-form")) && !shown($("#profiles-empty"))),
      text("#profiles"));

    open("status");
    $("#lock-now").click();
    check("Lock now locks the vault",
      await until(() => text("#vault-title") === "Locked" && $("#vault-card").dataset.vaultState === "locked" && shown($("#unlock-form")) && !shown($("#lock-now"))),
      state());
    check("focus moves to the passphrase field", focused() === "unlock-pass", focused());
    check("no keyring offered when none works", !shown($("#unlock-keyring")), text("#unlock-form"));
    open("profiles");
    check("a locked vault lists no profiles",
      await until(() => $("#profiles").childElementCount === 0 && shown($("#profiles-locked")) && !shown($("#new-profile"))),
      text("#profiles"));
    open("status");

    type("#unlock-pass", pass + " typo");
    $("#unlock-submit").click();
    check("a wrong passphrase shows an inline error",
      await until(() => shown($("#unlock-error")) && /wrong passphrase/i.test(text("#unlock-error")) && $("#unlock-pass").getAttribute("aria-invalid") === "true", 20000),
      text("#unlock-error"));
    check("a wrong passphrase leaves the vault locked", text("#vault-title") === "Locked" && shown($("#unlock-form")), state());
    type("#unlock-pass", pass);
    $("#unlock-submit").click();
    check("the passphrase unlocks the vault",
      await until(() => text("#vault-title") === "Unlocked" && !shown($("#unlock-form")) && !shown($("#unlock-error")) && shown($("#lock-now")), 20000),
      state() + " " + text("#unlock-error"));
    open("profiles");
    check("the profile is listed again after unlocking", await until(() => listed()), text("#profiles"));
    open("status");
    await (%s)({ exp, check, $, text, sleep, until, shown, type, open, focused, resize });
    await (%s)({ exp, check, $, text, sleep, until, shown, open, focused, resize });
    await (%s)({ exp, check, $, text, sleep, until, shown, type, open, focused });
    await (%s)({ check, text, until, open });
    if (exp.dialog.realKeys) await (%s)({ exp, check, $, text, sleep, until });
    await (%s)({ exp, check, $, text, sleep, until, shown, resize });
    check("no error banner at the end", $("#banner").hidden, text("#banner"));
  } catch (e) {
    check("script ran to the end", false, String((e && e.message) || e) + " " + ((e && e.stack) || ""));
  }
  await window.go.app.SelfTest.Report({ ok: false, checks, status: exp.status });
})();