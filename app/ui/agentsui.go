package ui

import "github.com/tessera-app/tessera/app/agents"

// AgentAccess lists the sites opened to agents and the trusted read-only
// tools.
func (u *UI) AgentAccess() (agents.AgentAccess, error) {
	return u.cfg.Agents.Access(), nil
}

// CloseAgentSite closes a site to agents (and forgets its trusted tools).
func (u *UI) CloseAgentSite(origin string) (agents.AgentAccess, error) {
	return u.cfg.Agents.CloseSite(origin)
}

// UntrustAgentTool makes a trusted read-only tool ask the person again.
func (u *UI) UntrustAgentTool(origin, tool string) (agents.AgentAccess, error) {
	return u.cfg.Agents.Untrust(origin, tool)
}
