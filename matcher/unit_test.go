package matcher

import (
	"testing"
	"time"

	"github.com/tessera-app/tessera/heuristics"
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
		{"US", "Atlantis", ""},
	}
	for _, tt := range regions {
		t.Run(tt.country+"/"+tt.in, func(t *testing.T) {
			rg, _ := findRegion(tt.country, tt.in)
			if rg.code != tt.code {
				t.Errorf("findRegion(%q, %q) = %q, want %q", tt.country, tt.in, rg.code, tt.code)
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

// TestRelationshipOrder checks that one entry reached through each
// relationship keeps the order of Assist §7.2: direct ≥ exact ≥ close ≥
// broader = narrower ≥ related ≥ field-key.
func TestRelationshipOrder(t *testing.T) {
	rels := []string{"", RelExact, RelClose, RelBroader, RelNarrower, RelRelated, RelFieldKey}
	var last float64 = 2
	for _, rel := range rels {
		t.Run("rel="+rel, func(t *testing.T) {
			p := &profile.UserProfile{
				Concepts: map[string]profile.Entry{"urn:x:target": entryOf("v", 0.9)},
				Fields:   map[string]profile.Entry{"f": entryOf("v", 0.9)},
			}
			b := Binding{Concept: "urn:x:field"}
			switch rel {
			case "":
				b.Concept = "urn:x:target"
			case RelFieldKey:
			default:
				b.Equivalents = []Equivalent{{Concept: "urn:x:target", Type: rel}}
			}
			sc := &Sidecars{Ontologies: []*Ontology{{Concepts: map[string]Binding{"f": b}}}}
			got := Match([]Field{{Path: "f", InputType: "text"}}, p, Options{Sidecars: sc, Threshold: 0.01})[0]
			if got.Value == nil {
				t.Fatalf("Match via %q proposed nothing (skip %q)", rel, got.Skip)
			}
			if got.Confidence > last || rel != RelNarrower && got.Confidence == last {
				t.Errorf("confidence via %q = %v, not below the previous %v", rel, got.Confidence, last)
			}
			last = got.Confidence
		})
	}
}

// TestEntryConfidenceZero guards the documented rule that an entry stating
// no confidence counts as 1 rather than making the value unusable.
func TestEntryConfidenceZero(t *testing.T) {
	p := &profile.UserProfile{Concepts: map[string]profile.Entry{heuristics.ConceptEmail: entryOf("a@b.example", 0)}}
	f := Field{InputType: "email", Evidence: []Evidence{{Kind: EvidenceAutocomplete, Concept: heuristics.ConceptEmail, Token: "email"}}}
	if got := Match([]Field{f}, p, Options{})[0]; got.Confidence != 0.95 {
		t.Errorf("Match confidence = %v, want 0.95", got.Confidence)
	}
}

// TestNoProfile: a nil profile matches nothing and does not panic.
func TestNoProfile(t *testing.T) {
	f := Field{InputType: "email", Evidence: []Evidence{{Kind: EvidenceAutocomplete, Concept: heuristics.ConceptEmail, Token: "email"}}}
	if got := Match([]Field{f}, nil, Options{})[0]; got.Value != nil || got.Skip != SkipNoValue {
		t.Errorf("Match(nil profile) = %q, skip %q, want nothing, skip %q", str(got.Value), got.Skip, SkipNoValue)
	}
}
