package formspec

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

const defs = "../matcher/testdata/formspec/"

func read(t testing.TB, name string) []byte {
	t.Helper()
	p := name
	if !strings.Contains(name, "/") {
		p = "testdata/" + name
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func grantSources(t testing.TB, refs, onts, regs []string) Sources {
	src := Sources{Definition: read(t, defs+"grant-application.definition.json")}
	for _, n := range refs {
		src.References = append(src.References, read(t, n))
	}
	for _, n := range onts {
		src.Ontologies = append(src.Ontologies, read(t, n))
	}
	for _, n := range regs {
		src.Registries = append(src.Registries, read(t, n))
	}
	return src
}

var (
	bothRefs = []string{"grant.references.json", "grant.references-agency.json"}
	bothOnts = []string{defs + "grant-application.ontology.json", "grant.ontology-override.json"}
)

// TestHelpGolden checks FieldHelp for the real grant application against
// golden files: several References documents, ancestors in index-stripped,
// wildcard and group forms, "#", each audience, $ref with overrides,
// priority order with document order within a tier, and concepts from the
// last-loaded Ontology, a Registry and a semanticType literal.
func TestHelpGolden(t *testing.T) {
	vectors := []struct {
		name, path, audience string
		refs, onts, regs     []string
	}{
		{"repeat-agent", "budget.lineItems[2].unitCost", "", bothRefs, bothOnts, nil},
		{"repeat-human", "budget.lineItems[0].unitCost", "human", bothRefs, bothOnts, nil},
		{"repeat-both", "budget.lineItems[0].unitCost", "both", bothRefs, bothOnts, nil},
		{"repeat-wildcard-path", "budget.lineItems[*].unitCost", "agent", bothRefs, nil, nil},
		{"nested-repeat", "projectPhases[1].phaseTasks[3].hours", "agent", bothRefs, nil, nil},
		{"one-document", "budget.lineItems[0].unitCost", "agent", bothRefs[:1], nil, nil},
		{"types-and-rel", "applicantInfo.ein", "both", bothRefs, bothOnts, nil},
		{"last-ontology-wins", "applicantInfo.contactEmail", "agent", nil, bothOnts, nil},
		{"first-ontology-only", "applicantInfo.contactEmail", "agent", nil, bothOnts[:1], nil},
		{"registry", "applicantInfo.contactEmail", "agent", nil, nil, []string{"grant.registry.json"}},
		{"semantic-literal", "applicantInfo.contactPhone", "agent", nil, nil, []string{"grant.registry.json"}},
		{"no-sidecars", "applicantInfo.orgName", "agent", nil, nil, nil},
		{"group", "budget.lineItems[1]", "agent", bothRefs, nil, nil},
	}
	for _, v := range vectors {
		t.Run(v.name, func(t *testing.T) {
			r, err := Load(grantSources(t, v.refs, v.onts, v.regs))
			if err != nil {
				t.Fatal(err)
			}
			h, err := r.Help(v.path, v.audience)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.MarshalIndent(struct {
				Help     *FieldHelp `json:"help"`
				Warnings []string   `json:"warnings"`
			}{h, r.Warnings}, "", "  ")
			got = append(got, '\n')
			file := filepath.Join("testdata", "golden", v.name+".json")
			if *update {
				if err := os.WriteFile(file, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("help %s differs from %s:\n%s", v.path, file, got)
			}
		})
	}
}

// TestHelpOrder checks the rules the golden files show, so that a golden
// file rewritten with a wrong answer still fails.
func TestHelpOrder(t *testing.T) {
	r, err := Load(grantSources(t, bothRefs, bothOnts, nil))
	if err != nil {
		t.Fatal(err)
	}
	h, err := r.Help("budget.lineItems[2].unitCost", "agent")
	if err != nil {
		t.Fatal(err)
	}
	ids := func(typ string) string {
		var s []string
		for _, e := range h.References[typ] {
			s = append(s, e.ID)
		}
		return strings.Join(s, ",")
	}
	// context: primary before supplementary before background; within
	// primary the first document's entry before the second's.
	if got, want := ids("context"), "lines-wild,agency-context,lines-stripped,unit-cost-agent,form-context"; got != want {
		t.Errorf("context order %q, want %q", got, want)
	}
	// regulation: the $ref with its priority override (primary) from
	// document 1, then document 2's primary, then the form-level
	// background one.
	if got, want := ids("regulation"), "cfr-200,agency-cap,cfr-200"; got != want {
		t.Errorf("regulation order %q, want %q", got, want)
	}
	if e := h.References["regulation"][0]; e.Title != "2 CFR 200.404: reasonable costs" || e.Rel != "constrains" || e.Priority != "primary" {
		t.Errorf("$ref override not applied: %+v", e)
	}
	if _, ok := h.References["documentation"]; ok {
		t.Errorf("human-only documentation reached an agent: %+v", h.References["documentation"])
	}
	if _, ok := h.References["example"]; ok {
		t.Error("human-only example reached an agent")
	}
	if h.Concept == nil || h.Concept.Concept != "https://schema.org/price" || h.Concept.Source != "ontology" {
		t.Errorf("concept %+v, want the override's wildcard binding", h.Concept)
	}
	hu, _ := r.Help("budget.lineItems[2].unitCost", "human")
	for _, typ := range []string{"context", "tool"} {
		for _, e := range hu.References[typ] {
			if e.ID != "lines-wild" {
				t.Errorf("agent-only %s %s reached a human", typ, e.ID)
			}
		}
	}
	// Non-inheritance: a field's reference does not reach its group.
	g, _ := r.Help("budget.lineItems[0]", "both")
	for _, es := range g.References {
		for _, e := range es {
			if e.Target == "budget.lineItems[*].unitCost" {
				t.Errorf("child reference %s reached the group", e.ID)
			}
		}
	}
	c, _ := r.Help("applicantInfo.contactEmail", "agent")
	if c.Concept.Concept != "https://tessera.app/concepts/work-email" || len(c.Equivalents) != 2 || c.Equivalents[0].Type != "exact" || c.Equivalents[1].Type != "broader" {
		t.Errorf("contactEmail concept %+v %+v", c.Concept, c.Equivalents)
	}
}

func code(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func TestHelpErrors(t *testing.T) {
	r, err := Load(grantSources(t, bothRefs, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		"":                             CodeInvalidPath,
		"budget..lineItems":            CodeInvalidPath,
		"budget.lineItems[-1]":         CodeInvalidPath,
		"budget.lineItems[01]":         CodeInvalidPath,
		"budget.lineItems[999999999]":  CodeInvalidPath,
		"a b":                          CodeInvalidPath,
		strings.Repeat("a.", 40) + "b": CodeInvalidPath,
		"budget.nothere":               CodeNotFound,
		"applicantInfo[0].orgName":     CodeNotFound,
		"#":                            CodeInvalidPath,
	} {
		if _, err := r.Help(path, "agent"); code(err) != want {
			t.Errorf("Help(%q) = %v, want %s", path, err, want)
		}
	}
	if _, err := r.Help("budget", "robots"); code(err) != CodeInvalidValue {
		t.Errorf("audience robots: %v", err)
	}
}

func TestLoadRefusesBrokenSidecars(t *testing.T) {
	good := string(read(t, "grant.references.json"))
	def := read(t, defs+"grant-application.definition.json")
	for name, doc := range map[string]string{
		"other form":       strings.Replace(good, "https://example.gov/forms/grant-application", "https://evil.example/form", 1),
		"bad $ref":         strings.Replace(good, "#/referenceDefs/cfr-200\"}", "#/referenceDefs/nope\"}", 1),
		"version pin":      strings.Replace(good, `"$formspecReferences": "1.0"`, `"$formspecReferences": "2.0"`, 1),
		"bad audience":     strings.Replace(good, `"audience": "human"`, `"audience": "robots"`, 1),
		"no uri nor body":  strings.Replace(good, `"uri": "https://example.gov/help/grant-guide"`, `"rel": "defines"`, 1),
		"bad priority":     strings.Replace(good, `"priority": "background"}`, `"priority": "urgent"}`, 1),
		"duplicate id":     strings.Replace(good, `"id": "lines-wild"`, `"id": "lines-stripped"`, 1),
		"id beside $ref":   strings.Replace(good, `{"target": "#", "$ref"`, `{"target": "#", "id": "x", "$ref"`, 1),
		"def id mismatch":  strings.Replace(good, `"cfr-200": {`, `"cfr-200": {"id": "other",`, 1),
		"recursive $ref":   strings.Replace(good, `"cfr-200": {`, `"cfr-200": {"$ref": "#/referenceDefs/cfr-200",`, 1),
		"bad target":       strings.Replace(good, `"target": "budget"`, `"target": "budget[x]"`, 1),
		"not json":         good[:200],
		"array content":    strings.Replace(good, `"content": "NN-NNNNNNN"`, `"content": [1]`, 1),
		"deep":             strings.Repeat("[", 100) + strings.Repeat("]", 100),
		"empty":            " ",
		"missing targetDf": `{"$formspecReferences": "1.0", "references": []}`,
	} {
		if doc == good {
			t.Fatalf("%s: the replacement did not apply", name)
		}
		_, err := Load(Sources{Definition: def, References: [][]byte{[]byte(doc)}})
		if code(err) != CodeInvalidSource {
			t.Errorf("%s: Load = %v, want x-invalid-sidecar", name, err)
		}
	}
	badOnt := strings.Replace(string(read(t, "grant.ontology-override.json")), "https://example.gov/forms/grant-application", "https://example.gov/forms/other", 1)
	if _, err := Load(Sources{Definition: def, Ontologies: [][]byte{[]byte(badOnt)}}); code(err) != CodeInvalidSource {
		t.Errorf("ontology for another form: %v", err)
	}
	// A version outside compatibleVersions is a warning, not an error.
	r, err := Load(Sources{Definition: def, Ontologies: [][]byte{read(t, "grant.ontology-override.json")}})
	if err != nil || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "outside compatibleVersions") {
		t.Errorf("version mismatch: %v %q", err, r.Warnings)
	}
}

func TestSatisfies(t *testing.T) {
	for _, c := range []struct {
		v, r string
		want bool
	}{
		{"1.0.0", ">=1.0.0 <2.0.0", true}, {"2.0.0", ">=1.0.0 <2.0.0", false},
		{"1.4.2", "^1.2.0", true}, {"2.0.0", "^1.2.0", false}, {"0.3.1", "^0.2.0", false},
		{"1.2.9", "~1.2.0", true}, {"1.3.0", "~1.2.0", false}, {"2026.03.05", ">=2026.1.0", true},
		{"1.0.0", "<1.0.0 || >=3.0.0", false}, {"3.1.0", "<1.0.0 || >=3.0.0", true}, {"1.2.3", "1.2.x", true},
	} {
		got, err := satisfies(c.v, c.r)
		if err != nil || got != c.want {
			t.Errorf("satisfies(%q, %q) = %v, %v", c.v, c.r, got, err)
		}
	}
	if _, err := satisfies("1.0.0", ">=banana"); err == nil {
		t.Error("a range that is no version passed")
	}
}

func FuzzHelp(f *testing.F) {
	def := read(f, defs+"grant-application.definition.json")
	f.Add(read(f, "grant.references.json"), read(f, "grant.ontology-override.json"), "budget.lineItems[0].unitCost")
	f.Add([]byte(`{"$formspecReferences":"1.0","targetDefinition":{"url":"https://example.gov/forms/grant-application"},"references":[{"target":"#","$ref":"#/referenceDefs/a"}],"referenceDefs":{"a":{"type":"x","audience":"both","uri":"u"}}}`), []byte(`{}`), "#")
	f.Add([]byte(`[`), []byte(`{"$formspecOntology":"1.0"}`), "a[*].b[0]")
	f.Fuzz(func(t *testing.T, refs, ont []byte, path string) {
		r, err := Load(Sources{Definition: def, References: [][]byte{refs}, Ontologies: [][]byte{ont}})
		if err != nil {
			if code(err) != CodeInvalidSource {
				t.Fatalf("Load error without x-invalid-sidecar: %v", err)
			}
			r, _ = Load(Sources{Definition: def})
		}
		h, err := r.Help(path, "both")
		if err == nil && (h.Path != path || h.References == nil) {
			t.Fatalf("help %+v for %q", h, path)
		}
		if err != nil && code(err) == "" {
			t.Fatalf("error without a code: %v", err)
		}
	})
}
