//go:build e2e && linux

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// The Formspec Assist tests (issue 14) run the test pages under
// testdata/pages/formspec: the real example definitions in a minimal
// stand-in of the Formspec renderer (engine.js), with Tessera's own sidecars.

// formspecMode asks the service worker which mode the tab at url is in.
func formspecMode(t *testing.T, sw context.Context, url string) (mode int, why string, tools []string) {
	t.Helper()
	var last string
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		r, err := Eval[json.RawMessage](sw, fmt.Sprintf(`(async () => {
			const tabs = await chrome.tabs.query({url: %q});
			if (tabs.length !== 1) return null;
			return await globalThis.tessera.formspecMode(tabs[0].id);
		})()`, url))
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			Detection *struct {
				Mode  int
				Why   string
				Tools []string
			}
		}
		last = string(r)
		if json.Unmarshal(r, &m) == nil && m.Detection != nil && (m.Detection.Mode != 3 || strings.Contains(url, "register")) {
			// Mode 2 needs the engine loaded; wait for its tools.
			if m.Detection.Mode != 2 || len(m.Detection.Tools) > 0 {
				return m.Detection.Mode, m.Detection.Why, m.Detection.Tools
			}
		}
	}
	t.Fatalf("no mode detected for %s: %s", url, last)
	return 0, "", nil
}

// toolResult is the §4.1 envelope with its payload parsed.
type toolResult struct {
	IsError bool            `json:"isError"`
	Payload json.RawMessage `json:"payload"`
}

// callTool calls an Assist tool as a page script would, through the page's
// model context, and parses the envelope.
func callTool(t *testing.T, tab context.Context, name string, input any) toolResult {
	t.Helper()
	in, _ := json.Marshal(input)
	s, err := Eval[string](tab, fmt.Sprintf(`(async () => {
		const mc = document.modelContext ?? navigator.modelContext;
		const r = await mc.executeTool(%q, %s);
		return typeof r === 'string' ? r : JSON.stringify(r);
	})()`, name, in))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var env struct {
		Content []struct{ Type, Text string }
		IsError bool
	}
	if err := json.Unmarshal([]byte(s), &env); err != nil || len(env.Content) != 1 || env.Content[0].Type != "text" {
		t.Fatalf("%s: not an Assist envelope: %s", name, s)
	}
	if !json.Valid([]byte(env.Content[0].Text)) {
		t.Fatalf("%s: text is not JSON: %s", name, env.Content[0].Text)
	}
	return toolResult{IsError: env.IsError, Payload: json.RawMessage(env.Content[0].Text)}
}

func wantOK(t *testing.T, r toolResult, name string) json.RawMessage {
	t.Helper()
	if r.IsError {
		t.Fatalf("%s failed: %s", name, r.Payload)
	}
	return r.Payload
}

func wantError(t *testing.T, r toolResult, name, code string) {
	t.Helper()
	var e struct{ Code string }
	if !r.IsError || json.Unmarshal(r.Payload, &e) != nil || e.Code != code {
		t.Errorf("%s: want error %s, got %s (isError %v)", name, code, r.Payload, r.IsError)
	}
}

