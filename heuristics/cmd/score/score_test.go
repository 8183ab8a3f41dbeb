package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/tessera-app/tessera/heuristics"
	"github.com/tessera-app/tessera/heuristics/internal/corpus"
	"strings"
	"testing"
)

// TestAccuracyInSourceLabels: Mozilla's accuracy reads a box Tessera
// recognises only to keep profile data out of it (a password, a one-time
// code) as the source's "not something to autofill" when the source never
// labels that kind of box, and as itself where the source does; a fill is
// always itself.
func TestAccuracyInSourceLabels(t *testing.T) {
	p := &corpus.Page{Truths: []corpus.Truth{{Index: 0}, {Index: 1, Token: "email"}, {Index: 2}, {Index: 3}}}
	preds := []string{"current-password", "email", "url", "one-time-code"}
	pred := func(i int) string { return preds[i] }
	for _, tc := range []struct {
		name               string
		labels             map[string]bool
		agree, agreeTokens int
	}{
		{"passwords unlabelled", map[string]bool{"email": true}, 3, 1},
		{"passwords labelled", map[string]bool{"email": true, "current-password": true, "one-time-code": true}, 1, 1},
	} {
		c := tally(p, map[string]bool{"email": true}, tc.labels, pred, nil)
		if c.Agree != tc.agree || c.AgreeTokens != tc.agreeTokens || c.Labelled != 4 {
			t.Errorf("%s: tally = Agree %d AgreeTokens %d Labelled %d, want %d %d 4", tc.name, c.Agree, c.AgreeTokens, c.Labelled, tc.agree, tc.agreeTokens)
		}
	}
}

// TestLabelledKinds: a source labels a kind of box when it gives a box the
// token Tessera gives it; a label given only to a box of another kind (a
// town box labelled new-password) names no kind it labels.
func TestLabelledKinds(t *testing.T) {
	moz := &corpus.Page{Source: "mozilla", Truths: []corpus.Truth{{Index: 0, Token: "new-password"}, {Index: 1}, {Index: 2, Token: "username"}}}
	ddg := &corpus.Page{Source: "ddg", Truths: []corpus.Truth{{Index: 0, Token: "new-password"}}}
	res := func(toks ...string) map[string][]heuristics.Result {
		var rs []heuristics.Result
		for _, tok := range toks {
			rs = append(rs, heuristics.Result{Token: tok})
		}
		return map[string][]heuristics.Result{variantNoAC: rs}
	}
	got := labelledKinds([]*corpus.Page{moz, ddg}, []map[string][]heuristics.Result{
		res("address-level2", "new-password", "username"),
		res("new-password"),
	})
	if got["mozilla"]["new-password"] || !got["mozilla"]["username"] || !got["ddg"]["new-password"] {
		t.Errorf("labelledKinds = %v, want mozilla username only, ddg new-password", got)
	}
}

