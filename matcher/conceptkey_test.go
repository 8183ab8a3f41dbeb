package matcher

import (
	"strings"
	"testing"
)

// TestResolveConceptKey is the rule shared by the command line and the app
// for concept keys a person types (issue 12, part 5).
func TestResolveConceptKey(t *testing.T) {
	tests := []struct {
		key, want, err string
	}{
		{"email", "https://schema.org/email", ""},
		{"birthDate", "https://schema.org/birthDate", ""},
		{"https://schema.org/address", "https://schema.org/address", ""},
		{"http://schema.org/givenName", "https://schema.org/givenName", ""},
		{"schema:worksFor", "https://schema.org/worksFor", ""},
		{"https://schema.org/streetAddress/line2", "https://schema.org/streetAddress/line2", ""},
		{"taxID", "https://schema.org/taxID", ""},
		{"ext:impp", "ext:impp", ""},
		{"http://hl7.org/fhir/contact-point-system#email", "http://hl7.org/fhir/contact-point-system#email", ""},
		{"birthdate", "", `unknown schema.org property "birthdate": did you mean "birthDate"?`},
		{"fooBar", "", `unknown schema.org property "fooBar": did you mean`},
		{"https://schema.org/emial", "", `did you mean "email"?`},
		{"postcode", "", `did you mean "postalCode"?`},
		{"familyname", "", `did you mean "familyName"?`},
		{" ", "", "empty"},
	}
	for _, tt := range tests {
		got, err := ResolveConceptKey(tt.key)
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("ResolveConceptKey(%q) = %v", tt.key, err)
		case tt.err == "" && got != tt.want:
			t.Errorf("ResolveConceptKey(%q) = %q, want %q", tt.key, got, tt.want)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("ResolveConceptKey(%q) = %q, %v; want an error with %q", tt.key, got, err, tt.err)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"emial", "email", 2}, {"セイ", "メイ", 1}} {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
