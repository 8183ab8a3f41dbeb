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
