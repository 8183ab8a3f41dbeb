package matcher

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tessera-app/tessera/profile"
)

// Limits on sidecar documents: they come from web pages and are untrusted.
const (
	// MaxSidecarBytes is the largest Ontology, Registry, References or
	// Definition document accepted.
	MaxSidecarBytes = 4 << 20
	// MaxBindings is the most concept bindings (or registry entries) one
	// document may carry.
	MaxBindings = 20000
	// maxIRI bounds every concept, system and code string.
	maxIRI = 2048
)

// ErrInvalidSidecar is wrapped by every error about a malformed Formspec
// sidecar or definition document.
var ErrInvalidSidecar = errors.New("invalid formspec document")

// An Equivalent is a concept declared equivalent (to some degree) to a bound
// concept. Type is "exact", "close", "broader", "narrower", "related" or an
// x- type; empty means exact.
type Equivalent struct {
	Concept string `json:"concept,omitempty"`
	System  string `json:"system,omitempty"`
	Code    string `json:"code,omitempty"`
	Display string `json:"display,omitempty"`
	Type    string `json:"type,omitempty"`
}

// A Binding is a concept bound to a field by an Ontology document or a
// Registry concept entry.
type Binding struct {
	Concept     string       `json:"concept"`
	System      string       `json:"system,omitempty"`
	Code        string       `json:"code,omitempty"`
	Display     string       `json:"display,omitempty"`
	Equivalents []Equivalent `json:"equivalents,omitempty"`
}

// An Ontology is the part of a Formspec Ontology document the matcher uses.
type Ontology struct {
	// TargetURL is targetDefinition.url.
	TargetURL string
	// Concepts maps item paths (as written, "[*]" wildcards included) to
	// their bindings.
	Concepts map[string]Binding
}

// A Registry is the concept entries of a Formspec Registry document, by name.
type Registry struct {
	Concepts map[string]Binding
}

// Sidecars are the Ontology and Registry documents loaded for one form, in
// load order: for a path bound by several Ontology documents the last one
// wins (Assist §5.3).
type Sidecars struct {
	Ontologies []*Ontology
	Registries []*Registry
}

func checkSize(data []byte, what string) error {
	if len(data) > MaxSidecarBytes {
		return fmt.Errorf("%s: %d bytes over the %d limit: %w", what, len(data), MaxSidecarBytes, ErrInvalidSidecar)
	}
	return nil
}

func decodeStrict(data []byte, v any, what string) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: %w: %w", what, ErrInvalidSidecar, err)
	}
	return nil
}

func checkBinding(b Binding, where string) error {
	if b.Concept == "" {
		return fmt.Errorf("%s: missing concept: %w", where, ErrInvalidSidecar)
	}
	strs := []string{b.Concept, b.System, b.Code, b.Display}
	for _, e := range b.Equivalents {
		strs = append(strs, e.Concept, e.System, e.Code, e.Display, e.Type)
		if e.Concept == "" && e.Code == "" {
			return fmt.Errorf("%s: equivalent without code: %w", where, ErrInvalidSidecar)
		}
	}
	for _, s := range strs {
		if len(s) > maxIRI {
			return fmt.Errorf("%s: string over %d bytes: %w", where, maxIRI, ErrInvalidSidecar)
		}
	}
	if len(b.Equivalents) > 64 {
		return fmt.Errorf("%s: %d equivalents over the limit of 64: %w", where, len(b.Equivalents), ErrInvalidSidecar)
	}
	return nil
}

// ParseOntology parses a Formspec Ontology document. The error wraps
// ErrInvalidSidecar when the document is malformed or over the limits.
func ParseOntology(data []byte) (*Ontology, error) {
	if err := checkSize(data, "parse ontology"); err != nil {
		return nil, err
	}
	var doc struct {
		Version          *string `json:"$formspecOntology"`
		DefaultSystem    string  `json:"defaultSystem"`
		TargetDefinition struct {
			URL string `json:"url"`
		} `json:"targetDefinition"`
		Concepts map[string]Binding `json:"concepts"`
	}
	if err := decodeStrict(data, &doc, "parse ontology"); err != nil {
		return nil, err
	}
	if doc.Version == nil || *doc.Version != "1.0" {
		return nil, fmt.Errorf("parse ontology: $formspecOntology must be \"1.0\": %w", ErrInvalidSidecar)
	}
	if len(doc.Concepts) > MaxBindings {
		return nil, fmt.Errorf("parse ontology: %d bindings over the limit of %d: %w", len(doc.Concepts), MaxBindings, ErrInvalidSidecar)
	}
	o := &Ontology{TargetURL: doc.TargetDefinition.URL, Concepts: make(map[string]Binding, len(doc.Concepts))}
	for path, b := range doc.Concepts {
		if err := checkBinding(b, "parse ontology: binding "+truncate(path)); err != nil {
			return nil, err
		}
		if b.System == "" {
			b.System = doc.DefaultSystem
		}
		o.Concepts[path] = b
	}
	return o, nil
}

