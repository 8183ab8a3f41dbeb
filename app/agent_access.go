package app

import (
	"fmt"
	"sort"
	"strings"
)

// AgentAccess is what the person let agents do, while the app runs
// (Settings' "Agents" card): the sites opened to agents, and the read-only
// page tools that run there without asking.
type AgentAccess struct {
	Sites []string      `json:"sites"`
	Tools []TrustedTool `json:"tools"`
}

// TrustedTool is one read-only page tool the person let run on Site
// without asking; Tool is the page's own name for it (the page's words).
type TrustedTool struct {
	Site string `json:"site"`
	Tool string `json:"tool"`
}

// access lists what the hub holds, sorted.
func (h *agentHub) access() AgentAccess {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := AgentAccess{Sites: []string{}, Tools: []TrustedTool{}}
	for o, ok := range h.open {
		if ok {
			out.Sites = append(out.Sites, o)
		}
	}
	for k, ok := range h.trusted {
		if site, tool, cut := strings.Cut(k, "\x00"); ok && cut {
			out.Tools = append(out.Tools, TrustedTool{Site: site, Tool: tool})
		}
	}
	sort.Strings(out.Sites)
	sort.Slice(out.Tools, func(i, j int) bool {
		if out.Tools[i].Site != out.Tools[j].Site {
			return out.Tools[i].Site < out.Tools[j].Site
		}
		return out.Tools[i].Tool < out.Tools[j].Tool
	})
	return out
}

// closeSite closes origin to agents and forgets its trusted tools: the
// next agent call there asks the person again. It reports whether the
// site was open.
func (h *agentHub) closeSite(origin string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	was := h.open[origin]
	delete(h.open, origin)
	for k := range h.trusted {
		if strings.HasPrefix(k, origin+"\x00") {
			delete(h.trusted, k)
		}
	}
	return was
}

// untrust makes the read-only tool on origin ask again; it reports whether
// it was trusted.
func (h *agentHub) untrust(origin, tool string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	k := origin + "\x00" + tool
	was := h.trusted[k]
	delete(h.trusted, k)
	return was
}

// AgentAccess lists the sites opened to agents and the trusted read-only
// tools.
func (u *UI) AgentAccess() (AgentAccess, error) {
	return u.app.agents.access(), nil
}

// CloseAgentSite closes a site to agents (and forgets its trusted tools).
func (u *UI) CloseAgentSite(origin string) (AgentAccess, error) {
	if !u.app.agents.closeSite(origin) {
		return AgentAccess{}, fmt.Errorf("agents: %q is not open to agents", clipRunes(origin, 200))
	}
	return u.app.agents.access(), nil
}

// UntrustAgentTool makes a trusted read-only tool ask the person again.
func (u *UI) UntrustAgentTool(origin, tool string) (AgentAccess, error) {
	if !u.app.agents.untrust(origin, tool) {
		return AgentAccess{}, fmt.Errorf("agents: %q is not trusted on %q", clipRunes(tool, 200), clipRunes(origin, 200))
	}
	return u.app.agents.access(), nil
}
