package matcher

import (
	"cmp"
	"encoding/json"
	"math"
	"slices"
	"strings"

	"github.com/tessera-app/tessera/profile"
)

// Skip reasons (Assist §6 ProfileApplyResult, plus x- reasons of our own).
const (
	SkipReadOnly      = "READONLY"
	SkipNotRelevant   = "NOT_RELEVANT"
	SkipInvalidValue  = "INVALID_VALUE"
	SkipSensitive     = "x-sensitive"
	SkipNoConcept     = "x-no-concept"
	SkipNoValue       = "x-no-value"
	SkipLowConfidence = "x-low-confidence"
	SkipUnsupported   = "x-unsupported"
	SkipPattern       = "x-pattern-unsupported"
	// SkipNotChosen marks the radio buttons of a group other than the one
	// the value chose.
	SkipNotChosen = "x-not-chosen"
)

// Relationships between a field's concept and the profile entry used.
const (
	RelExact    = "exact"
	RelClose    = "close"
	RelBroader  = "broader"
	RelNarrower = "narrower"
	RelRelated  = "related"
	RelFieldKey = "field-key"
)

// Relationship weights of the confidence formula (see the package doc).
const (
	WeightDirect   = 1.0
	WeightFieldKey = 0.30
	// factorDerived is the adaptation factor of a rule that can be wrong.
	factorDerived = 0.9
)

var equivalentWeight = map[string]float64{
	RelExact: 0.95, RelClose: 0.80, RelBroader: 0.60, RelNarrower: 0.60, RelRelated: 0.40,
}

// DefaultThreshold is the confidence under which proposals are dropped
// (Assist §7.2 recommends 0.50).
const DefaultThreshold = 0.5

// Options configures Match.
type Options struct {
	// Threshold is the lowest confidence proposed; 0 means DefaultThreshold.
	Threshold float64
	// Sidecars are the Formspec Ontology and Registry documents of the form.
	Sidecars *Sidecars
}

// A Proposal is what Match decides for one field: a value (nil when none)
// with its concept, relationship and confidence, or a skip reason.
type Proposal struct {
	Index int    `json:"index"`
	Path  string `json:"path,omitempty"`
	// Value is the adapted value to put in the field; nil when nothing is
	// proposed. For a select or radio group it is an option value.
	Value        *string `json:"value"`
	Concept      string  `json:"concept,omitempty"`
	Relationship string  `json:"relationship,omitempty"`
	// From is the canonical profile concept the value was taken from
	// (the field's own, or one its concept reaches: schema:gender for
	// FHIR's administrative gender); "" when it was found by the field's
	// key, or nothing was proposed.
	From       string  `json:"from,omitempty"`
	Confidence float64 `json:"confidence"`
	Skip       string  `json:"skip,omitempty"`
	// Source is the provenance of the profile entry used.
	Source *profile.Source `json:"source,omitempty"`
}

// run is the state of one Match call.
type run struct {
	p *profile.UserProfile
	// aliases maps canonical concepts to the key a profile stores them
	// under when that key is spelt otherwise ("schema:email"); keys already
	// canonical are looked up directly.
	aliases   map[string]string
	lineParts map[string]bool // address-line parts the form has
	// line2Boxes counts the boxes for one part of the second street line
	// (a floor, a door: line2Part).
	line2Boxes int
	hasLevel3  bool
	telExt     bool // the form has a tel-extension field
	telCode    bool // the form has a tel-country-code field
	pc         patternCache
	phones     map[string]*phoneInfo
	folded     map[optKey]*optionIndex
	values     map[string]cachedValue // by canonical concept
	// countries caches countryForms by value, page language and part:
	// looking up display names is costly and a form may ask twice
	// (billing and shipping).
	countries map[[3]string]forms
	opts      Options
}

// Match proposes a value for each field from profile p. The result has one
// Proposal per field, in the order of fields. It never proposes a value for
// readonly, disabled, hidden, non-relevant or sensitive fields, nor a value
// that would not satisfy the field's constraints. Match is safe for
// concurrent use. It keeps no profile data between calls; what it derives
// from pages (option lists in comparison form, compiled patterns) it caches,
// within a bound.
func Match(fields []Field, p *profile.UserProfile, opts Options) []Proposal {
	if opts.Threshold <= 0 || opts.Threshold != opts.Threshold {
		opts.Threshold = DefaultThreshold
	}
	if p == nil {
		p = &profile.UserProfile{}
	}
	r := &run{
		p:         p,
		aliases:   map[string]string{},
		lineParts: map[string]bool{},
		pc:        patternCache{},
		phones:    map[string]*phoneInfo{},
		folded:    map[optKey]*optionIndex{},
		values:    map[string]cachedValue{},
		countries: map[[3]string]forms{},
		opts:      opts,
	}
	for k := range p.Concepts {
		c := CanonicalConcept(k)
		if c == k {
			continue
		}
		// Two spellings of one concept: the canonical one wins, else the
		// first in byte order, so the choice does not depend on map order.
		if _, canon := p.Concepts[c]; canon {
			continue
		}
		if old, ok := r.aliases[c]; !ok || k < old {
			r.aliases[c] = k
		}
	}
	ids := make([]Identity, len(fields))
	has := make([]bool, len(fields))
	for i := range fields {
		ids[i], has[i] = opts.Sidecars.Resolve(&fields[i])
		if !has[i] {
			continue
		}
		switch part := partOf(&fields[i], ids[i]); {
		case strings.HasPrefix(part, "address-line"):
			r.lineParts[part] = true
		case line2Part[part]:
			r.line2Boxes++
		case part == "tel-extension":
			r.telExt = true
		case part == "tel-country-code":
			r.telCode = true
		case part == "address-level3" || CanonicalConcept(ids[i].Concept) == profile.ConceptDependentLocal:
			r.hasLevel3 = true
		}
	}
	out := make([]Proposal, len(fields))
	done := make([]bool, len(fields))
	for i := range fields {
		if done[i] {
			continue
		}
		f := &fields[i]
		if f.InputType == "radio" && f.Group != "" {
			r.matchRadioGroup(fields, ids, has, i, out, done)
			continue
		}
		out[i] = r.matchOne(f, ids[i], has[i])
		done[i] = true
	}
	return out
}

