//go:build e2e && linux

package e2e

import (
	"context"
	"strings"
	"testing"
	"time"
)

// A site the person opened to agents stays open after the app quits and
// starts again: the next run's person declines every dialog, and the
// agent still works on the site, asking nothing.
func TestAgentAccessSurvivesRestart(t *testing.T) {
	e := newAgentEnv(t, "approve")
	_, url := e.open(t, "/agent.html")
	if isErr, text := e.selectPage(t, url); isErr {
		t.Fatalf("select: %s", text)
	}
	if _, err := e.app.WaitEvent("presented", "agent-access", 1, 10*time.Second); err != nil {
		t.Fatalf("access dialog: %v", err)
	}
	e.mc.Close()
	e.app.Stop()

	// The next run of the app (the cleanup stops it through e.app).
	app, err := e.w.StartApp(AppOptions{Decision: "deny", Log: e.appLog})
	if err != nil {
		t.Fatal(err)
	}
	e.app = app
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := e.w.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	e2 := connectAgent(t, e.fillEnv)
	// The extension reconnects to the new app on its own schedule.
	for deadline := time.Now().Add(60 * time.Second); ; {
		isErr, text := e2.call(t, "tessera.tabs.list", map[string]any{})
		if !isErr && strings.Contains(text, url) {
			if !strings.Contains(text, `"exposed":true`) {
				t.Errorf("after the restart tabs.list = %s, want the site still open", text)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the browser never reconnected to the new app: %s", text)
		}
		time.Sleep(500 * time.Millisecond)
	}
	if isErr, text := e2.selectPage(t, url); isErr {
		t.Fatalf("select after the restart: %s (the site was not kept open)", text)
	}
	if _, ok := e2.tools(t)["webmcp.page.search"]; !ok {
		t.Error("the page's tools are not listed after the restart")
	}
	evs, err := app.ReadEvents()
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range evs {
		if ev.Event == "presented" && ev.Kind == "agent-access" {
			t.Errorf("the restarted app asked for access again: %+v", ev)
		}
	}
}

// While the vault is locked an agent's call is refused, the page gets
// nothing, and the refusal is in the audit log once the person unlocks.
func TestAgentCallWhileLockedAudited(t *testing.T) {
	e := newAgentEnv(t, "approve")
	tab, url := e.open(t, "/agent.html")
	if isErr, text := e.selectPage(t, url); isErr {
		t.Fatalf("select: %s", text)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := e.w.CLI(ctx, "vault", "lock"); err != nil {
		t.Fatal(err)
	}
	isErr, text := e.call(t, "webmcp.page.search", map[string]any{"q": "locked"})
	if !isErr || !strings.Contains(text, "locked") || !strings.Contains(text, "nothing was done") {
		t.Errorf("call while locked = %v %q", isErr, text)
	}
	if title, err := Eval[string](tab, "document.title"); err != nil || strings.HasPrefix(title, "searched") {
		t.Errorf("the page's tool ran while the vault was locked: %q %v", title, err)
	}
	if err := e.w.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	e.app.Stop()
	rs, err := e.w.Releases()
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range rs {
		if r.Event == "agent" && r.Tool == "webmcp.page.search" && r.Reason == "VAULT_LOCKED" && r.Client == "e2e-agent" {
			found = true
		}
	}
	if !found {
		t.Errorf("the refused call is not in the audit log: %+v", rs)
	}
}