// TestScoreCorpus scores a corpus of our own three pages, one in each
// source's layout (DuckDuckGo, Formasaurus, Chromium), and checks every
// tally.
func TestScoreCorpus(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"-corpus", "testdata/corpus", "-json", "-v"}, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Pages  int     `json:"pages"`
		Scores []Score `json:"scores"`
		Misses []Miss  `json:"misses"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Pages != 3 {
		t.Fatalf("pages = %d, want 3", rep.Pages)
	}
	get := func(source, variant string) Counts {
		for _, s := range rep.Scores {
			if s.Source == source && s.Half == "" && s.Variant == variant && s.System == "tessera" {
				return s.Counts
			}
		}
		t.Fatalf("no score for %s/%s", source, variant)
		return Counts{}
	}
	tests := []struct {
		source, variant string
		want            Counts
	}{
		// given and family are targets; the "username or email" field is
		// one only to the lenient reading, which finds it as email; company
		// is predicted against an "unknown" label; the promo code and
		// password are never predicted.
		// The vocabulary view judges only given and family: this source
		// labels no company and no email anywhere. Of the six controls,
		// given, family and the promo code agree with their labels.
		{"ddg_autofill", variantServed, Counts{Targets: 2, Found: 2, TargetsLenient: 3, FoundLenient: 3, Predicted: 4, Right: 2, RightLenient: 3, PredictedVocab: 2, RightVocab: 2, Labelled: 6, Agree: 3, AgreeTokens: 3}},
		{"ddg_autofill", variantNoAC, Counts{Targets: 2, Found: 2, TargetsLenient: 3, FoundLenient: 3, Predicted: 4, Right: 2, RightLenient: 3, PredictedVocab: 2, RightVocab: 2, Labelled: 6, Agree: 3, AgreeTokens: 3}},
		// Formasaurus: the company field marked XX (not annotated) and
		// the unlabelled city are not scored, though both are predicted.
		{"formasaurus", variantNoAC, Counts{Targets: 1, Found: 1, TargetsLenient: 1, FoundLenient: 1, Predicted: 1, Right: 1, RightLenient: 1, PredictedVocab: 1, RightVocab: 1, Labelled: 2, Agree: 2, AgreeTokens: 2}},
		// Chromium rows: name pair right, postcode labelled city is wrong,
		// the unaligned row and the unlabelled textarea are not scored.
		// The vocabulary view leaves the postcode prediction unjudged:
		// these rows label no postcode anywhere.
		{"chromium", variantNoAC, Counts{Targets: 3, Found: 2, TargetsLenient: 3, FoundLenient: 2, Predicted: 3, Right: 2, RightLenient: 2, PredictedVocab: 2, RightVocab: 2, Labelled: 3, Agree: 2, AgreeTokens: 2}},
		{"all", variantNoAC, Counts{Targets: 6, Found: 5, TargetsLenient: 7, FoundLenient: 6, Predicted: 8, Right: 5, RightLenient: 6, PredictedVocab: 5, RightVocab: 5, Labelled: 11, Agree: 7, AgreeTokens: 7}},
	}
	for _, tt := range tests {
		if got := get(tt.source, tt.variant); got != tt.want {
			t.Errorf("score(%s, %s) = %+v, want %+v", tt.source, tt.variant, got, tt.want)
		}
	}
	if len(rep.Misses) == 0 {
		t.Error("-v listed no misses")
	}
}

func TestScoreTable(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"-corpus", "testdata/corpus"}, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"3 pages", "ddg_autofill", "chromium", "no-autocomplete", "as-served"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
}

func TestScoreErrors(t *testing.T) {
	if err := run(nil, &bytes.Buffer{}, &bytes.Buffer{}); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("run() = %v, want a usage error", err)
	}
	if err := run([]string{"-corpus", t.TempDir()}, &bytes.Buffer{}, &bytes.Buffer{}); !errors.Is(err, corpus.ErrNoPages) {
		t.Errorf("run(empty dir) = %v, want corpus.ErrNoPages", err)
	}
}

func TestJudge(t *testing.T) {
	tests := []struct {
		t               corpus.Truth
		pred            string
		strict, lenient bool
	}{
		{corpus.Truth{Token: "email"}, "email", true, true},
		{corpus.Truth{Token: "address-line1"}, "street-address", false, true},
		{corpus.Truth{Token: "tel-national"}, "tel", false, true},
		{corpus.Truth{Token: "username", Alts: []string{"ext:username", "https://schema.org/email"}}, "email", false, true},
		{corpus.Truth{Token: "address-line2", Label: "Apartment"}, "address-line2", true, true},
		{corpus.Truth{Token: "given-name"}, "family-name", false, false},
	}
	for _, tt := range tests {
		s, l := judge(tt.t, tt.pred)
		if s != tt.strict || l != tt.lenient {
			t.Errorf("judge(%+v, %q) = %v, %v, want %v, %v", tt.t, tt.pred, s, l, tt.strict, tt.lenient)
		}
	}
}

// TestExplain sorts the wrong fills of a corpus of our own two pages, one
// of each kind: a company the source never labels, a "Phone" box left
// unlabelled on one page and labelled tel on the other, a lone "Address"
// predicted street-address where the source says address-line1 (a close
// pair), and an "Email" box the source leaves unlabelled though it labels
// email elsewhere under another label text.
func TestExplain(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"-corpus", "testdata/explain", "-json", "-explain"}, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Breakdown []Breakdown `json:"breakdown"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	want := []Breakdown{
		{Source: "ddg_autofill", Wrong: 4, NeverLabelled: 1, SameLabelElsewhere: 1, ClosePair: 1, Other: 1},
		{Source: "all", Wrong: 4, NeverLabelled: 1, SameLabelElsewhere: 1, ClosePair: 1, Other: 1},
	}
	if len(rep.Breakdown) != len(want) {
		t.Fatalf("breakdown = %+v, want %+v", rep.Breakdown, want)
	}
	for i := range want {
		if rep.Breakdown[i] != want[i] {
			t.Errorf("breakdown[%d] = %+v, want %+v", i, rep.Breakdown[i], want[i])
		}
	}
}

