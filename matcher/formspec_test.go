package matcher

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/tessera-app/tessera/profile"
)

// examples are the Formspec example definitions with Tessera's sidecars.
var examples = []string{"grant-application", "uswds-grant", "clinical-intake", "household-benefits-renewal"}

func loadExample(t *testing.T, name string) (*Definition, *Sidecars) {
	t.Helper()
	dir := filepath.Join("testdata", "formspec")
	d, err := ParseDefinition(readFile(t, filepath.Join(dir, name+".definition.json")), "en-US")
	if err != nil {
		t.Fatalf("ParseDefinition(%s): %v", name, err)
	}
	o, err := ParseOntology(readFile(t, filepath.Join(dir, name+".ontology.json")))
	if err != nil {
		t.Fatalf("ParseOntology(%s): %v", name, err)
	}
	return d, &Sidecars{Ontologies: []*Ontology{o}}
}

var indexRE = regexp.MustCompile(`\[\d+\]`)

// TestExampleSidecars checks that every sidecar targets its definition and
// names only paths that exist in it: a typo would silently unbind a field.
func TestExampleSidecars(t *testing.T) {
	for _, name := range examples {
		t.Run(name, func(t *testing.T) {
			d, sc := loadExample(t, name)
			paths := map[string]bool{"#": true}
			for _, f := range d.Fields {
				p := indexRE.ReplaceAllString(f.Path, "[*]")
				paths[p] = true
				for i := strings.LastIndexByte(p, '.'); i > 0; i = strings.LastIndexByte(p[:i], '.') {
					paths[strings.TrimSuffix(p[:i], "[*]")] = true
				}
			}
			o := sc.Ontologies[0]
			if o.TargetURL != d.URL {
				t.Errorf("ontology targets %q, want %q", o.TargetURL, d.URL)
			}
			for p := range o.Concepts {
				if !paths[p] {
					t.Errorf("ontology binds %q, not a path of %s", p, d.URL)
				}
			}
			r, err := ParseReferences(readFile(t, filepath.Join("testdata", "formspec", name+".references.json")))
			if err != nil {
				t.Fatal(err)
			}
			if r.TargetURL != d.URL {
				t.Errorf("references target %q, want %q", r.TargetURL, d.URL)
			}
			for _, p := range r.Targets {
				if !paths[p] {
					t.Errorf("reference targets %q, not a path of %s", p, d.URL)
				}
			}
		})
	}
}

// TestSharedExamples parses the definitions in the shared specs too, when
// present, so a newer example that breaks the parser is noticed.
func TestSharedExamples(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "shared", "specs", "formspec", "examples", "*.json"))
	if len(files) == 0 {
		t.Skip("shared Formspec examples not present")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `"$formspec"`) || strings.Contains(string(b), `"$formspecOntology"`) || strings.Contains(string(b), `"$formspecReferences"`) || strings.Contains(string(b), `"$formspecRegistry"`) {
			continue
		}
		if _, err := ParseDefinition(b, ""); err != nil {
			t.Errorf("ParseDefinition(%s): %v", filepath.Base(f), err)
		}
	}
}

