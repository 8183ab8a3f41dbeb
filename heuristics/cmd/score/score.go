package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/tessera-app/tessera/form"
	"github.com/tessera-app/tessera/heuristics"
	"github.com/tessera-app/tessera/profile"
)

// maxExpectedBytes bounds one expected-labels file.
const maxExpectedBytes = 16 << 20

// Variants of a page that are scored.
const (
	variantServed = "asis" // the page as served
	variantNoAC   = "noac" // every autocomplete attribute removed
)

// errNoPages is returned for a corpus directory without labelled pages.
var errNoPages = errors.New("no labelled pages")

// expectedFile is the layout of X.html.expected.json: either fields (DDG,
// Formasaurus) or controls plus rows aligned by control_index (Chromium).
type expectedFile struct {
	Source   string          `json:"source"`
	File     string          `json:"file"`
	Fields   []expectedField `json:"fields"`
	Controls []expectedField `json:"controls"`
	Rows     []struct {
		ControlIndex      *int    `json:"control_index"`
		AutocompleteToken *string `json:"autocomplete_token"`
		Concept           *string `json:"concept"`
		Type              string  `json:"type"`
	} `json:"rows"`
}

type expectedField struct {
	ControlIndex      int     `json:"control_index"`
	Tag               string  `json:"tag"`
	Type              string  `json:"type"`
	Hidden            bool    `json:"hidden"`
	Expected          *string `json:"expected"`
	Concept           *string `json:"concept"`
	AutocompleteToken *string `json:"autocomplete_token"`
}

// A truth is the label of one scored control.
type truth struct {
	index int
	// token is the expected autofill token ("" for "not something to
	// autofill").
	token string
	// alts are further concepts a lenient reading accepts ("username or
	// email" accepts email).
	alts []string
	// label is the source's own label, for error listings.
	label string
}

// altTarget reports whether a lenient reading of the label names profile
// data ("username or email" is an email field to a lenient scorer).
func (t truth) altTarget() bool {
	for _, a := range t.alts {
		if !strings.HasPrefix(a, "ext:") {
			return true
		}
	}
	return false
}

// A page is one labelled HTML file.
type page struct {
	path   string // as found under the corpus directory
	rel    string // relative to the corpus directory, slash-separated
	source string
	truths []truth
}

// Counts are the tallies behind precision and recall.
type Counts struct {
	// Targets is the number of scored fields labelled with a profile or
	// payment token and Found how many were predicted with exactly it;
	// TargetsLenient adds the fields a lenient reading makes targets
	// ("username or email") and FoundLenient counts close pairs as found.
	Targets        int `json:"targets"`
	Found          int `json:"found"`
	TargetsLenient int `json:"targetsLenient"`
	FoundLenient   int `json:"foundLenient"`
	// Predicted is the number of scored fields predicted as a profile or
	// payment token; Right and RightLenient how many of those were right.
	Predicted    int `json:"predicted"`
	Right        int `json:"right"`
	RightLenient int `json:"rightLenient"`
	// PredictedVocab and RightVocab count only predictions of tokens the
	// page's source labels somewhere in the corpus. A source that never
	// labels a kind of field (DuckDuckGo has no label for a company or a
	// gender) leaves such fields unlabelled, so a fill there is counted
	// wrong by Predicted/Right whether or not it is right; this pair
	// leaves those fills unjudged. It is a second view, never the target.
	PredictedVocab int `json:"predictedVocab"`
	RightVocab     int `json:"rightVocab"`
	// Unticked counts the scored fields offered unticked: recognised, but
	// marked optional by the page (heuristics.Result.Optional), so not
	// counted as predicted.
	Unticked int `json:"unticked"`
}

