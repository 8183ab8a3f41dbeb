//go:build e2e && firefox && linux

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestFirefoxAgent (issues 15 and 16): an agent drives `tessera mcp` with
// the official Go SDK client while Firefox ESR shows the agent page with
// the extension's Firefox build: it chooses the tab (the person opens the
// site to agents in the app), lists the page's imperative and declarative
// tools, proposes a fill (masked previews), fills with the person's
// approval (values reach the page, never the agent), submits a form that
// lets agents submit, and runs the page's own tool in the page; then, on a
// Formspec mode-2 page, it gets the Assist catalog and calls its help.
func TestFirefoxAgent(t *testing.T) {
	f, home := ffWorld(t, "approve")
	hold := filepath.Join(t.TempDir(), "agent")
	url := f.pages.URL + "/agent.html"
	grant, grantURL := hold+"-grant", f.pages.URL+"/formspec/grant.html"
	wait, ready, finished := holdFirefox(t, home, f, []ffPage{
		{Name: "agent", URL: url, Hold: hold, Probe: "document.title"},
		{Name: "grant", URL: grantURL, Hold: grant},
	})
	ready(hold)
	done := func() { finished(hold) }
	e := connectAgent(t, f)
	if isErr, text := e.selectPage(t, url); isErr {
		done()
		t.Fatalf("select: %s", text)
	}
	if ev, err := e.app.WaitEvent("presented", "agent-access", 1, 10*time.Second); err != nil || ev.Site != "127.0.0.1" {
		t.Errorf("access dialog: %+v %v", ev, err)
	}
	select {
	case <-e.changed:
	case <-time.After(15 * time.Second):
		t.Error("no notifications/tools/list_changed after the tab was chosen")
	}
	tools := e.tools(t)
	for _, name := range []string{"webmcp.form.subscribe", "webmcp.form.lookup", "webmcp.page.search"} {
		if _, ok := tools[name]; !ok {
			t.Errorf("no tool %s in Firefox: %v", name, toolNames(tools))
		}
	}
	if s := tools["webmcp.page.search"]; s != nil && (s.Annotations == nil || !s.Annotations.ReadOnlyHint) {
		t.Errorf("search annotations = %+v, want the page's readOnlyHint", s.Annotations)
	}
	isErr, text := e.call(t, "tessera.fill.propose", map[string]any{})
	if isErr || !strings.Contains(text, `"conceptLabel":"First name"`) || strings.Contains(text, "•") {
		t.Errorf("propose = %v %s, want the kinds of value only", isErr, text)
	}
	isErr, text2 := e.call(t, "tessera.fill.apply", map[string]any{})
	if isErr || !strings.Contains(text2, `"outcome":"filled"`) {
		t.Errorf("fill = %v %s", isErr, text2)
	}
	for _, v := range []string{given, family, email} {
		if strings.Contains(text+text2, v) {
			t.Errorf("the agent saw the profile value %q", v)
		}
	}
	if isErr, text := e.call(t, "webmcp.form.lookup", map[string]any{"title": "Middlemarch"}); isErr || !strings.Contains(text, `"submitted":true`) {
		t.Errorf("autosubmit call = %v %q", isErr, text)
	}
	if isErr, text := e.call(t, "webmcp.page.search", map[string]any{"q": "knitting", "limit": 2}); isErr || text != `{"q":"knitting","hits":2}` {
		t.Errorf("search = %v %q", isErr, text)
	}
	// The writes waited for the person: the fill dialog and the agent-call
	// dialogs of the two page tools.
	if _, err := e.app.WaitEvent("presented", "fill", 1, 5*time.Second); err != nil {
		t.Errorf("no fill dialog for the agent's fill: %v", err)
	}
	if _, err := e.app.WaitEvent("presented", "agent-call", 1, 5*time.Second); err != nil {
		t.Errorf("no agent-call dialog for the page's tools: %v", err)
	}
	done()

	// Issue 14 in Firefox: a Formspec mode-2 page's Assist catalog reaches
	// the agent as page tools once registered (list_changed), and a
	// read-only one runs through the agent path with approval.
	ready(grant)
	if isErr, text := e.selectPage(t, grantURL); isErr {
		finished(grant)
		t.Fatalf("select the Formspec page: %s", text)
	}
	help := "webmcp.page.formspec.field.help"
	for deadline := time.After(30 * time.Second); ; {
		if _, ok := e.tools(t)[help]; ok {
			break
		}
		select {
		case <-e.changed:
		case <-deadline:
			finished(grant)
			t.Fatalf("the Formspec catalog never reached the agent in Firefox: %v", toolNames(e.tools(t)))
		}
	}
	if isErr, text := e.call(t, help, map[string]any{"path": "budget.lineItems[1].unitCost"}); isErr || !strings.Contains(text, `"agency-cap"`) {
		t.Errorf("help through the agent in Firefox = %v %q", isErr, text)
	}
	finished(grant)
	r := wait(t)
	if len(r.Pages) != 2 || r.Pages[0].Error != "" || r.Pages[1].Error != "" {
		t.Fatalf("run.mjs pages = %+v", r.Pages)
	}
	p := r.Pages[0]
	if p.State.Values["first"] != given || p.State.Values["last"] != family || p.State.Values["email"] != email {
		t.Errorf("page after the agent's fill = %v", p.State.Values)
	}
	if p.Probe != "searched knitting" {
		t.Errorf("the page's tool did not run in the page: title %v", p.Probe)
	}
}