// TestSiteInterval checks the bootstrap interval: sites that all score
// alike leave nothing to vary, sites that differ give an interval around
// the pooled figure, and the same sites give the same interval.
func TestSiteInterval(t *testing.T) {
	same := []Counts{{Predicted: 4, Right: 3, Targets: 5, Found: 4}, {Predicted: 4, Right: 3, Targets: 5, Found: 4}}
	if iv := siteInterval(same); iv.PLow != 0.75 || iv.PHigh != 0.75 || iv.RLow != 0.8 || iv.RHigh != 0.8 || iv.Sites != 2 {
		t.Errorf("siteInterval(alike) = %+v, want P 0.75-0.75, R 0.8-0.8 over 2 sites", iv)
	}
	var mixed []Counts
	for i := range 20 {
		mixed = append(mixed, Counts{Predicted: 10, Right: 5 + i%6, Targets: 10, Found: 10 - i%4})
	}
	iv := siteInterval(mixed)
	var pooled Counts
	for _, c := range mixed {
		pooled.add(c)
	}
	p, r := ratio(pooled.Right, pooled.Predicted), ratio(pooled.Found, pooled.Targets)
	if !(iv.PLow < p && p < iv.PHigh && iv.RLow < r && r < iv.RHigh) {
		t.Errorf("siteInterval(mixed) = %+v, want it around P %.3f, R %.3f", iv, p, r)
	}
	if again := siteInterval(mixed); again != iv {
		t.Errorf("siteInterval is not reproducible: %+v then %+v", iv, again)
	}
	if iv := siteInterval(nil); iv != (Interval{}) {
		t.Errorf("siteInterval(nil) = %+v, want zero", iv)
	}
}

