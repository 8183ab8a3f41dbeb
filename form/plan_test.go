package form

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

const planToolnamePage = `<form toolname="book" tooldescription="Book a table" toolautosubmit>
  <input name="guest" required>
  <input type="number" name="seats" min="1" max="8">
  <input type="date" name="day">
  <select name="room"><option value="main">Main</option><option value="terrace">Terrace</option></select>
  <input type="radio" name="speed" value="slow"><input type="radio" name="speed" value="fast">
  <input type="checkbox" name="highchair">
  <input type="checkbox" name="extras" value="cake"><input type="checkbox" name="extras" value="wine">
  <select name="langs" multiple><option>en</option><option>fr</option></select>
</form>`

const planDraftPage = `<form tool-name="ship" action="/ship" method="post">
  <input name="code" pattern="[A-Z]{3}" minlength="3" maxlength="3">
  <input type="email" name="mail">
  <input type="url" name="site">
  <input type="number" name="qty" min="1" max="10" step="1">
  <input type="date" name="when" min="2026-01-01">
  <input type="datetime-local" name="at">
  <input type="time" name="slot">
  <input name="tag"><input name="tag">
  <fieldset name="addr"><input name="zip" required><input name="city"></fieldset>
  <input type="checkbox" name="opts" value="a"><input type="checkbox" name="opts" value="b">
</form>`

// planConstraintsPage holds the constraints the browser checks on submit
// that Chromium's toolname schema does not state.
const planConstraintsPage = `<form toolname="sub" tooldescription="Subscribe">
  <input type="email" name="mail">
  <input type="email" name="cc" multiple>
  <input type="url" name="site">
  <input type="date" name="from" min="2026-01-01" max="2026-12-31">
  <input type="time" name="at" min="09:00" max="17:00">
  <input type="month" name="mon" min="2026-01">
  <input type="number" name="odd" min="1" step="2">
</form>`

// TestPlanConstraintsAccepted checks that valid values of the same controls
// pass, after the browser's sanitization of email and url values.
func TestPlanConstraintsAccepted(t *testing.T) {
	for _, args := range []string{
		`{"mail":"ada@example.com"}`,
		`{"mail":" ada@example.com\n"}`,
		`{"mail":""}`,
		`{"cc":"ada@example.com, bob@example.org"}`,
		`{"site":"https://example.com/"}`,
		`{"from":"2026-06-01"}`,
		`{"at":"10:30"}`,
		`{"mon":"2026-01"}`,
		`{"odd":3}`,
		`{"odd":"5"}`,
	} {
		if _, err := tool(t, planConstraintsPage, "sub").Plan(json.RawMessage(args)); err != nil {
			t.Errorf("Plan(%s) = %v, want a plan", args, err)
		}
	}
}

// problemsOf returns "param:reason" for each problem of a rejection.
func problemsOf(t *testing.T, err error) []string {
	t.Helper()
	var rej *Rejection
	if !errors.As(err, &rej) {
		t.Fatalf("error = %v, want a *Rejection", err)
	}
	if !errors.Is(err, ErrRejected) {
		t.Errorf("rejection does not wrap ErrRejected")
	}
	var out []string
	for _, p := range rej.Problems {
		out = append(out, p.Param+":"+p.Reason)
	}
	return out
}

