//go:build e2e && linux

package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestAgentFormspecCatalog (issues 14 and 15): on a Formspec mode-2 page
// (grant.html: a live form without tools, so Tessera's bootstrap provider
// registers the Assist catalog on the page's model context), the catalog
// reaches an agent as page tools, each with the provider's read-only hint
// (only for tools whose results hold no field value: issue 23), and a
// read-only one (formspec.field.help) runs through the agent path
// once the person approves the call: the agent gets the field's help with
// the References documents the app resolved.
func TestAgentFormspecCatalog(t *testing.T) {
	e := newAgentEnv(t, "approve")
	tab, url := e.open(t, "/formspec/grant.html")
	if mode, why, tools := formspecMode(t, e.sw, url); mode != 2 || len(tools) != 14 {
		t.Fatalf("grant.html: mode %d (%s), tools %v; want mode 2 with the 14 Assist tools", mode, why, tools)
	}
	if isErr, text := e.selectPage(t, url); isErr {
		t.Fatalf("select: %s", text)
	}
	tools := e.tools(t)
	for name, want := range map[string]bool{"formspec.form.describe": true, "formspec.field.help": true, "formspec.field.list": true,
		"formspec.field.set": false, "formspec.profile.match": false, "formspec.profile.apply": false, "formspec.profile.learn": false,
		"formspec.field.describe": false, "formspec.form.validate": false, "formspec.field.validate": false} {
		tl, ok := tools["webmcp.page."+name]
		if !ok {
			t.Errorf("no tool webmcp.page.%s: %v", name, toolNames(tools))
			continue
		}
		if readOnly := tl.Annotations != nil && tl.Annotations.ReadOnlyHint; readOnly != want {
			t.Errorf("%s readOnlyHint = %v, want %v", name, readOnly, want)
		}
	}
	isErr, text := e.call(t, "webmcp.page.formspec.field.help", map[string]any{"path": "budget.lineItems[1].unitCost"})
	if isErr || !strings.Contains(text, `"agency-cap"`) || !strings.Contains(text, `"regulation"`) {
		t.Errorf("help through the agent = %v %q, want the field's References", isErr, text)
	}
	ev, err := e.app.WaitEvent("presented", "agent-call", 1, 5*time.Second)
	if err != nil || ev.Site != "127.0.0.1" {
		t.Errorf("the person was not asked before the call: %+v %v", ev, err)
	}
	// The page loaded again while the agent works on it: the catalog comes
	// after the load, and its registration is announced (list_changed), so
	// the agent that lists again on the notification sees it.
	for len(e.changed) > 0 {
		<-e.changed
	}
	if err := Open(tab, url+"?again"); err != nil {
		t.Fatal(err)
	}
	// The first notifications (the navigation) may come before the new
	// document has its catalog: the agent lists again on each until the
	// catalog is listed and runs.
	help := &mcp.CallToolParams{Name: "webmcp.page.formspec.field.help", Arguments: map[string]any{"path": "budget.lineItems[1].unitCost"}}
	for deadline, ran := time.After(20*time.Second), false; !ran; {
		select {
		case <-e.changed:
			if _, ok := e.tools(t)[help.Name]; !ok {
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			res, err := e.mc.CallTool(ctx, help)
			cancel()
			ran = err == nil && !res.IsError
		case <-deadline:
			t.Fatal("after the page loaded again, no list_changed was followed by a tools/list whose catalog runs")
		}
	}
	// A bad path is the provider's error, returned to the agent as such.
	if isErr, text := e.call(t, "webmcp.page.formspec.field.help", map[string]any{"path": "no.such.field"}); !isErr || !strings.Contains(text, "NOT_FOUND") && !strings.Contains(text, "INVALID_PATH") {
		t.Errorf("help of a missing field = %v %q, want an isError result with the provider's code", isErr, text)
	}
}

// TestAgentFormspecNoValues guards against issue 23: on a bootstrapped
// (mode 2) Formspec page opened to agents, an agent that calls Tessera's
// own Formspec tools gets no profile value back. profile.apply, approved
// twice (the agent's call, then the fill), answers which paths were filled
// and not their values; the read tools (field.describe, form.validate,
// field.list, profile.match) do not give back what Tessera wrote.
func TestAgentFormspecNoValues(t *testing.T) {
	e := newAgentEnv(t, "approve")
	_, url := e.open(t, "/formspec/grant.html")
	if mode, why, _ := formspecMode(t, e.sw, url); mode != 2 {
		t.Fatalf("grant.html: mode %d (%s)", mode, why)
	}
	if isErr, text := e.selectPage(t, url); isErr {
		t.Fatalf("select: %s", text)
	}
	prof := profileValues(t)
	email := prof["https://schema.org/email"]
	isErr, text := e.call(t, "webmcp.page.formspec.profile.apply", map[string]any{"matches": []map[string]any{{"path": "applicantInfo.contactEmail"}, {"path": "applicantInfo.contactName"}}})
	if isErr || !strings.Contains(text, `"applicantInfo.contactEmail"`) || !strings.Contains(text, `"filled"`) {
		t.Fatalf("profile.apply through the agent = %v %s, want the email's path filled", isErr, text)
	}
	for _, v := range prof {
		if len(v) > 3 && strings.Contains(text, v) {
			t.Errorf("profile.apply gave the agent the profile value %q: %s", v, text)
		}
	}
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"webmcp.page.formspec.field.describe", map[string]any{"path": "applicantInfo.contactEmail"}},
		{"webmcp.page.formspec.form.validate", map[string]any{"mode": "submit"}},
		{"webmcp.page.formspec.field.list", map[string]any{"filter": "all"}},
		{"webmcp.page.formspec.profile.match", map[string]any{}},
	} {
		if isErr, text := e.call(t, c.tool, c.args); isErr || strings.Contains(text, email) || strings.Contains(text, "Ada") {
			t.Errorf("%s = %v %s: want an answer without the values Tessera wrote", c.tool, isErr, text)
		}
	}
}
