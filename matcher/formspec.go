package matcher

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/tessera-app/tessera/internal/jsondepth"
	"github.com/tessera-app/tessera/profile"
)

// Limits on Formspec definitions and responses, which come from pages.
const (
	// MaxItems is the most items (all levels) a definition may have.
	MaxItems = 5000
	// MaxDepth is the deepest item nesting (and response nesting) accepted.
	MaxDepth = 32
)

// A Definition is the part of a Formspec Definition the matcher uses.
type Definition struct {
	URL     string
	Version string
	Title   string
	// Fields lists the definition's field items in document order; a
	// repeatable group contributes its first instance ("group[0].field").
	Fields []Field
}

type defItem struct {
	Key          string          `json:"key"`
	Type         string          `json:"type"`
	Label        string          `json:"label"`
	DataType     string          `json:"dataType"`
	SemanticType string          `json:"semanticType"`
	Repeatable   bool            `json:"repeatable"`
	OptionSet    string          `json:"optionSet"`
	Options      json.RawMessage `json:"options"`
	Children     []defItem       `json:"children"`
}

type defOption struct {
	Value any    `json:"value"`
	Label string `json:"label"`
}

// ParseDefinition parses a Formspec Definition into matcher fields. Binds
// that make a field readonly (readonly "true", or calculate) mark it
// ReadOnly; relevance expressions are left to the live engine. lang is the
// form's language for value formatting. The error wraps ErrInvalidSidecar.
func ParseDefinition(data []byte, lang string) (*Definition, error) {
	if err := checkSize(data, "parse definition"); err != nil {
		return nil, err
	}
	var doc struct {
		Version    *string   `json:"$formspec"`
		URL        string    `json:"url"`
		DefVersion string    `json:"version"`
		Title      string    `json:"title"`
		Items      []defItem `json:"items"`
		OptionSets map[string]struct {
			Options []defOption `json:"options"`
		} `json:"optionSets"`
		Binds []struct {
			Path      string `json:"path"`
			ReadOnly  any    `json:"readonly"`
			Calculate string `json:"calculate"`
		} `json:"binds"`
	}
	if err := checkDepth(data, MaxDepth*3); err != nil {
		return nil, fmt.Errorf("parse definition: %w", err)
	}
	if err := decodeStrict(data, &doc, "parse definition"); err != nil {
		return nil, err
	}
	if doc.Version == nil {
		return nil, fmt.Errorf("parse definition: missing $formspec: %w", ErrInvalidSidecar)
	}
	readonly := map[string]bool{}
	for _, b := range doc.Binds {
		if b.Calculate != "" || b.ReadOnly == true || b.ReadOnly == "true" {
			readonly[b.Path] = true
		}
	}
	d := &Definition{URL: doc.URL, Version: doc.DefVersion, Title: doc.Title}
	count := 0
	var walk func(items []defItem, prefix, bindPrefix string, depth int) error
	walk = func(items []defItem, prefix, bindPrefix string, depth int) error {
		if depth > MaxDepth {
			return fmt.Errorf("parse definition: items nested deeper than %d: %w", MaxDepth, ErrInvalidSidecar)
		}
		for _, it := range items {
			if count++; count > MaxItems {
				return fmt.Errorf("parse definition: more than %d items: %w", MaxItems, ErrInvalidSidecar)
			}
			if it.Key == "" {
				continue
			}
			path, bpath := prefix+it.Key, bindPrefix+it.Key
			if it.Type == "field" {
				f := Field{Index: len(d.Fields), Path: path, Label: it.Label, DataType: it.DataType, SemanticType: it.SemanticType, Lang: lang}
				f.ReadOnly = readonly[bpath] || readonly[path]
				var opts []defOption
				if it.OptionSet != "" {
					opts = doc.OptionSets[it.OptionSet].Options
				} else if len(it.Options) > 0 && it.Options[0] == '[' {
					_ = json.Unmarshal(it.Options, &opts)
				}
				for _, o := range opts {
					f.Options = append(f.Options, Option{Value: scalarString(o.Value), Text: o.Label})
				}
				d.Fields = append(d.Fields, f)
			}
			if len(it.Children) > 0 {
				cp, cb := path, bpath
				if it.Repeatable {
					cp, cb = path+"[0]", bpath+"[*]"
				}
				if err := walk(it.Children, cp+".", cb+".", depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(doc.Items, "", "", 0); err != nil {
		return nil, err
	}
	return d, nil
}

func scalarString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	return ""
}

// checkDepth refuses JSON nested deeper than max before it is decoded.
func checkDepth(data []byte, max int) error {
	if jsondepth.Of(data) > max {
		return fmt.Errorf("json nested deeper than %d: %w", max, ErrInvalidSidecar)
	}
	return nil
}

// ResponseValues flattens the data of a Formspec Response (the whole
// response, or just its "data" object) into field paths and values:
// {"a": {"b": 1}, "r": [{"c": 2}]} gives "a.b" and "r[0].c". The error wraps
// ErrInvalidSidecar.
func ResponseValues(data []byte) (map[string]json.RawMessage, error) {
	if err := checkSize(data, "parse response"); err != nil {
		return nil, err
	}
	if err := checkDepth(data, MaxDepth); err != nil {
		return nil, fmt.Errorf("parse response: %w", err)
	}
	var top map[string]json.RawMessage
	if err := decodeStrict(data, &top, "parse response"); err != nil {
		return nil, err
	}
	if inner, ok := top["data"]; ok && bytes.HasPrefix(bytes.TrimSpace(inner), []byte("{")) {
		if _, isResp := top["definitionUrl"]; isResp {
			top = nil
			if err := json.Unmarshal(inner, &top); err != nil {
				return nil, fmt.Errorf("parse response: data: %w: %w", ErrInvalidSidecar, err)
			}
		}
	}
	out := map[string]json.RawMessage{}
	var walk func(prefix string, v json.RawMessage)
	walk = func(prefix string, v json.RawMessage) {
		t := bytes.TrimSpace(v)
		switch {
		case bytes.HasPrefix(t, []byte("{")):
			var m map[string]json.RawMessage
			if json.Unmarshal(t, &m) == nil {
				for k, c := range m {
					walk(prefix+k+".", c)
				}
			}
		case bytes.HasPrefix(t, []byte("[")) && bytes.Contains(t, []byte("{")):
			var a []json.RawMessage
			if json.Unmarshal(t, &a) == nil {
				p := strings.TrimSuffix(prefix, ".")
				for i, c := range a {
					walk(p+"["+strconv.Itoa(i)+"].", c)
				}
			}
		default:
			out[strings.TrimSuffix(prefix, ".")] = t
		}
	}
	for k, v := range top {
		walk(k+".", v)
	}
	return out, nil
}

// Learn stores the values a person entered in a form into profile p
// (Assist §7.2, formspec.profile.learn): under the field's concept identity
// when it has one, with the evidence strength as the entry's confidence,
// else under its path. Readonly and sensitive fields and empty values are not
// learned. It returns the keys it wrote, sorted.
func Learn(p *profile.UserProfile, fields []Field, values map[string]json.RawMessage, sc *Sidecars, src profile.Source) []string {
	if p.Concepts == nil {
		p.Concepts = map[string]profile.Entry{}
	}
	if p.Fields == nil {
		p.Fields = map[string]profile.Entry{}
	}
	var keys []string
	for i := range fields {
		f := &fields[i]
		v, ok := values[f.Path]
		if !ok || f.ReadOnly || f.InputType == "password" {
			continue
		}
		if t := string(bytes.TrimSpace(v)); t == "" || t == "null" || t == `""` || t == "[]" {
			continue
		}
		s := src
		s.FieldPath = f.Path
		e := profile.Entry{Value: v, Confidence: 1, Source: s}
		if id, has := sc.Resolve(f); has {
			if isSensitive(f, id) {
				continue
			}
			e.Confidence = id.Strength
			p.Concepts[id.Concept] = e
			keys = append(keys, id.Concept)
			continue
		}
		p.Fields[f.Path] = e
		keys = append(keys, f.Path)
	}
	sort.Strings(keys)
	return keys
}

// References is the part of a Formspec References document Tessera checks
// before using it: the definition it targets and the paths it names.
type References struct {
	TargetURL string
	// Targets lists the target paths of the bound references, "#" included,
	// in document order.
	Targets []string
}

// ParseReferences parses a Formspec References document. The error wraps
// ErrInvalidSidecar when the document is malformed or over the limits.
func ParseReferences(data []byte) (*References, error) {
	if err := checkSize(data, "parse references"); err != nil {
		return nil, err
	}
	var doc struct {
		Version          *string `json:"$formspecReferences"`
		TargetDefinition struct {
			URL string `json:"url"`
		} `json:"targetDefinition"`
		References []struct {
			Target string `json:"target"`
		} `json:"references"`
	}
	if err := decodeStrict(data, &doc, "parse references"); err != nil {
		return nil, err
	}
	if doc.Version == nil || *doc.Version != "1.0" {
		return nil, fmt.Errorf("parse references: $formspecReferences must be \"1.0\": %w", ErrInvalidSidecar)
	}
	if len(doc.References) > MaxBindings {
		return nil, fmt.Errorf("parse references: %d references over the limit of %d: %w", len(doc.References), MaxBindings, ErrInvalidSidecar)
	}
	r := &References{TargetURL: doc.TargetDefinition.URL}
	for _, ref := range doc.References {
		if ref.Target == "" {
			return nil, fmt.Errorf("parse references: reference without target: %w", ErrInvalidSidecar)
		}
		r.Targets = append(r.Targets, ref.Target)
	}
	return r, nil
}
