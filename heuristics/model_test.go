package heuristics

import (
	"math"
	"slices"
	"testing"

	"github.com/tessera-app/tessera/form"
	"github.com/tessera-app/tessera/heuristics/internal/linear"
)

// TestModelLoads guards against shipping a model file the package cannot
// read: Classify would silently fall back to the rules alone.
func TestModelLoads(t *testing.T) {
	m := model()
	if m == nil {
		t.Fatal("fieldmodel.bin did not decode")
	}
	if m.Classes[0] != "" || len(m.Classes) < 20 {
		t.Errorf("model classes = %q, want \"\" first and the common tokens", m.Classes)
	}
}

// TestModelMayOverride guards the line the model may not cross: in
// cross-validation it turned birth-date lists the rules had found into a
// card's expiry month and year at 0.99.
func TestModelMayOverride(t *testing.T) {
	tests := []struct {
		rule, class string
		named       bool
		want        bool
	}{
		{"bday-month", "cc-exp-month", false, false},
		{"cc-number", "tel", false, false},
		{"cc-exp", "cc-exp-month", false, true},
		{"given-name", "cc-given-name", false, false},
		{"address-line1", "street-address", false, true},
		{"", "cc-number", false, true},
		{"cc-csc", "", false, true},
		{"tel", "tel", false, true},
		{"given-name", "", true, false},
		{"address-line3", "address-line2", true, false},
		{"", "email", true, true},
		{"tel", "tel", true, true},
	}
	for _, tt := range tests {
		if got := ModelMayOverride(tt.rule, tt.class, tt.named); got != tt.want {
			t.Errorf("ModelMayOverride(%q, %q, %v) = %v, want %v", tt.rule, tt.class, tt.named, got, tt.want)
		}
	}
}

// TestCalibrationOnlyChangesWhatIsShown: two copies of the model, one
// whose calibration says every fill is right three times in ten and one
// with no calibration at all, give every control of every golden page the
// same token, part and deciding confidence; only the confidence shown
// differs, and Shown scales a match's confidence by the same ratio.
func TestCalibrationOnlyChangesWhatIsShown(t *testing.T) {
	m := *model()
	low, none := m, m
	flat := []linear.Point{{X: 0.5, Y: 0.3}, {X: 1, Y: 0.3}}
	low.Calibration = map[string][]linear.Point{"": flat, "agree": flat, "doubted": flat, "rule": flat, "model": flat, "autocomplete": flat}
	none.Calibration = nil
	var shownDiffers bool
	for _, gc := range loadGolden(t) {
		s := gc.snapshot()
		a, b := classify(s, &low), classify(s, &none)
		for i := range a {
			if a[i].Token != b[i].Token || a[i].Part != b[i].Part || a[i].DecisionConfidence() != b[i].DecisionConfidence() {
				t.Errorf("%s #%d: calibrated %q/%q at %.3f, uncalibrated %q/%q at %.3f: calibration changed what is filled",
					gc.Name, i, a[i].Token, a[i].Part, a[i].DecisionConfidence(), b[i].Token, b[i].Part, b[i].DecisionConfidence())
			}
			if a[i].Token != "" && !IsGuardToken(a[i].Token) && a[i].Confidence != b[i].Confidence {
				shownDiffers = true
				if d := a[i].DecisionConfidence(); math.Abs(a[i].Shown(d*0.9)-a[i].Confidence*0.9) > 1e-9 {
					t.Errorf("%s #%d: Shown(%.3f) = %.3f, want %.3f", gc.Name, i, d*0.9, a[i].Shown(d*0.9), a[i].Confidence*0.9)
				}
			}
		}
	}
	if !shownDiffers {
		t.Error("the calibration changed no confidence shown")
	}
}

// TestTemperatureOnlyChangesWhatIsShown: the temperatures are fitted for
// the confidence the dialog shows, and move with every relearning; the
// model decides on its own odds, so two copies whose temperatures differ
// threefold fill every control of every golden page alike, and show some
// confidence differently.
func TestTemperatureOnlyChangesWhatIsShown(t *testing.T) {
	m := *model()
	cool, hot := m, m
	cool.Temperature, cool.AgreeTemperature = 0.8, 0.8
	hot.Temperature, hot.AgreeTemperature = 2.4, 2.4
	var shownDiffers bool
	for _, gc := range loadGolden(t) {
		s := gc.snapshot()
		a, b := classify(s, &cool), classify(s, &hot)
		for i := range a {
			if a[i].Token != b[i].Token || a[i].Part != b[i].Part {
				t.Errorf("%s #%d: at temperature 0.8 %q/%q, at 2.4 %q/%q: the temperature changed what is filled",
					gc.Name, i, a[i].Token, a[i].Part, b[i].Token, b[i].Part)
			}
			if a[i].Token != "" && a[i].Confidence != b[i].Confidence {
				shownDiffers = true
			}
		}
	}
	if !shownDiffers {
		t.Error("the temperature changed no confidence shown")
	}
}

