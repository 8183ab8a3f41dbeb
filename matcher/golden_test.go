package matcher

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tessera-app/tessera/profile"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/golden/*.json from the results")

// goldenField is a Field with shorthands for its evidence: AC is an
// autocomplete token, Guess a heuristic token with strength GuessStrength.
type goldenField struct {
	Field
	// Index shadows Field.Index, which build numbers itself, so that
	// -update does not write it.
	Index         int     `json:"index,omitempty"`
	AC            string  `json:"ac,omitempty"`
	Guess         string  `json:"guess,omitempty"`
	GuessStrength float64 `json:"guessStrength,omitempty"`
}

type goldenWant struct {
	Value        *string `json:"value"`
	Concept      string  `json:"concept,omitempty"`
	Relationship string  `json:"relationship,omitempty"`
	Confidence   float64 `json:"confidence"`
	Skip         string  `json:"skip,omitempty"`
}

// goldenVector is one file of testdata/golden: a profile, a form and the
// proposals expected for it.
type goldenVector struct {
	Name string `json:"name"`
	// Rule names what the vector shows, for the person reading a failure.
	Rule string `json:"rule"`
	Lang string `json:"lang,omitempty"`
	// Profile maps concept IRIs to values; Confidence optionally gives an
	// entry confidence per concept (1 otherwise); ProfileFields maps field
	// paths to values.
	Profile       map[string]any     `json:"profile"`
	Confidence    map[string]float64 `json:"confidence,omitempty"`
	ProfileFields map[string]any     `json:"profileFields,omitempty"`
	// Ontologies and Registries are files of testdata/formspec, in load order.
	Ontologies []string      `json:"ontologies,omitempty"`
	Registries []string      `json:"registries,omitempty"`
	Threshold  float64       `json:"threshold,omitempty"`
	Fields     []goldenField `json:"fields"`
	Want       []goldenWant  `json:"want"`
}

func entryOf(v any, conf float64) profile.Entry {
	raw, _ := json.Marshal(v)
	return profile.Entry{Value: raw, Confidence: conf, Source: profile.Source{Type: "manual", Timestamp: "2026-01-01T00:00:00Z"}}
}

func (g *goldenVector) build(t testing.TB) ([]Field, *profile.UserProfile, Options) {
	p := &profile.UserProfile{ID: "p1", Concepts: map[string]profile.Entry{}, Fields: map[string]profile.Entry{}}
	for k, v := range g.Profile {
		c, ok := g.Confidence[k]
		if !ok {
			c = 1
		}
		p.Concepts[k] = entryOf(v, c)
	}
	for k, v := range g.ProfileFields {
		p.Fields[k] = entryOf(v, 1)
	}
	fields := make([]Field, len(g.Fields))
	for i, gf := range g.Fields {
		f := gf.Field
		f.Index = i
		if f.Lang == "" {
			f.Lang = g.Lang
		}
		if gf.AC != "" {
			c, ok := profile.ConceptForToken(gf.AC)
			if !ok {
				t.Fatalf("%s: field %d: unknown autocomplete token %q", g.Name, i, gf.AC)
			}
			f.Evidence = append(f.Evidence, Evidence{Kind: EvidenceAutocomplete, Concept: c, Token: gf.AC})
		}
		if gf.Guess != "" {
			c, ok := profile.ConceptForToken(gf.Guess)
			if !ok {
				t.Fatalf("%s: field %d: unknown token %q", g.Name, i, gf.Guess)
			}
			f.Evidence = append(f.Evidence, Evidence{Kind: EvidenceHeuristic, Concept: c, Token: gf.Guess, Strength: gf.GuessStrength})
		}
		fields[i] = f
	}
	opts := Options{Threshold: g.Threshold}
	if len(g.Ontologies)+len(g.Registries) > 0 {
		opts.Sidecars = &Sidecars{}
		for _, name := range g.Ontologies {
			o, err := ParseOntology(readFile(t, filepath.Join("testdata", "formspec", name)))
			if err != nil {
				t.Fatal(err)
			}
			opts.Sidecars.Ontologies = append(opts.Sidecars.Ontologies, o)
		}
		for _, name := range g.Registries {
			r, err := ParseRegistry(readFile(t, filepath.Join("testdata", "formspec", name)))
			if err != nil {
				t.Fatal(err)
			}
			opts.Sidecars.Registries = append(opts.Sidecars.Registries, r)
		}
	}
	return fields, p, opts
}

func readFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func loadGolden(t testing.TB) map[string]*goldenVector {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "golden", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden vectors: %v", err)
	}
	out := map[string]*goldenVector{}
	for _, name := range files {
		var g goldenVector
		if err := json.Unmarshal(readFile(t, name), &g); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = &g
	}
	return out
}

func str(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}

// TestGolden runs every vector of testdata/golden. With -update it rewrites
// the want sections instead; review the diff before committing it.
func TestGolden(t *testing.T) {
	for name, g := range loadGolden(t) {
		t.Run(filepath.Base(name), func(t *testing.T) {
			fields, p, opts := g.build(t)
			got := Match(fields, p, opts)
			if *update {
				g.Want = make([]goldenWant, len(got))
				for i, pr := range got {
					g.Want[i] = goldenWant{Value: pr.Value, Concept: pr.Concept, Relationship: pr.Relationship, Confidence: pr.Confidence, Skip: pr.Skip}
				}
				b, _ := json.MarshalIndent(g, "", "  ")
				if err := os.WriteFile(name, append(b, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if len(g.Want) != len(fields) {
				t.Fatalf("%d wants for %d fields", len(g.Want), len(fields))
			}
			for i, w := range g.Want {
				pr := got[i]
				label := fields[i].Label
				if label == "" {
					label = fields[i].Path
				}
				if str(pr.Value) != str(w.Value) {
					t.Errorf("field %d (%s): value = %q, want %q (skip %q)", i, label, str(pr.Value), str(w.Value), pr.Skip)
				}
				if pr.Skip != w.Skip {
					t.Errorf("field %d (%s): skip = %q, want %q", i, label, pr.Skip, w.Skip)
				}
				// A value below the threshold still names the relationship
				// and confidence that kept it out.
				if (w.Value != nil || w.Relationship != "") && (pr.Relationship != w.Relationship || pr.Confidence != w.Confidence) {
					t.Errorf("field %d (%s): relationship, confidence = %q, %v, want %q, %v", i, label, pr.Relationship, pr.Confidence, w.Relationship, w.Confidence)
				}
				if w.Concept != "" && pr.Concept != w.Concept {
					t.Errorf("field %d (%s): concept = %q, want %q", i, label, pr.Concept, w.Concept)
				}
			}
		})
	}
}

// TestGoldenCoverage guards the breadth the vectors must keep: at least six
// page languages and ten countries.
func TestGoldenCoverage(t *testing.T) {
	langs, countries := map[string]bool{}, map[string]bool{}
	for _, g := range loadGolden(t) {
		if g.Lang != "" {
			langs[baseLang(g.Lang)] = true
		}
		if c, ok := g.Profile[profile.ConceptAddressCountry].(string); ok {
			countries[strings.ToUpper(c)] = true
		}
	}
	if len(langs) < 6 {
		t.Errorf("golden vectors cover languages %v, want at least 6", langs)
	}
	if len(countries) < 10 {
		t.Errorf("golden vectors cover countries %v, want at least 10", countries)
	}
}

// TestConcurrentMatch runs the golden vectors from several goroutines at
// once: Match shares its caches of page-derived tables between calls, and
// must give every caller the answer it gives alone (run with -race).
func TestConcurrentMatch(t *testing.T) {
	type job struct {
		fields []Field
		p      *profile.UserProfile
		opts   Options
		want   []Proposal
	}
	var jobs []job
	for _, g := range loadGolden(t) {
		fields, p, opts := g.build(t)
		jobs = append(jobs, job{fields, p, opts, Match(fields, p, opts)})
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8*len(jobs))
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, j := range jobs {
				got := Match(j.fields, j.p, j.opts)
				for i := range got {
					if str(got[i].Value) != str(j.want[i].Value) || got[i].Skip != j.want[i].Skip {
						errs <- fmt.Sprintf("field %d: %q (skip %q) concurrently, %q (skip %q) alone", i, str(got[i].Value), got[i].Skip, str(j.want[i].Value), j.want[i].Skip)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