// ParseRegistry parses the concept entries of a Formspec Registry document;
// entries of other categories are ignored. The error wraps ErrInvalidSidecar
// when the document is malformed or over the limits.
func ParseRegistry(data []byte) (*Registry, error) {
	if err := checkSize(data, "parse registry"); err != nil {
		return nil, err
	}
	var doc struct {
		Version *string `json:"$formspecRegistry"`
		Entries []struct {
			Name          string       `json:"name"`
			Category      string       `json:"category"`
			ConceptURI    string       `json:"conceptUri"`
			ConceptSystem string       `json:"conceptSystem"`
			ConceptCode   string       `json:"conceptCode"`
			Equivalents   []Equivalent `json:"equivalents"`
		} `json:"entries"`
	}
	if err := decodeStrict(data, &doc, "parse registry"); err != nil {
		return nil, err
	}
	if doc.Version == nil || *doc.Version != "1.0" {
		return nil, fmt.Errorf("parse registry: $formspecRegistry must be \"1.0\": %w", ErrInvalidSidecar)
	}
	if len(doc.Entries) > MaxBindings {
		return nil, fmt.Errorf("parse registry: %d entries over the limit of %d: %w", len(doc.Entries), MaxBindings, ErrInvalidSidecar)
	}
	r := &Registry{Concepts: map[string]Binding{}}
	for _, e := range doc.Entries {
		if e.Category != "concept" {
			continue
		}
		b := Binding{Concept: e.ConceptURI, System: e.ConceptSystem, Code: e.ConceptCode, Equivalents: e.Equivalents}
		if err := checkBinding(b, "parse registry: entry "+truncate(e.Name)); err != nil {
			return nil, err
		}
		r.Concepts[e.Name] = b
	}
	return r, nil
}

func truncate(s string) string {
	if len(s) > 64 {
		return fmt.Sprintf("%q...", s[:64])
	}
	return fmt.Sprintf("%q", s)
}

// CanonicalConcept returns the key under which a concept is looked up, so
// that the spellings a profile or sidecar may use all meet: "schema:email",
// "http://schema.org/email", "https://schema.org/email/" and
// "https://schema.org#email" all become "https://schema.org/email".
func CanonicalConcept(s string) string {
	if isCanonical(s) {
		return s // the common case: profile keys are stored canonical
	}
	s = strings.TrimSpace(s)
	switch {
	case strings.HasPrefix(s, "schema:"):
		s = "https://schema.org/" + s[len("schema:"):]
	case strings.HasPrefix(s, "http://schema.org"):
		s = "https://schema.org" + s[len("http://schema.org"):]
	case strings.HasPrefix(s, "https://www.schema.org"):
		s = "https://schema.org" + s[len("https://www.schema.org"):]
	}
	// system#code and system/code name the same concept (the published
	// reference provider keys equivalents with "#").
	if i := strings.LastIndexByte(s, '#'); i > 0 && i < len(s)-1 {
		s = strings.TrimRight(s[:i], "/") + "/" + s[i+1:]
	}
	return strings.TrimRight(s, "/#")
}

// isCanonical reports whether CanonicalConcept would return s unchanged,
// cheaply.
func isCanonical(s string) bool {
	if s == "" || s[0] == ' ' || strings.IndexByte(s, '#') >= 0 {
		return false
	}
	switch s[len(s)-1] {
	case '/', ' ', '\t', '\n', '\r':
		return false
	}
	switch s[0] {
	case 's':
		return !strings.HasPrefix(s, "schema:")
	case 'h':
		return !strings.HasPrefix(s, "http://schema.org") && !strings.HasPrefix(s, "https://www.schema.org")
	case '\t', '\n', '\r':
		return false
	}
	return true
}

// key returns the lookup key of an equivalent: its concept when given, else
// system/code.
func (e Equivalent) key() string {
	if e.Concept != "" {
		return CanonicalConcept(e.Concept)
	}
	if e.System == "" {
		return CanonicalConcept(e.Code)
	}
	return CanonicalConcept(strings.TrimRight(e.System, "/#") + "/" + e.Code)
}

