package matcher

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tessera-app/tessera/form"
	"github.com/tessera-app/tessera/heuristics"
	"github.com/tessera-app/tessera/profile"
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
		{Index: 0, Token: "given-name", Concept: profile.ConceptGivenName, Confidence: 1},
		{Index: 1, Token: "family-name", Concept: profile.ConceptFamilyName, Confidence: 0.8},
		{}, {}, {},
		{Index: 5, Token: "email", Concept: profile.ConceptEmail, Confidence: 0.6},
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

// TestSurnameParts runs a Mexican form that asks for the two surnames
// apart through extraction, classification and matching: each box gets its
// part of the profile's family name, and a form with one surname box gets
// it whole.
func TestSurnameParts(t *testing.T) {
	p := &profile.UserProfile{Concepts: map[string]profile.Entry{
		profile.ConceptGivenName:  {Value: []byte(`"José"`), Confidence: 1},
		profile.ConceptFamilyName: {Value: []byte(`"García de la Fuente"`), Confidence: 1},
	}}
	tests := []struct {
		page string
		want []string // value per control, "" for none
	}{
		{`<form><label for=a>Nombre(s)</label><input id=a><label for=b>Apellido paterno</label><input id=b><label for=c>Apellido materno</label><input id=c></form>`,
			[]string{"José", "García", "de la Fuente"}},
		{`<form><label for=a>Nombre</label><input id=a><label for=b>Primer apellido</label><input id=b><label for=c>Segundo apellido</label><input id=c></form>`,
			[]string{"José", "García", "de la Fuente"}},
		{`<form><label for=a>Nombre</label><input id=a><label for=b>Apellidos</label><input id=b></form>`,
			[]string{"José", "García de la Fuente"}},
	}
	for _, tt := range tests {
		got := fillPage(t, tt.page, p)
		for i, want := range tt.want {
			if got[i] != want {
				t.Errorf("%s: control %d = %q, want %q", tt.page, i, got[i], want)
			}
		}
	}
}

// fillPage runs a page through extraction, classification and matching
// and returns the value proposed for each control ("" for none).
func fillPage(t *testing.T, page string, p *profile.UserProfile) []string {
	t.Helper()
	snap, err := form.Extract(strings.NewReader(page), form.ExtractOptions{})
	if err != nil {
		t.Fatal(err)
	}
	vals := make([]string, len(snap.Controls))
	for _, pr := range Match(FieldsFromSnapshot(snap, heuristics.Classify(snap)), p, Options{}) {
		if pr.Value != nil && pr.Index >= 0 && pr.Index < len(vals) {
			vals[pr.Index] = *pr.Value
		}
	}
	return vals
}

func TestSplitSurnames(t *testing.T) {
	tests := []struct{ in, first, second string }{
		{"García López", "García", "López"},
		{"García de la Fuente", "García", "de la Fuente"},
		{"dos Santos Silva", "dos Santos", "Silva"},
		{"de la Fuente", "de la Fuente", ""},
		{"Smith", "Smith", ""},
		{"", "", ""},
	}
	for _, tt := range tests {
		if f, s := splitSurnames(tt.in); f != tt.first || s != tt.second {
			t.Errorf("splitSurnames(%q) = %q, %q; want %q, %q", tt.in, f, s, tt.first, tt.second)
		}
	}
}

// TestPostcodeParts runs a postcode asked in two boxes through extraction,
// classification and matching: each box gets its part, split at the
// stored separator or, without one, where the country's postcodes divide.
func TestPostcodeParts(t *testing.T) {
	tests := []struct {
		lang          string
		max1, max2    int
		postcode, cc  string
		first, second string
	}{
		{"ja", 3, 4, "100-0001", "JP", "100", "0001"},
		{"ja", 3, 4, "1000001", "JP", "100", "0001"},
		{"pt", 4, 3, "1000 001", "PT", "1000", "001"},
		{"pt", 4, 3, "1000001", "PT", "1000", "001"},
	}
	for _, tt := range tests {
		page := fmt.Sprintf(`<html lang=%q><form><label for=z>Postcode</label><input id=z name=zip1 maxlength=%d> - <input name=zip2 maxlength=%d><label for=c>City</label><input id=c name=city></form></html>`, tt.lang, tt.max1, tt.max2)
		p := &profile.UserProfile{Concepts: map[string]profile.Entry{
			profile.ConceptPostalCode:     {Value: []byte(`"` + tt.postcode + `"`), Confidence: 1},
			profile.ConceptAddressCountry: {Value: []byte(`"` + tt.cc + `"`), Confidence: 1},
		}}
		got := fillPage(t, page, p)
		for i, want := range []string{tt.first, tt.second} {
			if got[i] != want {
				t.Errorf("%s (%s): box %d = %q, want %q", tt.postcode, tt.cc, i, got[i], want)
			}
		}
	}
}

// TestFormCountry: the country a form is for comes from the option chosen
// in its country select, else from the site's country-code domain; the
// phone spelling follows it (issue 12).
func TestFormCountry(t *testing.T) {
	tests := []struct {
		url     string
		options []form.Option
		want    string
	}{
		{"https://shop.example.de/checkout", nil, "DE"},
		{"https://www.example.co.uk/", nil, "GB"},
		{"https://app.example.io/", nil, ""},
		{"", nil, ""},
		{"https://shop.example.de/", []form.Option{{Value: "DE", Text: "Deutschland"}, {Value: "US", Text: "United States", Selected: true}}, "US"},
		{"", []form.Option{{Value: "1", Text: "Canada", Selected: true}}, "CA"},
		{"", []form.Option{{Value: "", Text: "Choose…"}, {Value: "FR", Text: "France"}}, ""},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.url, tt.options), func(t *testing.T) {
			s := &form.Snapshot{URL: tt.url, Controls: []form.Control{
				{Index: 0, Tag: "input", Type: "tel", Name: "phone"},
				{Index: 1, Tag: "select", Type: "select-one", Name: "country", Options: tt.options},
			}}
			cls := []heuristics.Result{{Token: "tel"}, {Token: "country"}}
			if got := FieldsFromSnapshot(s, cls)[0].Country; got != tt.want {
				t.Errorf("FieldsFromSnapshot(%q, %v)[0].Country = %q, want %q", tt.url, tt.options, got, tt.want)
			}
		})
	}
}

// TestRegionsCountry: a region select names the form's country, which
// decides national or international phone format (issue 24: a plain US
// checkout got "+1 217-555-0134").
func TestRegionsCountry(t *testing.T) {
	opts := func(texts ...string) []form.Option {
		var out []form.Option
		for _, s := range texts {
			out = append(out, form.Option{Text: s})
		}
		return out
	}
	tests := []struct {
		name string
		opts []form.Option
		want string
	}{
		{"us states", opts("Select a state", "Alabama", "Alaska", "Arizona", "California", "Illinois", "New York"), "US"},
		{"german länder", opts("Bitte wählen", "Bayern", "Berlin", "Hamburg", "Hessen", "Sachsen", "Thüringen"), "DE"},
		{"too few", opts("Alabama", "Alaska"), ""},
		{"not regions", opts("Red", "Green", "Blue", "Yellow", "Black", "White"), ""},
	}
	for _, tt := range tests {
		if got := regionsCountry(tt.opts); got != tt.want {
			t.Errorf("regionsCountry(%s) = %q, want %q", tt.name, got, tt.want)
		}
	}
}
