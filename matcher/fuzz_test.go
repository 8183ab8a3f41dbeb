package matcher

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/tessera-app/tessera/profile"
)

func addSeeds(f *testing.F, pattern string, extra ...any) {
	files, _ := filepath.Glob(pattern)
	if len(files) == 0 {
		f.Fatalf("no seeds match %s", pattern)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(append([]any{b}, extra...)...)
	}
}

// FuzzSidecars feeds the same bytes to every Formspec document parser: none
// may panic, and every failure must wrap ErrInvalidSidecar.
func FuzzSidecars(f *testing.F) {
	addSeeds(f, filepath.Join("testdata", "formspec", "*.json"))
	f.Fuzz(func(t *testing.T, data []byte) {
		parsers := map[string]func([]byte) error{
			"ontology":   func(b []byte) error { _, err := ParseOntology(b); return err },
			"registry":   func(b []byte) error { _, err := ParseRegistry(b); return err },
			"references": func(b []byte) error { _, err := ParseReferences(b); return err },
			"definition": func(b []byte) error { _, err := ParseDefinition(b, "en"); return err },
			"response":   func(b []byte) error { _, err := ResponseValues(b); return err },
		}
		for name, parse := range parsers {
			if err := parse(data); err != nil && !errors.Is(err, ErrInvalidSidecar) {
				t.Errorf("%s: error %v does not wrap ErrInvalidSidecar", name, err)
			}
		}
	})
}

// FuzzMatch runs the matcher over the golden vectors with their profiles,
// constraints and placeholders perturbed by the fuzzer, and checks the
// invariants that must hold for any profile and any form.
func FuzzMatch(f *testing.F) {
	addSeeds(f, filepath.Join("testdata", "golden", "*.json"), "x", uint16(0))
	f.Add([]byte(`{"profile":{"https://schema.org/telephone":"+4930123"},"fields":[{"inputType":"tel","ac":"tel"}]}`), `(?=\d)`, uint16(0xffff))
	// A disabled radio button after the first once got its group's value.
	f.Add([]byte(`{"profile":{"https://schema.org/honorificPrefix":"Dr"},"fields":[{"inputType":"radio","group":"t","ac":"honorific-prefix","options":[{"value":"mr"}]},{"inputType":"radio","group":"t","ac":"honorific-prefix","disabled":true,"options":[{"value":"dr"}]}]}`), "", uint16(0))
	// Name readings: parts from a whole, kana swapped to suit the box.
	f.Add([]byte(`{"profile":{"ext:phonetic-name":"やまだ　たろう"},"fields":[{"inputType":"text","ac":"phonetic-family-name","label":"セイ"},{"inputType":"text","ac":"phonetic-given-name","label":"ふりがな"},{"inputType":"text","ac":"phonetic-name","label":"フリガナ"}]}`), "ﾔﾏﾀﾞ", uint16(1))
	f.Fuzz(fuzzOne)
}

// fuzzOne is FuzzMatch's body.
func fuzzOne(t *testing.T, data []byte, extra string, mode uint16) {
	var g goldenVector
	if json.Unmarshal(data, &g) != nil || len(g.Fields) > 200 {
		return
	}
	fields, p, opts := g.buildNoSidecars()
	// Perturb: mode's bits choose what the fuzzer's string replaces.
	i := 0
	for k := range p.Concepts {
		if mode&(1<<(i%8)) != 0 {
			p.Concepts[k] = entryOf(extra, float64(mode%7)/5)
		}
		i++
	}
	for j := range fields {
		switch (int(mode>>8) + j) % 6 {
		case 0:
			fields[j].Constraints.Pattern = extra
		case 1:
			fields[j].Constraints.MaxLength = len(extra) % 9
		case 2:
			fields[j].Placeholder = extra
		case 3:
			fields[j].Options = append(fields[j].Options, Option{Value: extra, Text: extra})
		case 4:
			fields[j].Constraints.Min, fields[j].Constraints.Max = extra, extra
		case 5:
			// Fields that must never be filled, whatever else they say.
			switch j % 4 {
			case 0:
				fields[j].ReadOnly = true
			case 1:
				fields[j].NonRelevant = true
			case 2:
				fields[j].InputType = "password"
			case 3:
				fields[j].Disabled = true
			}
		}
	}
	checkInvariants(t, fields, Match(fields, p, opts), opts)
}

// buildNoSidecars is build without sidecar files (fuzz inputs may name any
// file) and without failing on unknown tokens.
func (g *goldenVector) buildNoSidecars() ([]Field, *profile.UserProfile, Options) {
	g.Ontologies, g.Registries = nil, nil
	for i := range g.Fields {
		if _, ok := profile.ConceptForToken(g.Fields[i].AC); !ok {
			g.Fields[i].AC = ""
		}
		if _, ok := profile.ConceptForToken(g.Fields[i].Guess); !ok {
			g.Fields[i].Guess = ""
		}
	}
	return g.build(nopTB{})
}