func engineValue(t *testing.T, tab context.Context, path string) any {
	t.Helper()
	v, err := Eval[any](tab, fmt.Sprintf(`document.querySelector('formspec-render').getEngine().getFieldVM(%q).value.value`, path))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// testFormspecModes checks detection: mode 2 on a live Formspec form
// without tools (Tessera registers the catalog), mode 1 on a page with its
// own provider (Tessera registers nothing), mode 3 on a plain form.
func testFormspecModes(t *testing.T, f *fillEnv) {
	tab, url := f.open(t, "/formspec/grant.html")
	mode, why, tools := formspecMode(t, f.sw, url)
	if mode != 2 || !strings.Contains(why, "formspec-render") {
		t.Errorf("grant.html: mode %d (%s)", mode, why)
	}
	want := []string{"formspec.form.describe", "formspec.field.list", "formspec.field.describe", "formspec.field.help", "formspec.form.progress",
		"formspec.field.set", "formspec.field.bulkSet", "formspec.form.validate", "formspec.field.validate",
		"formspec.profile.match", "formspec.profile.apply", "formspec.profile.learn", "formspec.form.pages", "formspec.form.nextIncomplete"}
	if strings.Join(tools, ",") != strings.Join(want, ",") {
		t.Errorf("mode 2 tools %v, want %v", tools, want)
	}
	listed, err := Eval[[]string](tab, `(navigator.modelContext.getTools()).map((t) => t.name)`)
	if err != nil || len(listed) != len(want) {
		t.Errorf("the page's model context lists %v (%v)", listed, err)
	}

	tab1, url1 := f.open(t, "/formspec/benefits.html")
	mode, why, tools = formspecMode(t, f.sw, url1)
	if mode != 1 || len(tools) != 6 {
		t.Errorf("benefits.html: mode %d (%s) tools %v", mode, why, tools)
	}
	// Tessera registered nothing beside the page's own provider.
	d := wantOK(t, callTool(t, tab1, "formspec.form.describe", map[string]any{}), "describe")
	if !strings.Contains(string(d), `"provider":"page"`) {
		t.Errorf("mode 1 describe answered by %s", d)
	}
	if n, _ := Eval[int](tab1, `navigator.modelContext.getTools().length`); n != 6 {
		t.Errorf("mode 1 page has %d tools, want its own 6", n)
	}

	tab3, url3 := f.open(t, "/register.html")
	if mode, why, _ = formspecMode(t, f.sw, url3); mode != 3 {
		t.Errorf("register.html: mode %d (%s)", mode, why)
	}
	if has, _ := Eval[bool](tab3, `'modelContext' in navigator`); has {
		t.Error("a plain page got a model context")
	}
}

// testFormspecBootstrapTools runs every tool of the mode-2 provider on the
// grant application, happy paths and error codes, and help resolution from
// two References documents through the app.
func testFormspecBootstrapTools(t *testing.T, f *fillEnv) {
	tab, url := f.open(t, "/formspec/grant.html")
	formspecMode(t, f.sw, url)

	d := wantOK(t, callTool(t, tab, "formspec.form.describe", map[string]any{}), "describe")
	var desc struct {
		Title, URL, Version   string
		FieldCount, PageCount int
	}
	json.Unmarshal(d, &desc)
	if desc.Title != "Federal Grant Application" || desc.URL != "https://example.gov/forms/grant-application" || desc.FieldCount < 40 || desc.PageCount != 6 {
		t.Errorf("describe %s", d)
	}

	// field.help: both documents, wildcard ancestors, priority order, audience.
	h := wantOK(t, callTool(t, tab, "formspec.field.help", map[string]any{"path": "budget.lineItems[1].unitCost"}), "help")
	var help struct {
		Path       string
		References map[string][]struct{ ID, Target, Priority string }
		Concept    *struct{ Concept string }
	}
	json.Unmarshal(h, &help)
	ids := func(typ string) string {
		var s []string
		for _, e := range help.References[typ] {
			s = append(s, e.ID)
		}
		return strings.Join(s, ",")
	}
	if ids("context") != "lines-wild,agency-context,lines-stripped,unit-cost-agent,form-context" || ids("regulation") != "cfr-200,agency-cap,cfr-200" {
		t.Errorf("help order: context %q regulation %q", ids("context"), ids("regulation"))
	}
	if _, ok := help.References["documentation"]; ok {
		t.Error("human-only documentation reached the agent audience")
	}
	hh := wantOK(t, callTool(t, tab, "formspec.field.help", map[string]any{"path": "budget.lineItems[0].unitCost", "audience": "human"}), "help human")
	if !strings.Contains(string(hh), `"unit-cost-help"`) || strings.Contains(string(hh), `"unit-cost-agent"`) {
		t.Errorf("human help %s", hh)
	}
	wantError(t, callTool(t, tab, "formspec.field.help", map[string]any{"path": "budget..x"}), "help bad path", "INVALID_PATH")
	wantError(t, callTool(t, tab, "formspec.field.help", map[string]any{"path": "budget.lineItems[7].unitCost"}), "help missing instance", "NOT_FOUND")
	wantError(t, callTool(t, tab, "formspec.field.help", map[string]any{"path": "budget.lineItems[0].unitCost", "audience": "robots"}), "help audience", "INVALID_VALUE")
	wantError(t, callTool(t, tab, "formspec.field.help", map[string]any{"path": "budget", "extra": 1}), "help unknown input", "INVALID_VALUE")

	// field.describe carries live state and help.
	fd := wantOK(t, callTool(t, tab, "formspec.field.describe", map[string]any{"path": "projectPhases[1].phaseTasks[0].hours"}), "describe field")
	if !strings.Contains(string(fd), `"repeatIndex":0`) || !strings.Contains(string(fd), `"hours"`) {
		t.Errorf("field.describe %s", fd)
	}

	// Mutations: set, readonly, non-relevant, invalid, bulk.
	wantOK(t, callTool(t, tab, "formspec.field.set", map[string]any{"path": "budget.lineItems[1].quantity", "value": 3}), "set")
	if v := engineValue(t, tab, "budget.lineItems[1].quantity"); v != float64(3) {
		t.Errorf("quantity after set = %v", v)
	}
	wantError(t, callTool(t, tab, "formspec.field.set", map[string]any{"path": "budget.lineItems[1].subtotal", "value": 9}), "set calculated", "READONLY")
	wantError(t, callTool(t, tab, "formspec.field.set", map[string]any{"path": "subcontractors[0].subOrg", "value": "X"}), "set non-relevant", "NOT_RELEVANT")
	wantError(t, callTool(t, tab, "formspec.field.set", map[string]any{"path": "budget.lineItems[0].quantity", "value": "many"}), "set bad integer", "INVALID_VALUE")
	wantError(t, callTool(t, tab, "formspec.field.set", map[string]any{"path": "budget.nope", "value": 1}), "set unknown", "NOT_FOUND")
	b := wantOK(t, callTool(t, tab, "formspec.field.bulkSet", map[string]any{"entries": []map[string]any{
		{"path": "applicantInfo.orgName", "value": "Bridges Trust"},
		{"path": "applicantInfo.orgNameUpper", "value": "X"},
		{"path": "budget.usesSubcontractors", "value": true},
	}}), "bulkSet")
	if !strings.Contains(string(b), `"summary":{"accepted":2,"rejected":1,"errors":1}`) || !strings.Contains(string(b), `"READONLY"`) {
		t.Errorf("bulkSet %s", b)
	}
	// usesSubcontractors made the subcontractors relevant.
	wantOK(t, callTool(t, tab, "formspec.field.set", map[string]any{"path": "subcontractors[0].subOrg", "value": "Acme"}), "set now relevant")
	// Omitting value clears the field (§3.3).
	wantOK(t, callTool(t, tab, "formspec.field.set", map[string]any{"path": "subcontractors[0].subOrg"}), "clear")
	if v := engineValue(t, tab, "subcontractors[0].subOrg"); v != nil {
		t.Errorf("cleared value = %v", v)
	}

	// Validation and progress.
	wantOK(t, callTool(t, tab, "formspec.field.set", map[string]any{"path": "budget.lineItems[0].unitCost", "value": -5}), "set negative")
	fv := wantOK(t, callTool(t, tab, "formspec.field.validate", map[string]any{"path": "budget.lineItems[0].unitCost"}), "field.validate")
	if !strings.Contains(string(fv), "Unit cost must not be negative") {
		t.Errorf("field.validate %s", fv)
	}
	sub := wantOK(t, callTool(t, tab, "formspec.form.validate", map[string]any{"mode": "submit"}), "validate submit")
	alias := wantOK(t, callTool(t, tab, "formspec.form.validate", map[string]any{"profile": "submit"}), "validate profile alias")
	if !strings.Contains(string(sub), `"REQUIRED"`) || string(sub) != string(alias) {
		t.Errorf("validate submit %s / alias %s", sub, alias)
	}
	wantError(t, callTool(t, tab, "formspec.form.validate", map[string]any{"mode": "eventually"}), "validate mode", "INVALID_VALUE")
	list := wantOK(t, callTool(t, tab, "formspec.field.list", map[string]any{"filter": "invalid"}), "list invalid")
	if !strings.Contains(string(list), `"budget.lineItems[0].unitCost"`) {
		t.Errorf("list invalid %s", list)
	}
	pr := wantOK(t, callTool(t, tab, "formspec.form.progress", map[string]any{}), "progress")
	if !strings.Contains(string(pr), `"pages":[{"id":"applicantInfo"`) {
		t.Errorf("progress %s", pr)
	}
	pages := wantOK(t, callTool(t, tab, "formspec.form.pages", map[string]any{}), "pages")
	if !strings.Contains(string(pages), `"id":"budget"`) || !strings.Contains(string(pages), `"id":"subcontractors"`) {
		t.Errorf("pages %s", pages)
	}
	next := wantOK(t, callTool(t, tab, "formspec.form.nextIncomplete", map[string]any{"scope": "field"}), "nextIncomplete")
	// Document order: the first relevant, writable field that is empty and
	// required or invalid (orgName was filled by bulkSet above).
	if !strings.Contains(string(next), `"path":"applicantInfo.ein"`) || !strings.Contains(string(next), `"reason":"required"`) {
		t.Errorf("nextIncomplete %s", next)
	}
	np := wantOK(t, callTool(t, tab, "formspec.form.nextIncomplete", map[string]any{"scope": "page"}), "nextIncomplete page")
	if !strings.Contains(string(np), `"pageId":"applicantInfo"`) || strings.Contains(string(np), `"path"`) {
		t.Errorf("nextIncomplete page %s", np)
	}
}

// testFormspecProfileTools: match gives page scripts masked previews only;
// apply fills only what the person approved (the testhooks app approves the
// dialog as shown); learn saves through the learn dialog.
func testFormspecProfileTools(t *testing.T, f *fillEnv) {
	tab, url := f.open(t, "/formspec/grant.html")
	formspecMode(t, f.sw, url)
	m := wantOK(t, callTool(t, tab, "formspec.profile.match", map[string]any{}), "match")
	var match struct {
		Matches []struct {
			Path, Concept string
			Value         string
			Masked        bool
		}
	}
	json.Unmarshal(m, &match)
	prof := profileValues(t)
	byPath := map[string]string{}
	for _, x := range match.Matches {
		byPath[x.Path] = x.Value
		if !x.Masked || !strings.Contains(x.Value, "•") {
			t.Errorf("match %s not masked: %q", x.Path, x.Value)
		}
	}
	for _, v := range prof {
		if len(v) > 3 && strings.Contains(string(m), v) {
			t.Errorf("match leaked the profile value %q to the page: %s", v, m)
		}
	}
	if _, ok := byPath["applicantInfo.contactEmail"]; !ok {
		t.Fatalf("no match for the contact email: %s", m)
	}
	// The published provider's spelling (profileRef) is accepted too.
	wantOK(t, callTool(t, tab, "formspec.profile.match", map[string]any{"profileRef": ""}), "match profileRef")

	a := wantOK(t, callTool(t, tab, "formspec.profile.apply", map[string]any{"entries": []map[string]any{{"path": "applicantInfo.contactEmail", "value": "forged@evil.example"}}, "confirm": true}), "apply")
	if v := engineValue(t, tab, "applicantInfo.contactEmail"); v != prof["https://schema.org/email"] {
		t.Errorf("contact email after approved apply = %v, want the vault's %q (apply result %s)", v, prof["https://schema.org/email"], a)
	}
	if strings.Contains(string(a), "forged@evil.example") {
		t.Errorf("apply used the page's value: %s", a)
	}
	// Issue 23: whoever calls the tool (a page script, an agent through the
	// page's tools) learns which paths were filled, never the value.
	if !strings.Contains(string(a), `"filled":[{"path":"applicantInfo.contactEmail"`) || strings.Contains(string(a), prof["https://schema.org/email"]) {
		t.Errorf("apply result %s: want the filled path and no value", a)
	}
	// Nor does a read tool give back what Tessera wrote.
	for _, c := range []struct {
		tool  string
		input map[string]any
	}{
		{"formspec.field.describe", map[string]any{"path": "applicantInfo.contactEmail"}},
		{"formspec.form.validate", map[string]any{}},
		{"formspec.field.list", map[string]any{"filter": "all"}},
	} {
		if r := wantOK(t, callTool(t, tab, c.tool, c.input), c.tool); strings.Contains(string(r), prof["https://schema.org/email"]) {
			t.Errorf("%s gives back the value Tessera wrote: %s", c.tool, r)
		}
	}
	if v := engineValue(t, tab, "applicantInfo.contactName"); v != nil {
		t.Errorf("a path not asked for was filled: %v", v)
	}
	evs, _ := f.app.DialogEvents()
	if len(evs) == 0 {
		t.Error("apply filled without a dialog")
	}

	// Issue 23: profile.learn is the page's script asking, not a submit of
	// the person's: the dialog says so and starts with no row ticked, so
	// approving it as presented saves nothing.
	wantOK(t, callTool(t, tab, "formspec.field.set", map[string]any{"path": "projectNarrative.projectTitle", "value": "Bridges for all"}), "set title")
	l := wantOK(t, callTool(t, tab, "formspec.profile.learn", map[string]any{}), "learn")
	if string(l) != `{"savedConcepts":0,"savedFields":0}` {
		t.Errorf("learn approved as presented = %s, want nothing saved", l)
	}
	ev := lastPresented(t, f.app)
	if ev.Kind != "learn" || ev.Rows == 0 || ev.Checked != 0 || !ev.PageInitiated || ev.Notice == "" {
		t.Errorf("page-initiated learn dialog %+v: want rows, none ticked, said to be the page's asking", ev)
	}
}

// lastPresented is the last dialog the app presented.
func lastPresented(t *testing.T, app *App) AppEvent {
	t.Helper()
	evs, err := app.DialogEvents()
	if err != nil {
		t.Fatal(err)
	}
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Event == "presented" {
			return evs[i]
		}
	}
	t.Fatalf("no dialog presented: %+v", evs)
	return AppEvent{}
}

