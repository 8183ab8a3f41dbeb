package profile

import (
	"strings"
	"testing"
)

// Every token a profile value can fill has a label from the table, not
// its own name in words.
func TestEveryTokenHasALabel(t *testing.T) {
	for _, tok := range Tokens() {
		if IsSensitiveToken(tok) || strings.HasPrefix(tok, "transaction-") {
			continue
		}
		if got := Label(tok, ""); got == strings.ReplaceAll(tok, "-", " ") {
			t.Errorf("Label(%q, \"\") = %q: the token has no label in the table", tok, got)
		}
	}
	if got := Label("", ConceptGivenName); got != "First name" {
		t.Errorf("Label(\"\", givenName) = %q, want First name", got)
	}
	if got := Label("tel-area-code", ConceptTelephone); got != "Phone area code" {
		t.Errorf("Label(tel-area-code) = %q, want Phone area code", got)
	}
}