func checkInvariants(t *testing.T, fields []Field, got []Proposal, opts Options) {
	t.Helper()
	if len(got) != len(fields) {
		t.Fatalf("Match returned %d proposals for %d fields", len(got), len(fields))
	}
	th := opts.Threshold
	if th <= 0 {
		th = DefaultThreshold
	}
	pc := patternCache{}
	for i, pr := range got {
		f := &fields[i]
		if pr.Confidence < 0 || pr.Confidence > 1 || pr.Confidence != pr.Confidence {
			t.Errorf("field %d: confidence %v outside [0,1]", i, pr.Confidence)
		}
		if pr.Value == nil {
			continue
		}
		v := *pr.Value
		if f.ReadOnly || f.Disabled || f.Hidden || f.NonRelevant || f.InputType == "hidden" || f.InputType == "password" {
			t.Errorf("field %d (%+v): proposed %q into a field that must not be filled", i, f, v)
		}
		for _, e := range f.Evidence {
			if profile.IsSensitiveToken(e.Token) {
				t.Errorf("field %d: proposed %q into a sensitive field (%s)", i, v, e.Token)
			}
		}
		if pr.Confidence < th {
			t.Errorf("field %d: proposed %q at confidence %v under the threshold %v", i, v, pr.Confidence, th)
		}
		w, ok := equivalentWeight[pr.Relationship]
		switch {
		case pr.Relationship == RelExact:
			w, ok = WeightDirect, true
		case pr.Relationship == RelFieldKey:
			w, ok = WeightFieldKey, true
		}
		if !ok || pr.Confidence > w+1e-9 {
			t.Errorf("field %d: confidence %v above the %q weight %v", i, pr.Confidence, pr.Relationship, w)
		}
		if isChoice(f) || len(f.Options) > 0 && f.InputType == "" {
			found := false
			for _, o := range f.Options {
				found = found || o.Value == v && !o.Disabled
			}
			if !found {
				t.Errorf("field %d: proposed %q, not an enabled option", i, v)
			}
			continue
		}
		if why := check(f, v, pc); why != "" {
			t.Errorf("field %d: proposed %q fails the field's constraints (%s)", i, v, why)
		}
		// The same rules again, written independently of check, so that a
		// bug there cannot hide itself.
		if why := oracle(f, v); why != "" {
			t.Errorf("field %d: proposed %q, but %s", i, v, why)
		}
	}
}

// oracle restates the HTML constraint rules Match must respect.
func oracle(f *Field, v string) string {
	c := f.Constraints
	n := len(utf16.Encode([]rune(v)))
	switch {
	case v == "":
		return "the value is empty"
	case c.MaxLength > 0 && n > c.MaxLength:
		return fmt.Sprintf("its length %d is over maxlength %d", n, c.MaxLength)
	case c.MinLength > 0 && n < c.MinLength:
		return fmt.Sprintf("its length %d is under minlength %d", n, c.MinLength)
	case f.InputMode == "numeric" && strings.Trim(v, "0123456789") != "":
		return "inputmode numeric takes digits only"
	case f.InputType == "email" && !strings.Contains(v, "@"):
		return "an email field needs an @"
	}
	if c.Pattern != "" {
		re, err := regexp.Compile("^(?:" + c.Pattern + ")$")
		if err != nil {
			return "the pattern is not checkable, so nothing should be proposed"
		}
		if !re.MatchString(v) {
			return "the pattern does not match"
		}
	}
	if f.InputType == "number" {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return "a number field needs a number"
		}
		if m, err := strconv.ParseFloat(c.Min, 64); err == nil && x < m {
			return "the number is under min"
		}
		if m, err := strconv.ParseFloat(c.Max, 64); err == nil && x > m {
			return "the number is over max"
		}
	}
	if f.InputType == "date" {
		if _, err := time.Parse("2006-01-02", v); err != nil {
			return "a date field needs YYYY-MM-DD"
		}
		if c.Min != "" && v < c.Min || c.Max != "" && v > c.Max {
			return "the date is outside min/max"
		}
	}
	return ""
}

// nopTB lets build run outside a test; fuzz inputs never reach its Fatal
// paths once unknown tokens and sidecars are dropped.
type nopTB struct{ testing.TB }

func (nopTB) Helper()               {}
func (nopTB) Fatal(...any)          {}
func (nopTB) Fatalf(string, ...any) {}
