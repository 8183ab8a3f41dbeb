package form

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// constraintReasons are the rejections a form's own default values may
// earn: HTML lets a page ship defaults that break its own constraints
// (an empty required field, a preset number out of range), but never
// defaults of the wrong type or outside the form's own choices.
var constraintReasons = map[string]bool{
	"required": true, "range": true, "length": true, "pattern": true, "format": true,
}

func FuzzTools(f *testing.F) {
	for _, glob := range []string{"testdata/*.html", "testdata/webmcp-chromium/*.html"} {
		files, _ := filepath.Glob(glob)
		for _, p := range files {
			b, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Add([]byte(draftTLDR))
	f.Add([]byte(planDraftPage))
	f.Add([]byte(planToolnamePage))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := Extract(bytes.NewReader(b), ExtractOptions{MaxDepth: 256})
		if err != nil {
			return
		}
		cat, _ := Tools(s)
		for _, tl := range cat.Tools {
			if _, err := json.Marshal(tl); err != nil {
				t.Fatalf("tool %q does not marshal: %v", tl.Name, err)
			}
			doc, err := tl.schemaDoc()
			if err != nil {
				t.Fatalf("tool %q: %v\nschema: %s", tl.Name, err, mustJSON(tl.InputSchema))
			}
			if k := unknownKeyword(doc); k != "" {
				t.Fatalf("tool %q: schema keyword %q is neither validated nor an annotation\nschema: %s", tl.Name, k, mustJSON(tl.InputSchema))
			}
			defaults := tl.DefaultArgs()
			_, err = tl.Plan(defaults)
			var rej *Rejection
			if errors.As(err, &rej) {
				for _, p := range rej.Problems {
					if !constraintReasons[p.Reason] {
						t.Fatalf("tool %q rejects its own defaults %s: %v\nschema: %s", tl.Name, defaults, err, mustJSON(tl.InputSchema))
					}
				}
			} else if err != nil {
				t.Fatalf("tool %q: Plan(defaults): %v", tl.Name, err)
			}
		}
	})
}

func BenchmarkToolsAndPlan(b *testing.B) {
	s, err := Extract(bytes.NewReader([]byte(planDraftPage+planToolnamePage)), ExtractOptions{})
	if err != nil {
		b.Fatal(err)
	}
	args := json.RawMessage(`{"guest":"Ada","seats":2,"room":"terrace","extras":["wine"]}`)
	b.ReportAllocs()
	for b.Loop() {
		cat, _ := Tools(s)
		tl, _ := cat.Tool("book")
		if _, err := tl.Plan(args); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzPlan feeds arbitrary arguments to tools of both dialects: Plan never
// panics, a rejection names at least one problem, and an accepted call
// only fills controls of its own form.
func FuzzPlan(f *testing.F) {
	for _, args := range []string{
		`{}`, `[]`, `null`, `{"guest":"Ada","seats":2,"extras":["wine"],"langs":["fr"]}`,
		`{"guest":1,"seats":"3","highchair":"on","extras":"cake"}`,
		`{"addr":{"zip":"1"},"tag":["a","b"],"opts":["a"],"at":"2026-05-01T10:30:00Z"}`,
		`{"addr":{"zip":"1","x":{}},"qty":1e400}`, `{"when":"2026-13-01","mail":"a@b"}`,
	} {
		f.Add("book", []byte(args))
		f.Add("ship", []byte(args))
	}
	s, err := Extract(strings.NewReader(planToolnamePage+planDraftPage), ExtractOptions{})
	if err != nil {
		f.Fatal(err)
	}
	cat, err := Tools(s)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, name string, args []byte) {
		tl, ok := cat.Tool(name)
		if !ok {
			return
		}
		plan, err := tl.Plan(args)
		var rej *Rejection
		if errors.As(err, &rej) {
			if len(rej.Problems) == 0 {
				t.Fatalf("Plan(%s) rejected with no problem", args)
			}
			return
		}
		if err != nil {
			t.Fatalf("Plan(%s): %v", args, err)
		}
		form := s.Forms[s.Controls[tl.params[0].controls[0]].FormIndex]
		for _, fl := range plan.Fills {
			if !slices.Contains(form.Controls, fl.Index) {
				t.Fatalf("Plan(%s) fills control %d outside the form", args, fl.Index)
			}
		}
	})
}

// schemaKeywords are the keywords the validator checks and the annotations
// it may ignore: a synthesised schema must use no other, or the validator
// would silently let through what the schema forbids.
var schemaKeywords = map[string]bool{
	"type": true, "enum": true, "const": true, "anyOf": true, "minimum": true, "maximum": true,
	"exclusiveMinimum": true, "exclusiveMaximum": true, "multipleOf": true, "minLength": true,
	"maxLength": true, "pattern": true, "items": true, "minItems": true, "maxItems": true,
	"uniqueItems": true, "properties": true, "required": true, "additionalProperties": true,
	// Annotations (Plan checks formats and date bounds itself).
	"title": true, "description": true, "format": true, "contentEncoding": true,
	"formatMinimum": true, "formatMaximum": true, "default": true,
}

// unknownKeyword returns a keyword of schema outside schemaKeywords, or "".
func unknownKeyword(schema map[string]any) string {
	for k, v := range schema {
		if !schemaKeywords[k] {
			return k
		}
		switch k {
		case "properties":
			props, _ := v.(map[string]any)
			for _, p := range props {
				if sub, ok := p.(map[string]any); ok {
					if bad := unknownKeyword(sub); bad != "" {
						return bad
					}
				}
			}
		case "items":
			if sub, ok := v.(map[string]any); ok {
				if bad := unknownKeyword(sub); bad != "" {
					return bad
				}
			}
		case "anyOf":
			alts, _ := v.([]any)
			for _, a := range alts {
				if sub, ok := a.(map[string]any); ok {
					if bad := unknownKeyword(sub); bad != "" {
						return bad
					}
				}
			}
		}
	}
	return ""
}
