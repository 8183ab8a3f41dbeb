package formspec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/tessera-app/tessera/internal/jsondepth"
	"github.com/tessera-app/tessera/matcher"
)

// Limits on what pages hand in.
const (
	// MaxDocBytes is the largest definition or sidecar accepted.
	MaxDocBytes = matcher.MaxSidecarBytes
	// MaxDepth is the deepest JSON nesting accepted in any document.
	MaxDepth = 64
	// MaxItems is the most definition items (all levels).
	MaxItems = matcher.MaxItems
	// MaxReferences is the most bound references in one References document.
	MaxReferences = matcher.MaxBindings
	// MaxDocs is the most sidecars of one kind loaded for one form.
	MaxDocs = 16
	// MaxPathLen and MaxSegments bound a field path.
	MaxPathLen  = 1024
	MaxSegments = 32
	// MaxIndex is the largest repeat index in a path.
	MaxIndex = 100000
)

// Assist error codes (§4.2) this package returns.
const (
	CodeNotFound      = "NOT_FOUND"
	CodeInvalidPath   = "INVALID_PATH"
	CodeInvalidValue  = "INVALID_VALUE"
	CodeInvalidSource = "x-invalid-sidecar"
)

// An Error is an Assist ToolError (§4.2).
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Path    string `json:"path,omitempty"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

func invalid(format string, args ...any) *Error {
	return &Error{Code: CodeInvalidSource, Message: fmt.Sprintf(format, args...)}
}

// FieldHelp is the Assist FieldHelp object (§5.1).
type FieldHelp struct {
	Path        string                      `json:"path"`
	Label       string                      `json:"label"`
	References  map[string][]ReferenceEntry `json:"references"`
	Concept     *ConceptBinding             `json:"concept,omitempty"`
	Equivalents []ConceptEquivalent         `json:"equivalents,omitempty"`
}

// A ReferenceEntry is one resolved reference. Priority is the effective
// priority (supplementary when the document gives none); Rel is see-also
// when absent or not a known relationship.
type ReferenceEntry struct {
	ID       string          `json:"id,omitempty"`
	Title    string          `json:"title"`
	URI      string          `json:"uri,omitempty"`
	Content  json.RawMessage `json:"content,omitempty"`
	Rel      string          `json:"rel,omitempty"`
	Priority string          `json:"priority"`
	// Target is the target the entry was bound to: the path, an ancestor or "#".
	Target string `json:"target"`
}

// ConceptBinding and ConceptEquivalent are §5.1's.
type ConceptBinding struct {
	Concept string `json:"concept"`
	System  string `json:"system,omitempty"`
	Code    string `json:"code,omitempty"`
	Display string `json:"display,omitempty"`
	// Source is "ontology", "registry" or "semanticType" (§5.3's order).
	Source string `json:"source"`
}

type ConceptEquivalent struct {
	Concept string `json:"concept,omitempty"`
	System  string `json:"system,omitempty"`
	Code    string `json:"code,omitempty"`
	Display string `json:"display,omitempty"`
	Type    string `json:"type"`
}

// An Item is one definition item by its definition path ("[*]" after each
// repeatable group).
type Item struct {
	Path         string `json:"path"`
	Key          string `json:"key"`
	Type         string `json:"type"`
	Label        string `json:"label"`
	DataType     string `json:"dataType,omitempty"`
	SemanticType string `json:"semanticType,omitempty"`
	Repeatable   bool   `json:"repeatable,omitempty"`
	Page         string `json:"page,omitempty"`
}

// A Definition is what help resolution needs of a Formspec Definition.
type Definition struct {
	URL     string
	Version string
	Title   string
	Items   []Item
	// byPath maps the index-stripped path to the item.
	byPath map[string]*Item
}

type rawItem struct {
	Key          string          `json:"key"`
	Type         string          `json:"type"`
	Label        any             `json:"label"`
	DataType     string          `json:"dataType"`
	SemanticType string          `json:"semanticType"`
	Repeatable   bool            `json:"repeatable"`
	Children     []rawItem       `json:"children"`
	Presentation json.RawMessage `json:"presentation"`
}

var keyRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*$`)