// testFormspecOracle guards against issue 23's oracle: a page script, with
// no gesture, asks Tessera's bootstrap provider to match a Formspec form the
// person cannot see, whose choice options are labelled one character per
// word ("1 9 9 0 - 1 2 - 1 0"); the masked preview read the value back.
// Now a match says that a value of some kind exists and nothing else: the
// same placeholder for every field, the same answer whether or not the
// page's options hold the value, no profile id; and an apply on that form
// ticks nothing.
func testFormspecOracle(t *testing.T, f *fillEnv) {
	tab, url := f.open(t, "/formspec/oracle.html")
	if mode, why, _ := formspecMode(t, f.sw, url); mode != 2 {
		t.Fatalf("oracle.html: mode %d (%s)", mode, why)
	}
	m := wantOK(t, callTool(t, tab, "formspec.profile.match", map[string]any{}), "match")
	var match struct {
		Matches []struct {
			Path, Value string
			Confidence  float64
		}
	}
	if err := json.Unmarshal(m, &match); err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, x := range match.Matches {
		got[x.Path] = x.Confidence
		if x.Value != "•••" {
			t.Errorf("match %s: value %q, want the placeholder •••", x.Path, x.Value)
		}
	}
	for _, leak := range []string{"1 9", "9 4", "1990", "94105", "ada", "+1", "profileId", "profileRef", `"profile"`} {
		if strings.Contains(string(m), leak) {
			t.Errorf("match gives the page %q: %s", leak, m)
		}
	}
	// dobA's options hold the birth date, dobB's do not: the page must not
	// be able to tell which.
	if _, ok := got["dobA"]; !ok || got["dobA"] != got["dobB"] {
		t.Errorf("match depends on the page's options: %s", m)
	}
	if _, ok := got["email"]; !ok {
		t.Errorf("no match for the email: %s", m)
	}

	// Apply offers the same fields whether or not the value fits the
	// page's options (dobB's do not hold it): no dialog, or one row fewer,
	// would tell.
	a := wantOK(t, callTool(t, tab, "formspec.profile.apply", map[string]any{"matches": []map[string]any{{"path": "email"}, {"path": "dobA"}, {"path": "dobB"}, {"path": "zip"}}}), "apply")
	ev := lastPresented(t, f.app)
	if ev.Kind != "fill" || ev.Rows != 4 || ev.Checked != 0 || ev.Attention != ev.Rows {
		t.Errorf("apply on a form nobody sees: dialog %+v, want every row unticked, in the attention section", ev)
	}
	if !strings.Contains(string(a), `"filled":[]`) || strings.Contains(string(a), "ada@") {
		t.Errorf("apply on a form nobody sees = %s, want nothing filled", a)
	}
	if v := engineValue(t, tab, "email"); v != nil {
		t.Errorf("the invisible email got %v", v)
	}
}

