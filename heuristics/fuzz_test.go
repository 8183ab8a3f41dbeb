package heuristics

import (
	"testing"

	"github.com/tessera-app/tessera/form"
	"github.com/tessera-app/tessera/profile"
)

// FuzzClassify feeds arbitrary evidence to the classifier: it must never
// panic, and every result must be a known token with its own concept and a
// confidence in 0..1.
func FuzzClassify(f *testing.F) {
	for _, gc := range loadGolden(f) {
		for _, c := range gc.Controls {
			f.Add(c.Label, c.Name+c.ID, c.Placeholder, c.Type, c.Constraints.MaxLength)
		}
	}
	f.Fuzz(func(t *testing.T, label, name, placeholder, typ string, maxLen int) {
		c := form.Control{Tag: "input", Type: typ, Label: label, LabelSource: "label-for", Name: name, Placeholder: placeholder,
			Constraints: form.Constraints{MaxLength: maxLen}}
		s := snapshot([]goldenControl{{Control: c}, {Control: c}, {Control: form.Control{Tag: "select", Label: label, Options: []form.Option{{Text: name}, {Text: placeholder}}}}})
		for i, r := range Classify(s) {
			if r.Confidence < 0 || r.Confidence > 1 {
				t.Fatalf("Classify(%q, %q, %q) #%d confidence = %v", label, name, placeholder, i, r.Confidence)
			}
			if r.Token == "" {
				if r.Concept != "" {
					t.Fatalf("Classify #%d: concept %q without a token", i, r.Concept)
				}
				continue
			}
			if want, ok := profile.ConceptForToken(r.Token); !ok || want != r.Concept {
				t.Fatalf("Classify(%q, %q, %q) #%d = %q/%q, not a known token and its concept", label, name, placeholder, i, r.Token, r.Concept)
			}
		}
	})
}
