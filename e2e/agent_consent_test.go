//go:build e2e && linux

package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The official TypeScript SDK client through the person's consent: a fill
// approved in the app, a form call declined, a page-tool call nobody
// answers. The declined and timed-out calls are isError results saying
// so, the page gets nothing from them, and no profile value is in
// anything the agent received (tool lists, every result whole).
func TestAgentConsentWithTSClient(t *testing.T) {
	dir := mcpClientDir(t)
	f := newFillEnv(t, "approve,approve,deny,timeout", "2s")
	tab, url := f.open(t, "/agent.html")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "consent.mjs", fillArt.tessera, url)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), f.w.Env()...)
	cmd.Stderr = os.Stderr
	raw, err := cmd.Output()
	if err != nil {
		t.Fatalf("TS SDK client: %v", err)
	}
	t.Logf("TS SDK client: %s", raw)
	var got struct {
		Error string
		Steps []struct {
			Name    string
			IsError bool
			Text    string
		}
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("TS SDK client printed %q: %v", raw, err)
	}
	if got.Error != "" {
		t.Fatalf("TS SDK client failed: %s", got.Error)
	}
	want := []struct {
		name    string
		isError bool
		text    []string
	}{
		{"tessera.tabs.list", false, []string{originOf(url)}}, // not yet open to agents: the origin only
		{"tessera.tabs.select", false, []string{url}},
		{"tessera.fill.propose", false, []string{`"conceptLabel":"First name"`}},
		{"tessera.fill.apply", false, []string{`"outcome":"filled"`}},
		{"webmcp.form.subscribe", true, []string{"declined", "(denied)", "Nothing was done"}},
		{"webmcp.page.search", true, []string{"declined", "(timeout)", "Nothing was done"}},
	}
	if len(got.Steps) != len(want) {
		t.Fatalf("%d steps, want %d", len(got.Steps), len(want))
	}
	for i, w := range want {
		s := got.Steps[i]
		if s.Name != w.name || s.IsError != w.isError {
			t.Errorf("step %d = %s isError %v, want %s isError %v (%q)", i, s.Name, s.IsError, w.name, w.isError, s.Text)
		}
		for _, sub := range w.text {
			if !strings.Contains(s.Text, sub) {
				t.Errorf("step %d (%s) text %q lacks %q", i, s.Name, s.Text, sub)
			}
		}
	}
	for _, v := range []string{given, family, email} {
		if strings.Contains(string(raw), v) {
			t.Errorf("the TS client received the profile value %q", v)
		}
	}
	// The approved fill reached the page; the declined form call and the
	// page tool nobody approved did not.
	st := readPage(t, tab)
	if st.Values["first"] != given || st.Values["email"] != email {
		t.Errorf("page after the calls = %v, want the approved fill and nothing of the declined call", st.Values)
	}
	if title, err := Eval[string](tab, "document.title"); err != nil || strings.HasPrefix(title, "searched") {
		t.Errorf("the timed-out page tool ran: title %q %v", title, err)
	}
	evs, err := f.app.ReadEvents()
	if err != nil {
		t.Fatal(err)
	}
	var decided []string
	for _, ev := range evs {
		if (ev.Event == "decided" || ev.Event == "withdrawn") && ev.Kind != "pair" {
			decided = append(decided, ev.Event+":"+ev.Kind)
		}
	}
	t.Logf("dialogs: %v", decided)
	if strings.Join(decided, ",") != "decided:agent-access,decided:fill,decided:agent-call,withdrawn:" {
		t.Errorf("dialog events %v, want four (access, fill, declined call, timed-out call)", decided)
	}
}