// TestStreetPartsAfterModel: a box the learned model reads as the house
// number makes the street box beside it the street name, even one the page
// declared "street-address" (its whole line would repeat the number), and
// not a street box that is no neighbour of it.
func TestStreetPartsAfterModel(t *testing.T) {
	s := &form.Snapshot{Forms: []form.Form{{Controls: []int{0, 1, 2, 3}}}}
	for i := range 4 {
		s.Controls = append(s.Controls, form.Control{Index: i, Tag: "input", Type: "text"})
	}
	out := []Result{
		{Token: "street-address", Confidence: 0.99, Evidence: []Evidence{{Signal: "autocomplete", Rule: "autocomplete", Text: "street-address"}}},
		{Token: "address-line1", Part: "house-number", Confidence: 0.9, Evidence: []Evidence{{Signal: "model", Rule: "address-line1"}}},
		{Token: "postal-code", Confidence: 0.9},
		{Token: "address-line1", Confidence: 0.9, Evidence: []Evidence{{Signal: "label", Rule: "address-line1"}}},
	}
	afterModel(s, out)
	if out[0].Token != "address-line1" || out[0].Part != "street-name" {
		t.Errorf("declared street box = %q/%q, want address-line1/street-name", out[0].Token, out[0].Part)
	}
	if out[1].Part != "house-number" {
		t.Errorf("house-number box = %q/%q, want its part kept", out[1].Token, out[1].Part)
	}
	if out[3].Part != "" {
		t.Errorf("a street box no house number is beside = %q/%q, want the whole line", out[3].Token, out[3].Part)
	}
}

// TestFeaturesReadNeighbourWords: the model reads the words the person
// sees on the controls just before and after a box (Firefox's model reads
// its neighbours' words too), not those of a control further away.
func TestFeaturesReadNeighbourWords(t *testing.T) {
	// The words are none any rule knows, so that the rules' verdicts,
	// which the model reads as well, stay the same.
	page := func(labels ...string) [][]uint32 {
		t.Helper()
		s := &form.Snapshot{Forms: []form.Form{{Index: 0}}}
		for i, l := range labels {
			s.Controls = append(s.Controls, form.Control{Index: i, Tag: "input", Type: "text", Label: l, LabelSource: "label-for"})
			s.Forms[0].Controls = append(s.Forms[0].Controls, i)
		}
		f, _, _ := Features(s)
		return f
	}
	base := page("zorblax", "quuxly", "frobnic", "wibblet", "gloamer")
	if len(base) != 5 || base[2] == nil {
		t.Fatalf("features = %v, want five controls read", base)
	}
	for _, tc := range []struct {
		name   string
		f      [][]uint32
		differ bool
	}{
		{"the one before", page("zorblax", "plonkish", "frobnic", "wibblet", "gloamer"), true},
		{"the one after", page("zorblax", "quuxly", "frobnic", "plonkish", "gloamer"), true},
		{"two before", page("plonkish", "quuxly", "frobnic", "wibblet", "gloamer"), false},
		{"two after", page("zorblax", "quuxly", "frobnic", "wibblet", "plonkish"), false},
	} {
		if got := !slices.Equal(base[2], tc.f[2]); got != tc.differ {
			t.Errorf("changing the words of %s: the middle box's features changed = %v, want %v", tc.name, got, tc.differ)
		}
	}
}

// TestLanguageSenseIsLabelNamed: a verdict the page's language gave a
// label's words (pt-PT "Apelido", the surname; a nickname in Brazil) is
// the label's, which the model may not contradict: it reads words and
// language apart and learnt "apelido" from Brazilian pages.
func TestLanguageSenseIsLabelNamed(t *testing.T) {
	for _, tc := range []struct {
		ev   []Evidence
		want bool
	}{
		{[]Evidence{{Signal: "pass:lang-sense", Rule: "family-name"}, {Signal: "label", Rule: "nickname", Text: "apelido"}}, true},
		{[]Evidence{{Signal: "label", Rule: "family-name"}}, true},
		{[]Evidence{{Signal: "pass:lang-sense", Rule: "family-name"}, {Signal: "name", Rule: "nickname", Text: "apelido"}}, false},
		{[]Evidence{{Signal: "pass:address-run", Rule: "address-line1"}, {Signal: "label", Rule: "street"}}, false},
	} {
		if got := labelNamed(Result{Token: "family-name", Evidence: tc.ev}); got != tc.want {
			t.Errorf("labelNamed(%v) = %v, want %v", tc.ev, got, tc.want)
		}
	}
}
