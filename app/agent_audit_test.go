package app

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tessera-app/tessera/app/agents"
	"github.com/tessera-app/tessera/app/ui"
	"github.com/tessera-app/tessera/vault"
)

const fillTestPassphrase = "fill test passphrase"

// agentRecords returns the audit log's agent records (calls and access).
func agentRecords(t *testing.T, v *vault.Vault) []vault.Release {
	t.Helper()
	rs, err := v.Releases()
	if err != nil {
		t.Fatal(err)
	}
	var out []vault.Release
	for _, r := range rs {
		if r.Event == vault.EventAgent || r.Event == agents.EventAgentAccess {
			out = append(out, r)
		}
	}
	return out
}

// While the vault is locked an agent's call is refused, before anything
// reaches the page or the person, and the refusal is in the audit log as
// soon as the person unlocks.
func TestAgentCallRefusedWhileLockedAndAudited(t *testing.T) {
	w := newAgentWorld(t, approveDefaults)
	w.selectTab(t)
	before := len(agentRecords(t, w.v))
	n := w.pres.count()
	w.v.Lock()
	called := time.Now().UTC()
	res, text := w.call(t, "webmcp.page.search", map[string]any{"q": "while locked"})
	if !res.IsError || !strings.Contains(text, "locked") || !strings.Contains(text, "nothing was done") {
		t.Errorf("call while locked = %v %q, want an isError result saying the vault is locked", res.IsError, text)
	}
	if len(w.browser.executedCalls()) != 0 || w.pres.count() != n {
		t.Error("a call while locked reached the page or the person")
	}
	if _, err := newUI(w.a).Unlock(fillTestPassphrase); err != nil {
		t.Fatal(err)
	}
	rs := agentRecords(t, w.v)
	if len(rs) != before+1 {
		t.Fatalf("audit after unlock holds %d agent records, want %d: %+v", len(rs), before+1, rs)
	}
	r := rs[len(rs)-1]
	if r.Tool != "webmcp.page.search" || r.Reason != "VAULT_LOCKED" || r.Client != "test-agent" || r.Time.Before(called.Add(-time.Second)) || r.Time.After(called.Add(5*time.Second)) {
		t.Errorf("refusal record = %+v", r)
	}
	for _, r := range rs {
		if strings.Contains(r.Tool+r.Reason+r.Origin, "while locked") {
			t.Errorf("an argument reached the audit log: %+v", r)
		}
	}
}

// A call that began while the vault was unlocked and ended after it
// locked (here: it locks while the person looks at the dialog) ran, and
// its record waits for the unlock instead of being dropped.
func TestAgentCallEndingLockedIsAuditedAtUnlock(t *testing.T) {
	var lockNow atomic.Bool
	var w *agentWorld
	w = newAgentWorld(t, func(c Confirmation) *Decision {
		if c.Kind == agents.ConfirmAgentCall && lockNow.Load() {
			w.v.Lock()
		}
		return approveDefaults(c)
	})
	w.selectTab(t)
	before := len(agentRecords(t, w.v))
	lockNow.Store(true)
	if res, text := w.call(t, "webmcp.page.search", map[string]any{"q": "a"}); res.IsError {
		t.Fatalf("call = %s", text)
	}
	if len(w.browser.executedCalls()) != 1 {
		t.Fatal("the call did not run")
	}
	if err := w.v.UnlockPassphrase([]byte(fillTestPassphrase)); err != nil {
		t.Fatal(err)
	}
	// The app notices the unlock (its watch, the window's unlock, or
	// the next record); here the next record.
	w.a.agents.CloseSite("https://shop.example")
	rs := agentRecords(t, w.v)
	if len(rs) != before+2 || rs[before].Tool != "webmcp.page.search" || rs[before].Reason != "ok" || rs[before+1].Event != agents.EventAgentAccess {
		t.Fatalf("audit = %+v, want the call that ran, then the next record", rs[before:])
	}
}

// Taking access back in Settings is in the audit log (Activity), also
// when done while the vault is locked.
func TestAgentAccessTakenBackAudited(t *testing.T) {
	w := newAgentWorld(t, func(c Confirmation) *Decision {
		d := approveDefaults(c)
		d.Remember = c.Kind == agents.ConfirmAgentCall
		return d
	})
	w.selectTab(t)
	if res, text := w.call(t, "webmcp.page.search", map[string]any{"q": "a"}); res.IsError {
		t.Fatal(text)
	}
	u := newUI(w.a)
	if _, err := u.UntrustAgentTool("https://shop.example", "search"); err != nil {
		t.Fatal(err)
	}
	w.v.Lock()
	if _, err := u.CloseAgentSite("https://shop.example"); err != nil {
		t.Fatal(err)
	}
	if _, err := u.Unlock(fillTestPassphrase); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range agentRecords(t, w.v) {
		if r.Event == agents.EventAgentAccess {
			got = append(got, r.Reason+" "+r.Origin+" "+r.Tool)
		}
	}
	if strings.Join(got, "|") != "untrusted https://shop.example search|closed https://shop.example " {
		t.Errorf("access records = %q", got)
	}
	page, err := u.Activity(ui.ActivityQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if page.Entries[0].Summary != "Closed shop.example to agents" || page.Entries[1].Summary != "Agents must ask again before search runs on shop.example" {
		t.Errorf("activity = %q, %q", page.Entries[0].Summary, page.Entries[1].Summary)
	}
}
