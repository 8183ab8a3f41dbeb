async ({ exp, check, $, text, sleep, until }) => {
  const D = exp.dialog;
  const dlg = () => $("#confirm");
  const isOpen = (kind) => !!dlg() && dlg().open && dlg().dataset.kind === kind && !dlg().dataset.ended;
  const closed = () => !dlg() || !dlg().open;
  const act = () => document.activeElement;
  const box = (id) => dlg().querySelector('li[data-row-id="' + id + '"] input.cf-check');
  const keys = (k) => window.go.app.SelfTest.PressKeys(k);
  const tabTo = async (pred) => {
    for (let i = 0; i < 40 && !pred(act()); i++) await keys("Tab");
    return pred(act());
  };
  const name = (e) => (e && (e.id || e.className || e.tagName)) || "none";
  await window.go.app.SelfTest.AskConfirmation("keys");
  check("real keys: a fill opens with Deny focused", await until(() => isOpen("fill")) && act().id === "cf-deny", name(act()));
  await until(() => !$("#cf-approve").disabled, 5000);
  check("real keys: Tab reaches the row to toggle", await tabTo((e) => e === box(D.toggle)), name(act()));
  await keys("space");
  // On a loaded machine the key can take a while to arrive; a second
  // toggle would show within the pause after it.
  const toggled = await until(() => !box(D.toggle).checked, 3000);
  await sleep(300);
  check("real keys: Space toggles the row once", toggled && !box(D.toggle).checked, box(D.toggle).checked);
  await keys("Return");
  await sleep(300);
  check("real keys: Enter on a row does not answer", isOpen("fill") && !box(D.toggle).checked, "");
  check("real keys: Tab reaches Approve", await tabTo((e) => e && e.id === "cf-approve"), name(act()));
  await keys("Return");
  check("real keys: Enter on Approve answers", await until(closed), "");
  await window.go.app.SelfTest.AskConfirmation("keys-deny");
  check("real keys: a continuation opens", await until(() => isOpen("continue")), "");
  await keys("Escape");
  check("real keys: Escape denies", await until(closed), "");
}