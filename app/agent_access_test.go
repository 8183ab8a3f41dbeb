package app

import (
	"testing"

	"github.com/tessera-app/tessera/app/agents"
)

// Settings' ui.Agents card: what the person let agents do is listed, and
// taking it back works at once — an untrusted tool asks again, a closed
// site asks for access again.
func TestAgentAccessListedAndRevoked(t *testing.T) {
	w := newAgentWorld(t, func(c Confirmation) *Decision {
		d := approveDefaults(c)
		d.Remember = c.Kind == agents.ConfirmAgentCall
		return d
	})
	u := newUI(w.a)
	if acc, err := u.AgentAccess(); err != nil || len(acc.Sites) != 0 || len(acc.Tools) != 0 {
		t.Fatalf("before any agent: %+v %v", acc, err)
	}
	w.selectTab(t)
	if res, text := w.call(t, "webmcp.page.search", map[string]any{"q": "a"}); res.IsError {
		t.Fatal(text)
	}
	acc, err := u.AgentAccess()
	if err != nil || len(acc.Sites) != 1 || len(acc.Tools) != 1 || acc.Tools[0].Site != acc.Sites[0] || acc.Tools[0].Tool != "search" {
		t.Fatalf("access = %+v %v, want the site and its trusted search", acc, err)
	}
	site := acc.Sites[0]

	if _, err := u.UntrustAgentTool(site, "nope"); err == nil {
		t.Error("untrusting a tool that is not trusted succeeded")
	}
	if acc, err := u.UntrustAgentTool(site, "search"); err != nil || len(acc.Tools) != 0 || len(acc.Sites) != 1 {
		t.Fatalf("after untrust: %+v %v", acc, err)
	}
	n := w.pres.count()
	if res, text := w.call(t, "webmcp.page.search", map[string]any{"q": "b"}); res.IsError {
		t.Fatal(text)
	}
	if w.pres.count() != n+1 || w.pres.last().Kind != agents.ConfirmAgentCall {
		t.Error("an untrusted tool ran without asking")
	}

	if _, err := u.CloseAgentSite("https://other.example"); err == nil {
		t.Error("closing a site that is not open succeeded")
	}
	if acc, err := u.CloseAgentSite(site); err != nil || len(acc.Sites) != 0 || len(acc.Tools) != 0 {
		t.Fatalf("after close: %+v %v", acc, err)
	}
	n = w.pres.count()
	for name := range w.tools(t) {
		if name == "webmcp.page.search" {
			t.Error("a closed site's tools are still listed")
		}
	}
	w.selectTab(t)
	if w.pres.count() != n+1 || w.pres.last().Kind != agents.ConfirmAgentAccess {
		t.Error("choosing a closed site's tab did not ask the person again")
	}
}
