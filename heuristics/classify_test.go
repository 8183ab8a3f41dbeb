package heuristics

import (
	"encoding/json"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/tessera-app/tessera/form"
	"github.com/tessera-app/tessera/profile"
)

// goldenControl is a control of a golden case with the token it must get
// ("" for none).
type goldenControl struct {
	form.Control
	Want string `json:"want"`
	// WantPart is the Part the control must get ("" for the whole value).
	WantPart string `json:"want_part,omitempty"`
	// WantOptional says the control must be marked Optional: recognised,
	// offered unticked.
	WantOptional bool `json:"want_optional,omitempty"`
}

type goldenCase struct {
	Name string `json:"name"`
	Lang string `json:"lang"`
	// PageLang is the html element's lang attribute of the case's page
	// (empty: none), for the passes that read it.
	PageLang string `json:"page_lang,omitempty"`
	// RulesAlone says the rules must give every want without the learned
	// model too: a case for a rule the model might hide (the model speaks
	// only where it is sure, so the rules decide the rest).
	RulesAlone bool            `json:"rules_alone,omitempty"`
	Controls   []goldenControl `json:"controls"`
}

func loadGolden(t testing.TB) []goldenCase {
	t.Helper()
	data, err := os.ReadFile("testdata/fields.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []goldenCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatalf("parse testdata/fields.json: %v", err)
	}
	return cases
}

// snapshot builds a one-form snapshot from golden controls, filling the
// defaults a hand-written descriptor leaves out.
func snapshot(gcs []goldenControl) *form.Snapshot {
	s := &form.Snapshot{Forms: []form.Form{{Index: 0}}}
	for i, gc := range gcs {
		c := gc.Control
		c.Index, c.FormIndex = i, 0
		if c.Tag == "" {
			c.Tag = "input"
		}
		if c.Type == "" {
			c.Type = "text"
		}
		if c.Label != "" && c.LabelSource == "" {
			c.LabelSource, c.LabelElementText = "label-for", c.Label
		}
		s.Controls = append(s.Controls, c)
		s.Forms[0].Controls = append(s.Forms[0].Controls, i)
	}
	return s
}

// snapshot builds the case's page: its controls in one form, and the
// page language when the case names one.
func (gc goldenCase) snapshot() *form.Snapshot {
	s := snapshot(gc.Controls)
	s.Lang = gc.PageLang
	return s
}

func TestGolden(t *testing.T) {
	for _, gc := range loadGolden(t) {
		t.Run(gc.Name, func(t *testing.T) {
			s := gc.snapshot()
			res := Classify(s)
			if len(res) != len(s.Controls) {
				t.Fatalf("Classify returned %d results for %d controls", len(res), len(s.Controls))
			}
			for i, want := range gc.Controls {
				r := res[i]
				if r.Token != want.Want {
					t.Errorf("Classify(%s #%d %q).Token = %q, want %q (evidence %+v)", gc.Name, i, describe(&s.Controls[i]), r.Token, want.Want, r.Evidence)
				}
				if r.Part != want.WantPart {
					t.Errorf("Classify(%s #%d %q).Part = %q, want %q", gc.Name, i, describe(&s.Controls[i]), r.Part, want.WantPart)
				}
				if r.Optional != want.WantOptional {
					t.Errorf("Classify(%s #%d %q).Optional = %v, want %v", gc.Name, i, describe(&s.Controls[i]), r.Optional, want.WantOptional)
				}
				if r.Index != i {
					t.Errorf("Classify(%s #%d).Index = %d", gc.Name, i, r.Index)
				}
				if r.Confidence < 0 || r.Confidence > 1 {
					t.Errorf("Classify(%s #%d).Confidence = %v, want 0..1", gc.Name, i, r.Confidence)
				}
				wantConcept, _ := profile.ConceptForToken(want.Want)
				if r.Concept != wantConcept {
					t.Errorf("Classify(%s #%d).Concept = %q, want %q", gc.Name, i, r.Concept, wantConcept)
				}
			}
			if !gc.RulesAlone {
				return
			}
			for i, r := range classify(s, nil) {
				if want := gc.Controls[i].Want; r.Token != want {
					t.Errorf("classify(%s #%d %q, no model).Token = %q, want %q (evidence %+v)", gc.Name, i, describe(&s.Controls[i]), r.Token, want, r.Evidence)
				}
			}
		})
	}
}

func describe(c *form.Control) string {
	for _, s := range []string{c.Label, c.Name, c.ID, c.Placeholder} {
		if s != "" {
			return s
		}
	}
	return c.Type
}

