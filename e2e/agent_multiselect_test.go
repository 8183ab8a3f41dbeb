//go:build e2e && linux

package e2e

import (
	"encoding/json"
	"strings"
	"testing"
)

// A form's <select multiple> is an array parameter: an approved call
// selects exactly the options given in the real page (the page hears one
// change), an option the form lacks is refused naming the parameter.
func TestAgentFormMultiSelect(t *testing.T) {
	e := newAgentEnv(t, "approve")
	tab, url := e.open(t, "/agent-multi.html")
	if isErr, text := e.selectPage(t, url); isErr {
		t.Fatalf("select: %s", text)
	}
	tl, ok := e.tools(t)["webmcp.form.interests"]
	if !ok {
		t.Fatal("no form tool")
	}
	schema, _ := json.Marshal(tl.InputSchema)
	var sc struct {
		Properties map[string]struct {
			Type  string
			Items struct{ Enum []string }
		}
	}
	json.Unmarshal(schema, &sc)
	if p := sc.Properties["topics"]; p.Type != "array" || strings.Join(p.Items.Enum, ",") != "history,poetry,maps,science" {
		t.Errorf("schema = %s, want topics an array of the options", schema)
	}
	selected := func() string {
		t.Helper()
		got, err := Eval[string](tab, `[...document.getElementById('topics').options].filter((o) => o.selected).map((o) => o.value).join(',') + ' changes=' + changes`)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	isErr, text := e.call(t, "webmcp.form.interests", map[string]any{"topics": []string{"science", "history"}})
	if isErr || !strings.Contains(text, `{"param":"topics","outcome":"filled"}`) {
		t.Fatalf("call = %v %q", isErr, text)
	}
	if got := selected(); got != "history,science changes=1" {
		t.Errorf("page after the call: %s, want history and science selected, one change", got)
	}
	if isErr, text := e.call(t, "webmcp.form.interests", map[string]any{"topics": []string{"history", "cooking"}}); !isErr || !strings.Contains(text, "topics") {
		t.Errorf("an option the form lacks = %v %q, want an isError naming topics", isErr, text)
	}
	if got := selected(); got != "history,science changes=1" {
		t.Errorf("page after the refused call: %s", got)
	}
}