func (c *Counts) add(o Counts) {
	c.Targets += o.Targets
	c.Found += o.Found
	c.TargetsLenient += o.TargetsLenient
	c.FoundLenient += o.FoundLenient
	c.Predicted += o.Predicted
	c.Right += o.Right
	c.RightLenient += o.RightLenient
	c.PredictedVocab += o.PredictedVocab
	c.RightVocab += o.RightVocab
	c.Unticked += o.Unticked
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// A Score is one line of the report.
type Score struct {
	Source           string  `json:"source"`
	Variant          string  `json:"variant"`
	System           string  `json:"system"`
	Counts           Counts  `json:"counts"`
	Precision        float64 `json:"precision"`
	Recall           float64 `json:"recall"`
	PrecisionLenient float64 `json:"precisionLenient"`
	RecallLenient    float64 `json:"recallLenient"`
	// PrecisionVocab is the precision over predictions of tokens the
	// source labels somewhere (see Counts.PredictedVocab).
	PrecisionVocab float64 `json:"precisionVocab"`
}

func newScore(source, variant, system string, c Counts) Score {
	return Score{
		Source: source, Variant: variant, System: system, Counts: c,
		Precision: ratio(c.Right, c.Predicted), Recall: ratio(c.Found, c.Targets),
		PrecisionLenient: ratio(c.RightLenient, c.Predicted), RecallLenient: ratio(c.FoundLenient, c.TargetsLenient),
		PrecisionVocab: ratio(c.RightVocab, c.PredictedVocab),
	}
}

// A Miss is one scored field predicted wrongly, for the -v listing.
type Miss struct {
	File    string                `json:"file"`
	Variant string                `json:"variant"`
	Index   int                   `json:"control_index"`
	Want    string                `json:"want"`
	Got     string                `json:"got"`
	Label   string                `json:"label"`
	Why     []heuristics.Evidence `json:"why,omitempty"`
}

// fills is the token Tessera fills a control with unless the person acts:
// a box offered unticked (the page marks it optional, Result.Optional) is
// not filled, so it is scored as no prediction.
func fills(r heuristics.Result) string {
	if r.Optional {
		return ""
	}
	return r.Token
}

// isTarget reports whether a token is profile or payment data: every
// autofill field name except credentials and one-time codes.
func isTarget(tok string) bool {
	if tok == "" || heuristics.IsGuardToken(tok) {
		return false
	}
	_, ok := profile.ConceptForToken(tok)
	return ok
}

// lenientPairs are the close pairs the lenient variant accepts.
var lenientPairs = map[[2]string]bool{
	{"street-address", "address-line1"}: true, {"address-line1", "street-address"}: true,
	{"tel", "tel-national"}: true, {"tel-national", "tel"}: true,
}

// judge scores one prediction against one truth: strict and lenient.
func judge(t truth, pred string) (strict, lenient bool) {
	if pred == t.token {
		return true, true
	}
	if lenientPairs[[2]string{t.token, pred}] {
		return false, true
	}
	if pred == "address-line2" && apartment(t.label) {
		return false, true
	}
	if c, ok := profile.ConceptForToken(pred); ok && slices.Contains(t.alts, c) {
		return false, true
	}
	return false, false
}

// apartment reports whether a source label names an apartment or suite
// number (the lenient variant accepts address-line2 for it).
func apartment(label string) bool {
	l := strings.ToLower(label)
	return strings.Contains(l, "apart") || strings.Contains(l, "suite") || strings.Contains(l, "unit")
}

// scoredControl reports whether the scoring rules count a control: visible
// input (not hidden/submit/button/image/reset/file), select or textarea.
func scoredControl(f expectedField) bool {
	if f.Hidden {
		return false
	}
	if f.Tag == "input" {
		switch strings.ToLower(f.Type) {
		case "hidden", "submit", "button", "image", "reset", "file":
			return false
		}
	}
	return f.Tag == "input" || f.Tag == "select" || f.Tag == "textarea"
}

// loadPage reads the expected labels of one page and turns them into truths
// by the source's rules.
func loadPage(dir, path string) (*page, error) {
	data, err := readLimited(path+".expected.json", maxExpectedBytes)
	if err != nil {
		return nil, err
	}
	var ef expectedFile
	if err := json.Unmarshal(data, &ef); err != nil {
		return nil, fmt.Errorf("parse %s.expected.json: %w", path, err)
	}
	rel, err := filepath.Rel(dir, path)
	if err != nil {
		rel = path
	}
	p := &page{path: path, rel: filepath.ToSlash(rel), source: ef.Source}
	if p.source == "" {
		p.source = strings.SplitN(p.rel, "/", 2)[0]
	}
	switch {
	case ef.Fields != nil:
		for _, f := range ef.Fields {
			if !scoredControl(f) {
				continue
			}
			if p.source == "formasaurus" && !annotated(f.Expected) {
				// README: "in Formasaurus, unannotated fields are not
				// scored". Formasaurus marks them "XX" (its NA_value) or
				// leaves them out of index.json (null); "--" is its "skip"
				// mark. DuckDuckGo labels every field it means, so there
				// an unlabelled field is "not something to autofill".
				continue
			}
			t := truth{index: f.ControlIndex, token: deref(f.AutocompleteToken), label: deref(f.Expected)}
			t.alts = alternatives(f.Concept)
			p.truths = append(p.truths, t)
		}
	default:
		meta := map[int]expectedField{}
		for _, f := range ef.Controls {
			meta[f.ControlIndex] = f
		}
		for _, r := range ef.Rows {
			if r.ControlIndex == nil {
				continue
			}
			f, ok := meta[*r.ControlIndex]
			if !ok || !scoredControl(f) {
				continue
			}
			p.truths = append(p.truths, truth{index: *r.ControlIndex, token: deref(r.AutocompleteToken), alts: alternatives(r.Concept), label: r.Type})
		}
	}
	return p, nil
}

// annotated reports whether a Formasaurus label is an annotation: not
// missing, not its "NOT ANNOTATED" value XX and not its skip value "--"
// (formasaurus/data/config.json, field_types NA_value and skip_value).
func annotated(label *string) bool {
	return label != nil && *label != "XX" && *label != "--"
}

func alternatives(concept *string) []string {
	if concept == nil || !strings.Contains(*concept, "|") {
		return nil
	}
	return strings.Split(*concept, "|")
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func readLimited(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("read %s: larger than %d bytes", path, limit)
	}
	return data, nil
}

// findPages lists every X.html under dir that has X.html.expected.json
// beside it, at any depth, in lexical order.
func findPages(dir string) ([]*page, error) {
	var pages []*page
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".html") {
			return nil
		}
		if _, err := os.Stat(path + ".expected.json"); err != nil {
			return nil
		}
		p, err := loadPage(dir, path)
		if err != nil {
			return err
		}
		pages = append(pages, p)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("scan corpus %s: %w", dir, err)
	}
	if len(pages) == 0 {
		return nil, fmt.Errorf("scan corpus %s: %w", dir, errNoPages)
	}
	return pages, nil
}

