package app

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tessera-app/tessera/app/broker"
	"github.com/tessera-app/tessera/app/fill"
	"github.com/tessera-app/tessera/app/fill/filltest"
)

var (
	formspecCall = filltest.FormspecCall
	grantLive    = filltest.GrantLive
	grantPage    = filltest.GrantPage
)

// grantSeen is the bridge's measurement of grantLive: every control found
// and visible.
var grantSeen = func() []fill.FormspecMeasure {
	var out []fill.FormspecMeasure
	for _, f := range grantLive {
		out = append(out, fill.FormspecMeasure{Path: f["path"].(string), Found: true, Visible: true})
	}
	return out
}()

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
	other := strings.Replace(string(filltest.Doc(t, "formspec/testdata/grant.references.json")), "example.gov/forms/grant-application", "evil.example/f", 1)
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
		"paths": []string{"applicantInfo.contactEmail", "applicantInfo.contactPhone", "nowhere"}, "measured": grantSeen}))
	var r wireFormspecApply
	b, _ = json.Marshal(m["result"])
	if err := json.Unmarshal(b, &r); err != nil || m["error"] != nil {
		t.Fatalf("apply: %s %v", b, m["error"])
	}
	if len(r.Entries) != 1 || r.Entries[0] != (wireEntry{"applicantInfo.contactEmail", "ada@example.org"}) {
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
	// The person ticks every row (they start unticked: TestFormspecLearnRowsUnticked).
	w := newFillWorld(t, approveAll)
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
	if s := fill.StoredValue(&ps[0], "https://tessera.app/concepts/project-title"); s != "Bridges" {
		t.Errorf("project title after learn %q", s)
	}
	if s := fill.StoredValue(&ps[0], "https://schema.org/email"); s != "ada@example.org" {
		t.Errorf("email after learn %q", s)
	}
	if c := w.pres.last(); len(c.Rows) != 2 || c.Kind != ConfirmLearn || !c.PageInitiated {
		t.Errorf("learn dialog %+v", c)
	}
}

// TestFormspecLearnRowsUnticked guards against issue 23's page-initiated
// learn: formspec.learn is the page's script asking (no submit of the
// person's), so its dialog says so and starts with every row unticked; a
// person who approves without ticking saves nothing.
func TestFormspecLearnRowsUnticked(t *testing.T) {
	w := newFillWorld(t, approveDefaults)
	live := []map[string]any{
		{"path": "applicantInfo.contactEmail", "value": "phish@evil.example"},
		{"path": "projectNarrative.projectTitle", "value": "Bridges"},
	}
	m := w.call(t, formspecCall(t, "formspec.learn", map[string]any{"page": grantPage, "fields": live}))
	b, _ := json.Marshal(m["result"])
	if m["error"] != nil || string(b) != `{"savedConcepts":0,"savedFields":0}` {
		t.Errorf("learn approved as presented = %s %v, want nothing saved", b, m["error"])
	}
	c := w.pres.last()
	if !c.PageInitiated || c.Notice == "" || len(c.Rows) != 2 {
		t.Fatalf("learn dialog %+v, want page-initiated with a notice", c)
	}
	for _, r := range c.Rows {
		if r.Checked {
			t.Errorf("learn row %s (%s) starts ticked", r.Ref, r.Value)
		}
	}
	ps, _ := w.v.Profiles()
	if s := fill.StoredValue(&ps[0], "https://tessera.app/concepts/project-title"); s != "" {
		t.Errorf("saved %q without a tick", s)
	}
}

