package heuristics

import (
	"strings"
	"testing"

	"github.com/tessera-app/tessera/form"
)

// TestTitlePickerWithGenderWords checks that a title picker whose options
// include words gender lists have ("Frau", "Divers") is still a title
// picker when a title no gender list has ("Herr", "Mr") is among them,
// while a gender list with one shared word stays a gender list (issue 12,
// part 5: a German Anrede was read as gender and left empty).
func TestTitlePickerWithGenderWords(t *testing.T) {
	tests := []struct {
		page, want string
	}{
		{`<label for="a">Anrede</label><select id="a" name="anrede"><option value="">Bitte wählen</option><option value="frau">Frau</option><option value="herr">Herr</option><option value="divers">Divers</option></select>`, "honorific-prefix"},
		{`<label for="a">Anrede</label><select id="a" name="salutation"><option>Frau</option><option>Herr</option></select>`, "honorific-prefix"},
		{`<label for="g">Geschlecht</label><select id="g" name="g"><option>Mann</option><option>Frau</option><option>Divers</option></select>`, "sex"},
		{`<label for="g">Gender</label><select id="g" name="g"><option>M</option><option>F</option></select>`, "sex"},
		{`<label for="t">Title</label><select id="t" name="t"><option>Mr</option><option>Mrs</option><option>Ms</option></select>`, "honorific-prefix"},
	}
	checkFirstTokens(t, "de", tests)
}

// TestNameSuffixList: a "Suffix" list of name suffixes is the name's
// suffix, "Sr." first or last; the Spanish titles (Sr., Sra., Srta.) stay
// titles, and a "Suffix" list of street suffixes is no name's.
func TestNameSuffixList(t *testing.T) {
	tests := []struct {
		page, want string
	}{
		{`<label for="s">Suffix</label><select id="s" name="suffix"><option value="">None</option><option>Jr.</option><option>Sr.</option><option>III</option></select>`, "honorific-suffix"},
		{`<label for="s">Suffix</label><select id="s" name="sfx"><option>Sr.</option><option>Jr.</option></select>`, "honorific-suffix"},
		{`<label for="s">Suffix</label><select id="s" name="sfx"><option>II</option><option>III</option><option>IV</option><option>PhD</option></select>`, "honorific-suffix"},
		{`<label for="t">Tratamiento</label><select id="t" name="t"><option>Sr.</option><option>Sra.</option><option>Srta.</option></select>`, "honorific-prefix"},
		{`<label for="s">Street suffix</label><select id="s" name="streetSuffix"><option>St</option><option>Ave</option><option>Rd</option><option>Blvd</option></select>`, ""},
	}
	checkFirstTokens(t, "en", tests)
}

// checkFirstTokens classifies each page (its controls inside one form of a
// document in language lang) and checks its first control's token.
func checkFirstTokens(t *testing.T, lang string, tests []struct{ page, want string }) {
	t.Helper()
	for _, tt := range tests {
		snap, err := form.Extract(strings.NewReader(`<!doctype html><html lang="`+lang+`"><form>`+tt.page+`</form></html>`), form.ExtractOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := Classify(snap)[0].Token; got != tt.want {
			t.Errorf("Classify(%s) token = %q, want %q", tt.page, got, tt.want)
		}
	}
}