// TestPlanRejections checks every rejection case, and that a rejection
// names every bad parameter at once.
func TestPlanRejections(t *testing.T) {
	tests := []struct {
		page, tool, args string
		want             []string
	}{
		{planToolnamePage, "book", `[]`, []string{":arguments"}},
		{planToolnamePage, "book", `{"guest":`, []string{":arguments"}},
		{planToolnamePage, "book", `{"guest":"a","nope":1}`, []string{"nope:unknown"}},
		{planToolnamePage, "book", `{"seats":3}`, []string{"guest:required"}},
		// The key alone does not satisfy a required control (Chromium's
		// form validation refuses an empty value).
		{planToolnamePage, "book", `{"guest":""}`, []string{"guest:required"}},
		{`<form tool-name="t"><input type="checkbox" name="agree" required></form>`, "t", `{"agree":false}`, []string{"agree:required"}},
		{planToolnamePage, "book", `{"guest":"a","seats":"many"}`, []string{"seats:type"}},
		{planToolnamePage, "book", `{"guest":"a","seats":9}`, []string{"seats:range"}},
		{planToolnamePage, "book", `{"guest":"a","seats":2.5}`, []string{"seats:range"}},
		{planToolnamePage, "book", `{"guest":"a","room":"cellar"}`, []string{"room:enum"}},
		{planToolnamePage, "book", `{"guest":"a","speed":"warp"}`, []string{"speed:enum"}},
		{planToolnamePage, "book", `{"guest":"a","day":"tomorrow"}`, []string{"day:format"}},
		{planToolnamePage, "book", `{"guest":"a","highchair":"maybe"}`, []string{"highchair:type"}},
		// Values Chromium 156's executeTool refuses rather than coerces
		// (TestChromiumExecuteTool checks the same calls in the browser).
		{planToolnamePage, "book", `{"guest":"a","highchair":"on"}`, []string{"highchair:type"}},
		{planToolnamePage, "book", `{"guest":"a","highchair":0.5}`, []string{"highchair:type"}},
		{planToolnamePage, "book", `{"guest":"a","highchair":null}`, []string{"highchair:type"}},
		{planToolnamePage, "book", `{"guest":"a","seats":" 3"}`, []string{"seats:type"}},
		{planToolnamePage, "book", `{"guest":"a","seats":"+3"}`, []string{"seats:type"}},
		{planToolnamePage, "book", `{"guest":"a","seats":true}`, []string{"seats:type"}},
		{planToolnamePage, "book", `{"guest":"a","extras":"cake"}`, []string{"extras:type"}},
		{planToolnamePage, "book", `{"guest":null}`, []string{"guest:type"}},
		{planToolnamePage, "book", `{"guest":["x"]}`, []string{"guest:type"}},
		{planToolnamePage, "book", `{"guest":"a","speed":true}`, []string{"speed:enum"}},
		{planToolnamePage, "book", `{"guest":"a","extras":["cake","cake"]}`, []string{"extras:duplicate"}},
		{planToolnamePage, "book", `{"guest":"a","extras":["pie"]}`, []string{"extras:enum"}},
		{planToolnamePage, "book", `{"seats":0,"room":"x","speed":"y","zzz":true}`,
			[]string{"guest:required", "seats:range", "room:enum", "speed:enum", "zzz:unknown"}},
		{planDraftPage, "ship", `{"addr":{"zip":"1"},"code":"ab1"}`, []string{"code:pattern"}},
		{planDraftPage, "ship", `{"addr":{"zip":"1"},"code":"ABCD"}`, []string{"code:length", "code:pattern"}},
		{planDraftPage, "ship", `{"addr":{"zip":"1"},"mail":"not-an-address"}`, []string{"mail:format"}},
		{planDraftPage, "ship", `{"addr":{"zip":"1"},"site":"/relative"}`, []string{"site:format"}},
		{planDraftPage, "ship", `{"addr":{"zip":"1"},"qty":1.5}`, []string{"qty:type"}},
		{planDraftPage, "ship", `{"addr":{"zip":"1"},"qty":"3"}`, []string{"qty:type"}},
		{planDraftPage, "ship", `{"addr":{"zip":"1"},"when":"2025-12-31"}`, []string{"when:range"}},
		{planDraftPage, "ship", `{"addr":{"zip":"1"},"tag":["a","b","c"]}`, []string{"tag:items"}},
		{planDraftPage, "ship", `{"addr":{"city":"X"}}`, []string{"addr.zip:required"}},
		{planDraftPage, "ship", `{"addr":{"zip":"1","planet":"Mars"}}`, []string{"addr.planet:unknown"}},
		{planDraftPage, "ship", `{"addr":{"zip":"1"},"opts":"a"}`, []string{"opts:type"}},
		// What the browser's form validation refuses on submit, in the
		// toolname dialect too (issue 12; TestChromiumExecuteTool checks
		// the same calls in Chromium).
		{planConstraintsPage, "sub", `{"mail":"not-an-email"}`, []string{"mail:format"}},
		{planConstraintsPage, "sub", `{"cc":"ada@example.com, nope"}`, []string{"cc:format"}},
		{planConstraintsPage, "sub", `{"site":"example.com"}`, []string{"site:format"}},
		{planConstraintsPage, "sub", `{"from":"2025-12-31"}`, []string{"from:range"}},
		{planConstraintsPage, "sub", `{"from":"2027-01-01"}`, []string{"from:range"}},
		{planConstraintsPage, "sub", `{"at":"08:00"}`, []string{"at:range"}},
		{planConstraintsPage, "sub", `{"mon":"2025-12"}`, []string{"mon:range"}},
		{planConstraintsPage, "sub", `{"odd":4}`, []string{"odd:range"}},
		{planConstraintsPage, "sub", `{"odd":"4"}`, []string{"odd:range"}},
		{`<form tool-name="t"><input type="file" name="f" multiple required></form>`, "t", `{"f":[]}`, []string{"f:required"}},
		{`<form tool-name="t"><input type="file" name="f" multiple></form>`, "t", `{"f":"aGk="}`, []string{"f:type"}},
	}
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.args, func(t *testing.T) {
			plan, err := tool(t, tt.page, tt.tool).Plan(json.RawMessage(tt.args))
			if got := problemsOf(t, err); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Plan(%s) problems = %q, want %q", tt.args, got, tt.want)
			}
			if plan.Fills != nil {
				t.Errorf("Plan(%s) rejected but returned fills %v", tt.args, plan.Fills)
			}
		})
	}
}

