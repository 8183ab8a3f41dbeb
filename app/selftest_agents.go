//go:build selftest

package app

import (
	_ "embed"
	"os"

	"github.com/tessera-app/tessera/app/agents"
)

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
	s.st.app.agents.OpenSite(selfTestAgentKeep)
	s.st.app.agents.OpenSite(selfTestAgentClose)
	s.st.app.agents.TrustTool(selfTestAgentKeep, selfTestAgentTool)
	return map[string]string{"keep": selfTestAgentKeep, "close": selfTestAgentClose, "tool": selfTestAgentTool}
}

// SeedSync sets up sync through a new folder beside the vault, as the
// person would in Settings, and returns the device name.
func (s *SelfTest) SeedSync() (string, error) {
	folder, err := os.MkdirTemp("", "tessera-selftest-sync-")
	if err != nil {
		return "", err
	}
	_, err = s.st.ui.SetUpSync(folder, "This laptop", selfTestPassphrase)
	return "This laptop", err
}

// AgentState is what the app holds for agents.
func (s *SelfTest) AgentState() agents.AgentAccess { return s.st.app.agents.Access() }

// agentsSelfTestScript is called by selfTestScript with its helpers; it
// leaves the window on the status screen.
//
//go:embed selftest/agents.js
var agentsSelfTestScript string
