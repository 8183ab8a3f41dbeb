package heuristics

import "testing"

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
		want        bool
	}{
		{"bday-month", "cc-exp-month", false},
		{"cc-number", "tel", false},
		{"cc-exp", "cc-exp-month", true},
		{"given-name", "cc-given-name", false},
		{"address-line1", "street-address", true},
		{"", "cc-number", true},
		{"cc-csc", "", true},
		{"tel", "tel", true},
	}
	for _, tt := range tests {
		if got := ModelMayOverride(tt.rule, tt.class); got != tt.want {
			t.Errorf("ModelMayOverride(%q, %q) = %v, want %v", tt.rule, tt.class, got, tt.want)
		}
	}
}