// fillsOf renders fills as "ref=value" strings for comparison.
func fillsOf(p FillPlan) []string {
	var out []string
	for _, f := range p.Fills {
		switch {
		case f.Value != nil:
			out = append(out, fmt.Sprintf("%s=%q", f.Ref, *f.Value))
		case f.Checked != nil:
			out = append(out, fmt.Sprintf("%s=%v", f.Ref, *f.Checked))
		case f.Files != nil:
			out = append(out, fmt.Sprintf("%s=files%q", f.Ref, f.Files))
		default:
			out = append(out, fmt.Sprintf("%s=%q", f.Ref, f.Selected))
		}
	}
	return out
}

// TestPlanFills checks the fills of accepted calls, including Chromium's
// coercions in the toolname dialect.
func TestPlanFills(t *testing.T) {
	tests := []struct {
		page, tool, args string
		want             []string
	}{
		{planToolnamePage, "book", `{"guest":"Ada","seats":2,"day":"2026-05-01","room":"terrace","speed":"fast","highchair":true,"extras":["wine"],"langs":["fr"]}`,
			[]string{`c0="Ada"`, `c1="2"`, `c2="2026-05-01"`, `c3="terrace"`, `c5=true`, `c6=true`, `c7=false`, `c8=true`, `c9=["fr"]`}},
		// Chromium's coercions: a number for a string, a numeric string
		// for a number, "TRUE", "0" or a whole number for a checkbox.
		{planToolnamePage, "book", `{"guest":42,"seats":"3","highchair":"TRUE"}`,
			[]string{`c0="42"`, `c1="3"`, `c6=true`}},
		{planToolnamePage, "book", `{"guest":true,"seats":"1e0","highchair":"0"}`,
			[]string{`c0="true"`, `c1="1e0"`, `c6=false`}},
		{planToolnamePage, "book", `{"guest":123456789012,"highchair":2}`,
			[]string{`c0="1.23457e+11"`, `c6=true`}},
		{planToolnamePage, "book", `{"guest":"a","seats":2.0,"extras":[]}`,
			[]string{`c0="a"`, `c1="2"`, `c7=false`, `c8=false`}},
		{planDraftPage, "ship", `{"code":"ABC","qty":4,"at":"2026-05-01T10:30:00+02:00","slot":"09:15:00Z","tag":["x"],"addr":{"zip":"75001"},"opts":["b"]}`,
			[]string{`c0="ABC"`, `c3="4"`, `c5="2026-05-01T10:30:00"`, `c6="09:15:00"`, `c7="x"`, `c8=""`, `c9="75001"`, `c11=false`, `c12=true`}},
		// input[type=file][multiple] takes one base64 content per file;
		// required on a hidden input means nothing, as in HTML (issue 12).
		{`<form tool-name="t"><input type="file" name="f" multiple></form>`, "t", `{"f":["aGk=","eW8="]}`,
			[]string{`c0=files["aGk=" "eW8="]`}},
		{`<form tool-name="t"><input type="hidden" name="h" required><input name="a"></form>`, "t", `{"a":"x","h":""}`,
			[]string{`c0=""`, `c1="x"`}},
	}
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.args, func(t *testing.T) {
			plan, err := tool(t, tt.page, tt.tool).Plan(json.RawMessage(tt.args))
			if err != nil {
				t.Fatalf("Plan(%s): %v", tt.args, err)
			}
			if got := fillsOf(plan); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Plan(%s) fills = %q, want %q", tt.args, got, tt.want)
			}
		})
	}
	p, err := tool(t, planToolnamePage, "book").Plan(json.RawMessage(`{"guest":"a"}`))
	if err != nil || !p.Submit {
		t.Errorf("toolautosubmit: Plan = %+v, %v, want Submit true", p, err)
	}
}

