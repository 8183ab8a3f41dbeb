package app

import (
	"encoding/json"
	"strings"
	"testing"
)

// A form's <select multiple> is an array parameter whose items are the
// enabled options' values; a call selects exactly the options given (sent
// to the page as one "options" field), an option the form does not have is
// refused naming the parameter, and a file is refused.
func TestAgentFormToolMultiSelect(t *testing.T) {
	w := newAgentWorld(t, approveDefaults)
	w.browser.page = `<!DOCTYPE html><html lang="en"><body>
<form toolname="topics" tooldescription="Choose topics.">
<label for=tp>Topics</label><select id=tp name=topics multiple ` + stamp("t1", "") + `>
<option value=history>History</option><option value=poetry selected>Poetry</option><option value=maps disabled>Maps</option><option value=science>Science</option>
</select>
<label for=cv>CV</label><input id=cv name=cv type=file ` + stamp("t2", "") + `>
</form>
<form tool-name="apply" tool-description="Apply.">
<label for=doc>Letter</label><input id=doc name=letter type=file ` + stamp("t3", "") + `>
</form></body></html>`
	w.selectTab(t)
	tl, ok := w.tools(t)["webmcp.form.topics"]
	if !ok {
		t.Fatal("no form tool")
	}
	schema, _ := json.Marshal(tl.InputSchema)
	var sc struct {
		Properties map[string]struct {
			Type  string
			Items struct {
				Type string
				Enum []string
			}
			UniqueItems bool
		}
	}
	json.Unmarshal(schema, &sc)
	if p := sc.Properties["topics"]; p.Type != "array" || !p.UniqueItems || p.Items.Type != "string" || strings.Join(p.Items.Enum, ",") != "history,poetry,maps,science" {
		t.Errorf("schema = %s, want topics an array of the options' values", schema)
	}
	res, text := w.call(t, "webmcp.form.topics", map[string]any{"topics": []string{"history", "science"}})
	if res.IsError {
		t.Fatalf("call = %s", text)
	}
	calls := w.browser.appliedCalls()
	if len(calls) != 1 || len(calls[0]) != 1 {
		t.Fatalf("applied %v, want one field", calls)
	}
	if f := calls[0][0]; f.Kind != "options" || f.Value != `["history","science"]` || f.Expect.Type != "select-multiple" {
		t.Errorf("field = %+v, want kind options with both values", f)
	}
	if row := w.pres.last().Rows; len(row) != 1 || row[0].Value != `["history","science"]` {
		t.Errorf("dialog rows = %+v, want the list shown", row)
	}
	// None selected is a call too: every option cleared.
	if res, text := w.call(t, "webmcp.form.topics", map[string]any{"topics": []string{}}); res.IsError {
		t.Fatalf("empty call = %s", text)
	}
	if calls := w.browser.appliedCalls(); len(calls) != 2 || calls[1][0].Value != `[]` {
		t.Errorf("empty selection applied %v", calls)
	}
	n := w.pres.count()
	if res, text := w.call(t, "webmcp.form.topics", map[string]any{"topics": []string{"history", "nope"}}); !res.IsError || !strings.Contains(text, "topics") {
		t.Errorf("bad options = %v %q, want an isError naming topics", res.IsError, text)
	}
	// A file input is no parameter of this dialect's tool; one the other
	// dialect lists is refused as "file inputs are not filled".
	if res, text := w.call(t, "webmcp.form.topics", map[string]any{"cv": "aGVsbG8="}); !res.IsError || !strings.Contains(text, "cv") {
		t.Errorf("file = %v %q, want an isError refusing cv", res.IsError, text)
	}
	tools := w.tools(t)
	if _, ok := tools["webmcp.form.apply"]; !ok {
		t.Fatalf("no draft-dialect tool: %v", tools)
	}
	if res, text := w.call(t, "webmcp.form.apply", map[string]any{"letter": "aGVsbG8="}); !res.IsError || !strings.Contains(text, "file inputs are not filled") {
		t.Errorf("file = %v %q, want an isError refusing files", res.IsError, text)
	}
	if w.pres.count() != n || len(w.browser.appliedCalls()) != 2 {
		t.Error("a refused call reached the person or the page")
	}
}
