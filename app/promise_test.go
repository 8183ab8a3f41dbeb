package app

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tessera-app/tessera/app/agents"
	"github.com/tessera-app/tessera/app/cmdline"
	"github.com/tessera-app/tessera/app/confirm"
	"github.com/tessera-app/tessera/app/fill"
	"github.com/tessera-app/tessera/nativemsg"
	"github.com/tessera-app/tessera/vault"
)

// Attacks on the consent promise (issue 23), one per hole, each against
// the real broker, vault and socket.

// unpairedBrowser connects a browser session that passes the process
// checks (Tessera's host, a trusted browser) but never proves a paired key:
// a second browser profile with an unpacked copy of the extension, or one
// whose pairing the person declined.
func unpairedBrowser(t *testing.T, a *App, url string) *fakeBrowser {
	t.Helper()
	c, err := nativemsg.Dial(context.Background(), a.cfg.SocketDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	send(t, c, attachFrame)
	sayHello(t, c, "browser")
	b := &fakeBrowser{t: t, conn: c, url: url}
	go b.serve()
	return b
}

// Hole: agent requests went to any verified browser session, paired or
// not, and the one that connected last became the agent's default
// browser; after one approval it received the person's values.
func TestUnpairedBrowserGetsNothing(t *testing.T) {
	w := newAgentWorld(t, approveDefaults)
	time.Sleep(50 * time.Millisecond) // the paired browser connects first
	clone := unpairedBrowser(t, w.a, "https://shop.example/subscribe")
	clone.mu.Lock()
	clone.page = framedPage("subscribe")
	clone.mu.Unlock()

	tabs, text := w.listTabs(t)
	browsers := map[string]bool{}
	for _, tb := range tabs {
		browsers[tb.Browser] = true
	}
	if len(browsers) != 1 {
		t.Errorf("tabs.list lists %d browsers, want only the paired one: %s", len(browsers), text)
	}
	if res, text := w.call(t, "tessera.tabs.select", map[string]any{}); res.IsError {
		t.Fatalf("select: %s", text)
	}
	if res, text := w.call(t, "tessera.fill.apply", map[string]any{}); res.IsError {
		t.Fatalf("fill.apply: %s", text)
	}
	if n := len(clone.appliedCalls()); n != 0 {
		t.Errorf("the unpaired browser received %d browser.apply calls, want none", n)
	}
	if n := len(w.browser.appliedCalls()); n != 1 {
		t.Errorf("the paired browser received %d browser.apply calls, want 1", n)
	}
	// What the unpaired session sends beyond hello and pairing is not read:
	// a browser.changed from it tells the agent nothing.
	for settled := false; !settled; {
		select {
		case <-w.changed:
		case <-time.After(300 * time.Millisecond):
			settled = true
		}
	}
	clone.navigate("https://shop.example/next")
	select {
	case <-w.changed:
		t.Error("a browser.changed from an unpaired session reached the agent")
	case <-time.After(500 * time.Millisecond):
	}
}

// Hole (issue 23): a page tool's answer (Tessera's own Formspec provider's
// profile.apply, a describe, a respondWith) passed the values Tessera had
// just filled straight to the agent. Whatever the page answers, no profile
// value reaches an agent, in any shape the page writes it; what the agent
// itself supplied may come back.
func TestAgentNeverReceivesProfileValues(t *testing.T) {
	w := newAgentWorld(t, approveDefaults)
	if res, text := w.call(t, "tessera.tabs.select", map[string]any{}); res.IsError {
		t.Fatalf("select: %s", text)
	}
	if res, text := w.call(t, "tessera.fill.apply", map[string]any{}); res.IsError {
		t.Fatalf("fill.apply: %s", text)
	}
	w.browser.mu.Lock()
	w.browser.result = `{"filled":[{"path":"email","value":"ADA@example.org"},{"path":"name","value":"Ada Lovelace"},{"path":"tel","value":"020 7946 0000"},{"path":"city","value":"London"}],"q":"Grace Hopper"}`
	w.browser.mu.Unlock()
	res, text := w.call(t, "webmcp.page.search", map[string]any{"q": "Grace Hopper"})
	if res.IsError {
		t.Fatalf("page tool: %s", text)
	}
	for _, leak := range []string{"ADA@", "ada@", "Lovelace", "7946", "London"} {
		if strings.Contains(text, leak) {
			t.Errorf("the agent received %q: %s", leak, text)
		}
	}
	if !strings.Contains(text, agents.WithheldMarker) || !strings.Contains(text, "Grace Hopper") {
		t.Errorf("result = %s, want the values withheld and the agent's own argument kept", text)
	}
	// A page's tool descriptions are its words too.
	w.browser.mu.Lock()
	w.browser.describe = "Echo. The person here is Ada Lovelace, ada@example.org."
	w.browser.mu.Unlock()
	echo, ok := w.tools(t)["webmcp.page.echo"]
	if !ok {
		t.Fatal("the page's echo tool is not listed")
	}
	if strings.Contains(echo.Description, "Lovelace") || strings.Contains(echo.Description, "ada@") || !strings.Contains(echo.Description, agents.WithheldMarker) {
		t.Errorf("tool description = %q, want the person's values withheld", echo.Description)
	}
}

// Every wire type that carries a value to a browser holds it as a
// confirm.Value, which only the gate makes: a path that sends values
// around the gate does not compile. This fails when one of them goes back
// to holding a plain string.
func TestValuesOnlyThroughTheGate(t *testing.T) {
	want := reflect.TypeOf(confirm.Value{})
	for _, tc := range []struct {
		typ   reflect.Type
		field string
	}{
		{reflect.TypeOf(fill.Field{}), "Value"},
		{reflect.TypeOf(fill.FormspecEntry{}), "Value"},
	} {
		f, ok := tc.typ.FieldByName(tc.field)
		if !ok || f.Type != want {
			t.Errorf("%s.%s is %v, want confirm.Value", tc.typ.Name(), tc.field, f.Type)
		}
	}
	// What the command line's reveal returns: documents the gate released.
	if f, ok := reflect.TypeOf(cmdline.ExportResult{}).FieldByName("Profiles"); !ok || f.Type.Elem() != reflect.TypeOf(confirm.Document{}) {
		t.Errorf("ExportResult.Profiles is %v, want []confirm.Document", f.Type)
	}
	if typ := reflect.TypeOf(confirm.Document{}); typ.NumField() != 1 || typ.Field(0).Type != want {
		t.Errorf("confirm.Document is %v, want a wrapped confirm.Value", typ)
	}
}

// The dialog of an agent's fill names the agent as the one who asks and
// the paired browser that receives the values; the audit names both.
func TestFillDialogNamesRecipient(t *testing.T) {
	w := newAgentWorld(t, approveDefaults)
	w.selectTab(t)
	if res, text := w.call(t, "tessera.fill.apply", map[string]any{}); res.IsError {
		t.Fatalf("fill.apply: %s", text)
	}
	c := w.pres.last()
	if c.Kind != ConfirmFill || c.Client.Kind != KindAgent || c.Recipient == nil || c.Recipient.Kind != KindBrowser || c.Recipient.Paired == "" || c.Recipient.Name != "chromium" {
		t.Fatalf("fill dialog client %+v recipient %+v, want the agent asking and the paired browser receiving", c.Client, c.Recipient)
	}
	recs, err := w.v.Releases()
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range recs {
		if r.Event == vault.EventRelease && r.Client == "test-agent" && strings.HasPrefix(r.Recipient, "chromium (paired ") {
			found = true
		}
	}
	if !found {
		t.Errorf("no release in the audit log names the agent and the paired browser: %+v", recs)
	}
}
