async ({ exp, check, $, text, sleep, until, shown, open, focused, resize }) => {
  const S = exp.settings;
  const painted = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 150))));
  const site = (origin) => [...document.querySelectorAll("#sites .site")].find((li) => li.dataset.origin === origin);
  const forgetOf = (origin) => site(origin)?.querySelector("button");

  open("settings");
  check("settings: no site fills without asking yet, and the section says how one gets there",
    await until(() => shown($("#sites-empty")) && /Remember for this site/.test(text("#sites-empty")) && $("#sites").childElementCount === 0 && !shown($("#sites-locked"))),
    text("#sites-empty") + " / " + text("#sites-locked"));
  const browsers = () => [...document.querySelectorAll("#browsers .browser")];
  check("settings: every browser Tessera knows is listed with its registration as Go reads it",
    await until(() => browsers().length === Object.keys(S.hosts).length && browsers().every((li) => S.hosts[li.dataset.browser] === li.dataset.host)),
    browsers().map((li) => li.dataset.browser + "=" + li.dataset.host).join(" ") + " want " + JSON.stringify(S.hosts) + " " + S.browsersError + " " + S.problem);
  check("settings: a browser not registered offers Register, a registered one does not",
    browsers().every((li) => !!li.querySelector('button[data-key^="register:"]') === (li.dataset.host !== "registered")),
    browsers().map((li) => li.dataset.browser + ":" + !!li.querySelector("button")).join(" "));
  check("settings: the browser connected now is listed, not verified",
    await until(() => [...document.querySelectorAll("#settings-clients .client")].some((li) => li.textContent.includes(exp.client.name) && /not verified/.test(li.textContent))) && !shown($("#settings-clients-empty")),
    text("#settings-clients"));
  const facts = text("#vault-facts");
  check("settings: the vault's location, state and what opens it",
    facts.includes(S.dir) && S.dir !== "" && /Unlocked/.test(facts) && /passphrase/i.test(facts), facts + " / " + S.vaultError);
  const lockSel = $("#autolock-select");
  check("settings: the auto-lock time as a choice, and the screen lock with its switch",
    !!lockSel && lockSel.value === String(S.autoLock) && lockSel.options.length >= 5 && facts.includes("TESSERA_LOCK_ON_SESSION=off") &&
      $("#" + lockSel.getAttribute("aria-labelledby"))?.textContent === "Locks by itself", (lockSel && lockSel.value) + " " + facts);
  lockSel.focus();
  lockSel.value = String(S.autoLockNew);
  lockSel.dispatchEvent(new Event("change", { bubbles: true }));
  check("settings: a new auto-lock time is saved and said so, the picker keeps the focus",
    await until(() => /Saved: the vault locks itself after 5 minutes/.test(text("#autolock-status")) && $("#autolock-select").value === String(S.autoLockNew) && focused() === "autolock-select"),
    text("#autolock-status") + " / " + focused());
  open("status");
  check("status: the card says when the vault locks itself", await until(() => /after 5 minutes without use/.test(text("#autolock-hint"))), text("#autolock-hint"));
  open("settings");

  // Paired and trusted browsers: Unpair, Trust, Remove through the cards.
  const exe = await window.go.app.SelfTest.SeedSecurity();
  const paired = () => [...document.querySelectorAll("#paired-browsers li.site")];
  const refusedLi = () => [...document.querySelectorAll("#refused-browsers li.site")].find((li) => li.textContent.includes(exe));
  const trustedLi = () => [...document.querySelectorAll("#trusted-browsers li.site")].find((li) => li.textContent.includes(exe));
  check("settings: the paired browser is listed with its browser and executable",
    await until(() => paired().length === 1 && paired()[0].textContent.includes("chromium") && paired()[0].textContent.includes("/usr/lib/chromium/chromium")),
    text("#paired-browsers"));
  check("settings: the browser refused lately is listed with its path and why, with Trust",
    await until(() => !!refusedLi() && /not a known browser/.test(refusedLi().textContent) && refusedLi().querySelector("button")?.textContent === "Trust"),
    text("#refused-browsers"));
  paired()[0].querySelector("button").click();
  check("settings: Unpair forgets the install",
    await until(() => paired().length === 0) && (await window.go.app.SelfTest.SecurityState()).paired === 0, text("#paired-browsers"));
  refusedLi().querySelector("button").click();
  check("settings: Trust approves the browser by its path and hash",
    await until(() => !!trustedLi() && !refusedLi()) && (await window.go.app.SelfTest.SecurityState()).trusted === 1, text("#trusted-browsers"));
  trustedLi().querySelector("button").click();
  check("settings: Remove withdraws the approval",
    await until(() => !trustedLi()) && (await window.go.app.SelfTest.SecurityState()).trusted === 0, text("#trusted-browsers"));

  await window.go.app.SelfTest.RememberSites(S.profile);
  open("status");
  open("settings");
  check("settings: the sites remembered are listed, the one used last first, in words",
    await until(() => site(S.forget.origin) && site(S.keep.origin) && $("#sites .site") === site(S.forget.origin) && !shown($("#sites-empty"))),
    text("#sites"));
  const row = site(S.forget.origin);
  const kinds = [...row.querySelectorAll(".site-kinds li")].map((li) => li.textContent);
  check("settings: a site shows its name large, its origin, the profile, the kinds of value and its times",
    text("#sites .site .site-name") === S.forget.site && parseFloat(getComputedStyle(row.querySelector(".site-name")).fontSize) >= 17 &&
      row.textContent.includes(S.forget.origin) && row.textContent.includes(S.profile) && kinds.join("|") === S.kinds.join("|") &&
      /remembered 2 hours ago/.test(row.textContent) && /last filled 5 minutes ago/.test(row.textContent) && /not used since/.test(site(S.keep.origin).textContent),
    row.textContent + " / " + kinds.join("|"));
  check("settings: Forget names the site for a screen reader", /Forget https:\/\/checkout\.shop\.example/.test(forgetOf(S.forget.origin).getAttribute("aria-label")), forgetOf(S.forget.origin).getAttribute("aria-label"));

  // Forget with the keyboard: Tab from the section's heading, Enter.
  $("#sites-title").focus();
  if (exp.dialog.realKeys) {
    const keys = (k) => window.go.app.SelfTest.PressKeys(k);
    for (let i = 0; i < 10 && document.activeElement !== forgetOf(S.forget.origin); i++) {
      await keys("Tab");
      await sleep(40);
    }
    const b = forgetOf(S.forget.origin);
    const cs = b && getComputedStyle(b);
    check("settings, real keys: Tab reaches the site's Forget, with a focus ring", document.activeElement === b && cs.outlineStyle !== "none" && parseFloat(cs.outlineWidth) >= 2, focused() + " " + (cs && cs.outlineStyle));
    await keys("Return");
  } else {
    forgetOf(S.forget.origin).focus();
    forgetOf(S.forget.origin).click();
  }
  check("settings: Forget removes the row and says the next fill will ask",
    await until(() => !site(S.forget.origin) && site(S.keep.origin) && text("#sites-status").includes(S.forget.site) && /next fill asks you first/.test(text("#sites-status"))),
    text("#sites") + " / " + text("#sites-status"));
  check("settings: focus moves to the next site's Forget", document.activeElement === forgetOf(S.keep.origin), focused());
  check("settings: no error shown", !shown($("#settings-error")), text("#settings-error"));
  if (exp.dialog.realKeys) {
    // Every Register is reached with Tab, each showing its focus ring.
    const keys = (k) => window.go.app.SelfTest.PressKeys(k);
    const want = [...document.querySelectorAll('#browsers button[data-key^="register:"]')];
    const seen = [], rings = [];
    for (let i = 0; i < 20 && seen.length < want.length; i++) {
      await keys("Tab");
      await sleep(40);
      const a = document.activeElement;
      if (!want.includes(a)) continue;
      seen.push(a.dataset.key);
      const cs = getComputedStyle(a);
      if (cs.outlineStyle === "none" || parseFloat(cs.outlineWidth) < 2) rings.push(a.dataset.key);
    }
    check("settings, real keys: Tab reaches every Register, each with a focus ring", seen.length === want.length && rings.length === 0, seen.join(" ") + " / no ring: " + rings.join(" "));
  }

  for (const [w, h] of [[800, 600], [400, 300]]) {
    const ok = await resize(w, h, 39, 59);
    await painted();
    const wide = document.documentElement.scrollWidth;
    const b = forgetOf(S.keep.origin);
    check("settings: at " + w + "x" + h + " nothing is wider than the window, Forget within it",
      ok && wide <= innerWidth + 1 && b.getBoundingClientRect().right <= innerWidth + 1, wide + " in " + innerWidth + "x" + innerHeight);
    if (w === 400) {
      $("#sites-title").scrollIntoView();
      b.focus();
      await painted();
      await window.go.app.SelfTest.Screenshot("settings-zoom");
    }
  }
  await resize(S.shot[0], S.shot[1], 39, 59);
  $("main").scrollTop = 0;
  document.scrollingElement.scrollTop = 0;
  forgetOf(S.keep.origin).focus();
  await painted();
  await window.go.app.SelfTest.Screenshot("settings");
  $("#vault-settings-title").scrollIntoView();
  await painted();
  await window.go.app.SelfTest.Screenshot("settings-vault");
  open("status");
}