// holdFirefox starts Firefox on pages (each with a Hold path) and returns
// the wait for run.mjs's report, ready (which waits until Firefox shows the
// page held at a path) and finished (which lets run.mjs read it and go on).
func holdFirefox(t *testing.T, home string, f *fillEnv, pages []ffPage) (wait func(*testing.T) ffRun, ready, finished func(string)) {
	t.Helper()
	wait = startFirefox(t, ffConfig{Home: home, Pages: pages}, f.w.Env())
	// Run before startFirefox's: a test that stops early releases every
	// held page, so run.mjs ends and closes Firefox.
	t.Cleanup(func() {
		for _, p := range pages {
			if p.Hold != "" {
				os.WriteFile(p.Hold+".done", nil, 0o600)
			}
		}
	})
	ready = func(hold string) {
		t.Helper()
		for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
			if _, err := os.Stat(hold + ".ready"); err == nil {
				return
			}
			if time.Now().After(deadline) {
				wait(t)
				t.Fatalf("Firefox never opened %s", hold)
			}
		}
	}
	finished = func(hold string) {
		if err := os.WriteFile(hold+".done", nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return wait, ready, finished
}

// TestFirefoxAgentLatency, only with TESSERA_AGENT_BENCH=1 (200 calls) or
// a number of calls: TestAgentLatency's figures in Firefox ESR — tools/list
// and a declarative tool call (agent → app → Firefox → page → result,
// approval excluded), p50/p99.
func TestFirefoxAgentLatency(t *testing.T) {
	n := agentBenchCalls(t)
	if n == 0 {
		t.Skip("set TESSERA_AGENT_BENCH=1 (200 calls) or a number of calls")
	}
	f, home := ffWorld(t, "approve")
	hold := filepath.Join(t.TempDir(), "agent")
	url := f.pages.URL + "/agent.html"
	wait, ready, finished := holdFirefox(t, home, f, []ffPage{{Name: "agent", URL: url, Hold: hold}})
	ready(hold)
	e := connectAgent(t, f)
	if isErr, text := e.selectPage(t, url); isErr {
		finished(hold)
		t.Fatalf("select: %s", text)
	}
	measureAgent(t, e, n)
	finished(hold)
	wait(t)
}

// TestFirefoxAgentFrameForms: forms in iframes in Firefox ESR, where the
// extension addresses a frame by its frame id alone (no documentId): the
// same-origin frame's form is listed and filled; the other origin's only
// once the person opened it for its frame, and then its value lands in the
// cross-origin frame.
func TestFirefoxAgentFrameForms(t *testing.T) {
	f, home := ffWorld(t, "approve")
	hold := filepath.Join(t.TempDir(), "frames")
	url := f.pages.URL + "/agent-frames.html"
	wait, ready, finished := holdFirefox(t, home, f, []ffPage{{Name: "frames", URL: url, Hold: hold}})
	ready(hold)
	e := connectAgent(t, f)
	if isErr, text := e.selectPage(t, url); isErr {
		finished(hold)
		t.Fatalf("select: %s", text)
	}
	mainHost := strings.ReplaceAll(strings.TrimPrefix(f.pages.URL, "http://"), ":", "_")
	crossHost := strings.ReplaceAll(strings.TrimPrefix(f.pages.CrossURL, "http://"), ":", "_")
	sameName, crossName := "", ""
	// The frames may still be loading when the tab is chosen.
	for deadline := time.Now().Add(15 * time.Second); sameName == "" && time.Now().Before(deadline); time.Sleep(300 * time.Millisecond) {
		for name := range e.tools(t) {
			if strings.HasPrefix(name, "webmcp.frame") && strings.HasSuffix(name, "."+mainHost+".form.reserve") {
				sameName = name
			}
			if strings.Contains(name, crossHost) {
				t.Errorf("a frame of an origin the person did not open is listed: %q", name)
			}
		}
	}
	if sameName == "" {
		finished(hold)
		t.Fatal("the same-origin frame's form is never listed in Firefox")
	}
	if isErr, text := e.call(t, sameName, map[string]any{"title": "Emma"}); isErr || !strings.Contains(text, `"outcome":"filled"`) {
		t.Errorf("same-origin frame call = %v %q", isErr, text)
	}
	isErr, text := e.call(t, "tessera.form.read", map[string]any{})
	var read struct {
		ClosedFrames []struct {
			Frame  int    `json:"frame"`
			Origin string `json:"origin"`
		} `json:"closedFrames"`
	}
	if err := json.Unmarshal([]byte(text), &read); isErr || err != nil || len(read.ClosedFrames) != 1 || read.ClosedFrames[0].Origin != f.pages.CrossURL {
		finished(hold)
		t.Fatalf("form.read = %v %s, want the cross-origin frame named as closed", isErr, text)
	}
	crossName = fmt.Sprintf("webmcp.frame%d.%s.form.reserve", read.ClosedFrames[0].Frame, crossHost)
	// Attack: the closed frame's tool, guessed, before the person opened it.
	calls := e.agentCalls(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if res, err := e.mc.CallTool(ctx, &mcp.CallToolParams{Name: crossName, Arguments: map[string]any{"title": "Mallory"}}); err == nil && !res.IsError {
		t.Errorf("a call into a frame the person did not open was served: %+v", res.Content)
	}
	if n := e.agentCalls(t); n != calls {
		t.Errorf("the refused call was shown to the person (%d agent-call dialogs, want %d)", n, calls)
	}
	if isErr, text := e.call(t, "tessera.tabs.select", map[string]any{"frame": read.ClosedFrames[0].Frame}); isErr {
		finished(hold)
		t.Fatalf("select the cross-origin frame: %s", text)
	}
	if isErr, text := e.call(t, crossName, map[string]any{"title": "Middlemarch"}); isErr || !strings.Contains(text, `"outcome":"filled"`) {
		t.Errorf("cross-origin frame call = %v %q", isErr, text)
	}
	finished(hold)
	r := wait(t)
	if len(r.Pages) != 1 || r.Pages[0].Error != "" {
		t.Fatalf("run.mjs pages = %+v", r.Pages)
	}
	if v := r.Pages[0].State.Values; v["same/title"] != "Emma" || v["cross/title"] != "Middlemarch" {
		t.Errorf("frames after the agent's calls = %v", v)
	}
}