// testFormspecOneBox guards against issue 23's mode-1 hole: a page runs its
// own Assist provider, which lists every field of the form, while the
// person sees one email box (the phone box is transparent, the postal code
// off-screen, the city has no control, the rest display:none). The
// person's Fill through that provider ticks the email only; the dialog
// puts the others in its attention section and says the fill goes through
// the page's own provider; approved as presented, only the email reaches
// the page.
func testFormspecOneBox(t *testing.T, f *fillEnv) {
	tab, url := f.open(t, "/formspec/onebox.html")
	if mode, why, _ := formspecMode(t, f.sw, url); mode != 1 {
		t.Fatalf("onebox.html: mode %d (%s)", mode, why)
	}
	r := consumeFill(t, f, url)
	prof := profileValues(t)
	if r.Status != "filled" || len(r.Fields) != 1 || r.Fields[0].Ref != "renewalContact.renewalEmail" || r.Fields[0].Outcome != "filled" {
		t.Errorf("mode 1 fill of one visible box = %+v, want the email only", r)
	}
	if v := engineValue(t, tab, "renewalContact.renewalEmail"); v != prof["https://schema.org/email"] {
		t.Errorf("email = %v", v)
	}
	for _, p := range []string{"renewalContact.renewalPhone", "household.renewalCity", "household.renewalPostalCode", "household.renewalStreet"} {
		if v := engineValue(t, tab, p); v != nil {
			t.Errorf("%s, which the person cannot see, got %v", p, v)
		}
	}
	ev := lastPresented(t, f.app)
	if ev.Checked != 1 || ev.Attention < 3 || !strings.Contains(ev.Notice, "own Formspec provider") {
		t.Errorf("mode 1 dialog %+v: want one row ticked, the unseen ones in the attention section, the page's provider named", ev)
	}
}

