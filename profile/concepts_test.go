package profile

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// whatwgFieldNames is every autofill field name of the HTML Standard
// (§4.10.18.7.1, the "autofill field" and "contact" tables), written out here
// independently of tokenConcepts so that a token dropped from the table fails.
var whatwgFieldNames = []string{
	"name", "honorific-prefix", "given-name", "additional-name", "family-name",
	"honorific-suffix", "nickname", "username", "new-password",
	"current-password", "one-time-code", "organization-title", "organization",
	"street-address", "address-line1", "address-line2", "address-line3",
	"address-level4", "address-level3", "address-level2", "address-level1",
	"country", "country-name", "postal-code", "cc-name", "cc-given-name",
	"cc-additional-name", "cc-family-name", "cc-number", "cc-exp",
	"cc-exp-month", "cc-exp-year", "cc-csc", "cc-type", "transaction-currency",
	"transaction-amount", "language", "bday", "bday-day", "bday-month",
	"bday-year", "sex", "url", "photo",
	"tel", "tel-country-code", "tel-national", "tel-area-code", "tel-local",
	"tel-local-prefix", "tel-local-suffix", "tel-extension", "email", "impp",
}

func TestVocabularyComplete(t *testing.T) {
	for _, tok := range whatwgFieldNames {
		c, ok := ConceptForToken(tok)
		if !ok || c == "" {
			t.Errorf("WHATWG token %q has no concept", tok)
			continue
		}
		if !strings.HasPrefix(c, "https://schema.org/") && !strings.HasPrefix(c, "ext:") {
			t.Errorf("token %q maps to %q, neither schema.org nor ext:", tok, c)
		}
	}
	own := []string{"phonetic-name", "phonetic-given-name", "phonetic-family-name"}
	if got, want := len(Tokens()), len(whatwgFieldNames)+len(own); got != want {
		t.Errorf("Tokens() has %d tokens, the standard %d and Tessera's own %d: %v", got, len(whatwgFieldNames), len(own), Tokens())
	}
	for _, tok := range own {
		if c, ok := ConceptForToken(tok); !ok || !strings.HasPrefix(c, "ext:phonetic-") {
			t.Errorf("own token %q maps to %q, want an ext:phonetic- concept", tok, c)
		}
		if IsSensitiveToken(tok) {
			t.Errorf("own token %q is sensitive", tok)
		}
	}
	for _, tok := range []string{"", "off", "on", "shipping", "home", "webauthn", "Given-Name"} {
		if c, ok := ConceptForToken(tok); ok {
			t.Errorf("ConceptForToken(%q) = %q, want none", tok, c)
		}
	}
}

func TestSensitiveTokens(t *testing.T) {
	for _, tc := range []struct {
		token string
		want  bool
	}{
		{"current-password", true}, {"new-password", true}, {"username", true},
		{"one-time-code", true}, {"cc-number", true}, {"cc-csc", true},
		{"cc-exp-month", true}, {"cc-name", true},
		{"email", false}, {"given-name", false}, {"tel", false},
		{"street-address", false}, {"", false},
	} {
		if got := IsSensitiveToken(tc.token); got != tc.want {
			t.Errorf("IsSensitiveToken(%q) = %v, want %v", tc.token, got, tc.want)
		}
	}
	for tok := range sensitiveTokens {
		c, ok := ConceptForToken(tok)
		if !ok || !strings.HasPrefix(c, "ext:") {
			t.Errorf("sensitive token %q maps to %q, want an ext: concept", tok, c)
		}
	}
}

// TestImportsNothingOfTessera keeps profile the bottom of the graph: the
// vocabulary and the data model may be shared by classification, matching
// and storage only if profile depends on none of them.
func TestImportsNothingOfTessera(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatalf("parse %s: %v", name, err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(path, "github.com/tessera-app/tessera") {
				t.Errorf("%s imports %s; profile must import nothing of Tessera's", name, path)
			}
		}
	}
}