// gate returns the skip reason that forbids filling f at all, if any.
func gate(f *Field) string {
	switch {
	case f.Disabled || f.Hidden || f.NonRelevant || f.InputType == "hidden":
		return SkipNotRelevant
	case f.ReadOnly:
		return SkipReadOnly
	case f.InputType == "password":
		return SkipSensitive
	}
	switch f.InputType {
	case "submit", "reset", "button", "image", "file", "checkbox", "color", "range", "select-multiple":
		return SkipUnsupported
	}
	switch f.DataType {
	case "attachment", "boolean", "multiChoice":
		return SkipUnsupported
	}
	return ""
}

// sensitiveConcepts are concepts never filled from profile data, whatever
// the field's token says.
var sensitiveConcepts = map[string]bool{
	profile.ConceptPassword: true, profile.ConceptOneTimeCode: true, profile.ConceptUsername: true,
	profile.ConceptCCName: true, profile.ConceptCCGivenName: true, profile.ConceptCCAdditionalName: true,
	profile.ConceptCCFamilyName: true, profile.ConceptCCNumber: true, profile.ConceptCCExp: true,
	profile.ConceptCCExpMonth: true, profile.ConceptCCExpYear: true, profile.ConceptCCCSC: true,
	profile.ConceptCCType: true,
}

func isSensitive(f *Field, id Identity) bool {
	if profile.IsSensitiveToken(id.Token) || profile.IsSensitiveToken(f.Part) || sensitiveConcepts[id.Concept] {
		return true
	}
	for _, e := range f.Evidence {
		if profile.IsSensitiveToken(e.Token) || sensitiveConcepts[e.Concept] {
			return true
		}
	}
	return false
}

// partOf is the part of its concept a field wants: its explicit Part, else
// the token of its evidence.
func partOf(f *Field, id Identity) string {
	if f.Part != "" {
		return f.Part
	}
	return id.Token
}

// candidate is a profile entry reachable from a field's concept.
type candidate struct {
	rel     string
	weight  float64
	concept string // canonical concept the value was found under ("" for field-key)
	value   string
	entry   profile.Entry
	factor  float64
}

func (r *run) matchOne(f *Field, id Identity, has bool) Proposal {
	pr := Proposal{Index: f.Index, Path: f.Path}
	if has {
		pr.Concept = id.Concept
	}
	if s := gate(f); s != "" {
		pr.Skip = s
		return pr
	}
	if has && isSensitive(f, id) {
		pr.Skip = SkipSensitive
		return pr
	}
	cands := r.candidates(f, id, has)
	if len(cands) == 0 {
		if has {
			pr.Skip = SkipNoValue
		} else {
			pr.Skip = SkipNoConcept
		}
		return pr
	}
	skip := SkipNoValue
	for _, c := range cands {
		v, factor, why := r.adapt(f, id, c)
		if why != "" {
			if skip != SkipPattern {
				skip = why
			}
			continue
		}
		conf := confidence(c.weight, c.entry.Confidence, id.Strength, c.factor*factor)
		if !has {
			conf = confidence(c.weight, c.entry.Confidence, 1, c.factor*factor)
		}
		if conf < r.opts.Threshold {
			skip = SkipLowConfidence
			pr.Relationship, pr.Confidence = c.rel, conf
			continue
		}
		src := c.entry.Source
		pr.Value, pr.Relationship, pr.From, pr.Confidence, pr.Skip, pr.Source = &v, c.rel, c.concept, conf, "", &src
		return pr
	}
	pr.Skip = skip
	if skip != SkipLowConfidence {
		pr.Relationship, pr.Confidence = "", 0
	}
	return pr
}

// confidence is the formula of the package doc, rounded to 1e-4 so that
// results are stable across platforms.
func confidence(weight, entry, evidence, adaptation float64) float64 {
	entry = clamp01(entry)
	if entry == 0 {
		entry = 1
	}
	c := clamp01(weight) * entry * clamp01(evidence) * clamp01(adaptation)
	return math.Round(c*1e4) / 1e4
}