// TestQuartersAndRules splits the held-out half of our own three pages
// into its quarters (the DuckDuckGo and Formasaurus pages fall in the
// calibration quarter, the Chromium page in the untouched one) and counts
// the fills of each deciding rule: every fill of the calibration quarter,
// none of the untouched quarter's.
func TestQuartersAndRules(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"-corpus", "testdata/corpus", "-json", "-quarters", "-rules"}, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Scores []Score     `json:"scores"`
		Rules  []RuleFills `json:"rules"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	predicted := map[string]int{}
	for _, s := range rep.Scores {
		if s.Source == "all" && s.Variant == variantNoAC && s.System == "tessera" {
			predicted[s.Half] = s.Counts.Predicted
		}
		if s.Half == halfHeldOut {
			t.Errorf("-quarters still reports the held-out half: %+v", s)
		}
	}
	if predicted[quarterCalibration] != 5 || predicted[quarterUntouched] != 3 || predicted[""] != 8 {
		t.Errorf("predicted by part = %v, want calibration 5, untouched 3, both 8", predicted)
	}
	var tune, right, wrong int
	rules := map[string]RuleFills{}
	for _, r := range rep.Rules {
		tune += r.TuneRight + r.TuneWrong
		right += r.CalibrationRight
		wrong += r.CalibrationWrong
		rules[r.Rule] = r
	}
	// The calibration quarter's five fills: given and family right, the
	// "username or email" box's email and the unlabelled company wrong,
	// and the Formasaurus page's one right fill.
	if tune != 0 || right != 3 || wrong != 2 {
		t.Errorf("rule fills: tune %d, calibration right %d wrong %d; want 0, 3, 2 (%+v)", tune, right, wrong, rep.Rules)
	}
	if r := rules["label:organization"]; r.CalibrationWrong != 1 {
		t.Errorf("label:organization = %+v, want one wrong fill in the calibration quarter", r)
	}
	if rep.Rules[0].CalibrationWrong < rep.Rules[len(rep.Rules)-1].CalibrationWrong {
		t.Errorf("rules not sorted by wrong fills: %+v", rep.Rules)
	}
}

// TestAgreement: two captures of one site label their shared street box
// differently and their e-mail box alike; a box with no name, and every
// page of the untouched quarter, are not read.
func TestAgreement(t *testing.T) {
	site := func(want func(string) bool) string {
		for i := 0; ; i++ {
			if s := fmt.Sprintf("shop%d", i); want(s) {
				return s
			}
		}
	}
	tune := site(func(s string) bool { return !corpus.HeldOut(s) })
	untouched := site(func(s string) bool { return corpus.HeldOut(s) && !corpus.Calibration(s) })
	page := func(site, street string) *corpus.Page {
		return &corpus.Page{Source: "mozilla_firefox_ai", Site: site,
			Controls: []corpus.Control{{Tag: "input", Name: "email", ID: "email-1"}, {Tag: "input", Name: "street", ID: "street-1"}, {Tag: "input"}},
			Truths:   []corpus.Truth{{Index: 0, Token: "email"}, {Index: 1, Token: street}, {Index: 2, Token: "tel"}}}
	}
	// The second capture numbers its ids anew ("street-2"): still one box.
	second := page(tune, "street-address")
	second.Controls[0].ID, second.Controls[1].ID = "email-2", "street-2"
	pages := []*corpus.Page{page(tune, "address-line1"), second, page(untouched, "email"), page(untouched, "tel")}
	var moz Agreement
	for _, a := range agreement(pages) {
		if a.Source == "mozilla_firefox_ai" {
			moz = a
		}
	}
	if moz.Pairs != 2 || moz.Agreeing != 1 || moz.Controls != 4 || moz.Majority != 3 {
		t.Errorf("agreement = %+v, want 2 pairs, 1 agreeing, 4 controls, 3 as most of their group", moz)
	}
}

// TestUnticked: a box offered unticked (a company the page marks
// optional) is recognised but not filled, so it is no prediction; with
// -unticked it counts as one, and here a right one.
func TestUnticked(t *testing.T) {
	for _, c := range []struct {
		args                              []string
		predicted, right, found, unticked int
	}{
		{nil, 2, 2, 2, 1},
		{[]string{"-unticked"}, 3, 3, 3, 1},
	} {
		var out bytes.Buffer
		if err := run(append([]string{"-corpus", "testdata/unticked", "-json"}, c.args...), &out, &bytes.Buffer{}); err != nil {
			t.Fatal(err)
		}
		var rep struct {
			Scores []Score `json:"scores"`
		}
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatal(err)
		}
		found := false
		for _, s := range rep.Scores {
			if s.Source != "mozilla_firefox_ai" || s.Half != "" || s.Variant != variantNoAC || s.System != "tessera" {
				continue
			}
			found = true
			if g := s.Counts; g.Targets != 3 || g.Predicted != c.predicted || g.Right != c.right || g.Found != c.found || g.Unticked != c.unticked {
				t.Errorf("%v: counts %+v, want 3 targets, %d predicted, %d right, %d found, %d unticked", c.args, g, c.predicted, c.right, c.found, c.unticked)
			}
		}
		if !found {
			t.Fatalf("%v: no Mozilla line", c.args)
		}
	}
}
