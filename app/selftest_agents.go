//go:build selftest

package app

// The self-test's "Agents" steps (agentsSelfTestScript): Go opens two
// sites to agents and trusts a read-only tool on one, as the agent dialogs
// do when approved; the page lists them in Settings' Agents card, and its
// Ask again and Close to agents buttons take them back; Go reads back what
// the app holds.

// The sites Go opens to agents: the page untrusts the first's tool and
// closes the second.
const (
	selfTestAgentKeep  = "https://library.example"
	selfTestAgentClose = "https://shop.example"
	selfTestAgentTool  = "search"
)

// SeedAgents opens the two self-test sites to agents and trusts the
// read-only tool on the first.
func (s *SelfTest) SeedAgents() map[string]string {
	s.st.app.agents.expose(selfTestAgentKeep)
	s.st.app.agents.expose(selfTestAgentClose)
	s.st.app.agents.trust(selfTestAgentKeep, selfTestAgentTool)
	return map[string]string{"keep": selfTestAgentKeep, "close": selfTestAgentClose, "tool": selfTestAgentTool}
}

// AgentState is what the app holds for agents.
func (s *SelfTest) AgentState() AgentAccess { return s.st.app.agents.access() }

// agentsSelfTestScript is called by selfTestScript with its helpers; it
// leaves the window on the status screen.
const agentsSelfTestScript = `async ({ check, text, until, open }) => {
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
}`
