package app

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func formspecDoc(t testing.TB, name string) json.RawMessage {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// formspecCall builds a formspec.* request on the real grant application
// with its two References documents and the base ontology.
func formspecCall(t testing.TB, method string, extra map[string]any) string {
	t.Helper()
	p := map[string]any{
		"definition": formspecDoc(t, "../matcher/testdata/formspec/grant-application.definition.json"),
		"references": []json.RawMessage{formspecDoc(t, "../formspec/testdata/grant.references.json"), formspecDoc(t, "../formspec/testdata/grant.references-agency.json")},
		"ontologies": []json.RawMessage{formspecDoc(t, "../matcher/testdata/formspec/grant-application.ontology.json")},
	}
	for k, v := range extra {
		p[k] = v
	}
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": "f1", "method": method, "params": p})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var grantLive = []map[string]any{
	{"path": "applicantInfo.orgName", "label": "Organization Name"},
	{"path": "applicantInfo.contactName", "label": "Primary Contact Name"},
	{"path": "applicantInfo.contactEmail", "label": "Contact Email"},
	{"path": "applicantInfo.contactPhone", "label": "Contact Phone", "readonly": true},
	{"path": "budget.lineItems[0].unitCost", "label": "Unit Cost"},
}

var grantPage = map[string]any{"tab": 1, "url": "https://grants.example.gov/apply", "title": "Apply"}

func errCode(m map[string]any) string {
	e, _ := m["error"].(map[string]any)
	d, _ := e["data"].(map[string]any)
	s, _ := d["code"].(string)
	return s
}

func TestFormspecHelpMethod(t *testing.T) {
	w := newFillWorld(t, nil)
	m := w.call(t, formspecCall(t, "formspec.help", map[string]any{"path": "budget.lineItems[4].unitCost"}))
	b, _ := json.Marshal(m["result"])
	if m["error"] != nil || !strings.Contains(string(b), `"agency-cap"`) || strings.Contains(string(b), `"unit-cost-help"`) {
		t.Fatalf("formspec.help = %s %v", b, m["error"])
	}
	for path, code := range map[string]string{"budget.nope": "NOT_FOUND", "budget..x": "INVALID_PATH"} {
		if got := errCode(w.call(t, formspecCall(t, "formspec.help", map[string]any{"path": path}))); got != code {
			t.Errorf("help %s: %s, want %s", path, got, code)
		}
	}
	other := strings.Replace(string(formspecDoc(t, "../formspec/testdata/grant.references.json")), "example.gov/forms/grant-application", "evil.example/f", 1)
	if got := errCode(w.call(t, formspecCall(t, "formspec.help", map[string]any{"path": "budget", "references": []json.RawMessage{json.RawMessage(other)}}))); got != "x-invalid-sidecar" {
		t.Errorf("sidecar for another form: %s", got)
	}
}

func TestFormspecMatchMaskedAndApply(t *testing.T) {
	w := newFillWorld(t, approveDefaults)
	m := w.call(t, formspecCall(t, "formspec.match", map[string]any{"page": grantPage, "fields": grantLive}))
	b, _ := json.Marshal(m["result"])
	if m["error"] != nil || !strings.Contains(string(b), `"applicantInfo.contactEmail"`) || strings.Contains(string(b), "ada@example.org") {
		t.Fatalf("formspec.match = %s %v", b, m["error"])
	}
	if strings.Contains(string(b), "contactPhone") {
		t.Errorf("a readonly field was matched: %s", b)
	}
	m = w.call(t, formspecCall(t, "formspec.apply", map[string]any{"page": grantPage, "fields": grantLive,
		"paths": []string{"applicantInfo.contactEmail", "applicantInfo.contactPhone", "nowhere"}}))
	var r FormspecApply
	b, _ = json.Marshal(m["result"])
	if err := json.Unmarshal(b, &r); err != nil || m["error"] != nil {
		t.Fatalf("apply: %s %v", b, m["error"])
	}
	if len(r.Entries) != 1 || r.Entries[0] != (FormspecEntry{"applicantInfo.contactEmail", "ada@example.org"}) {
		t.Errorf("apply entries %+v", r.Entries)
	}
	if !strings.Contains(string(b), `{"path":"applicantInfo.contactPhone","reason":"READONLY"}`) || !strings.Contains(string(b), `{"path":"nowhere","reason":"NOT_FOUND"}`) {
		t.Errorf("skipped %s", b)
	}
	c := w.pres.last()
	if len(c.Rows) != 1 || c.Rows[0].Label != "Contact Email" {
		t.Errorf("dialog rows %+v", c.Rows)
	}
	// A path the definition lacks in the live field list is the page lying.
	lie := append([]map[string]any{{"path": "budget.secret"}}, grantLive...)
	if got := errCode(w.call(t, formspecCall(t, "formspec.match", map[string]any{"page": grantPage, "fields": lie}))); got != "NOT_FOUND" {
		t.Errorf("lying field list: %s", got)
	}
}

func TestFormspecApplyDeclinedAndNoWindow(t *testing.T) {
	w := newFillWorld(t, func(c Confirmation) *Decision { return &Decision{ID: c.ID, Reason: DeclineDenied} })
	m := w.call(t, formspecCall(t, "formspec.apply", map[string]any{"page": grantPage, "fields": grantLive}))
	if errCode(m) != "DECLINED" {
		t.Errorf("declined apply: %v", m)
	}
	w.a.SetPresenter(nil)
	m = w.call(t, formspecCall(t, "formspec.apply", map[string]any{"page": grantPage, "fields": grantLive}))
	if errCode(m) != "x-confirmation-required" {
		t.Errorf("apply without a window: %v", m)
	}
}

func TestFormspecLearn(t *testing.T) {
	w := newFillWorld(t, approveDefaults)
	live := []map[string]any{
		{"path": "applicantInfo.contactEmail", "value": "grace@example.org"},
		{"path": "projectNarrative.projectTitle", "value": "Bridges"},
		{"path": "applicantInfo.ein", "value": "12-3456789", "readonly": true},
	}
	m := w.call(t, formspecCall(t, "formspec.learn", map[string]any{"page": grantPage, "fields": live}))
	b, _ := json.Marshal(m["result"])
	if m["error"] != nil || string(b) != `{"savedConcepts":2,"savedFields":0}` {
		t.Fatalf("learn = %s %v", b, m["error"])
	}
	ps, _ := w.v.Profiles()
	// A new concept is learnt; a conflicting email is kept as a candidate
	// beside the current value (vault.Learn), never replacing it.
	if s := stored(&ps[0], "https://tessera.app/concepts/project-title"); s != "Bridges" {
		t.Errorf("project title after learn %q", s)
	}
	if s := stored(&ps[0], "https://schema.org/email"); s != "ada@example.org" {
		t.Errorf("email after learn %q", s)
	}
	if c := w.pres.last(); len(c.Rows) != 2 || c.Kind != ConfirmLearn {
		t.Errorf("learn dialog %+v", c)
	}
}

// TestFormspecDialogHelp: the dialog rows carry the form's own human help
// for the field (its nearest references, not the form-level ones).
func TestFormspecDialogHelp(t *testing.T) {
	var p map[string]json.RawMessage
	json.Unmarshal([]byte(formspecCall(t, "formspec.apply", map[string]any{"page": grantPage, "fields": grantLive})), &p)
	fp, e := parseFormspecPage("formspec.apply", p["params"])
	if e != nil {
		t.Fatal(e)
	}
	lines := fp.helpLines("budget.lineItems[0].unitCost")
	if len(lines) != 2 || lines[0] != "help: Unit cost: The price of one unit, before tax." || !strings.HasPrefix(lines[1], "help: Budget policy") {
		t.Errorf("help lines %q", lines)
	}
}

func FuzzFormspecPage(f *testing.F) {
	f.Add(formspecCall(f, "formspec.match", map[string]any{"page": grantPage, "fields": grantLive}))
	f.Add(`{"params":{"page":{"tab":1,"url":"https://a.example/"},"definition":{"$formspec":"1.0","url":"u","items":[{"key":"a","type":"field"}]},"fields":[{"path":"a","value":"x"}]}}`)
	f.Fuzz(func(t *testing.T, msg string) {
		var p map[string]json.RawMessage
		if json.Unmarshal([]byte(msg), &p) != nil {
			return
		}
		fp, e := parseFormspecPage("formspec.match", p["params"])
		if e != nil {
			if e.Data.Code == "" || e.Data.Code == "INTERNAL" {
				t.Fatalf("error without a proper code: %v", e)
			}
			return
		}
		fp.proposals(nil)
		for _, lf := range fp.live {
			fp.helpLines(lf.Path)
		}
	})
}
