async ({ exp, check, $, text, sleep, until, shown, resize }) => {
  const D = exp.dialog, F = D.fill;
  const dlg = () => $("#confirm");
  const isOpen = (kind) => !!dlg() && dlg().open && dlg().dataset.kind === kind && !dlg().dataset.ended;
  const closed = () => !dlg() || !dlg().open;
  const act = () => document.activeElement;
  const press = (key, opts) => {
    const init = Object.assign({ key, bubbles: true, cancelable: true, composed: true }, opts || {});
    (act() || document.body).dispatchEvent(new KeyboardEvent("keydown", init));
    (act() || document.body).dispatchEvent(new KeyboardEvent("keyup", init));
  };
  const rowLi = (id) => dlg().querySelector('li[data-row-id="' + id + '"]');
  const box = (id) => rowLi(id) && rowLi(id).querySelector("input.cf-check");
  const name = (e) => {
    if (!e) return "none";
    const li = e.closest && e.closest("li[data-row-id]");
    return (e.id && !li ? e.id : (e.className || e.tagName)) + (li ? "@" + li.dataset.rowId : "");
  };
  const tabTo = (pred, shift) => {
    for (let i = 0; i < 80; i++) {
      press("Tab", { shiftKey: !!shift });
      if (pred(act())) return true;
    }
    return false;
  };
  // cycle Tabs once round the dialog from Deny and returns the names seen.
  const cycle = () => {
    tabTo((e) => e && e.id === "cf-deny");
    const seen = [];
    for (let i = 0; i < 80; i++) {
      press("Tab");
      seen.push(act());
      if (act() && act().id === "cf-deny") break;
    }
    return seen;
  };
  const inOrder = (seen, names) => {
    const at = names.map((n) => seen.map(name).indexOf(n));
    return at.every((i, k) => i >= 0 && (k === 0 || i > at[k - 1]));
  };
  const enabledAfter = async () => {
    const t0 = performance.now();
    const ok = await until(() => !$("#cf-approve").disabled, 5000);
    return ok ? performance.now() - t0 : -1;
  };
  const ask = (kind) => window.go.app.SelfTest.AskConfirmation(kind);
  const rows = F.rows.filter((r) => r.section === "fill"), att = F.rows.filter((r) => r.section === "attention");

  // 1. A fill: what it shows, then Tab to a row, Space, Tab to Approve, Enter.
  await ask("fill");
  check("a fill confirmation opens the dialog, modal over the window", await until(() => isOpen("fill")) && dlg().matches(":modal"), dlg() && dlg().outerHTML.slice(0, 200));
  check("Deny has the focus", act() && act().id === "cf-deny", name(act()));
  check("Approve starts disabled", $("#cf-approve").disabled, $("#cf-approve").outerHTML);
  const waited = await enabledAfter();
  check("Approve enables only after the approve delay", waited >= F.approveDelayMs - 100, waited + " ms, delay " + F.approveDelayMs);
  check("the title asks about a fill", text("#cf-title") === "Fill this form?", text("#cf-title"));
  check("the site is named large", text("#cf-site") === F.site && parseFloat(getComputedStyle($("#cf-site")).fontSize) >= 24, text("#cf-site") + " " + getComputedStyle($("#cf-site")).fontSize);
  check("the full origin is shown", text("#cf-origin") === F.origin, text("#cf-origin"));
  const frame = dlg().querySelector('.cf-frame[data-cross-origin="true"]');
  check("the cross-origin frame is named and marked", !!frame && frame.textContent.includes(F.frames[1].origin) && /cross-origin frame/.test(frame.textContent), frame && frame.textContent);
  check("the browser is named, verified", text("#cf-client").includes(F.client.name) && /verified/.test(text("#cf-client")) && !/not verified/.test(text("#cf-client")), text("#cf-client"));
  const sel = $("#cf-profile");
  check("a profile picker offers the profiles", !!sel && sel.value === F.profile && [...sel.options].map((o) => o.textContent).join("|") === F.profiles.map((p) => p.label).join("|"), sel && sel.outerHTML);
  check("one row per field, the attention rows apart", $("#cf-rows").children.length === rows.length && $("#cf-attention-rows").children.length === att.length, text("#cf-rows").slice(0, 120));
  check("the attention section is titled as not filled unless ticked", text("#cf-att-title") === "Not filled unless you tick them", text("#cf-att-title"));
  check("confident rows checked; low confidence and attention rows unchecked", F.rows.every((r) => box(r.id).checked === (r.section === "fill" && r.checked)), F.rows.map((r) => r.id + "=" + box(r.id).checked).join(" "));
  check("each row: label, value, concept and confidence",
    rows.filter((r) => !r.sensitive).every((r) => rowLi(r.id).querySelector(".cf-label").textContent === r.label && rowLi(r.id).querySelector(".cf-value").textContent === r.value && rowLi(r.id).querySelector(".cf-concept").textContent === r.conceptLabel),
    text("#cf-rows").slice(0, 200));
  check("confidence in words and per cent", rowLi("r1").querySelector(".cf-conf").textContent === "high 98%" && rowLi("r6").querySelector(".cf-conf").textContent === "low 46%", rowLi("r1").querySelector(".cf-conf").textContent + ", " + rowLi("r6").querySelector(".cf-conf").textContent);
  check("the heuristic row, and only it, is marked advisory", F.rows.every((r) => !!rowLi(r.id).querySelector(".cf-badge.advisory") === r.advisory), "");
  const reason = (id) => (rowLi(id).querySelector(".cf-reason") || {}).textContent || "";
  check("attention rows say why in words", /transparent/i.test(reason("r7")) && /another site/.test(reason("r8")) && reason("r8").includes(F.frames[1].origin), reason("r7") + " | " + reason("r8"));
  check("a page's markup in a label stays text", !dlg().querySelector("img") && rowLi("r7").querySelector(".cf-label").textContent === F.rows[7].label, rowLi("r7").querySelector(".cf-label").innerHTML);
  check("a gender starts unticked and says it is given only if ticked", !box("r9").checked && /given only if you tick it/.test(rowLi("r9").querySelector(".cf-meta").textContent), rowLi("r9").querySelector(".cf-meta").textContent);
  const sens = F.rows.find((r) => r.sensitive);
  const sensValue = () => rowLi(sens.id).querySelector(".cf-value").textContent;
  check("a sensitive value is masked and not in the page", !document.body.textContent.includes(D.sensitive) && /^•+$/.test(sensValue()), sensValue());
  check("Tab reaches the sensitive row's Show", tabTo((e) => e && e.classList.contains("cf-reveal") && e.closest("li").dataset.rowId === sens.id), name(act()));
  press(" ");
  check("Space on Show reveals the value", sensValue() === D.sensitive && act().getAttribute("aria-pressed") === "true", sensValue());
  press("Enter");
  check("Enter on Hide masks it again", /^•+$/.test(sensValue()) && !document.body.textContent.includes(D.sensitive), sensValue());
  check("Tab reaches a row's Why?", tabTo((e) => e && e.classList.contains("cf-link") && !e.classList.contains("cf-reveal") && e.closest("li").dataset.rowId === "r1"), name(act()));
  press("Enter");
  const why = [...rowLi("r1").querySelectorAll(".cf-why li")].map((li) => li.textContent);
  check("Why? lists the evidence", shown(rowLi("r1").querySelector(".cf-why")) && F.rows[0].evidence.every((e) => why.includes(e)), why.join(" | "));
  press("Enter");
  // These confirmations come from no real fill, so the app cannot match
  // them again: the dialog must say so and keep what it shows.
  sel.value = F.profiles[1].id;
  sel.dispatchEvent(new Event("change", { bubbles: true }));
  check("a profile switch the app refuses is explained; the dialog keeps its profile and rows",
    await until(() => /^Switch profile: /.test(text("#cf-status")) && !sel.disabled) && sel.value === F.profile && $("#cf-rows").children.length === rows.length && isOpen("fill"),
    text("#cf-status"));
  sel.focus();
  check("the countdown is shown", /^Declines in [0-9]+:[0-9][0-9]$/.test(text("#cf-timer")), text("#cf-timer"));
  check("no Remember when the site may not be remembered", !$("#cf-remember"), "");
  const rings = [];
  const seen = cycle();
  check("Tab stays in the dialog", seen.every((e) => dlg().contains(e)), seen.map(name).join(" "));
  for (const e of seen) {
    e.focus();
    const cs = getComputedStyle(e);
    if (cs.outlineStyle === "none" || parseFloat(cs.outlineWidth) < 2) rings.push(name(e) + " " + cs.outlineStyle + " " + cs.outlineWidth);
  }
  $("#cf-deny").focus();
  check("every control Tab reaches shows a focus ring", rings.length === 0, rings.join(", "));
  check("Tab order: profile, rows, Deny, Approve", inOrder(seen, ["cf-profile"].concat(F.rows.map((r) => "cf-check@" + r.id), ["cf-deny"])) && name(seen[0]) === "cf-approve", seen.map(name).join(" "));
  check("Tab reaches the row to toggle", tabTo((e) => e === box(D.toggle)), name(act()));
  press("Enter");
  await sleep(300);
  check("Enter on a row's checkbox does not answer", isOpen("fill") && box(D.toggle).checked, name(act()));
  press(" ");
  check("Space toggles the focused row", !box(D.toggle).checked && rowLi(D.toggle).classList.contains("off"), box(D.toggle).checked);
  check("Approve counts the rows ticked", text("#cf-approve") === "Fill 4 fields", text("#cf-approve"));
  check("Tab reaches Approve", tabTo((e) => e && e.id === "cf-approve"), name(act()));
  press("Enter");
  check("Enter on Approve answers and closes the dialog", await until(closed), dlg() && dlg().dataset.ended);
  check("the window is usable again", !!act() && !dlg().contains(act()), name(act()));

  // 2. More fields, from a browser not verified, rememberable: Escape.
  await ask("continue");
  check("a continuation opens its own dialog", await until(() => isOpen("continue")) && text("#cf-title") === "The page asked for more fields", text("#cf-title"));
  check("an unverified browser is said to be not verified", /not verified/.test(text("#cf-client")), text("#cf-client"));
  check("one profile: named, no picker", !$("#cf-profile") && /From profile Personal/.test(text(".cf-profile")), text(".cf-profile"));
  check("a row the page already filled starts unchecked and says why", !box("r2").checked && /already holds another value/.test(rowLi("r2").querySelector(".cf-meta").textContent), rowLi("r2").querySelector(".cf-meta").textContent);
  check("Remember for this site is offered", !!$("#cf-remember") && /Remember for shop\.example/.test($("#cf-remember").parentElement.textContent), $("#cf-remember") && $("#cf-remember").parentElement.textContent);
  await enabledAfter();
  const seen2 = cycle();
  check("Tab order: rows, Remember, Deny, Approve", inOrder(seen2, ["cf-check@r1", "cf-check@r2", "cf-remember", "cf-deny"]) && name(seen2[0]) === "cf-approve", seen2.map(name).join(" "));
  tabTo((e) => e && e.id === "cf-remember");
  press(" ");
  check("Space ticks Remember", $("#cf-remember").checked, "");
  press("Escape");
  check("Escape denies and closes the dialog", await until(closed), dlg() && dlg().dataset.ended);

  // 3. Learn: previous -> new, approved with its defaults.
  await ask("learn");
  check("a learn dialog asks to save", await until(() => isOpen("learn")) && text("#cf-title") === "Save to your profile?", text("#cf-title"));
  const prev = (id) => rowLi(id).querySelector(".cf-prev").textContent, next = (id) => rowLi(id).querySelector(".cf-value").textContent;
  check("learn rows show the previous and the new value", prev("r1") === "+44 20 7946 0018" && next("r1") === "+44 20 7946 0999" && prev("r2") === "(nothing yet)", prev("r1") + " -> " + next("r1") + "; " + prev("r2"));
  await enabledAfter();
  check("Approve says what it saves", text("#cf-approve") === "Save 1 value", text("#cf-approve"));
  tabTo((e) => e && e.id === "cf-approve");
  press("Enter");
  check("the learn dialog closes on Approve", await until(closed), "");

  // 3b. Pairing a browser: the code and the executable shown, Pair with Enter.
  const P = D.pair;
  await ask("pair");
  check("a pairing dialog asks to pair the browser", await until(() => isOpen("pair")) && text("#cf-title") === "Pair this browser with Tessera?", text("#cf-title"));
  check("the pairing code is shown large", text("#cf-pair-code") === P.pair.code && parseFloat(getComputedStyle($("#cf-pair-code")).fontSize) >= 24, text("#cf-pair-code"));
  check("the verified browser and its executable are named", text("#cf-site") === P.site && dlg().textContent.includes(P.pair.exe) && /verified/.test(text("#cf-client")), text("#cf-site"));
  check("Deny has the focus on the pairing dialog", act() && act().id === "cf-deny", name(act()));
  await enabledAfter();
  check("Approve says Pair", text("#cf-approve") === "Pair", text("#cf-approve"));
  tabTo((e) => e && e.id === "cf-approve");
  press("Enter");
  check("the pairing dialog closes on Pair", await until(closed), "");

  // 4. Left alone, a dialog times out.
  await ask("timeout");
  check("a dialog with 3 s left counts down", await until(() => isOpen("fill")) && /^Declines in 0:0[0-3]$/.test(text("#cf-timer")), text("#cf-timer"));
  check("at its expiry it says timed out", await until(() => dlg().dataset.ended === "timeout" && /timed out/i.test(text("#cf-status")), 8000), text("#cf-status"));
  check("then it closes", await until(closed, 5000), "");

  // 5. One left open: laid out small and zoomed, then for the screenshot.
  await ask("display");
  await until(() => isOpen("fill"));
  await enabledAfter();
  const inView = (e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.left >= -1 && r.top >= -1 && r.right <= innerWidth + 1 && r.bottom <= innerHeight + 1;
  };
  const uncovered = (e) => {
    const r = e.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return inView(e) && !!hit && (hit === e || e.contains(hit));
  };
  for (const [w, h, what] of [[800, 600, "at 800x600"], [400, 300, "at 200% zoom of 800x600 (400x300)"]]) {
    const sized = await resize(w, h);
    await sleep(200);
    dlg().scrollTop = 0;
    check("the window resizes to " + w + "x" + h, sized, innerWidth + "x" + innerHeight);
    check(what + ": the site, Deny and Approve are in view", inView($("#cf-site")) && uncovered($("#cf-deny")) && uncovered($("#cf-approve")), innerWidth + "x" + innerHeight);
    check(what + ": nothing overflows sideways", dlg().scrollWidth <= dlg().clientWidth + 1 && inView(dlg()), dlg().scrollWidth + " > " + dlg().clientWidth);
    const hidden = [];
    let walked = 0;
    tabTo((e) => e && e.id === "cf-deny");
    for (let i = 0; i < 80; i++) {
      press("Tab");
      walked++;
      if (!uncovered(act())) hidden.push(name(act()));
      if (act().id === "cf-deny") break;
    }
    check(what + ": every control Tab reaches is in view, not under the header or footer", walked > 10 && hidden.length === 0, hidden.join(" ") || walked + " controls");
  }
  check("the window resizes back for the screenshot", await resize(D.shot[0], D.shot[1]), innerWidth + "x" + innerHeight);
  await sleep(200);
  dlg().querySelector('li[data-row-id="r6"] .cf-link').click();
  $("#cf-deny").focus();
  dlg().scrollTop = 0;
  dlg().querySelector(".cf-body").scrollTop = 0;
  // Painting resumes a few frames after the window is mapped again; the
  // script's colour check tells a blank shot.
  const framed = await Promise.race([
    new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r("painted")))),
    sleep(3000).then(() => "no frame within 3 s"),
  ]);
  check("the dialog is open for the screenshot", isOpen("fill"), framed + " at " + innerWidth + "x" + innerHeight);
}