package matcher

import (
	"testing"

	"github.com/tessera-app/tessera/form"
	"github.com/tessera-app/tessera/heuristics"
)

func TestFieldsFromSnapshot(t *testing.T) {
	s := &form.Snapshot{Lang: "fr-FR", Controls: []form.Control{
		{Index: 0, Type: "text", Name: "prenom", Label: "Prénom", Autocomplete: "given-name",
			AutocompleteInfo: &form.AutocompleteInfo{Field: "given-name"}},
		{Index: 1, Type: "text", ID: "nom", Label: "Nom"},
		{Index: 2, Type: "radio", Name: "civ", FormIndex: 0, Options: []form.Option{{Value: "M", Text: "M."}}},
		{Index: 3, Type: "radio", Name: "civ", FormIndex: 0, Options: []form.Option{{Value: "Mme", Label: "Madame"}}},
		{Index: 4, Type: "text", Name: "x", Attrs: map[string]string{"data-name": "patient.email"}, Visibility: form.Visibility{Hidden: true}},
		{Index: 5, Type: "text", Name: "off", AutocompleteInfo: &form.AutocompleteInfo{Off: true}},
	}}
	cls := []heuristics.Result{
		{Index: 0, Token: "given-name", Concept: heuristics.ConceptGivenName, Confidence: 1},
		{Index: 1, Token: "family-name", Concept: heuristics.ConceptFamilyName, Confidence: 0.8},
		{}, {}, {},
		{Index: 5, Token: "email", Concept: heuristics.ConceptEmail, Confidence: 0.6},
	}
	fs := FieldsFromSnapshot(s, cls)
	if len(fs) != len(s.Controls) {
		t.Fatalf("FieldsFromSnapshot gave %d fields for %d controls", len(fs), len(s.Controls))
	}
	tests := []struct {
		name string
		got  any
		want any
	}{
		{"autocomplete evidence kind", fs[0].Evidence[0].Kind, EvidenceAutocomplete},
		{"autocomplete not repeated as heuristic", len(fs[0].Evidence), 1},
		{"heuristic evidence kind", fs[1].Evidence[0].Kind, EvidenceHeuristic},
		{"heuristic strength", fs[1].Evidence[0].Strength, 0.8},
		{"path falls back to id", fs[1].Path, "nom"},
		{"radio group shared", fs[2].Group == fs[3].Group && fs[2].Group != "", true},
		{"option label when no text", fs[3].Options[0].Text, "Madame"},
		{"data-name is the path", fs[4].Path, "patient.email"},
		{"hidden kept", fs[4].Hidden, true},
		{"autocomplete off is no evidence", fs[5].Evidence[0].Kind, EvidenceHeuristic},
		{"page language", fs[1].Lang, "fr-FR"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("FieldsFromSnapshot: %s = %v, want %v", tt.name, tt.got, tt.want)
			}
		})
	}
	if FieldsFromSnapshot(nil, nil) != nil {
		t.Error("FieldsFromSnapshot(nil) != nil")
	}
}