// TestPlanLink checks an <a> tool call: query defaults overridden, nothing
// added.
func TestPlanLink(t *testing.T) {
	tl := tool(t, `<a href="/todos?page=1&sort=createdAt" tool-name="list">x</a>`, "list")
	p, err := tl.Plan(json.RawMessage(`{"page":"3"}`))
	if err != nil {
		t.Fatal(err)
	}
	if want := "/todos?page=3&sort=createdAt"; p.Navigate != want {
		t.Errorf("Plan navigate = %q, want %q", p.Navigate, want)
	}
	_, err = tl.Plan(json.RawMessage(`{"limit":"5"}`))
	if got := problemsOf(t, err); !reflect.DeepEqual(got, []string{"limit:unknown"}) {
		t.Errorf("Plan(limit) problems = %q", got)
	}
}

// TestPlanArgsLimit guards the size cap on arguments.
func TestPlanArgsLimit(t *testing.T) {
	big := `{"guest":"` + strings.Repeat("x", MaxArgsBytes) + `"}`
	_, err := tool(t, planToolnamePage, "book").Plan(json.RawMessage(big))
	if got := problemsOf(t, err); !reflect.DeepEqual(got, []string{":arguments"}) {
		t.Errorf("Plan(huge) problems = %q", got)
	}
}

// TestChromiumNumberString checks the text Chromium 156's executeTool
// writes for a JSON number given to a string or number parameter (values
// observed in the browser; TestChromiumExecuteTool checks them live).
func TestChromiumNumberString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"42", "42"}, {"2.0", "2"}, {"-0", "0"}, {"1e6", "1000000"}, {"12345678", "12345678"},
		{"1e5", "100000"}, {"0.1", "0.1"}, {"4.5", "4.5"}, {"-123.456", "-123.456"},
		{"123456.7", "123457"}, {"999999.5", "1.00000e+6"}, {"123456789012", "1.23457e+11"},
		{"100000000000000000000", "1.00000e+20"}, {"-1e21", "-1.00000e+21"},
		{"1e-5", "0.00001"}, {"1.5e-6", "0.0000015"}, {"1e-6", "0.000001"}, {"1e-7", "1.00000e-7"},
		{"1.5e-7", "1.50000e-7"}, {"0.000123456789", "0.000123457"}, {"5e-324", "4.94066e-324"},
		{"1.7976931348623157e308", "1.79769e+308"},
	}
	for _, tt := range tests {
		if got, ok := chromiumNumberString(json.Number(tt.in)); !ok || got != tt.want {
			t.Errorf("chromiumNumberString(%q) = %q, %v, want %q", tt.in, got, ok, tt.want)
		}
	}
	if got, ok := chromiumNumberString("1e400"); ok {
		t.Errorf("chromiumNumberString(%q) = %q, want no text (not finite)", "1e400", got)
	}
}
