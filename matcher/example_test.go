package matcher_test

import (
	"encoding/json"
	"fmt"

	"github.com/tessera-app/tessera/matcher"
	"github.com/tessera-app/tessera/profile"
)

// A German form asks for a phone number and the birth date in its own
// layout; the profile stores E.164 and ISO.
func ExampleMatch() {
	entry := func(v string) profile.Entry {
		raw, _ := json.Marshal(v)
		return profile.Entry{Value: raw, Confidence: 1, Source: profile.Source{Type: "manual"}}
	}
	p := &profile.UserProfile{Concepts: map[string]profile.Entry{
		"https://schema.org/telephone":      entry("+49301234567"),
		"https://schema.org/birthDate":      entry("1970-03-09"),
		"https://schema.org/addressCountry": entry("DE"),
	}}
	fields := []matcher.Field{
		{Label: "Telefon", InputType: "tel", Lang: "de-DE",
			Evidence: []matcher.Evidence{{Kind: matcher.EvidenceAutocomplete, Concept: "https://schema.org/telephone", Token: "tel"}}},
		{Index: 1, Label: "Geburtsdatum", InputType: "text", Placeholder: "TT.MM.JJJJ", Lang: "de-DE",
			Evidence: []matcher.Evidence{{Kind: matcher.EvidenceHeuristic, Concept: "https://schema.org/birthDate", Token: "bday", Strength: 0.8}}},
		{Index: 2, Label: "Passwort", InputType: "password"},
	}
	for _, pr := range matcher.Match(fields, p, matcher.Options{}) {
		if pr.Value == nil {
			fmt.Printf("%s: skipped (%s)\n", fields[pr.Index].Label, pr.Skip)
			continue
		}
		fmt.Printf("%s: %q %s %.2f\n", fields[pr.Index].Label, *pr.Value, pr.Relationship, pr.Confidence)
	}
	// Output:
	// Telefon: "030 1234567" exact 0.95
	// Geburtsdatum: "09.03.1970" exact 0.80
	// Passwort: skipped (x-sensitive)
}