// classifyPage extracts and classifies one page in both variants and
// returns the predicted token of every control and the evidence, and the
// label of every control (labelKey).
func classifyPage(p *page) (map[string][]heuristics.Result, []string, error) {
	data, err := readLimited(p.path, form.DefaultMaxBytes)
	if err != nil {
		return nil, nil, err
	}
	out := map[string][]heuristics.Result{}
	var labels []string
	for _, v := range []string{variantServed, variantNoAC} {
		snap, err := form.Extract(bytes.NewReader(data), form.ExtractOptions{})
		if err != nil {
			return nil, nil, fmt.Errorf("extract %s: %w", p.rel, err)
		}
		if v == variantNoAC {
			stripAutocomplete(snap)
		}
		out[v] = heuristics.Classify(snap)
		if labels == nil {
			for _, c := range snap.Controls {
				labels = append(labels, labelKey(c.Label))
			}
		}
	}
	return out, labels, nil
}

// labelKey is a control's label reduced to lower-case words, to compare
// the labels of fields across pages.
func labelKey(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), " ")
}

// A Breakdown sorts the wrong fills of one source (pages without their
// autocomplete attributes) by what the labels say about them. Each fill
// counts once, in the first kind that fits: ClosePair, NeverLabelled,
// SameLabelElsewhere, Other.
type Breakdown struct {
	Source string `json:"source"`
	Wrong  int    `json:"wrong"`
	// NeverLabelled fills use a token the source labels nowhere in the
	// corpus: the source does not judge that kind of field.
	NeverLabelled int `json:"neverLabelled"`
	// SameLabelElsewhere fills give a field the token the same source
	// gives, on another field, to the very same label text.
	SameLabelElsewhere int `json:"sameLabelElsewhere"`
	// ClosePair fills are one of the close pairs the lenient reading
	// accepts (street-address and address-line1, tel and tel-national,
	// address-line2 for an apartment label).
	ClosePair int `json:"closePair"`
	Other     int `json:"other"`
}