// An Identity is the resolved concept of a field (Assist §5.3).
type Identity struct {
	// Concept is the concept IRI as written by its source.
	Concept     string
	Equivalents []Equivalent
	Kind        EvidenceKind
	// Strength is the evidence factor of the confidence formula.
	Strength float64
	// Token is the autocomplete token that came with the evidence, if any.
	Token string
}

// evidenceStrength is the fixed strength of each non-heuristic kind.
var evidenceStrength = map[EvidenceKind]float64{
	EvidenceOntology:     1.0,
	EvidenceRegistry:     0.98,
	EvidenceSemanticType: 0.95,
	EvidenceAutocomplete: 0.95,
}

// semanticAliases maps semanticType literals common in Formspec definitions
// that are not autocomplete tokens onto one.
var semanticAliases = map[string]string{"phone": "tel", "telephone": "tel", "zip": "postal-code", "postcode": "postal-code", "birthdate": "bday", "dob": "bday"}

// pathCandidates returns the keys an Ontology binding may use for a path:
// the path itself, the index-stripped form and the [*] wildcard form.
func pathCandidates(path string) []string {
	if !strings.Contains(path, "[") {
		return []string{path}
	}
	var stripped, wild strings.Builder
	for i := 0; i < len(path); i++ {
		if path[i] == '[' {
			j := strings.IndexByte(path[i:], ']')
			if j < 0 {
				break
			}
			wild.WriteString("[*]")
			i += j
			continue
		}
		stripped.WriteByte(path[i])
		wild.WriteByte(path[i])
	}
	return []string{path, stripped.String(), wild.String()}
}

// Resolve returns the concept identity of a field: Ontology binding for its
// path (last loaded document first), Registry concept entry named by its
// semanticType, the semanticType literal, then its autocomplete evidence
// and last the surest of its heuristic evidence. It reports false when
// nothing says.
func (s *Sidecars) Resolve(f *Field) (Identity, bool) {
	if s != nil && f.Path != "" {
		cands := pathCandidates(f.Path)
		for i := len(s.Ontologies) - 1; i >= 0; i-- {
			for _, p := range cands {
				if b, ok := s.Ontologies[i].Concepts[p]; ok {
					return Identity{Concept: b.Concept, Equivalents: b.Equivalents, Kind: EvidenceOntology, Strength: 1}, true
				}
			}
		}
	}
	if f.SemanticType != "" {
		if s != nil {
			for i := len(s.Registries) - 1; i >= 0; i-- {
				if b, ok := s.Registries[i].Concepts[f.SemanticType]; ok {
					return Identity{Concept: b.Concept, Equivalents: b.Equivalents, Kind: EvidenceRegistry, Strength: evidenceStrength[EvidenceRegistry]}, true
				}
			}
		}
		id := Identity{Concept: f.SemanticType, Kind: EvidenceSemanticType, Strength: evidenceStrength[EvidenceSemanticType]}
		tok := f.SemanticType
		if a, ok := semanticAliases[strings.ToLower(tok)]; ok {
			tok = a
		}
		// A literal that names an autofill field is that field's concept: a
		// form author writing semanticType "email" means schema.org/email.
		if c, ok := profile.ConceptForToken(strings.ToLower(tok)); ok {
			id.Equivalents = []Equivalent{{Concept: c}}
			id.Token = strings.ToLower(tok)
		}
		return id, true
	}
	// Evidence of a stronger kind wins whatever a heuristic's own strength
	// (an author's autocomplete token is not outvoted by a guess); among
	// heuristic claims the surest wins.
	var best Identity
	bestRank := len(evidenceOrder)
	for _, e := range f.Evidence {
		rank := slices.Index(evidenceOrder, e.Kind)
		if e.Concept == "" || rank < 0 || rank > bestRank {
			continue
		}
		st := evidenceStrength[e.Kind]
		if e.Kind == EvidenceHeuristic {
			st = clamp01(e.Strength)
		}
		if rank < bestRank || st > best.Strength {
			best = Identity{Concept: e.Concept, Kind: e.Kind, Strength: st, Token: e.Token}
			bestRank = rank
		}
	}
	return best, bestRank < len(evidenceOrder)
}

// evidenceOrder is the order of Assist §5.3 extended to non-Formspec forms:
// the strongest kind first.
var evidenceOrder = []EvidenceKind{EvidenceOntology, EvidenceRegistry, EvidenceSemanticType, EvidenceAutocomplete, EvidenceHeuristic}

func clamp01(x float64) float64 {
	if x != x || x < 0 {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}