// testFormspecApplyDeclined: a denied dialog fills nothing and the page
// learns nothing but DECLINED.
func testFormspecApplyDeclined(t *testing.T, f *fillEnv) {
	tab, url := f.open(t, "/formspec/grant.html")
	formspecMode(t, f.sw, url)
	// No matches given: nothing to apply, and no dialog.
	e := wantOK(t, callTool(t, tab, "formspec.profile.apply", map[string]any{"matches": []any{}}), "apply nothing")
	if !strings.HasPrefix(string(e), `{"filled":[],"skipped":[]`) {
		t.Errorf("apply of no matches %s", e)
	}
	if evs, _ := f.app.DialogEvents(); len(evs) != 0 {
		t.Errorf("apply of no matches asked the person: %+v", evs)
	}
	a := wantOK(t, callTool(t, tab, "formspec.profile.apply", map[string]any{"matches": []map[string]any{{"path": "applicantInfo.contactEmail"}}}), "apply")
	if !strings.Contains(string(a), `"reason":"DECLINED"`) || strings.Contains(string(a), "@") {
		t.Errorf("declined apply %s", a)
	}
	if v := engineValue(t, tab, "applicantInfo.contactEmail"); v != nil {
		t.Errorf("declined apply filled %v", v)
	}
}

// testFormspecSidecarDiscovery: sibling references.json/ontology.json when
// the page links none (§9 step 4), and x-invalid-sidecar for a linked
// document that targets another form.
func testFormspecSidecarDiscovery(t *testing.T, f *fillEnv) {
	tab, url := f.open(t, "/formspec/intake/index.html")
	formspecMode(t, f.sw, url)
	h := wantOK(t, callTool(t, tab, "formspec.field.help", map[string]any{"path": "patient.phone", "audience": "both"}), "intake help")
	if !strings.Contains(string(h), "FHIR ContactPoint with system phone") || !strings.Contains(string(h), `"concept":{`) {
		t.Errorf("intake help without the sibling sidecars: %s", h)
	}
	tab2, url2 := f.open(t, "/formspec/broken.html")
	formspecMode(t, f.sw, url2)
	wantError(t, callTool(t, tab2, "formspec.field.help", map[string]any{"path": "applicantInfo.orgName"}), "broken sidecar", "x-invalid-sidecar")
	// Core tools still work without usable sidecars (§9).
	wantOK(t, callTool(t, tab2, "formspec.form.describe", map[string]any{}), "describe with a broken sidecar")
}

