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
// reaches an agent as page tools, each with the provider's read-only hint,
// and a read-only one (formspec.field.help) runs through the agent path
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
	for _, name := range []string{"formspec.form.describe", "formspec.field.help", "formspec.field.set", "formspec.profile.match", "formspec.profile.apply"} {
		tl, ok := tools["webmcp.page."+name]
		if !ok {
			t.Errorf("no tool webmcp.page.%s: %v", name, toolNames(tools))
			continue
		}
		readOnly := tl.Annotations != nil && tl.Annotations.ReadOnlyHint
		if want := !strings.Contains(name, "set") && !strings.Contains(name, "apply"); readOnly != want {
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