// candidates lists the profile entries reachable from the field, best
// relationship first: the concept itself, its equivalents, then the
// field-path fallback.
func (r *run) candidates(f *Field, id Identity, has bool) []candidate {
	var out []candidate
	var seen []string // a field has a handful of equivalents at most
	add := func(rel string, w float64, key string) {
		if slices.Contains(seen, key) {
			return
		}
		seen = append(seen, key)
		if v, e, factor, ok := r.valueFor(key, f); ok {
			out = append(out, candidate{rel: rel, weight: w, concept: key, value: v, entry: e, factor: factor})
		}
	}
	if has {
		add(RelExact, WeightDirect, CanonicalConcept(id.Concept))
		for _, e := range id.Equivalents {
			t := e.Type
			if t == "" {
				t = RelExact
			}
			w, ok := equivalentWeight[t]
			if !ok {
				continue // x- relationship types carry no agreed weight
			}
			add(t, w, e.key())
		}
		slices.SortStableFunc(out, func(a, b candidate) int { return cmp.Compare(b.weight, a.weight) })
	}
	if f.Path != "" && r.p.Fields != nil {
		if e, ok := r.p.Fields[f.Path]; ok {
			if v, ok := entryString(e); ok {
				out = append(out, candidate{rel: RelFieldKey, weight: WeightFieldKey, value: v, entry: e, factor: 1})
			}
		}
	}
	return out
}

// entryString returns an entry's value as field text: strings as they are,
// numbers and booleans in their JSON spelling; objects, arrays and null are
// not field values.
func entryString(e profile.Entry) (string, bool) {
	if s, ok := e.StringValue(); ok {
		return s, s != ""
	}
	raw := strings.TrimSpace(string(e.Value))
	if raw == "" || raw == "null" || raw[0] == '{' || raw[0] == '[' || raw[0] == '"' {
		return "", false
	}
	var x any
	if json.Unmarshal([]byte(raw), &x) != nil {
		return "", false
	}
	return raw, true
}

// cachedValue is a decoded profile entry.
type cachedValue struct {
	v  string
	e  profile.Entry
	ok bool
}

// entry returns the profile entry stored under a canonical concept, decoded
// once per Match call.
func (r *run) entry(canon string) (string, profile.Entry, bool) {
	if c, ok := r.values[canon]; ok {
		return c.v, c.e, c.ok
	}
	var c cachedValue
	e, ok := r.p.Concepts[canon]
	if !ok {
		var k string
		if k, ok = r.aliases[canon]; ok {
			e = r.p.Concepts[k]
		}
	}
	if ok {
		c.e = e
		c.v, c.ok = entryString(e)
	}
	r.values[canon] = c
	return c.v, c.e, c.ok
}

// valueFor returns the value of a canonical concept: stored, or derived from
// related entries (a full name from its parts and back). factor is the
// adaptation factor of the derivation.
func (r *run) valueFor(canon string, f *Field) (string, profile.Entry, float64, bool) {
	if v, e, ok := r.entry(canon); ok {
		return v, e, 1, true
	}
	return r.deriveName(canon, f)
}

func (r *run) matchRadioGroup(fields []Field, ids []Identity, has []bool, first int, out []Proposal, done []bool) {
	g := fields[first].Group
	var members []int
	lead := -1
	var opts []Option
	for j := first; j < len(fields); j++ {
		if fields[j].InputType != "radio" || fields[j].Group != g {
			continue
		}
		members = append(members, j)
		done[j] = true
		for _, o := range fields[j].Options {
			// A button that may not be checked is no choice, but it stays
			// in the list so that it can still make a choice ambiguous.
			o.Disabled = o.Disabled || gate(&fields[j]) != ""
			opts = append(opts, o)
		}
		if lead < 0 && gate(&fields[j]) == "" {
			lead = j
		}
	}
	if lead < 0 {
		for _, j := range members {
			out[j] = r.matchOne(&fields[j], ids[j], has[j])
		}
		return
	}
	merged := fields[lead]
	merged.Options = opts
	pr := r.matchOne(&merged, ids[lead], has[lead])
	for _, j := range members {
		if gate(&fields[j]) != "" {
			// The group's value never goes to a button that may not be
			// checked (it once did when the button was not the first).
			out[j] = r.matchOne(&fields[j], ids[j], has[j])
			continue
		}
		q := pr
		q.Index, q.Path, q.Value = fields[j].Index, fields[j].Path, nil
		if pr.Value != nil {
			// The chosen radio gets the value; its siblings stay unchecked.
			q.Skip = ""
			for _, o := range fields[j].Options {
				if o.Value == *pr.Value {
					v := o.Value
					q.Value = &v
				}
			}
			if q.Value == nil {
				q.Relationship, q.Confidence, q.Source, q.Skip = "", 0, nil, SkipNotChosen
			}
		}
		out[j] = q
	}
}