// testFormspecChannelNotForgeable: the channel between Tessera's page-world
// script and its bridge carries only what any page may ask (the page-world
// script runs in the page's own realm, injected after the page's scripts:
// shared/formspec.ts). A forged hand-over after Tessera's is ignored, and
// the port the page saw being handed over speaks only to Tessera's
// page-world script, which ignores messages without its secret. (A page
// that wins the hand-over speaks to the app's formspec.* methods as any
// page does through the tools: app TestFormspecMatchMaskedAndApply.)
func testFormspecChannelNotForgeable(t *testing.T, f *fillEnv) {
	tab, url := f.open(t, "/formspec/grant.html")
	formspecMode(t, f.sw, url)
	// A forged hand-over with a port the page owns is ignored: calls on it
	// are never answered.
	answered, err := Eval[bool](tab, `(async () => {
		const ch = new MessageChannel();
		let got = false;
		ch.port1.onmessage = () => { got = true; };
		window.postMessage({tessera: 'tessera-formspec-port', secret: 'x'.repeat(48)}, location.origin, [ch.port2]);
		await new Promise((r) => setTimeout(r, 300));
		ch.port1.postMessage({secret: 'x'.repeat(48), kind: 'call', id: 1, method: 'formspec.apply', params: {}, definition: '{}'});
		await new Promise((r) => setTimeout(r, 1500));
		return got;
	})()`)
	if err != nil || answered {
		t.Errorf("a forged channel was answered (%v)", err)
	}
	if evs, _ := f.app.DialogEvents(); len(evs) != 0 {
		t.Errorf("a forged call reached the app's dialog: %+v", evs)
	}

	// The hand-over the page saw: its port reaches only Tessera's page-world
	// script, which ignores a message without its secret (no dialog).
	if _, err := Eval[bool](tab, `(async () => {
		for (let i = 0; i < 50 && !window.__seen; i++) await new Promise((r) => setTimeout(r, 100));
		if (window.__seen) window.__seen.port.postMessage({ secret: 'w'.repeat(48), kind: 'consume', id: 9 });
		await new Promise((r) => setTimeout(r, 1000));
		return true;
	})()`); err != nil {
		t.Fatal(err)
	}
	if evs, _ := f.app.DialogEvents(); len(evs) != 0 {
		t.Errorf("a message on the seen port reached the app's dialog: %+v", evs)
	}
}