// explain sorts the wrong fills of every source; labels holds each page's
// control labels (labelKey) and preds its predictions without autocomplete.
func explain(pages []*page, labels map[*page][]string, preds map[*page][]heuristics.Result, vocab map[string]map[string]bool) []Breakdown {
	// sameText[source][label] holds the tokens the source labels fields
	// bearing that label with.
	sameText := map[string]map[string]map[string]bool{}
	for _, p := range pages {
		if sameText[p.source] == nil {
			sameText[p.source] = map[string]map[string]bool{}
		}
		for _, t := range p.truths {
			if t.index < 0 || t.index >= len(labels[p]) || labels[p][t.index] == "" {
				continue
			}
			l := labels[p][t.index]
			if sameText[p.source][l] == nil {
				sameText[p.source][l] = map[string]bool{}
			}
			sameText[p.source][l][t.token] = true
		}
	}
	by := map[string]*Breakdown{}
	for _, p := range pages {
		for _, src := range []string{p.source, "all"} {
			if by[src] == nil {
				by[src] = &Breakdown{Source: src}
			}
		}
		for _, t := range p.truths {
			got := ""
			if t.index >= 0 && t.index < len(preds[p]) {
				got = fills(preds[p][t.index])
			}
			strict, lenient := judge(t, got)
			if !isTarget(got) || strict {
				continue
			}
			l := ""
			if t.index < len(labels[p]) {
				l = labels[p][t.index]
			}
			for _, src := range []string{p.source, "all"} {
				b := by[src]
				b.Wrong++
				switch {
				case lenient:
					b.ClosePair++
				case !vocab[p.source][got]:
					b.NeverLabelled++
				case l != "" && sameText[p.source][l][got]:
					b.SameLabelElsewhere++
				default:
					b.Other++
				}
			}
		}
	}
	var out []Breakdown
	for _, b := range by {
		out = append(out, *b)
	}
	slices.SortFunc(out, func(a, b Breakdown) int {
		if (a.Source == "all") != (b.Source == "all") {
			if a.Source == "all" {
				return 1
			}
			return -1
		}
		return strings.Compare(a.Source, b.Source)
	})
	return out
}

// stripAutocomplete removes every autocomplete attribute from a snapshot,
// as if the page had been served without them.
func stripAutocomplete(s *form.Snapshot) {
	for i := range s.Controls {
		s.Controls[i].Autocomplete = ""
		s.Controls[i].AutocompleteInfo = nil
	}
}

// tally scores one page's predictions, calling miss for every error. vocab
// holds the tokens the page's source labels anywhere in the corpus.
func tally(p *page, vocab map[string]bool, pred func(i int) string, miss func(t truth, got string)) Counts {
	var c Counts
	for _, t := range p.truths {
		got := pred(t.index)
		strict, lenient := judge(t, got)
		// A "username or email" field is not a profile field, so strict
		// recall leaves it out; the lenient reading counts it, found when
		// predicted as email (README: lenient "email for username or email").
		if isTarget(t.token) {
			c.Targets++
			if strict {
				c.Found++
			}
		}
		if isTarget(t.token) || t.altTarget() {
			c.TargetsLenient++
			if lenient {
				c.FoundLenient++
			}
		}
		if isTarget(got) {
			c.Predicted++
			if strict {
				c.Right++
			}
			if lenient {
				c.RightLenient++
			}
			if vocab[got] {
				c.PredictedVocab++
				if strict {
					c.RightVocab++
				}
			}
		}
		if !strict && (isTarget(t.token) || t.altTarget() || isTarget(got)) && miss != nil {
			miss(t, got)
		}
	}
	return c
}