// TestCrossFormReuse learns a profile from a response to the USWDS grant
// application and matches it against three other forms: values cross over
// through shared concept IRIs, with lower confidence through close and
// broader equivalents, and readonly fields stay untouched.
func TestCrossFormReuse(t *testing.T) {
	src, srcSC := loadExample(t, "uswds-grant")
	values, err := ResponseValues(readFile(t, filepath.Join("testdata", "formspec", "uswds-grant.response.json")))
	if err != nil {
		t.Fatal(err)
	}
	p := &profile.UserProfile{ID: "learned"}
	keys := Learn(p, src.Fields, values, srcSC, profile.Source{Type: "form-fill", FormURL: src.URL, Timestamp: "2026-11-20T14:03:00Z"})
	if len(keys) < 10 {
		t.Fatalf("Learn stored %v, want the 11 concept-bound answers and org_type", keys)
	}
	if _, ok := p.Fields["applicant_section.org_type"]; !ok {
		t.Errorf("Learn did not keep the unbound org_type under its path; fields = %v", p.Fields)
	}

	type want struct {
		value, rel, skip string
		conf             float64
	}
	tests := map[string]map[string]want{
		"grant-application": {
			"applicantInfo.orgName":         {value: "Riverside Community Builders", rel: RelExact, conf: 0.95},
			"applicantInfo.ein":             {value: "12-3456789", rel: RelExact, conf: 1},
			"applicantInfo.contactName":     {value: "Maria Elena Garcia", rel: RelExact, conf: 1},
			"applicantInfo.contactEmail":    {value: "maria.garcia@riverside.example", rel: RelExact, conf: 1},
			"applicantInfo.contactPhone":    {value: "(916) 555-0142", rel: RelExact, conf: 1},
			"projectNarrative.projectTitle": {value: "Neighborhood Tool Library", rel: RelExact, conf: 1},
			"subcontractors[0].subOrg":      {skip: SkipLowConfidence},
			"applicantInfo.projectWebsite":  {skip: SkipNoValue},
		},
		"clinical-intake": {
			"patient.phone":     {value: "(916) 555-0142", rel: RelClose, conf: 0.8},
			"patient.email":     {value: "maria.garcia@riverside.example", rel: RelClose, conf: 0.8},
			"patient.firstName": {skip: SkipReadOnly},
			"patient.age":       {skip: SkipReadOnly},
		},
		"household-benefits-renewal": {
			"household.renewalStreet":                      {value: "400 Elm Street, Suite 12", rel: RelExact, conf: 1},
			"household.renewalCity":                        {value: "Sacramento", rel: RelExact, conf: 1},
			"household.renewalState":                       {value: "CA", rel: RelExact, conf: 1},
			"household.renewalPostalCode":                  {value: "95814", rel: RelExact, conf: 1},
			"household.householdMembers[0].memberFullName": {value: "Maria Elena Garcia", rel: RelBroader, conf: 0.6},
			"renewalContact.renewalPhone":                  {value: "(916) 555-0142", rel: RelExact, conf: 1},
		},
	}
	for name, wants := range tests {
		t.Run(name, func(t *testing.T) {
			d, sc := loadExample(t, name)
			got := map[string]Proposal{}
			for _, pr := range Match(d.Fields, p, Options{Sidecars: sc}) {
				got[pr.Path] = pr
			}
			for path, w := range wants {
				pr, ok := got[path]
				if !ok {
					t.Errorf("no proposal for %s", path)
					continue
				}
				if str(pr.Value) != orNil(w.value) || pr.Skip != w.skip {
					t.Errorf("Match %s = %q (skip %q), want %q (skip %q)", path, str(pr.Value), pr.Skip, orNil(w.value), w.skip)
				}
				if w.value != "" && (pr.Relationship != w.rel || pr.Confidence != w.conf) {
					t.Errorf("Match %s relationship, confidence = %q, %v, want %q, %v", path, pr.Relationship, pr.Confidence, w.rel, w.conf)
				}
				if w.value != "" && (pr.Source == nil || pr.Source.FormURL != src.URL) {
					t.Errorf("Match %s source = %+v, want the USWDS form", path, pr.Source)
				}
			}
		})
	}
}

func orNil(s string) string {
	if s == "" {
		return "<nil>"
	}
	return s
}

func TestParseSidecarErrors(t *testing.T) {
	tests := []struct {
		name string
		data string
		fn   func([]byte) error
	}{
		{"ontology version", `{"$formspecOntology":"2.0","concepts":{}}`, func(b []byte) error { _, err := ParseOntology(b); return err }},
		{"ontology missing concept", `{"$formspecOntology":"1.0","concepts":{"a":{"system":"s"}}}`, func(b []byte) error { _, err := ParseOntology(b); return err }},
		{"ontology not json", `{"$formspecOntology":`, func(b []byte) error { _, err := ParseOntology(b); return err }},
		{"registry version", `{"entries":[]}`, func(b []byte) error { _, err := ParseRegistry(b); return err }},
		{"references no target", `{"$formspecReferences":"1.0","references":[{"title":"x"}]}`, func(b []byte) error { _, err := ParseReferences(b); return err }},
		{"definition too deep", `{"$formspec":"1.0","items":` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `}`, func(b []byte) error { _, err := ParseDefinition(b, ""); return err }},
		{"definition too big", `{"$formspec":"1.0","title":"` + strings.Repeat("x", MaxSidecarBytes) + `"}`, func(b []byte) error { _, err := ParseDefinition(b, ""); return err }},
		{"response not object", `[1,2]`, func(b []byte) error { _, err := ResponseValues(b); return err }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.fn([]byte(tt.data)); !errors.Is(err, ErrInvalidSidecar) {
				t.Errorf("parse(%.40q) = %v, want an error wrapping ErrInvalidSidecar", tt.data, err)
			}
		})
	}
}