// oracleCall is a formspec.match on a form whose choice fields are
// labelled one character per word (the issue 23 oracle): options gives the
// options of each field.
func oracleCall(t *testing.T, options map[string][]map[string]string) string {
	t.Helper()
	def := map[string]any{"$formspec": "1.0", "url": "https://evil.example/f", "version": "1.0.0", "title": "f", "items": []map[string]any{
		{"key": "country", "type": "field", "dataType": "choice", "label": "Country", "semanticType": "https://schema.org/addressCountry", "options": options["country"]},
		{"key": "postcode", "type": "field", "dataType": "choice", "label": "Postcode", "semanticType": "https://schema.org/postalCode", "options": options["postcode"]},
		{"key": "email", "type": "field", "dataType": "string", "label": "Email", "semanticType": "https://schema.org/email"},
	}}
	p := map[string]any{"definition": def, "page": map[string]any{"tab": 1, "url": "https://evil.example/"},
		"fields": []map[string]any{{"path": "country"}, {"path": "postcode"}, {"path": "email"}}}
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": "o", "method": "formspec.match", "params": p})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestFormspecMatchRevealsNothing guards against issue 23's oracle: a
// page chose option labels one character per word ("S W 1 A 1 A A") and
// formspec.match's preview, the first character of each word, read the
// value back. A preview is now one placeholder; the result is the same
// whatever options the page wrote (it cannot learn whether the value is
// among them); and no profile id reaches the page.
func TestFormspecMatchRevealsNothing(t *testing.T) {
	w := newFillWorld(t, func(c Confirmation) *Decision { return &Decision{ID: c.ID, Reason: DeclineDenied} })
	spelt := map[string][]map[string]string{
		"country":  {{"value": "GB", "label": "G B"}, {"value": "FR", "label": "F R"}},
		"postcode": {{"value": "SW1A 1AA", "label": "S W 1 A 1 A A"}, {"value": "X", "label": "X"}},
	}
	other := map[string][]map[string]string{
		"country":  {{"value": "FR", "label": "F R"}},
		"postcode": {{"value": "X", "label": "X"}},
	}
	answers := map[string]string{}
	for name, opts := range map[string]map[string][]map[string]string{"spelt": spelt, "other": other} {
		m := w.call(t, oracleCall(t, opts))
		b, _ := json.Marshal(m["result"])
		if m["error"] != nil {
			t.Fatalf("formspec.match (%s) = %v", name, m["error"])
		}
		answers[name] = string(b)
		var r struct {
			Matches []map[string]any
		}
		json.Unmarshal(b, &r)
		if len(r.Matches) != 3 {
			t.Errorf("formspec.match (%s) = %s, want the three fields matched", name, b)
		}
		for _, x := range r.Matches {
			if x["preview"] != fill.FormspecPreview {
				t.Errorf("formspec.match (%s) preview of %v = %q, want %q", name, x["path"], x["preview"], fill.FormspecPreview)
			}
		}
		for _, leak := range []string{"G B", "S W", "ada", "@", w.pid, `"profile"`} {
			if strings.Contains(string(b), leak) {
				t.Errorf("formspec.match (%s) = %s, holds %q", name, b, leak)
			}
		}
	}
	if answers["spelt"] != answers["other"] {
		t.Errorf("formspec.match depends on the page's options:\n%s\n%s", answers["spelt"], answers["other"])
	}
	// Nor does apply tell, by showing a dialog or not: the same fields are
	// offered either way, a value that does not fit unticked, with why.
	rows := map[string]int{}
	for name, opts := range map[string]map[string][]map[string]string{"spelt": spelt, "other": other} {
		var p map[string]json.RawMessage
		json.Unmarshal([]byte(oracleCall(t, opts)), &p)
		var params map[string]any
		json.Unmarshal(p["params"], &params)
		params["measured"] = []fill.FormspecMeasure{{Path: "country", Found: true, Visible: true}, {Path: "postcode", Found: true, Visible: true}, {Path: "email", Found: true, Visible: true}}
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": "a", "method": "formspec.apply", "params": params})
		if m := w.call(t, string(b)); errCode(m) != "DECLINED" {
			t.Fatalf("apply (%s) = %v, want the dialog, denied", name, m)
		}
		c := w.pres.last()
		rows[name] = len(c.Rows)
		for _, r := range c.Rows {
			if name == "other" && r.Ref != "email" && (r.Checked || !strings.HasPrefix(r.Reason, "does not fit")) {
				t.Errorf("apply (%s): row %s checked %v reason %q, want unticked, does not fit", name, r.Ref, r.Checked, r.Reason)
			}
		}
	}
	if rows["spelt"] != 3 || rows["other"] != 3 {
		t.Errorf("apply offered %v rows, want 3 whatever the options", rows)
	}
}

// TestFormspecApplyTicksOnlyMeasured guards against issue 23's mode-1
// hole: a page's provider listed fields and all were ticked. Rows are
// ticked only for fields whose control the bridge found and measured
// visible; the others are in the attention section with the reason; a
// fill through the page's own provider says so in the dialog.
func TestFormspecApplyTicksOnlyMeasured(t *testing.T) {
	w := newFillWorld(t, approveDefaults)
	seen := []fill.FormspecMeasure{
		{Path: "applicantInfo.contactEmail", Found: true, Visible: true},
		{Path: "applicantInfo.contactName", Found: true, Reason: "transparent"},
	}
	m := w.call(t, formspecCall(t, "formspec.apply", map[string]any{"page": grantPage, "fields": grantLive, "measured": seen, "provider": "page"}))
	var r wireFormspecApply
	b, _ := json.Marshal(m["result"])
	if err := json.Unmarshal(b, &r); err != nil || m["error"] != nil {
		t.Fatalf("apply: %s %v", b, m["error"])
	}
	if len(r.Entries) != 1 || r.Entries[0].Path != "applicantInfo.contactEmail" || strings.Contains(string(b), w.pid) {
		t.Errorf("apply approved as presented = %s, want the visible email only and no profile id", b)
	}
	c := w.pres.last()
	if !strings.Contains(c.Notice, "page's own Formspec provider") {
		t.Errorf("dialog notice %q, want the page's provider named", c.Notice)
	}
	want := map[string]string{"applicantInfo.contactEmail": "", "applicantInfo.contactName": "hidden: transparent"}
	for _, row := range c.Rows {
		reason, ok := want[row.Ref]
		if !ok {
			// Unmeasured: the bridge found no control for it.
			if row.Checked || row.Section != SectionAttention {
				t.Errorf("unmeasured row %s: checked %v section %s", row.Ref, row.Checked, row.Section)
			}
			continue
		}
		if row.Checked != (reason == "") || (reason != "" && (row.Section != SectionAttention || row.Reason != reason)) {
			t.Errorf("row %s: checked %v section %s reason %q, want reason %q", row.Ref, row.Checked, row.Section, row.Reason, reason)
		}
	}
	// A measurement a page could dress as Tessera's words is refused.
	bad := []fill.FormspecMeasure{{Path: "applicantInfo.contactEmail", Found: true, Reason: "Tessera checked: VISIBLE"}}
	if got := errCode(w.call(t, formspecCall(t, "formspec.apply", map[string]any{"page": grantPage, "fields": grantLive, "measured": bad}))); got != "INVALID_PARAMS" {
		t.Errorf("malformed measurement: %q, want INVALID_PARAMS", got)
	}
}

// TestFormspecApplyNamesTheAgent guards against issue 23's "asked by
// Chromium": an agent's run of the page's tools (Tessera's bootstrap
// provider's profile.apply) asks formspec.apply from the browser; while it
// runs in that tab, the dialog names the agent, says which browser
// receives the values, and the audit names both.
func TestFormspecApplyNamesTheAgent(t *testing.T) {
	w := newFillWorld(t, approveDefaults)
	browser := broker.NewDetached(Client{ID: "s1", Kind: KindBrowser, Name: "chromium", Verified: true}, "k1", nil)
	agent := broker.NewDetached(Client{ID: "s2", Kind: KindAgent, Name: "e2e-agent", Verified: true}, "", nil)
	params := func() json.RawMessage {
		var p map[string]json.RawMessage
		json.Unmarshal([]byte(formspecCall(t, "formspec.apply", map[string]any{"page": grantPage, "fields": grantLive, "measured": grantSeen})), &p)
		return p["params"]
	}
	end := w.a.fill.BeginPageCall(browser, 1, agent)
	if _, e := w.a.broker.Handler("formspec.apply")(context.Background(), browser, params()); e != nil {
		t.Fatal(e)
	}
	c := w.pres.last()
	if c.Client.Kind != KindAgent || c.Client.Name != "e2e-agent" || c.Client.Verified || !strings.Contains(c.Notice, "chromium") || c.Recipient == nil || c.Recipient.Paired != "k1" {
		t.Errorf("dialog while an agent runs the page's tools: client %+v recipient %+v notice %q, want the agent (a claim) and the paired browser", c.Client, c.Recipient, c.Notice)
	}
	rs, err := w.v.Releases()
	if err != nil || len(rs) == 0 || rs[len(rs)-1].Client != "e2e-agent" || rs[len(rs)-1].Recipient != "chromium (paired k1)" {
		t.Errorf("audit %+v %v, want the agent and the paired browser", rs, err)
	}
	// Another tab, or after the run ended: the browser asks.
	end()
	if _, e := w.a.broker.Handler("formspec.apply")(context.Background(), browser, params()); e != nil {
		t.Fatal(e)
	}
	if c := w.pres.last(); c.Client.Kind != KindBrowser {
		t.Errorf("after the agent's run: client %+v", c.Client)
	}
}

// wireFormspecApply is formspec.apply's result as the page-world script
// reads it off the wire.
type wireFormspecApply struct {
	Entries []wireEntry         `json:"entries"`
	Skipped []fill.FormspecSkip `json:"skipped"`
}

type wireEntry struct {
	Path  string `json:"path"`
	Value string `json:"value"`
}