// profileValues are the string values of the test profile's concepts.
func profileValues(t *testing.T) map[string]string {
	t.Helper()
	var p struct {
		Concepts map[string]struct{ Value json.RawMessage }
	}
	b, err := os.ReadFile(fillArt.profile)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for k, e := range p.Concepts {
		var s string
		if json.Unmarshal(e.Value, &s) == nil {
			out[k] = s
		}
	}
	return out
}

// consumeReport is a mode-1 fill's report (FillReport with the provider's
// validation report).
type consumeReport struct {
	Status, Reason, Message string
	Fields                  []struct{ Ref, Outcome string }
	Validation              *struct {
		Valid   bool
		Errors  int
		Results []struct{ Path, Message string }
	}
}

func consumeFill(t *testing.T, f *fillEnv, url string) consumeReport {
	t.Helper()
	ctx, cancel := context.WithTimeout(f.sw, 90*time.Second)
	defer cancel()
	r, err := Eval[consumeReport](ctx, fmt.Sprintf(`(async () => {
		const tabs = await chrome.tabs.query({url: %q});
		return await globalThis.tessera.fill(tabs[0].id);
	})()`, url))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("mode 1 fill: %+v", r)
	return r
}

// testFormspecConsumer: on a page with its own provider (mode 1) the fill
// goes through the provider: its list and help give paths, labels and
// concepts, the app matches and asks, and the approved values are written
// by the provider's bulkSet; its validation report comes back.
func testFormspecConsumer(t *testing.T, f *fillEnv) {
	tab, url := f.open(t, "/formspec/benefits.html")
	if mode, why, _ := formspecMode(t, f.sw, url); mode != 1 {
		t.Fatalf("mode %d (%s)", mode, why)
	}
	r := consumeFill(t, f, url)
	prof := profileValues(t)
	if r.Status != "filled" {
		t.Fatalf("mode 1 fill %+v", r)
	}
	got := map[string]string{}
	for _, x := range r.Fields {
		got[x.Ref] = x.Outcome
	}
	for _, p := range []string{"renewalContact.renewalEmail", "household.renewalCity"} {
		if got[p] != "filled" {
			t.Errorf("%s: outcome %q", p, got[p])
		}
	}
	if v := engineValue(t, tab, "renewalContact.renewalEmail"); v != prof["https://schema.org/email"] {
		t.Errorf("email through the provider = %v", v)
	}
	// The concept came from the provider's equivalents (zip ≈ postalCode).
	if v := engineValue(t, tab, "household.renewalPostalCode"); v != prof["https://schema.org/postalCode"] {
		t.Errorf("postal code through equivalents = %v", v)
	}
	// The provider's validation report: the profile's phone is no 10-digit number.
	if r.Validation == nil || r.Validation.Valid || !strings.Contains(r.Message, "validation error") {
		t.Errorf("no validation report: %+v", r)
	}
	if evs, _ := f.app.DialogEvents(); len(evs) == 0 {
		t.Error("no dialog")
	}
}

// testFormspecConsumerDeclined: a denied dialog writes nothing.
func testFormspecConsumerDeclined(t *testing.T, f *fillEnv) {
	tab, url := f.open(t, "/formspec/benefits.html")
	formspecMode(t, f.sw, url)
	if r := consumeFill(t, f, url); r.Status != "declined" || len(r.Fields) != 0 {
		t.Errorf("declined mode 1 fill %+v", r)
	}
	if v := engineValue(t, tab, "renewalContact.renewalEmail"); v != nil {
		t.Errorf("declined fill wrote %v", v)
	}
}