// ParseDefinition parses the parts of a Formspec Definition help needs.
func ParseDefinition(data []byte) (*Definition, error) {
	if err := checkDoc(data, "definition"); err != nil {
		return nil, err
	}
	var doc struct {
		Formspec *string   `json:"$formspec"`
		URL      string    `json:"url"`
		Version  string    `json:"version"`
		Title    string    `json:"title"`
		Items    []rawItem `json:"items"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, invalid("definition: %v", err)
	}
	if doc.Formspec == nil {
		return nil, invalid("definition: missing $formspec")
	}
	if doc.URL == "" {
		return nil, invalid("definition: missing url")
	}
	d := &Definition{URL: doc.URL, Version: doc.Version, Title: doc.Title, byPath: map[string]*Item{}}
	var walk func(items []rawItem, prefix string, depth int) error
	walk = func(items []rawItem, prefix string, depth int) error {
		if depth > matcher.MaxDepth {
			return invalid("definition: items nested deeper than %d", matcher.MaxDepth)
		}
		for _, it := range items {
			if len(d.Items) >= MaxItems {
				return invalid("definition: more than %d items", MaxItems)
			}
			if !keyRE.MatchString(it.Key) || len(it.Key) > 256 {
				return invalid("definition: item key %s is not a valid key", quote(it.Key))
			}
			path := prefix + it.Key
			label, _ := it.Label.(string)
			item := Item{Path: path, Key: it.Key, Type: it.Type, Label: label, DataType: it.DataType, SemanticType: it.SemanticType, Repeatable: it.Repeatable}
			var pres struct {
				Layout struct {
					Page string `json:"page"`
				} `json:"layout"`
			}
			if len(it.Presentation) > 0 && it.Presentation[0] == '{' && json.Unmarshal(it.Presentation, &pres) == nil {
				item.Page = pres.Layout.Page
			}
			stripped := stripIndices(path)
			if _, dup := d.byPath[stripped]; dup {
				return invalid("definition: item path %s given twice", quote(path))
			}
			d.Items = append(d.Items, item)
			d.byPath[stripped] = &d.Items[len(d.Items)-1]
			cp := path
			if it.Repeatable {
				cp += "[*]"
			}
			if err := walk(it.Children, cp+".", depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(doc.Items, "", 0); err != nil {
		return nil, err
	}
	// byPath holds pointers into Items: rebuild now that Items is final.
	for i := range d.Items {
		d.byPath[stripIndices(d.Items[i].Path)] = &d.Items[i]
	}
	return d, nil
}

// Item returns the item a path names, indices and wildcards ignored.
func (d *Definition) Item(path string) (*Item, bool) {
	it, ok := d.byPath[stripIndices(path)]
	return it, ok
}

// A Reference is one bound reference after $ref resolution, in load order.
type Reference struct {
	Target   string
	ID       string
	Type     string
	Audience string
	Title    string
	URI      string
	Content  json.RawMessage
	Rel      string
	Priority string
	// Doc and Pos are the source document's load position and the entry's
	// position in it: the secondary sort key (§5.2 step 8).
	Doc, Pos int
}

// A References document, validated and with every $ref resolved.
type References struct {
	TargetURL          string
	CompatibleVersions string
	References         []Reference
}

var knownTypes = []string{"documentation", "example", "regulation", "policy", "glossary", "schema", "vector-store", "knowledge-base", "retrieval", "tool", "api", "context"}
var knownRels = []string{"authorizes", "constrains", "defines", "exemplifies", "supersedes", "superseded-by", "derived-from", "see-also"}
var priorities = []string{"primary", "supplementary", "background"}
var refRE = regexp.MustCompile(`^#/referenceDefs/([a-zA-Z][a-zA-Z0-9_-]*)$`)

// ParseReferences parses and validates a References document (References
// §2.3, §4, §4.6.3), resolving $ref at load time. Warnings (unknown types and
// relationships) are returned beside it; a broken document is an *Error
// with code x-invalid-sidecar.
func ParseReferences(data []byte) (*References, []string, error) {
	if err := checkDoc(data, "references"); err != nil {
		return nil, nil, err
	}
	var doc struct {
		Version          *string                               `json:"$formspecReferences"`
		TargetDefinition *targetDefinition                     `json:"targetDefinition"`
		ReferenceDefs    map[string]map[string]json.RawMessage `json:"referenceDefs"`
		References       *[]map[string]json.RawMessage         `json:"references"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, nil, invalid("references: %v", err)
	}
	if doc.Version == nil || *doc.Version != "1.0" {
		return nil, nil, invalid(`references: $formspecReferences must be "1.0"`)
	}
	if doc.TargetDefinition == nil || doc.TargetDefinition.URL == "" {
		return nil, nil, invalid("references: targetDefinition.url missing")
	}
	if doc.References == nil {
		return nil, nil, invalid("references: references array missing")
	}
	if len(*doc.References) > MaxReferences {
		return nil, nil, invalid("references: %d references over the limit of %d", len(*doc.References), MaxReferences)
	}
	for key, def := range doc.ReferenceDefs {
		if !keyRE.MatchString(key) {
			return nil, nil, invalid("references: referenceDefs key %s is not an identifier", quote(key))
		}
		if id, ok := def["id"]; ok {
			var s string
			if json.Unmarshal(id, &s) != nil || s != key {
				return nil, nil, invalid("references: referenceDefs %s has an id that is not its key", quote(key))
			}
		}
		if _, ok := def["$ref"]; ok {
			return nil, nil, invalid("references: referenceDefs %s uses $ref (no recursion)", quote(key))
		}
	}
	r := &References{TargetURL: doc.TargetDefinition.URL, CompatibleVersions: doc.TargetDefinition.CompatibleVersions}
	var warnings []string
	ids := map[string]bool{}
	for i, raw := range *doc.References {
		where := fmt.Sprintf("references: references[%d]", i)
		merged := raw
		refKey := ""
		if ref, ok := raw["$ref"]; ok {
			var s string
			if json.Unmarshal(ref, &s) != nil {
				return nil, nil, invalid("%s: $ref is not a string", where)
			}
			m := refRE.FindStringSubmatch(s)
			if m == nil {
				return nil, nil, invalid("%s: $ref %s is not #/referenceDefs/KEY", where, quote(s))
			}
			base, ok := doc.ReferenceDefs[m[1]]
			if !ok {
				return nil, nil, invalid("%s: $ref %s names no referenceDefs entry", where, quote(s))
			}
			if _, ok := raw["id"]; ok {
				return nil, nil, invalid("%s: a $ref entry must not carry id", where)
			}
			refKey = m[1]
			merged = make(map[string]json.RawMessage, len(base)+len(raw))
			for k, v := range base {
				merged[k] = v
			}
			for k, v := range raw {
				if k != "$ref" {
					merged[k] = v
				}
			}
		}
		var e struct {
			Target   *string         `json:"target"`
			ID       string          `json:"id"`
			Type     string          `json:"type"`
			Audience string          `json:"audience"`
			Title    string          `json:"title"`
			URI      string          `json:"uri"`
			Content  json.RawMessage `json:"content"`
			Rel      string          `json:"rel"`
			Priority string          `json:"priority"`
		}
		b, _ := json.Marshal(merged)
		if err := json.Unmarshal(b, &e); err != nil {
			return nil, nil, invalid("%s: %v", where, err)
		}
		if e.Target == nil || (*e.Target != "#" && checkTarget(*e.Target) != nil) {
			return nil, nil, invalid("%s: target missing or not a path", where)
		}
		if e.Type == "" {
			return nil, nil, invalid("%s: type missing", where)
		}
		if !slices.Contains([]string{"human", "agent", "both"}, e.Audience) {
			return nil, nil, invalid("%s: audience must be human, agent or both", where)
		}
		if e.URI == "" && len(e.Content) == 0 {
			return nil, nil, invalid("%s: neither uri nor content", where)
		}
		if len(e.Content) > 0 && e.Content[0] != '"' && e.Content[0] != '{' {
			return nil, nil, invalid("%s: content must be a string or an object", where)
		}
		if e.Priority != "" && !slices.Contains(priorities, e.Priority) {
			return nil, nil, invalid("%s: priority %s is not primary, supplementary or background", where, quote(e.Priority))
		}
		if e.Priority == "" {
			e.Priority = "supplementary"
		}
		if refKey != "" {
			e.ID = refKey
		} else if e.ID != "" {
			if ids[e.ID] {
				return nil, nil, invalid("%s: id %s used twice", where, quote(e.ID))
			}
			ids[e.ID] = true
		}
		if !slices.Contains(knownTypes, e.Type) && !strings.HasPrefix(e.Type, "x-") {
			warnings = append(warnings, fmt.Sprintf("%s: unknown type %s kept", where, quote(e.Type)))
		}
		if e.Rel == "" {
			e.Rel = "see-also"
		} else if !slices.Contains(knownRels, e.Rel) && !strings.HasPrefix(e.Rel, "x-") {
			warnings = append(warnings, fmt.Sprintf("%s: unknown rel %s taken as see-also", where, quote(e.Rel)))
			e.Rel = "see-also"
		}
		r.References = append(r.References, Reference{Target: *e.Target, ID: e.ID, Type: e.Type, Audience: e.Audience,
			Title: e.Title, URI: e.URI, Content: e.Content, Rel: e.Rel, Priority: e.Priority, Pos: i})
	}
	return r, warnings, nil
}

type targetDefinition struct {
	URL                string `json:"url"`
	CompatibleVersions string `json:"compatibleVersions"`
}

// An Ontology is a parsed Ontology document with its target.
type Ontology struct {
	TargetURL          string
	CompatibleVersions string
	*matcher.Ontology
}

// ParseOntology parses and checks an Ontology document.
func ParseOntology(data []byte) (*Ontology, error) {
	if err := checkDoc(data, "ontology"); err != nil {
		return nil, err
	}
	o, err := matcher.ParseOntology(data)
	if err != nil {
		return nil, invalid("%v", err)
	}
	var doc struct {
		TargetDefinition *targetDefinition `json:"targetDefinition"`
	}
	if err := json.Unmarshal(data, &doc); err != nil || doc.TargetDefinition == nil || doc.TargetDefinition.URL == "" {
		return nil, invalid("ontology: targetDefinition.url missing")
	}
	return &Ontology{TargetURL: doc.TargetDefinition.URL, CompatibleVersions: doc.TargetDefinition.CompatibleVersions, Ontology: o}, nil
}

// A Resolver resolves help for one live definition and its sidecars.
type Resolver struct {
	Def        *Definition
	refs       []Reference
	ontologies []*Ontology
	registries []*matcher.Registry
	// Warnings holds what was accepted with a warning (version mismatches,
	// unknown types), in load order.
	Warnings []string
}

// Sources are the raw documents of one form, each list in load order.
type Sources struct {
	Definition []byte
	References [][]byte
	Ontologies [][]byte
	Registries [][]byte
}

// Load parses and validates a definition and its sidecars (§5.2 step 1):
// every sidecar must target the definition's url (else x-invalid-sidecar);
// a version outside compatibleVersions is a warning.
func Load(src Sources) (*Resolver, error) {
	def, err := ParseDefinition(src.Definition)
	if err != nil {
		return nil, err
	}
	if len(src.References) > MaxDocs || len(src.Ontologies) > MaxDocs || len(src.Registries) > MaxDocs {
		return nil, invalid("more than %d sidecars of one kind", MaxDocs)
	}
	r := &Resolver{Def: def}
	checkTarget := func(kind string, i int, t targetDefinition) error {
		if t.URL != def.URL {
			return invalid("%s %d targets %s, not the form's %s", kind, i+1, quote(t.URL), quote(def.URL))
		}
		if t.CompatibleVersions != "" {
			ok, err := satisfies(def.Version, t.CompatibleVersions)
			switch {
			case err != nil:
				r.Warnings = append(r.Warnings, fmt.Sprintf("%s %d: cannot check compatibleVersions %s: %v", kind, i+1, quote(t.CompatibleVersions), err))
			case !ok:
				r.Warnings = append(r.Warnings, fmt.Sprintf("%s %d: definition version %s is outside compatibleVersions %s; used anyway", kind, i+1, quote(def.Version), quote(t.CompatibleVersions)))
			}
		}
		return nil
	}
	for i, b := range src.References {
		doc, warns, err := ParseReferences(b)
		if err != nil {
			return nil, prefix(err, fmt.Sprintf("references %d", i+1))
		}
		if err := checkTarget("references", i, targetDefinition{doc.TargetURL, doc.CompatibleVersions}); err != nil {
			return nil, err
		}
		for _, w := range warns {
			r.Warnings = append(r.Warnings, fmt.Sprintf("references %d: %s", i+1, w))
		}
		for _, ref := range doc.References {
			ref.Doc = i
			r.refs = append(r.refs, ref)
			if ref.Target != "#" {
				if _, ok := def.Item(ref.Target); !ok {
					r.Warnings = append(r.Warnings, fmt.Sprintf("references %d: target %s names no item", i+1, quote(ref.Target)))
				}
			}
		}
	}
	for i, b := range src.Ontologies {
		o, err := ParseOntology(b)
		if err != nil {
			return nil, prefix(err, fmt.Sprintf("ontology %d", i+1))
		}
		if err := checkTarget("ontology", i, targetDefinition{o.TargetURL, o.CompatibleVersions}); err != nil {
			return nil, err
		}
		r.ontologies = append(r.ontologies, o)
	}
	for i, b := range src.Registries {
		if err := checkDoc(b, "registry"); err != nil {
			return nil, prefix(err, fmt.Sprintf("registry %d", i+1))
		}
		reg, err := matcher.ParseRegistry(b)
		if err != nil {
			return nil, invalid("registry %d: %v", i+1, err)
		}
		r.registries = append(r.registries, reg)
	}
	return r, nil
}

func prefix(err error, p string) error {
	if e, ok := err.(*Error); ok {
		return &Error{Code: e.Code, Message: p + ": " + e.Message, Path: e.Path}
	}
	return invalid("%s: %v", p, err)
}

// A segment of a field path: a key and its index ("" none, "*", or digits).
type segment struct {
	key, index string
}

var segRE = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9_-]*)(?:\[(\*|0|[1-9][0-9]*)\])?$`)

func parsePath(path string) ([]segment, error) {
	if path == "" || len(path) > MaxPathLen {
		return nil, &Error{Code: CodeInvalidPath, Message: fmt.Sprintf("a path is 1 to %d bytes", MaxPathLen), Path: clip(path)}
	}
	parts := strings.Split(path, ".")
	if len(parts) > MaxSegments {
		return nil, &Error{Code: CodeInvalidPath, Message: fmt.Sprintf("more than %d segments", MaxSegments), Path: clip(path)}
	}
	segs := make([]segment, len(parts))
	for i, p := range parts {
		m := segRE.FindStringSubmatch(p)
		if m == nil {
			return nil, &Error{Code: CodeInvalidPath, Message: fmt.Sprintf("segment %s is not key or key[N]", quote(p)), Path: clip(path)}
		}
		if m[2] != "" && m[2] != "*" {
			if n, err := strconv.Atoi(m[2]); err != nil || n > MaxIndex {
				return nil, &Error{Code: CodeInvalidPath, Message: "repeat index too large", Path: clip(path)}
			}
		}
		segs[i] = segment{m[1], m[2]}
	}
	return segs, nil
}

func checkTarget(t string) error {
	_, err := parsePath(t)
	return err
}

func stripIndices(path string) string {
	if !strings.Contains(path, "[") {
		return path
	}
	var b strings.Builder
	depth := 0
	for _, c := range path {
		switch {
		case c == '[':
			depth++
		case c == ']':
			depth--
		case depth == 0:
			b.WriteRune(c)
		}
	}
	return b.String()
}

// variants returns the forms of segs a target may use, the form as given
// first: index-stripped, wildcard (each repeatable group "[*]"), and the
// wildcard form with the last segment stripped (the bind path of a
// repeatable group itself).
func (d *Definition) variants(segs []segment) []string {
	var given, stripped, wild, group []string
	for i, s := range segs {
		g := s.key
		if s.index != "" {
			g += "[" + s.index + "]"
		}
		given = append(given, g)
		stripped = append(stripped, s.key)
		w := s.key
		if it, ok := d.byPath[strings.Join(stripped, ".")]; ok && it.Repeatable || s.index != "" {
			w += "[*]"
		}
		wild = append(wild, w)
		if i == len(segs)-1 {
			group = append(slices.Clone(wild[:i]), s.key)
		}
	}
	var out []string
	for _, v := range [][]string{given, stripped, wild, group} {
		p := strings.Join(v, ".")
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// Help resolves FieldHelp for path as Assist §5 says. audience is "agent"
// (the default when empty), "human" or "both". A malformed path is
// INVALID_PATH, one that names no item (or indexes a group that does not
// repeat) NOT_FOUND.
func (r *Resolver) Help(path, audience string) (*FieldHelp, error) {
	if audience == "" {
		audience = "agent"
	}
	if !slices.Contains([]string{"agent", "human", "both"}, audience) {
		return nil, &Error{Code: CodeInvalidValue, Message: "audience must be agent, human or both", Path: clip(path)}
	}
	segs, err := parsePath(path)
	if err != nil {
		return nil, err
	}
	item, err := r.lookup(path, segs)
	if err != nil {
		return nil, err
	}
	// Steps 2-3: the path, each ancestor (as given, index-stripped and
	// wildcard) and "#". No inheritance beyond this explicit walk (step 4).
	cands := map[string]string{"#": "#"}
	for n := len(segs); n >= 1; n-- {
		for _, v := range r.Def.variants(segs[:n]) {
			if _, ok := cands[v]; !ok {
				cands[v] = v
			}
		}
	}
	var picked []Reference
	for _, ref := range r.refs {
		if _, ok := cands[ref.Target]; !ok {
			continue
		}
		// Step 5: the audience filter.
		if audience != "both" && ref.Audience != "both" && ref.Audience != audience {
			continue
		}
		picked = append(picked, ref) // $ref was resolved at load (step 6)
	}
	// Step 8: primary, supplementary, background; document order within a
	// tier (r.refs is in load order, so a stable sort keeps it).
	sort.SliceStable(picked, func(i, j int) bool {
		return slices.Index(priorities, picked[i].Priority) < slices.Index(priorities, picked[j].Priority)
	})
	h := &FieldHelp{Path: path, Label: item.Label, References: map[string][]ReferenceEntry{}}
	for _, ref := range picked { // step 7: grouped by type
		title := ref.Title
		if title == "" {
			title = ref.ID
		}
		h.References[ref.Type] = append(h.References[ref.Type], ReferenceEntry{ID: ref.ID, Title: title, URI: ref.URI,
			Content: ref.Content, Rel: ref.Rel, Priority: ref.Priority, Target: ref.Target})
	}
	h.Concept, h.Equivalents = r.concept(segs, item)
	return h, nil
}

// lookup finds the item of a path, refusing an index on a group that does
// not repeat.
func (r *Resolver) lookup(path string, segs []segment) (*Item, error) {
	var prefix []string
	var item *Item
	for _, s := range segs {
		prefix = append(prefix, s.key)
		it, ok := r.Def.byPath[strings.Join(prefix, ".")]
		if !ok {
			return nil, &Error{Code: CodeNotFound, Message: "no item at this path", Path: clip(path)}
		}
		if s.index != "" && !it.Repeatable {
			return nil, &Error{Code: CodeNotFound, Message: fmt.Sprintf("%s does not repeat", quote(it.Path)), Path: clip(path)}
		}
		item = it
	}
	return item, nil
}

// concept resolves §5.3: the last-loaded Ontology binding of the path, a
// Registry concept entry named by semanticType, the semanticType literal.
func (r *Resolver) concept(segs []segment, item *Item) (*ConceptBinding, []ConceptEquivalent) {
	vs := r.Def.variants(segs)
	for i := len(r.ontologies) - 1; i >= 0; i-- {
		for _, v := range vs {
			if b, ok := r.ontologies[i].Concepts[v]; ok {
				return binding(b, "ontology")
			}
		}
	}
	if item.SemanticType == "" {
		return nil, nil
	}
	for i := len(r.registries) - 1; i >= 0; i-- {
		if b, ok := r.registries[i].Concepts[item.SemanticType]; ok {
			return binding(b, "registry")
		}
	}
	return &ConceptBinding{Concept: item.SemanticType, Source: "semanticType"}, nil
}

func binding(b matcher.Binding, source string) (*ConceptBinding, []ConceptEquivalent) {
	c := &ConceptBinding{Concept: b.Concept, System: b.System, Code: b.Code, Display: b.Display, Source: source}
	var eqs []ConceptEquivalent
	for _, e := range b.Equivalents {
		t := e.Type
		if t == "" {
			t = "exact" // §5.3: an absent relationship type is exact
		}
		eqs = append(eqs, ConceptEquivalent{Concept: e.Concept, System: e.System, Code: e.Code, Display: e.Display, Type: t})
	}
	return c, eqs
}

// checkDoc bounds a document's size and nesting before it is decoded.
func checkDoc(data []byte, what string) error {
	if len(data) > MaxDocBytes {
		return invalid("%s: %d bytes over the limit of %d", what, len(data), MaxDocBytes)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return invalid("%s: empty document", what)
	}
	if jsondepth.Of(data) > MaxDepth {
		return invalid("%s: nested deeper than %d", what, MaxDepth)
	}
	return nil
}

func quote(s string) string {
	if len(s) > 64 {
		return strconv.Quote(s[:64]) + "..."
	}
	return strconv.Quote(s)
}

func clip(s string) string {
	if len(s) > 256 {
		return s[:256]
	}
	return s
}