// chromePredictions reads chromium156-predictions.jsonl: variant -> file ->
// control index -> token.
func chromePredictions(path string) (map[string]map[string]map[int]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]map[string]map[int]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var row struct {
			Variant      string  `json:"variant"`
			File         string  `json:"file"`
			ControlIndex int     `json:"control_index"`
			Token        *string `json:"token"`
		}
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			return nil, fmt.Errorf("parse %s: %w", path, err)
		}
		if out[row.Variant] == nil {
			out[row.Variant] = map[string]map[int]string{}
		}
		if out[row.Variant][row.File] == nil {
			out[row.Variant][row.File] = map[int]string{}
		}
		out[row.Variant][row.File][row.ControlIndex] = deref(row.Token)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return out, nil
}

// vocabularies returns, per source, the target tokens its labels use
// anywhere in the corpus: the kinds of field that source judges.
func vocabularies(pages []*page) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, p := range pages {
		if out[p.source] == nil {
			out[p.source] = map[string]bool{}
		}
		for _, t := range p.truths {
			if isTarget(t.token) {
				out[p.source][t.token] = true
			}
		}
	}
	return out
}

// scoreCorpus classifies every page of a corpus and returns the scores per
// source and overall (source "all"), for Tessera and, when chrome is not
// nil, for Chrome's recorded predictions.
func scoreCorpus(pages []*page, chrome map[string]map[string]map[int]string, misses *[]Miss, breakdown *[]Breakdown) ([]Score, error) {
	type key struct{ source, variant, system string }
	totals := map[key]*Counts{}
	addTo := func(k key, c Counts) {
		for _, kk := range []key{k, {"all", k.variant, k.system}} {
			if totals[kk] == nil {
				totals[kk] = &Counts{}
			}
			totals[kk].add(c)
		}
	}
	vocab := vocabularies(pages)
	labels := map[*page][]string{}
	noAC := map[*page][]heuristics.Result{}
	for _, p := range pages {
		res, ls, err := classifyPage(p)
		if err != nil {
			return nil, err
		}
		if breakdown != nil {
			labels[p], noAC[p] = ls, res[variantNoAC]
		}
		for _, v := range []string{variantServed, variantNoAC} {
			rs := res[v]
			pred := func(i int) string {
				if i < 0 || i >= len(rs) {
					return ""
				}
				return fills(rs[i])
			}
			var onMiss func(t truth, got string)
			if misses != nil {
				onMiss = func(t truth, got string) {
					m := Miss{File: p.rel, Variant: v, Index: t.index, Want: t.token, Got: got, Label: t.label}
					if t.index >= 0 && t.index < len(rs) {
						m.Why = rs[t.index].Evidence
					}
					*misses = append(*misses, m)
				}
			}
			c := tally(p, vocab[p.source], pred, onMiss)
			for _, t := range p.truths {
				if t.index >= 0 && t.index < len(rs) && rs[t.index].Optional && isTarget(rs[t.index].Token) {
					c.Unticked++
				}
			}
			addTo(key{p.source, v, "tessera"}, c)
			if chrome != nil {
				cp := chrome[v][p.rel]
				addTo(key{p.source, v, "chromium156"}, tally(p, vocab[p.source], func(i int) string { return cp[i] }, nil))
			}
		}
	}
	if breakdown != nil {
		*breakdown = explain(pages, labels, noAC, vocab)
	}
	var out []Score
	for k, c := range totals {
		out = append(out, newScore(k.source, k.variant, k.system, *c))
	}
	slices.SortFunc(out, func(a, b Score) int {
		return strings.Compare(a.Source+"\x00"+a.System+"\x00"+a.Variant, b.Source+"\x00"+b.System+"\x00"+b.Variant)
	})
	return out, nil
}