// TestGoldenCoversEveryToken fails when a token of the concept table is not
// predicted by any golden case: every concept is tested.
func TestGoldenCoversEveryToken(t *testing.T) {
	seen := map[string]bool{}
	for _, gc := range loadGolden(t) {
		for _, c := range gc.Controls {
			seen[c.Want] = true
		}
	}
	for _, tok := range sortedTokens() {
		if !seen[tok] {
			t.Errorf("no golden case expects token %q", tok)
		}
	}
}

// TestGoldenCoversEveryPass fails when a structural pass decides no
// control of any golden case: every pass is tested, not only declared.
func TestGoldenCoversEveryPass(t *testing.T) {
	seen := map[string]bool{}
	for _, gc := range loadGolden(t) {
		for _, r := range Classify(gc.snapshot()) {
			for _, e := range r.Evidence {
				seen[e.Signal] = true
			}
		}
	}
	for _, p := range passes {
		if !seen["pass:"+p.id] {
			t.Errorf("no golden case is decided by pass %q", p.id)
		}
	}
}

// TestEveryTokenHasRule fails when a token of the concept table has no
// keyword rule: the table and the rules must not drift apart.
func TestEveryTokenHasRule(t *testing.T) {
	has := map[string]bool{}
	for _, r := range rules {
		if r.token != "" {
			has[r.token] = true
		}
		if _, ok := profile.ConceptForToken(r.token); r.token != "" && !ok {
			t.Errorf("rule %q predicts %q, which is not an autofill token", r.id, r.token)
		}
	}
	for _, tok := range sortedTokens() {
		if !has[tok] {
			t.Errorf("token %q has no rule", tok)
		}
	}
}

// TestRuleIDsUnique guards the evidence: a rule id names one rule.
func TestRuleIDsUnique(t *testing.T) {
	ids := map[string]bool{}
	for _, r := range rules {
		if ids[r.id] {
			t.Errorf("rule id %q used twice", r.id)
		}
		ids[r.id] = true
	}
	for _, p := range passes {
		if ids[p.id] {
			t.Errorf("pass id %q is also a rule id", p.id)
		}
		ids[p.id] = true
	}
}

func sortedTokens() []string {
	toks := profile.Tokens()
	sort.Strings(toks)
	return toks
}

func TestHiddenControlsLowerConfidence(t *testing.T) {
	s := snapshot([]goldenControl{{Control: form.Control{Label: "Email"}}, {Control: form.Control{Label: "Email"}}})
	s.Controls[1].Visibility = form.Visibility{Hidden: true, Reason: "display-none"}
	res := Classify(s)
	if res[0].Token != "email" || res[0].Confidence <= res[1].Confidence {
		t.Errorf("Classify(visible, hidden email) = %+v, %+v; want the hidden one less confident", res[0], res[1])
	}
}

