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
  open("status");
}