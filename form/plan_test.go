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
		{planToolnamePage, "book", `{"guest":"a","seats":"many"}`, []string{"seats:type"}},
		{planToolnamePage, "book", `{"guest":"a","seats":9}`, []string{"seats:range"}},
		{planToolnamePage, "book", `{"guest":"a","seats":2.5}`, []string{"seats:range"}},
		{planToolnamePage, "book", `{"guest":"a","room":"cellar"}`, []string{"room:enum"}},
		{planToolnamePage, "book", `{"guest":"a","speed":"warp"}`, []string{"speed:enum"}},
		{planToolnamePage, "book", `{"guest":"a","day":"tomorrow"}`, []string{"day:format"}},
		{planToolnamePage, "book", `{"guest":"a","highchair":"maybe"}`, []string{"highchair:type"}},
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
		// Coercion: a number for a string, a numeric string for a number,
		// "on" for a checkbox, a lone value for an array.
		{planToolnamePage, "book", `{"guest":42,"seats":"3","highchair":"on","extras":"cake"}`,
			[]string{`c0="42"`, `c1="3"`, `c6=true`, `c7=true`, `c8=false`}},
		{planDraftPage, "ship", `{"code":"ABC","qty":4,"at":"2026-05-01T10:30:00+02:00","slot":"09:15:00Z","tag":["x"],"addr":{"zip":"75001"},"opts":["b"]}`,
			[]string{`c0="ABC"`, `c3="4"`, `c5="2026-05-01T10:30:00"`, `c6="09:15:00"`, `c7="x"`, `c8=""`, `c9="75001"`, `c11=false`, `c12=true`}},
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
