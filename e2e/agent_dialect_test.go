//go:build e2e && linux

package e2e

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestAgentDraftDialect: a form of the draft WebMCP dialect (tool-name,
// tool-description, a named fieldset as a nested parameter) is an agent's
// tool too, with the schema `tessera tools` gives; a call outside the
// schema is refused naming the parameter, and an approved call lands in the
// page's fields, nested parameter included.
func TestAgentDraftDialect(t *testing.T) {
	e := newAgentEnv(t, "approve")
	tab, url := e.open(t, "/agent-draft.html")
	if isErr, text := e.selectPage(t, url); isErr {
		t.Fatalf("select: %s", text)
	}
	var tool map[string]any
	for i := 0; i < 50 && tool == nil; i++ {
		if tl, ok := e.tools(t)["webmcp.form.rsvp"]; ok {
			b, _ := json.Marshal(tl)
			json.Unmarshal(b, &tool)
		}
	}
	if tool == nil {
		t.Fatalf("no webmcp.form.rsvp: %v", toolNames(e.tools(t)))
	}
	schema, _ := json.Marshal(tool["inputSchema"])
	for _, want := range []string{`"guest":{`, `"name":{`, `"maxLength":60`, `"maximum":4`, `"enum":["front","back"]`, `"required":["guest"]`} {
		if !strings.Contains(string(schema), want) {
			t.Errorf("schema lacks %s: %s", want, schema)
		}
	}
	if d, _ := tool["description"].(string); !strings.Contains(d, "<<<Say who comes to the reading") {
		t.Errorf("description not framed as the page's: %q", d)
	}
	isErr, text := e.call(t, "webmcp.form.rsvp", map[string]any{"guest": map[string]any{"name": "Ada"}, "guests": 9, "seat": "balcony"})
	if !isErr || !strings.Contains(text, "guests") || !strings.Contains(text, "seat") {
		t.Errorf("a call outside the schema = %v %q, want both bad parameters named", isErr, text)
	}
	if st := readPage(t, tab); st.Values["name"] != "" {
		t.Errorf("a refused call wrote to the page: %v", st.Values)
	}
	isErr, text = e.call(t, "webmcp.form.rsvp", map[string]any{"guest": map[string]any{"name": "Ada Lovelace", "email": "ada@example.org"}, "guests": 3, "seat": "back"})
	if isErr || !strings.Contains(text, `{"param":"guest.name","outcome":"filled"}`) || !strings.Contains(text, `{"param":"guests","outcome":"filled"}`) {
		t.Fatalf("draft-dialect call = %v %q, want each parameter's outcome by its path", isErr, text)
	}
	st := readPage(t, tab)
	if st.Values["name"] != "Ada Lovelace" || st.Values["email"] != "ada@example.org" || st.Values["guests"] != "3" || st.Values["seat"] != "back" {
		t.Errorf("page after the call = %v", st.Values)
	}
}