// testFormspecConsumerLyingProvider: a provider that lists a field it does
// not have, answers help with 1 MiB and never answers help for another
// field gets a bounded wait and a clear report: the ghost field, which has
// no control, is never ticked, the rest is filled.
func testFormspecConsumerLyingProvider(t *testing.T, f *fillEnv) {
	_, url := f.open(t, "/formspec/benefits-lying.html")
	formspecMode(t, f.sw, url)
	r := consumeFill(t, f, url)
	got := map[string]string{}
	for _, x := range r.Fields {
		got[x.Ref] = x.Outcome
	}
	// The ghost has no control on the page: its row waits, unticked, in the
	// attention section (issue 23), so it is never written at all.
	if r.Status != "filled" || got["renewalContact.ghostEmail"] == "filled" || got["household.renewalCity"] != "filled" {
		t.Errorf("lying provider: %+v", r)
	}
	if ev := lastPresented(t, f.app); ev.Attention != 1 {
		t.Errorf("lying provider's dialog %+v: want the ghost (alone) in the attention section", ev)
	}

	_, url2 := f.open(t, "/formspec/benefits-hang.html")
	formspecMode(t, f.sw, url2)
	r2 := consumeFill(t, f, url2)
	if r2.Status != "failed" || r2.Reason != "TIMEOUT" || !strings.Contains(r2.Message, "formspec.field.list did not answer within 5 s") {
		t.Errorf("hanging provider: %+v", r2)
	}
}

// TestFormspecDenied runs the Formspec tests whose dialogs (if any) the
// person denies, in one world (app, vault, browser), in this order: the
// declined applies check first that nothing asked before them.
func TestFormspecDenied(t *testing.T) {
	f := newFillEnv(t, "deny", "")
	for _, c := range []struct {
		name string
		run  func(*testing.T, *fillEnv)
	}{
		{"Modes", testFormspecModes},
		{"BootstrapTools", testFormspecBootstrapTools},
		{"SidecarDiscovery", testFormspecSidecarDiscovery},
		{"ApplyDeclined", testFormspecApplyDeclined},
		{"ConsumerDeclined", testFormspecConsumerDeclined},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t, f) })
	}
}

// TestFormspecApproved runs the Formspec tests whose dialogs the person
// approves, in one world; the forged channel first, which checks that no
// dialog was ever shown.
func TestFormspecApproved(t *testing.T) {
	f := newFillEnv(t, "approve", "")
	for _, c := range []struct {
		name string
		run  func(*testing.T, *fillEnv)
	}{
		{"ChannelNotForgeable", testFormspecChannelNotForgeable},
		{"ProfileTools", testFormspecProfileTools},
		{"Oracle", testFormspecOracle},
		{"OneBox", testFormspecOneBox},
		{"Consumer", testFormspecConsumer},
		{"ConsumerLyingProvider", testFormspecConsumerLyingProvider},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t, f) })
	}
}

// TestFormspecNoWindow: with an app that has no window to confirm in (the
// production build, headless), a page script's profile.apply and learn get
// x-confirmation-required (Assist §3.4) and nothing is written.
//
// The extension must be paired to reach the app at all, and only a window
// (or the test presenter) can approve a pairing; so this runs the testhooks
// build with TESSERA_TEST_DECISION=nowindow, which approves the pairing and
// answers every other dialog as a headless app does (DeclineNoWindow).
// A production headless app refusing the pairing itself for want of a
// window is TestProductionIgnoresDecision.
func TestFormspecNoWindow(t *testing.T) {
	f := newFillEnv(t, "nowindow", "")
	tab, url := f.open(t, "/formspec/grant.html")
	formspecMode(t, f.sw, url)
	wantError(t, callTool(t, tab, "formspec.profile.apply", map[string]any{"matches": []map[string]any{{"path": "applicantInfo.contactEmail"}}, "confirm": true}), "apply without a window", "x-confirmation-required")
	if v := engineValue(t, tab, "applicantInfo.contactEmail"); v != nil {
		t.Errorf("apply without a window wrote %v", v)
	}
	// Something to learn: a value typed into the form that the profile lacks.
	if _, err := Eval[any](tab, `document.querySelector('formspec-render').getEngine().getFieldVM('applicantInfo.contactEmail').setValue('typed@example.org')`); err != nil {
		t.Fatal(err)
	}
	wantError(t, callTool(t, tab, "formspec.profile.learn", map[string]any{}), "learn without a window", "x-confirmation-required")
	// Help and the masked match need no window.
	wantOK(t, callTool(t, tab, "formspec.field.help", map[string]any{"path": "applicantInfo.ein"}), "help without a window")
	wantOK(t, callTool(t, tab, "formspec.profile.match", map[string]any{}), "match without a window")
}
