package matcher

import (
	"testing"
	"time"

	"github.com/nyaruka/phonenumbers"

	"github.com/tessera-app/tessera/profile"
)

func TestCanonicalConcept(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://schema.org/email", "https://schema.org/email"},
		{"http://schema.org/email", "https://schema.org/email"},
		{"schema:email", "https://schema.org/email"},
		{"https://www.schema.org/email/", "https://schema.org/email"},
		{"https://schema.org#email", "https://schema.org/email"},
		{"http://hl7.org/fhir/contact-point-system#phone", "http://hl7.org/fhir/contact-point-system/phone"},
		{" urn:x:a ", "urn:x:a"},
		{"ext:address-level3", "ext:address-level3"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := CanonicalConcept(tt.in); got != tt.want {
				t.Errorf("CanonicalConcept(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
	// An equivalent written as system + code meets the same key.
	if got := (Equivalent{System: "https://schema.org/", Code: "email"}).key(); got != "https://schema.org/email" {
		t.Errorf("Equivalent{system/, code}.key() = %q, want %q", got, "https://schema.org/email")
	}
}

func TestPathCandidates(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"a.b", []string{"a.b"}},
		{"items[0].amount", []string{"items[0].amount", "items.amount", "items[*].amount"}},
		{"a[2].b[10].c", []string{"a[2].b[10].c", "a.b.c", "a[*].b[*].c"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got := pathCandidates(tt.in)
			if len(got) != len(tt.want) {
				t.Fatalf("pathCandidates(%q) = %q, want %q", tt.in, got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("pathCandidates(%q) = %q, want %q", tt.in, got, tt.want)
				}
			}
		})
	}
}

func TestFold(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Québec", "quebec"},
		{"QUEBEC.", "quebec"},
		{"Straße", "strasse"},
		{"  São   Paulo ", "sao paulo"},
		{"Sig.ra", "sig ra"},
		{"東京都", "東京都"},
		{"already clean", "already clean"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := fold(tt.in); got != tt.want {
				t.Errorf("fold(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestSplitName(t *testing.T) {
	tests := []struct {
		in, lang string
		want     nameParts
		ok       bool
	}{
		{"Jane Public", "en", nameParts{given: "Jane", family: "Public"}, true},
		{"Dr. Jane Q. Public Jr.", "en", nameParts{prefix: "Dr.", given: "Jane", additional: "Q.", family: "Public"}, true},
		{"Ludwig van Beethoven", "de", nameParts{given: "Ludwig", family: "van Beethoven"}, true},
		{"María de los Ángeles de la Cruz", "es", nameParts{given: "María", additional: "de los Ángeles", family: "de la Cruz"}, true},
		{"M. Jean Dupont", "fr", nameParts{prefix: "M.", given: "Jean", family: "Dupont"}, true},
		{"山田 太郎", "ja", nameParts{given: "太郎", family: "山田"}, true},
		{"Madonna", "en", nameParts{}, false},
		// A bare "M" is an initial, not the French "M.".
		{"M Jones", "en", nameParts{given: "M", family: "Jones"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := splitName(tt.in, tt.lang)
			if ok != tt.ok || ok && got != tt.want {
				t.Errorf("splitName(%q) = %+v, %v, want %+v, %v", tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestSplitStreet(t *testing.T) {
	tests := []struct{ in, num, street string }{
		{"221B Baker Street", "221B", "Baker Street"},
		{"12, rue de la Paix", "12", "rue de la Paix"},
		{"Hauptstraße 5a", "5a", "Hauptstraße"},
		{"Rua Augusta, 1500", "1500", "Rua Augusta"},
		{"Calle Mayor 12-14", "12-14", "Calle Mayor"},
		{"The Old Rectory", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			num, street, _ := splitStreet(tt.in)
			if num != tt.num || street != tt.street {
				t.Errorf("splitStreet(%q) = %q, %q, want %q, %q", tt.in, num, street, tt.num, tt.street)
			}
		})
	}
}

func TestDateLayouts(t *testing.T) {
	d := time.Date(1990, 3, 9, 0, 0, 0, 0, time.UTC)
	tests := []struct{ layout, want string }{
		{"MM/DD/YYYY", "03/09/1990"},
		{"TT.MM.JJJJ", "09.03.1990"},
		{"JJ/MM/AAAA", "09/03/1990"},
		{"GG/MM/AAAA", "09/03/1990"},
		{"dd-mm-yy", "09-03-90"},
		{"AAAA-MM-JJ", "1990-03-09"},
		{"TT.MM.JJ", "09.03.90"},
		{"YYYY年MM月DD日", "1990年03月09日"},
		{"D/M/YYYY", "9/3/1990"},
		{"DD/DD/YYYY", ""},
		{"Name", ""},
		{"MM/YYYY", ""},
		{"ДД.ММ.ГГГГ", "09.03.1990"},
		{"дд.мм.рррр", "09.03.1990"},
		{"DD.MM.RRRR", "09.03.1990"},
		{"ÉÉÉÉ.HH.NN.", "1990.03.09."},
		{"ÅÅÅÅ-MM-DD", "1990-03-09"},
		{"ДД.ММ", ""},
		{"Név", ""},
	}
	for _, tt := range tests {
		t.Run(tt.layout, func(t *testing.T) {
			toks, ok := parseLayout(tt.layout)
			got := ""
			if ok {
				got = formatDate(toks, d, "")
			}
			if got != tt.want {
				t.Errorf("parseLayout(%q) formats %q, want %q", tt.layout, got, tt.want)
			}
		})
	}
	examples := []struct{ in, want string }{
		{"31/12/1990", "09/03/1990"},
		{"12/31/1990", "03/09/1990"},
		{"1990-12-31", "1990-03-09"},
		{"01/02/1990", ""}, // day and month both ≤ 12: ambiguous
	}
	for _, tt := range examples {
		t.Run("example "+tt.in, func(t *testing.T) {
			toks, ok := layoutFromExample(tt.in)
			got := ""
			if ok {
				got = formatDate(toks, d, "")
			}
			if got != tt.want {
				t.Errorf("layoutFromExample(%q) formats %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestRegionsAndCountries(t *testing.T) {
	regions := []struct{ country, in, code string }{
		{"US", "california", "CA"}, {"US", "US-NY", "NY"}, {"CA", "Québec", "QC"}, {"CA", "Quebec", "QC"},
		{"AU", "nsw", "NSW"}, {"DE", "Bavaria", "BY"}, {"MX", "CDMX", "CMX"}, {"BR", "Sao Paulo", "SP"},
		{"JP", "東京都", "13"}, {"JP", "Tokyo", "13"}, {"ES", "Catalunya", "CT"}, {"IN", "Orissa", "OD"},
		{"FR", "Ile-de-France", "IDF"}, {"FR", "Corsica", "20R"}, {"NL", "North Holland", "NH"}, {"NL", "Friesland", "FR"},
		{"CN", "广东省", "GD"}, {"CN", "Inner Mongolia", "NM"}, {"KR", "서울특별시", "11"}, {"KR", "Gyeonggi", "41"},
		{"ES", "Gerona", "GI"}, {"ES", "Vizcaya", "BI"}, {"IT", "Monza e Brianza", "MB"}, {"IT", "Mantua", "MN"}, {"IT", "Lombardia", "25"},
		{"AR", "Cordoba", "X"}, {"AR", "CABA", "C"}, {"CO", "Bogotá", "DC"}, {"CO", "Valle del Cauca", "VAC"},
		{"US", "Atlantis", ""},
	}
	for _, tt := range regions {
		t.Run(tt.country+"/"+tt.in, func(t *testing.T) {
			rg, _ := findRegion(tt.country, tt.in)
			if rg.Code != tt.code {
				t.Errorf("findRegion(%q, %q) = %q, want %q", tt.country, tt.in, rg.Code, tt.code)
			}
		})
	}
	countries := []struct{ in, want string }{
		{"DE", "DE"}, {"deu", "DE"}, {"Germany", "DE"}, {"Deutschland", "DE"}, {"Allemagne", "DE"},
		{"USA", "US"}, {"united states", "US"}, {"日本", "JP"}, {"Brasil", "BR"}, {"Narnia", ""},
	}
	for _, tt := range countries {
		t.Run(tt.in, func(t *testing.T) {
			got, _ := countryCode(tt.in)
			if got != tt.want {
				t.Errorf("countryCode(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestRelationshipOrder checks the weights of Assist §7.2 for one entry
// (confidence 0.9) reached through each relationship: direct 1, exact (or
// absent type) 0.95, close 0.80, broader and narrower 0.60, related 0.40,
// field-key 0.30 — so their order is kept.
func TestRelationshipOrder(t *testing.T) {
	tests := []struct {
		rel, typ string
		want     float64
	}{
		{RelExact, "direct", 0.9},
		{RelExact, "", 0.855},
		{RelExact, RelExact, 0.855},
		{RelClose, RelClose, 0.72},
		{RelBroader, RelBroader, 0.54},
		{RelNarrower, RelNarrower, 0.54},
		{RelRelated, RelRelated, 0.36},
		{RelFieldKey, RelFieldKey, 0.27},
	}
	for _, tt := range tests {
		t.Run("type="+tt.typ, func(t *testing.T) {
			p := &profile.UserProfile{
				Concepts: map[string]profile.Entry{"urn:x:target": entryOf("v", 0.9)},
				Fields:   map[string]profile.Entry{"f": entryOf("v", 0.9)},
			}
			b := Binding{Concept: "urn:x:field"}
			switch tt.typ {
			case "direct":
				b.Concept = "urn:x:target"
			case RelFieldKey:
			default:
				b.Equivalents = []Equivalent{{Concept: "urn:x:target", Type: tt.typ}}
			}
			sc := &Sidecars{Ontologies: []*Ontology{{Concepts: map[string]Binding{"f": b}}}}
			got := Match([]Field{{Path: "f", InputType: "text"}}, p, Options{Sidecars: sc, Threshold: 0.01})[0]
			if got.Value == nil || got.Relationship != tt.rel || got.Confidence != tt.want {
				t.Errorf("Match via %q = %q, %q, %v (skip %q), want %q, %q, %v", tt.typ, str(got.Value), got.Relationship, got.Confidence, got.Skip, "v", tt.rel, tt.want)
			}
		})
	}
}

// TestBestRelationshipFirst: when a field's concept reaches several entries,
// the strongest relationship is used, whatever the order the equivalents
// are written in.
func TestBestRelationshipFirst(t *testing.T) {
	p := &profile.UserProfile{Concepts: map[string]profile.Entry{
		"urn:x:related": entryOf("related value", 1),
		"urn:x:close":   entryOf("close value", 1),
		"urn:x:broader": entryOf("broader value", 1),
	}}
	b := Binding{Concept: "urn:x:field", Equivalents: []Equivalent{
		{Concept: "urn:x:related", Type: RelRelated}, {Concept: "urn:x:broader", Type: RelBroader}, {Concept: "urn:x:close", Type: RelClose},
	}}
	sc := &Sidecars{Ontologies: []*Ontology{{Concepts: map[string]Binding{"f": b}}}}
	got := Match([]Field{{Path: "f", InputType: "text"}}, p, Options{Sidecars: sc})[0]
	if str(got.Value) != "close value" || got.Relationship != RelClose || got.Confidence != 0.8 {
		t.Errorf("Match = %q, %q, %v, want %q, %q, %v", str(got.Value), got.Relationship, got.Confidence, "close value", RelClose, 0.8)
	}
}

// TestThreshold: the threshold is configurable, and a proposal exactly at it
// is kept.
func TestThreshold(t *testing.T) {
	p := &profile.UserProfile{Concepts: map[string]profile.Entry{"urn:x:target": entryOf("v", 1)}}
	b := Binding{Concept: "urn:x:field", Equivalents: []Equivalent{{Concept: "urn:x:target", Type: RelBroader}}}
	sc := &Sidecars{Ontologies: []*Ontology{{Concepts: map[string]Binding{"f": b}}}}
	tests := []struct {
		threshold float64
		want      string
		skip      string
	}{
		{0, "v", ""}, // default 0.50: broader 0.60 passes
		{0.6, "v", ""},
		{0.61, "<nil>", SkipLowConfidence},
	}
	for _, tt := range tests {
		got := Match([]Field{{Path: "f", InputType: "text"}}, p, Options{Sidecars: sc, Threshold: tt.threshold})[0]
		if str(got.Value) != tt.want || got.Skip != tt.skip || got.Confidence != 0.6 {
			t.Errorf("Match(threshold %v) = %q, skip %q, confidence %v, want %q, skip %q, 0.6", tt.threshold, str(got.Value), got.Skip, got.Confidence, tt.want, tt.skip)
		}
	}
}

// TestEntryConfidenceZero guards the documented rule that an entry stating
// no confidence counts as 1 rather than making the value unusable.
func TestEntryConfidenceZero(t *testing.T) {
	p := &profile.UserProfile{Concepts: map[string]profile.Entry{profile.ConceptEmail: entryOf("a@b.example", 0)}}
	f := Field{InputType: "email", Evidence: []Evidence{{Kind: EvidenceAutocomplete, Concept: profile.ConceptEmail, Token: "email"}}}
	if got := Match([]Field{f}, p, Options{})[0]; got.Confidence != 0.95 {
		t.Errorf("Match confidence = %v, want 0.95", got.Confidence)
	}
}

// TestNoProfile: a nil profile matches nothing and does not panic.
func TestNoProfile(t *testing.T) {
	f := Field{InputType: "email", Evidence: []Evidence{{Kind: EvidenceAutocomplete, Concept: profile.ConceptEmail, Token: "email"}}}
	if got := Match([]Field{f}, nil, Options{})[0]; got.Value != nil || got.Skip != SkipNoValue {
		t.Errorf("Match(nil profile) = %q, skip %q, want nothing, skip %q", str(got.Value), got.Skip, SkipNoValue)
	}
}

// TestResolveOrder walks the concept identity order of Assist §5.3: each
// case gives a field evidence of several kinds and names the one that must
// win.
func TestResolveOrder(t *testing.T) {
	first := &Ontology{Concepts: map[string]Binding{
		"a":              {Concept: "urn:x:first"},
		"b":              {Concept: "urn:x:first-only"},
		"items.amount":   {Concept: "urn:x:stripped"},
		"rows[*].amount": {Concept: "urn:x:wildcard"},
	}}
	last := &Ontology{Concepts: map[string]Binding{
		"a":           {Concept: "urn:x:last"},
		"rows[2].qty": {Concept: "urn:x:full-path"},
		"rows[*].qty": {Concept: "urn:x:wildcard-qty"},
	}}
	reg := &Registry{Concepts: map[string]Binding{"x-postcode": {Concept: profile.ConceptPostalCode}}}
	sc := &Sidecars{Ontologies: []*Ontology{first, last}, Registries: []*Registry{reg}}
	ac := Evidence{Kind: EvidenceAutocomplete, Concept: profile.ConceptGivenName, Token: "given-name"}
	sure := Evidence{Kind: EvidenceHeuristic, Concept: profile.ConceptEmail, Token: "email", Strength: 1}
	weak := Evidence{Kind: EvidenceHeuristic, Concept: profile.ConceptTelephone, Token: "tel", Strength: 0.4}
	tests := []struct {
		name    string
		f       Field
		concept string
		kind    EvidenceKind
	}{
		{"last loaded ontology wins", Field{Path: "a"}, "urn:x:last", EvidenceOntology},
		{"earlier ontology still binds its own paths", Field{Path: "b"}, "urn:x:first-only", EvidenceOntology},
		{"index-stripped path", Field{Path: "items[0].amount"}, "urn:x:stripped", EvidenceOntology},
		{"wildcard path", Field{Path: "rows[3].amount"}, "urn:x:wildcard", EvidenceOntology},
		{"full path before wildcard", Field{Path: "rows[2].qty"}, "urn:x:full-path", EvidenceOntology},
		{"ontology before registry and literal", Field{Path: "a", SemanticType: "x-postcode", Evidence: []Evidence{ac}}, "urn:x:last", EvidenceOntology},
		{"registry entry named by semanticType", Field{Path: "zip", SemanticType: "x-postcode", Evidence: []Evidence{ac}}, profile.ConceptPostalCode, EvidenceRegistry},
		{"semanticType literal before autocomplete", Field{Path: "zip", SemanticType: "urn:x:literal", Evidence: []Evidence{ac, sure}}, "urn:x:literal", EvidenceSemanticType},
		// A heuristic as sure as it can be must not outvote the page
		// author's autocomplete token (it once did: the strongest claim won).
		{"autocomplete before a sure heuristic", Field{Evidence: []Evidence{sure, ac}}, profile.ConceptGivenName, EvidenceAutocomplete},
		{"surest heuristic", Field{Evidence: []Evidence{weak, sure}}, profile.ConceptEmail, EvidenceHeuristic},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, ok := sc.Resolve(&tt.f)
			if !ok || id.Concept != tt.concept || id.Kind != tt.kind {
				t.Errorf("Resolve(%+v) = %q (%s), %v, want %q (%s)", tt.f, id.Concept, id.Kind, ok, tt.concept, tt.kind)
			}
		})
	}
	if id, ok := sc.Resolve(&Field{Path: "unbound"}); ok {
		t.Errorf("Resolve(unbound) = %q, want no identity", id.Concept)
	}
}

// TestRadioGroup: one button of a group gets the value; a button that may
// not be checked never does, wherever it stands in the group (a disabled
// button after the first once got the group's value).
func TestRadioGroup(t *testing.T) {
	p := &profile.UserProfile{Concepts: map[string]profile.Entry{profile.ConceptHonorificPrefix: entryOf("Dr", 1)}}
	ev := []Evidence{{Kind: EvidenceAutocomplete, Concept: profile.ConceptHonorificPrefix, Token: "honorific-prefix"}}
	radio := func(value string, gated func(*Field)) Field {
		f := Field{InputType: "radio", Group: "title", Evidence: ev, Options: []Option{{Value: value, Text: value}}}
		if gated != nil {
			gated(&f)
		}
		return f
	}
	disabled := func(f *Field) { f.Disabled = true }
	readonly := func(f *Field) { f.ReadOnly = true }
	tests := []struct {
		name   string
		fields []Field
		want   []string // value or skip reason per button
	}{
		{"chosen", []Field{radio("Mr", nil), radio("Dr", nil), radio("Ms", nil)}, []string{SkipNotChosen, "Dr", SkipNotChosen}},
		{"disabled after the first", []Field{radio("Mr", nil), radio("Dr", disabled)}, []string{SkipInvalidValue, SkipNotRelevant}},
		{"readonly after the first", []Field{radio("Mr", nil), radio("Dr", readonly)}, []string{SkipInvalidValue, SkipReadOnly}},
		{"disabled first", []Field{radio("Dr", disabled), radio("Dr", nil)}, []string{SkipNotRelevant, "Dr"}},
		{"all disabled", []Field{radio("Mr", disabled), radio("Dr", disabled)}, []string{SkipNotRelevant, SkipNotRelevant}},
		{"no fitting button", []Field{radio("Mr", nil), radio("Ms", nil)}, []string{SkipInvalidValue, SkipInvalidValue}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i := range tt.fields {
				tt.fields[i].Index = i
			}
			for i, pr := range Match(tt.fields, p, Options{}) {
				got := pr.Skip
				if pr.Value != nil {
					got = *pr.Value
				}
				if got != tt.want[i] {
					t.Errorf("Match button %d = %q, want %q", i, got, tt.want[i])
				}
			}
		})
	}
}

// TestPhoneForms pins the first spelling of a stored E.164 number for each
// telephone part on pages of several countries.
// TestPhoneShape guards issue 12's miss: a domestic number on a form of
// its own country was filled in international form ("+1 503-555-0142"
// where the form wants "(503) 555-0142" or "5035550142"). The spelling
// follows the country the form is for, then the field's shape.
func TestPhoneShape(t *testing.T) {
	tests := []struct {
		name string
		f    Field
		want string
	}{
		{"language whose country shares the code", Field{Lang: "en"}, "(503) 555-0142"},
		{"form country", Field{Lang: "de", Country: "US"}, "(503) 555-0142"},
		{"form country elsewhere", Field{Lang: "en-US", Country: "DE"}, "+1 503-555-0142"},
		{"page region elsewhere", Field{Lang: "de-DE", Constraints: Constraints{MaxLength: 10}}, ""},
		{"no country, maxlength 10", Field{Constraints: Constraints{MaxLength: 10}}, "5035550142"},
		{"no country, pattern", Field{Constraints: Constraints{Pattern: `[0-9]{3}-[0-9]{3}-[0-9]{4}`}}, "503-555-0142"},
		{"no country, mask placeholder", Field{Placeholder: "(555) 555-5555"}, "(503) 555-0142"},
		{"no country, digit mask", Field{Placeholder: "___-___-____"}, "503-555-0142"},
		{"no country, international mask", Field{Placeholder: "+1 555 555 5555"}, "+1 503-555-0142"},
		{"no country, numeric input mode", Field{InputMode: "numeric"}, "5035550142"},
		{"no country, no shape", Field{}, "+1 503-555-0142"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &run{phones: map[string]*phoneInfo{}, pc: patternCache{}}
			fs, ok := r.phoneForms(&tt.f, "tel", "+15035550142", "US")
			got := ""
			for _, s := range fs.text {
				if ok && check(&tt.f, s, r.pc) == "" {
					got = s
					break
				}
			}
			if got != tt.want {
				t.Errorf("phoneForms(%+v) fills %q, want %q (candidates %q)", tt.f, got, tt.want, fs.text)
			}
		})
	}
}

// TestPhoneGroupsBesideACallingCode pins that the national groups are not
// used where the form asks for the calling code too: "+81 | 3 | 1234 |
// 5678" takes the area code without its trunk prefix, and no guessed split.
func TestPhoneGroupsBesideACallingCode(t *testing.T) {
	r := &run{phones: map[string]*phoneInfo{}, telCode: true}
	for part, want := range map[string]string{"tel-area-code": "3", "tel-local-prefix": "", "tel-local-suffix": ""} {
		fs, ok := r.phoneForms(&Field{Lang: "ja-JP"}, part, "+81312345678", "")
		got := ""
		if ok && len(fs.text) > 0 {
			got = fs.text[0]
		}
		if got != want {
			t.Errorf("%s beside a calling code = %q, want %q", part, got, want)
		}
	}
}

func TestPhoneForms(t *testing.T) {
	tests := []struct {
		number, lang, part, want string
	}{
		{"+12025550123", "en-US", "tel", "(202) 555-0123"},
		// Same calling code, other region: still dialled nationally.
		{"+12025550123", "en-CA", "tel", "(202) 555-0123"},
		{"+12025550123", "de-DE", "tel", "+1 202-555-0123"},
		{"+493012345678", "de-DE", "tel", "030 12345678"},
		{"+493012345678", "de-DE", "tel-area-code", "30"},
		{"+493012345678", "de-DE", "tel-local", "12345678"},
		{"+442071234567", "en-GB", "tel-national", "020 7123 4567"},
		// "Phone (with country code)" on a form of the number's own country.
		{"+442071234567", "en-GB", "international", "+44 20 7123 4567"},
		{"+442071234567", "en-GB", "tel-country-code", "+44"},
		{"+12025550123", "en-US", "tel-area-code", "202"},
		{"+12025550123", "en-US", "tel-local", "555-0123"},
		{"+12025550123", "en-US", "tel-local-prefix", "555"},
		{"+12025550123", "en-US", "tel-local-suffix", "0123"},
		{"+12025550123 ext. 42", "en-US", "tel-extension", "42"},
		{"+81312345678", "ja-JP", "tel", "03-1234-5678"},
		// Outside NANP a prefix/suffix split would be a guess: none.
		{"+493012345678", "de-DE", "tel-local-prefix", ""},
		// Unless the country writes its numbers in three groups: Japan's
		// three boxes take 03 - 1234 - 5678, trunk prefix and all.
		{"+81312345678", "ja-JP", "tel-area-code", "03"},
		{"+81312345678", "ja-JP", "tel-local-prefix", "1234"},
		{"+81312345678", "ja-JP", "tel-local-suffix", "5678"},
		{"+819012345678", "ja-JP", "tel-area-code", "090"},
		{"+819012345678", "ja-JP", "tel-local-prefix", "1234"},
		{"+819012345678", "ja-JP", "tel-local-suffix", "5678"},
	}
	for _, tt := range tests {
		t.Run(tt.lang+"/"+tt.part+"/"+tt.number, func(t *testing.T) {
			r := &run{phones: map[string]*phoneInfo{}, telExt: true}
			fs, ok := r.phoneForms(&Field{Lang: tt.lang}, tt.part, tt.number, "")
			got := ""
			if ok && len(fs.text) > 0 {
				got = fs.text[0]
			}
			if got != tt.want {
				t.Errorf("phoneForms(%q, %s, %s) = %q, want %q", tt.number, tt.lang, tt.part, got, tt.want)
			}
		})
	}
	// The NANP area-code shortcut must agree with the library.
	for _, n := range []string{"+12025550123", "+14165550123", "+18095550123"} {
		p, _ := parsePhone(n, "")
		want := phonenumbers.GetLengthOfGeographicalAreaCode(p.num)
		if got := p.areaCodeLen(); want != 0 && got != want {
			t.Errorf("areaCodeLen(%s) = %d, library says %d", n, got, want)
		}
	}
}

// TestKeySpellingsMeet: a concept written as "system#code", "system/code" or
// as an equivalent's system and code is one key, on the profile side and on
// the form side alike.
func TestKeySpellingsMeet(t *testing.T) {
	profileKeys := []string{"http://loinc.org#21112-8", "http://loinc.org/21112-8", "http://loinc.org/21112-8/"}
	bindings := map[string]Binding{
		"hash":  {Concept: "http://loinc.org#21112-8"},
		"slash": {Concept: "http://loinc.org/21112-8"},
		"system+code": {Concept: "urn:x:birth", Equivalents: []Equivalent{
			{System: "http://loinc.org", Code: "21112-8"},
		}},
		"system#+code": {Concept: "urn:x:birth", Equivalents: []Equivalent{
			{System: "http://loinc.org#", Code: "21112-8"},
		}},
	}
	for _, key := range profileKeys {
		for name, b := range bindings {
			t.Run(key+"/"+name, func(t *testing.T) {
				p := &profile.UserProfile{Concepts: map[string]profile.Entry{key: entryOf("1980-01-02", 1)}}
				sc := &Sidecars{Ontologies: []*Ontology{{Concepts: map[string]Binding{"dob": b}}}}
				got := Match([]Field{{Path: "dob", DataType: "date"}}, p, Options{Sidecars: sc})[0]
				want := 1.0
				if len(b.Equivalents) > 0 {
					want = 0.95
				}
				if str(got.Value) != "1980-01-02" || got.Confidence != want {
					t.Errorf("Match(profile key %q, binding %s) = %q at %v (skip %q), want %q at %v", key, name, str(got.Value), got.Confidence, got.Skip, "1980-01-02", want)
				}
			})
		}
	}
}

// TestConfidenceFormula checks the product of the package doc: relationship
// × entry × evidence × adaptation, with each kind of evidence at its
// documented strength.
func TestConfidenceFormula(t *testing.T) {
	const c = profile.ConceptEmail
	sc := &Sidecars{
		Ontologies: []*Ontology{{Concepts: map[string]Binding{"bound": {Concept: c}}}},
		Registries: []*Registry{{Concepts: map[string]Binding{"x-mail": {Concept: c, Equivalents: []Equivalent{{Concept: "urn:x:mail", Type: RelClose}}}}}},
	}
	tests := []struct {
		name string
		f    Field
		want float64
	}{
		{"ontology", Field{Path: "bound"}, 0.8},                     // 1 × 0.8 × 1
		{"registry", Field{SemanticType: "x-mail"}, 0.784},          // 1 × 0.8 × 0.98
		{"semanticType literal", Field{SemanticType: c}, 0.76},      // 1 × 0.8 × 0.95
		{"semanticType token", Field{SemanticType: "email"}, 0.722}, // exact 0.95 × 0.8 × 0.95
		{"autocomplete", Field{Evidence: []Evidence{{Kind: EvidenceAutocomplete, Concept: c, Token: "email"}}}, 0.76},
		{"heuristic", Field{Evidence: []Evidence{{Kind: EvidenceHeuristic, Concept: c, Token: "email", Strength: 0.7}}}, 0.56},
		{"field-key", Field{Path: "mail"}, 0.24}, // 0.30 × 0.8 × 1
	}
	p := &profile.UserProfile{
		Concepts: map[string]profile.Entry{c: entryOf("a@b.example", 0.8)},
		Fields:   map[string]profile.Entry{"mail": entryOf("a@b.example", 0.8)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.f.InputType = "email"
			got := Match([]Field{tt.f}, p, Options{Sidecars: sc, Threshold: 0.01})[0]
			if got.Value == nil || got.Confidence != tt.want {
				t.Errorf("Match(%s) confidence = %v (value %q, skip %q), want %v", tt.name, got.Confidence, str(got.Value), got.Skip, tt.want)
			}
		})
	}
}

// TestOptionIndexByContent: option lists are indexed once and shared across
// Match calls, so the index must be keyed by the whole content of a list —
// two lists of the same length and values but other texts or disabled
// options must not share one.
func TestOptionIndexByContent(t *testing.T) {
	p := &profile.UserProfile{Concepts: map[string]profile.Entry{profile.ConceptAddressCountry: entryOf("CA", 1)}}
	ev := []Evidence{{Kind: EvidenceAutocomplete, Concept: profile.ConceptAddressCountry, Token: "country"}}
	tests := []struct {
		name string
		opts []Option
		want string
	}{
		{"by text", []Option{{Value: "1", Text: "United States"}, {Value: "2", Text: "Canada"}}, "2"},
		{"texts swapped", []Option{{Value: "1", Text: "Canada"}, {Value: "2", Text: "United States"}}, "1"},
		{"chosen option disabled", []Option{{Value: "1", Text: "Canada", Disabled: true}, {Value: "2", Text: "United States"}}, ""},
		{"by text again", []Option{{Value: "1", Text: "United States"}, {Value: "2", Text: "Canada"}}, "2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Field{InputType: "select-one", Evidence: ev, Options: tt.opts}
			got := Match([]Field{f}, p, Options{})[0]
			if got.Value == nil && tt.want != "" || got.Value != nil && *got.Value != tt.want {
				t.Errorf("Match(%v) = %q (skip %q), want %q", tt.opts, str(got.Value), got.Skip, tt.want)
			}
		})
	}
}