func TestClassifyNil(t *testing.T) {
	if got := Classify(nil); got != nil {
		t.Errorf("Classify(nil) = %v, want nil", got)
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"billing[first_name]", "billing first name"},
		{"customerEmailAddress", "customer email address"},
		{"address2", "address 2"},
		{"  Téléphone  portable: ", "telephone portable"},
		{"ＥＭＡＩＬ", "email"},
		{"nom d’utilisateur", "nom d'utilisateur"},
		{"郵便番号", "郵便番号"},
	}
	for _, tt := range tests {
		if got := normalize(tt.in); got != tt.want {
			t.Errorf("normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestNormalizeASCII holds normalizeASCII, the byte-at-a-time path of
// ASCII text, to normalizeRunes on the texts where they could part: case
// and digit boundaries, apostrophes at a word's start, end and middle,
// runs of separators, and the word limit; and checks that a text already
// normalized comes back as itself, with no allocation.
func TestNormalizeASCII(t *testing.T) {
	long := strings.Repeat("ab1 ", 120)
	for _, s := range []string{
		"", " ", "email", "Email", "EMAIL", "eMail", "first name", "first  name", " first name ",
		"billing[firstName]", "address2", "2nd", "a1b2c3", "ABCdef", "abcDEF", "x'y", "'abc", "abc'",
		"a ' b", "a''b", "d'Artagnan", "l'Adresse2", "__--__", "foo_bar-baz.qux", "A1'B2",
		"\t\ntab\r", "~!@#$%^&*()", "zip+4", long, long + "x", strings.Repeat("a", 300),
	} {
		if got, want := normalizeASCII(s), normalizeRunes(s); got != want {
			t.Errorf("normalizeASCII(%q) = %q, normalizeRunes says %q", s, got, want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { normalizeASCII("first name") }); n != 0 {
		t.Errorf("normalizeASCII of a normalized text allocated %v times", n)
	}
}

// FuzzNormalizeASCII: for every ASCII text, normalizeASCII is normalizeRunes.
func FuzzNormalizeASCII(f *testing.F) {
	for _, s := range []string{"billing[firstName]", "address2", "d'Artagnan", "a ' b", "ABCdef1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !isASCII(s) {
			return
		}
		if got, want := normalizeASCII(s), normalizeRunes(s); got != want {
			t.Errorf("normalizeASCII(%q) = %q, normalizeRunes says %q", s, got, want)
		}
	})
}

// TestFoldStable: foldStable says a text is left as it is only where the
// chain leaves it so, and says so for plain Cyrillic, CJK and Arabic
// labels (else the shortcut saves nothing).
func TestFoldStable(t *testing.T) {
	for _, tt := range []struct {
		s      string
		stable bool
	}{
		{"Телефон", true}, {"郵便番号", true}, {"メール", true}, {"アドレス", false}, {"رقم الهاتف", true},
		{"Téléphone", false}, {"ｅｍａｉｌ", false}, {"ﾒｰﾙ", false}, {"Οδός", false},
		{"й", false}, {"が", false}, {"\u1100\u1161", false}, {"e\u0301", false}, {"\xff", false},
	} {
		if got := foldStable(tt.s); got != tt.stable {
			t.Errorf("foldStable(%q) = %v, want %v", tt.s, got, tt.stable)
		}
		if foldStable(tt.s) && foldByChain(tt.s) != tt.s {
			t.Errorf("foldStable(%q), but the chain gives %q", tt.s, foldByChain(tt.s))
		}
	}
}

// FuzzFoldStable: whatever foldStable calls stable, the chain leaves as
// it is.
func FuzzFoldStable(f *testing.F) {
	for _, s := range []string{"Телефон", "郵便番号", "\u1100\u1161", "e\u0301", "ｅ", "Οδός", "か\u3099"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if foldStable(s) {
			if got := foldByChain(s); got != s {
				t.Errorf("foldStable(%q), but the chain gives %q", s, got)
			}
		}
	})
}

func TestOptionShapes(t *testing.T) {
	opts := func(texts ...string) []form.Option {
		var o []form.Option
		for _, t := range texts {
			o = append(o, form.Option{Value: t, Text: t})
		}
		return o
	}
	tests := []struct {
		name string
		opts []form.Option
		want shape
	}{
		{"countries-de", opts("Deutschland", "Österreich", "Schweiz", "Frankreich", "Italien"), shapeCountry},
		{"countries-with-codes", opts("Germany (+49)", "France (+33)", "Spain (+34)", "Italy (+39)", "Poland (+48)"), shapeCountry},
		{"dial-codes", opts("+1", "+44", "+49", "+33", "+34"), shapeDialCode},
		{"months-es", opts("Mes", "enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"), shapeMonth},
		{"years-past", opts("2005", "2004", "2003", "1990", "1950"), shapeYearPast},
		{"years-future", opts("2026", "2027", "2028", "2029", "2030"), shapeYearFuture},
		{"gender-pl", opts("Kobieta", "Mężczyzna"), shapeGender},
		{"sizes", opts("S", "M", "L", "XL"), shapeNone},
		{"card-brands", opts("Please select", "Visa", "Mastercard", "American Express", "Other"), shapeCardBrand},
	}
	for _, tt := range tests {
		c := &form.Control{Tag: "select", Type: "select-one", Options: tt.opts}
		if got := optionShape(c); got != tt.want {
			t.Errorf("optionShape(%s) = %d, want %d", tt.name, got, tt.want)
		}
	}
	if got := slices.Index([]shape{shapeDay}, optionShape(&form.Control{Tag: "select", Options: opts(days()...)})); got != 0 {
		t.Errorf("optionShape(1..31) is not a day list")
	}
}

func days() []string {
	var d []string
	for i := 1; i <= 31; i++ {
		d = append(d, string(rune('0'+i/10))+string(rune('0'+i%10)))
	}
	return d
}

// TestClassifyConcurrent classifies the golden cases from several
// goroutines at once: the pooled memos (newMemo, release) must never
// carry one page's texts into another's results.
func TestClassifyConcurrent(t *testing.T) {
	cases := loadGolden(t)
	want := make([][]Result, len(cases))
	for i, gc := range cases {
		want[i] = Classify(gc.snapshot())
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range cases {
				i := (k + g*len(cases)/4) % len(cases)
				got := Classify(cases[i].snapshot())
				for j := range got {
					if got[j].Token != want[i][j].Token || got[j].Confidence != want[i][j].Confidence {
						t.Errorf("%s #%d concurrently: %q at %v, alone %q at %v", cases[i].Name, j, got[j].Token, got[j].Confidence, want[i][j].Token, want[i][j].Confidence)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}

// TestShownWholeNameDecidesOverNameIdentifier: a box named "name" under a
// label the person reads as a whole name ("Nombre de la persona que va a
// recibir", "Full name") is decided by the label, so the learned model,
// which may not contradict what the rules read in a box's own label
// (ModelMayOverride), cannot empty it; before, the identifier decided and
// the model could.
func TestShownWholeNameDecidesOverNameIdentifier(t *testing.T) {
	for _, label := range []string{"Full name", "Nombre de la persona que va a recibir*"} {
		s := snapshot([]goldenControl{{Control: form.Control{Name: "name", Label: label, LabelSource: "preceding-text"}}})
		r := classifyRules(s, newMemo(1))[0]
		if r.Token != "name" || !labelNamed(r) {
			t.Errorf("classifyRules(name=name, label %q) = %q by %+v, want name read in the label", label, r.Token, r.Evidence)
		}
	}
}

// TestAddressRowParts: "PLZ / Ort" over two boxes gives the second, which
// has no words of its own, the town, and the learned model may not take
// it away (it sees a box without words); the row ends at a radio button
// (a delivery choice is no town) and at a second box of the same name (a
// copy drawn for another screen size, not the row's next part).
func TestAddressRowParts(t *testing.T) {
	page := `<!doctype html><html lang="de"><body>
<form action="/a"><label for="p">PLZ / Ort</label><input id="p" name="k2"> <input name="k3"></form>
<form action="/b"><label for="f">PLZ/Ort</label><input id="f" name="abholung_plz">
<label><input type="radio" name="versand" value="paket"> Versand per Paket, 3-5 Werktage</label></form>
<form action="/c"><label for="d">PLZ/Ort</label><input id="d" name="station_plz"><input name="station_plz"></form>
</body></html>`
	s, err := form.Extract(strings.NewReader(page), form.ExtractOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rules := classifyRules(s, newMemo(len(s.Controls)))
	for i, want := range []string{"postal-code", "address-level2", "postal-code", "", "postal-code", "postal-code"} {
		if got := rules[i].Token; got != want {
			t.Errorf("rules and passes: box %d (%s) = %q, want %q (%+v)", i, s.Controls[i].Name, got, want, rules[i].Evidence)
		}
	}
	if !ruleSure(&s.Controls[1], rules[1]) {
		t.Errorf("the row's town box (%+v) is not sure over the model", rules[1].Evidence)
	}
	if got := Classify(s)[1].Token; got != "address-level2" {
		t.Errorf("Classify: the row's town box = %q, want address-level2", got)
	}
}

// TestExampleShape: an example in the placeholder of a box no word names
// says what it holds when it has the shape of an e-mail address or a
// phone number, and nothing when it is a date, a ZIP+4, a card number or
// words.
func TestExampleShape(t *testing.T) {
	for ph, want := range map[string]string{
		"jane.doe@example.com": "email",
		"max@beispiel.de":      "email",
		"(555) 555-5555":       "tel",
		"555-555-5555":         "tel",
		"+44 7700 900123":      "tel",
		"06 12 34 56 78":       "tel",
		"(030) 1234567":        "tel",
		"xxx-xxx-xxxx":         "tel",
		"31.12.1990":           "",
		"12345-6789":           "",
		"4111 1111 1111 1111":  "",
		"192.168.0.1":          "",
		"MM/DD/YYYY":           "",
		"John":                 "",
		"jane@":                "",
		"5551234":              "",
	} {
		if got := exampleShape(ph); got != want {
			t.Errorf("exampleShape(%q) = %q, want %q", ph, got, want)
		}
	}
	s := snapshot([]goldenControl{{Control: form.Control{Name: "f3", Placeholder: "jane.doe@example.com"}}, {Control: form.Control{Name: "f4", Placeholder: "(555) 555-5555"}}, {Control: form.Control{Name: "f5", Placeholder: "31.12.1990"}}})
	for i, want := range []string{"email", "tel", ""} {
		if got := Classify(s)[i].Token; got != want {
			t.Errorf("Classify: box with placeholder %q = %q, want %q", s.Controls[i].Placeholder, got, want)
		}
	}
}
