async ({ check, text, until, open }) => {
  open("settings");
  check("settings: no site is open to agents yet, and the card says how one gets there",
    await until(() => /No site is open to agents/.test(text("#agent-sites"))), text("#agent-sites"));
  const A = await window.go.app.SelfTest.SeedAgents();
  const site = (o) => [...document.querySelectorAll("#agent-sites > li.site")].find((li) => li.dataset.site === o);
  const tool = () => site(A.keep)?.querySelector('li[data-tool="' + A.tool + '"]');
  check("settings: the sites open to agents are listed, the trusted read-only tool under its site",
    await until(() => site(A.keep) && site(A.close) && tool() && !site(A.close).querySelector("li[data-tool]"), 8000), text("#agent-sites"));
  // The card as the person sees it, at the top of the window.
  document.getElementById("agent-sites").closest("section")?.scrollIntoView();
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  await window.go.app.SelfTest.Screenshot("settings-agents");
  tool().querySelector("button").click();
  check("settings: Ask again makes the tool ask the person again",
    await until(() => site(A.keep) && !tool()) && (await window.go.app.SelfTest.AgentState()).tools.length === 0, text("#agent-sites"));
  site(A.close).querySelector(":scope > button").click();
  check("settings: Close to agents closes the site, the other stays open",
    await until(() => !site(A.close) && site(A.keep)) && (await window.go.app.SelfTest.AgentState()).sites.join(" ") === A.keep, text("#agent-sites"));
  check("settings: starting Tessera at log-in is offered, and off until the person turns it on",
    await until(() => document.getElementById("autostart-card") && !document.getElementById("autostart-card").hidden && !document.getElementById("autostart").checked),
    String(document.getElementById("autostart")?.checked));
  // Sync between devices: not set up, then set up through a folder.
  check("settings: the sync card says the vault is not kept in step, and offers a folder",
    await until(() => /not kept in step/.test(text("#sync-line")) && document.getElementById("sync-folder") && !document.getElementById("sync-folder").closest("form").hidden), text("#sync-line"));
  const name = await window.go.app.SelfTest.SeedSync();
  check("settings: once set up, the sync card names the folder and this device, and offers Sync now",
    await until(() => /Kept in step through/.test(text("#sync-line")) && text("#sync-devices").includes(name) && document.getElementById("sync-now") && document.getElementById("sync-folder").closest("form").hidden, 8000), text("#sync-card"));
  check("settings: a new device's request to join shows with its code, to approve or decline", await window.go.app.SelfTest.SeedSyncJoin().then(() => until(() => /^\d{3} \d{3}$/.test(text("#sync-join-code")) && text("#sync-pending").includes("Approve") && text("#sync-pending").includes("Decline"), 8000)), text("#sync-pending"));
  document.getElementById("sync-card")?.scrollIntoView();
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  await window.go.app.SelfTest.Screenshot("settings-sync");
  open("status");
}