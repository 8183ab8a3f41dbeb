package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"unicode"

	"github.com/tessera-app/tessera/form"
	"github.com/tessera-app/tessera/heuristics"
	"github.com/tessera-app/tessera/heuristics/internal/corpus"
	"github.com/tessera-app/tessera/profile"
)

const (
	variantServed = "asis" // the page as served
	variantNoAC   = "noac" // every autocomplete attribute removed
)

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
	// marked optional by the page or asking for data given only by choice
	// (heuristics.Result.Optional), so not counted as predicted.
	Unticked int `json:"unticked"`
	// Labelled counts every scored control and Agree those whose fill is
	// the source's label, "not something to autofill" included (a part of
	// a street line agrees with Mozilla's label for it): the accuracy
	// Mozilla reports for Firefox's model. A box Tessera recognises only
	// to keep profile data out of it (a credential, a one-time code:
	// heuristics.IsGuardToken), of a kind the source does not label so
	// (labelledKinds), is read in the source's own terms: nothing is
	// filled there, which is what an unlabelled box means. Mozilla's
	// labels are autofill types or "other" ("the field should not be
	// filled", its model card says), and leave 194 of its 197 password
	// boxes and every one-time-code box unlabelled; a fill of any kind is
	// never read so. AgreeTokens compares Tessera's tokens as they are.
	Labelled    int `json:"labelled"`
	Agree       int `json:"agree"`
	AgreeTokens int `json:"agreeTokens"`
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
	c.Labelled += o.Labelled
	c.Agree += o.Agree
	c.AgreeTokens += o.AgreeTokens
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// A Score is one line of the report.
type Score struct {
	Source string `json:"source"`
	// Half is the half of the corpus split (corpus.HeldOut) the line
	// counts: "tune", "held-out", or "" for both.
	Half             string  `json:"half,omitempty"`
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
	// Accuracy is Agree over Labelled, AccuracyTokens AgreeTokens over
	// Labelled.
	Accuracy       float64 `json:"accuracy"`
	AccuracyTokens float64 `json:"accuracyTokens"`
	// Interval is the 95 % bootstrap interval of precision and recall
	// over the line's sites (siteInterval): how far the figures could
	// move on another draw of sites like these.
	Interval Interval `json:"interval"`
}

// An Interval is the 2.5th and 97.5th percentiles of precision and
// recall over bootstrap draws of a line's sites.
type Interval struct {
	Sites int     `json:"sites"`
	PLow  float64 `json:"pLow"`
	PHigh float64 `json:"pHigh"`
	RLow  float64 `json:"rLow"`
	RHigh float64 `json:"rHigh"`
}

// bootstrapDraws is the number of draws behind an Interval.
const bootstrapDraws = 1000

// siteInterval draws the sites of a line with replacement bootstrapDraws
// times, with a fixed seed so the report is the same on every run, and
// returns the middle 95 % of the precision and recall of the draws. Sites,
// not pages or fields, are drawn: the fields of one site are alike, and
// the figures must hold for sites not yet seen.
func siteInterval(sites []Counts) Interval {
	iv := Interval{Sites: len(sites)}
	if len(sites) == 0 {
		return iv
	}
	rng := rand.New(rand.NewPCG(1, uint64(len(sites))))
	ps, rs := make([]float64, bootstrapDraws), make([]float64, bootstrapDraws)
	for d := range bootstrapDraws {
		var c Counts
		for range sites {
			c.add(sites[rng.IntN(len(sites))])
		}
		ps[d], rs[d] = ratio(c.Right, c.Predicted), ratio(c.Found, c.Targets)
	}
	slices.Sort(ps)
	slices.Sort(rs)
	lo, hi := bootstrapDraws*25/1000, bootstrapDraws*975/1000-1
	iv.PLow, iv.PHigh, iv.RLow, iv.RHigh = ps[lo], ps[hi], rs[lo], rs[hi]
	return iv
}

func newScore(source, half, variant, system string, c Counts) Score {
	return Score{
		Source: source, Half: half, Variant: variant, System: system, Counts: c,
		Precision: ratio(c.Right, c.Predicted), Recall: ratio(c.Found, c.Targets),
		PrecisionLenient: ratio(c.RightLenient, c.Predicted), RecallLenient: ratio(c.FoundLenient, c.TargetsLenient),
		PrecisionVocab: ratio(c.RightVocab, c.PredictedVocab),
		Accuracy:       ratio(c.Agree, c.Labelled),
		AccuracyTokens: ratio(c.AgreeTokens, c.Labelled),
	}
}

// A Miss is one scored field predicted wrongly, for the -v listing.
type Miss struct {
	File    string                `json:"file"`
	Variant string                `json:"variant"`
	Half    string                `json:"half"`
	Index   int                   `json:"control_index"`
	Want    string                `json:"want"`
	Got     string                `json:"got"`
	Label   string                `json:"label"`
	Why     []heuristics.Evidence `json:"why,omitempty"`
}

// fills is the token Tessera fills a control with unless the person acts:
// a box offered unticked (Result.Optional: the page marks it optional, or
// it asks for a gender) is not filled, so it is scored as no prediction. A
// box filled with a part
// of the street line is named by Mozilla's label for it (partLabels).
func fills(r heuristics.Result) string {
	if r.Optional {
		return ""
	}
	if c, ok := partLabels[r.Part]; ok && r.Token == "address-line1" {
		return c
	}
	return r.Token
}

// partLabels are Mozilla's labels for the boxes that hold one part of a
// street line, by the Part Tessera fills them with. They are no autofill
// token: a fill there is neither counted right nor wrong by the scoring
// rules, and a street line's part in a box labelled a whole line is
// wrong.
var partLabels = map[string]string{"house-number": "address-housenumber", "street-name": "address-streetname"}

// partLabel returns a source label when it is one of partLabels' values,
// else "".
func partLabel(label string) string {
	for _, l := range partLabels {
		if l == label {
			return l
		}
	}
	return ""
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
func judge(t corpus.Truth, pred string) (strict, lenient bool) {
	if pred == t.Token {
		return true, true
	}
	if lenientPairs[[2]string{t.Token, pred}] {
		return false, true
	}
	if pred == "address-line2" && apartment(t.Label) {
		return false, true
	}
	if c, ok := profile.ConceptForToken(pred); ok && slices.Contains(t.Alts, c) {
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

// classifyPage extracts and classifies one page in both variants and
// returns the predicted token of every control and the evidence, and the
// label of every control (labelKey), by the labels' control index.
func classifyPage(p *corpus.Page) (map[string][]heuristics.Result, []string, error) {
	data, err := corpus.ReadLimited(p.Path, form.DefaultMaxBytes)
	if err != nil {
		return nil, nil, err
	}
	out := map[string][]heuristics.Result{}
	var labels []string
	for _, v := range []string{variantServed, variantNoAC} {
		snap, err := form.Extract(bytes.NewReader(data), form.ExtractOptions{})
		if err != nil {
			return nil, nil, fmt.Errorf("extract %s: %w", p.Rel, err)
		}
		if v == variantNoAC {
			corpus.StripAutocomplete(snap)
		}
		rs := heuristics.Classify(snap)
		align := corpus.Align(p, snap)
		if len(p.Controls) == 0 {
			out[v] = rs
		} else {
			// Results by the labels' control index (corpus.Align).
			out[v] = make([]heuristics.Result, len(align))
			for i, k := range align {
				if k >= 0 {
					out[v][i] = rs[k]
				}
			}
		}
		if labels == nil {
			labels = make([]string, len(out[v]))
			for i := range labels {
				k := i
				if len(p.Controls) > 0 {
					k = align[i]
				}
				if k >= 0 && k < len(snap.Controls) {
					labels[i] = labelKey(snap.Controls[k].Label)
				}
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
func explain(pages []*corpus.Page, labels map[*corpus.Page][]string, preds map[*corpus.Page][]heuristics.Result, vocab map[string]map[string]bool) []Breakdown {
	// sameText[source][label] holds the tokens the source labels fields
	// bearing that label with.
	sameText := map[string]map[string]map[string]bool{}
	for _, p := range pages {
		if sameText[p.Source] == nil {
			sameText[p.Source] = map[string]map[string]bool{}
		}
		for _, t := range p.Truths {
			if t.Index < 0 || t.Index >= len(labels[p]) || labels[p][t.Index] == "" {
				continue
			}
			l := labels[p][t.Index]
			if sameText[p.Source][l] == nil {
				sameText[p.Source][l] = map[string]bool{}
			}
			sameText[p.Source][l][t.Token] = true
		}
	}
	by := map[string]*Breakdown{}
	for _, p := range pages {
		for _, src := range []string{p.Source, "all"} {
			if by[src] == nil {
				by[src] = &Breakdown{Source: src}
			}
		}
		for _, t := range p.Truths {
			got := ""
			if t.Index >= 0 && t.Index < len(preds[p]) {
				got = fills(preds[p][t.Index])
			}
			strict, lenient := judge(t, got)
			if !isTarget(got) || strict {
				continue
			}
			l := ""
			if t.Index < len(labels[p]) {
				l = labels[p][t.Index]
			}
			for _, src := range []string{p.Source, "all"} {
				b := by[src]
				b.Wrong++
				switch {
				case lenient:
					b.ClosePair++
				case !vocab[p.Source][got]:
					b.NeverLabelled++
				case l != "" && sameText[p.Source][l][got]:
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
	slices.SortFunc(out, func(a, b Breakdown) int { return sourceOrder(a.Source, b.Source) })
	return out
}

// sourceOrder sorts sources by name, with "all" (every source) last.
func sourceOrder(a, b string) int {
	if (a == "all") != (b == "all") {
		if a == "all" {
			return 1
		}
		return -1
	}
	return strings.Compare(a, b)
}

// tally scores one page's predictions, calling miss for every error. vocab
// holds the target tokens the page's source labels anywhere in the
// corpus, labels the kinds of box it labels (labelledKinds).
func tally(p *corpus.Page, vocab, labels map[string]bool, pred func(i int) string, miss func(t corpus.Truth, got string)) Counts {
	var c Counts
	for _, t := range p.Truths {
		got := pred(t.Index)
		strict, lenient := judge(t, got)
		c.Labelled++
		want := t.Token
		if l := partLabel(t.Label); l != "" {
			want = l
		}
		if got == want {
			c.AgreeTokens++
		}
		if got == want || want == "" && heuristics.IsGuardToken(got) && !labels[got] {
			// A box Tessera recognises only to keep profile data out of
			// it, of a kind the source does not label so (labelledKinds),
			// is the source's "not something to autofill" (Counts.Agree).
			c.Agree++
		}
		// A "username or email" field is not a profile field, so strict
		// recall leaves it out; the lenient reading counts it, found when
		// predicted as email (README: lenient "email for username or email").
		if isTarget(t.Token) {
			c.Targets++
			if strict {
				c.Found++
			}
		}
		if isTarget(t.Token) || t.AltTarget() {
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
		if !strict && (isTarget(t.Token) || t.AltTarget() || isTarget(got)) && miss != nil {
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
func vocabularies(pages []*corpus.Page) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, p := range pages {
		if out[p.Source] == nil {
			out[p.Source] = map[string]bool{}
		}
		for _, t := range p.Truths {
			if isTarget(t.Token) {
				out[p.Source][t.Token] = true
			}
		}
	}
	return out
}

// labelledKinds returns, per source, the tokens its labels give a box
// Tessera gives the same token (as served or autocomplete removed): the
// kinds of box that source labels so. A label given only to boxes of
// other kinds (Mozilla's two "new-password" labels sit on a town box and
// an unnamed text box, where its 72 sign-up password boxes carry none)
// names no kind the source labels.
func labelledKinds(pages []*corpus.Page, results []map[string][]heuristics.Result) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for i, p := range pages {
		if out[p.Source] == nil {
			out[p.Source] = map[string]bool{}
		}
		for _, rs := range results[i] {
			for _, t := range p.Truths {
				if t.Token != "" && t.Index >= 0 && t.Index < len(rs) && rs[t.Index].Token == t.Token {
					out[p.Source][t.Token] = true
				}
			}
		}
	}
	return out
}

// scoreCorpus classifies every page of a corpus and returns the scores per
// source and overall (source "all"), for Tessera and, when chrome is not
// nil, for Chrome's recorded predictions.
// scoreOptions are the report's optional parts.
type scoreOptions struct {
	// misses, when set, receives every wrong prediction.
	misses *[]Miss
	// breakdown, when set, receives the wrong fills sorted by what the
	// sources' labels say of them.
	breakdown *[]Breakdown
	// rules, when set, receives the fills of each deciding rule.
	rules *[]RuleFills
	// quarters splits the held-out half into its two quarters.
	quarters bool
	// unticked counts a box offered unticked (Result.Optional) as a
	// prediction of its token: what Tessera recognises, apart from what
	// its dialog ticks.
	unticked bool
}

func scoreCorpus(pages []*corpus.Page, chrome map[string]map[string]map[int]string, opts scoreOptions) ([]Score, []Bin, []Kind, error) {
	misses, breakdown := opts.misses, opts.breakdown
	type key struct{ source, half, variant, system string }
	totals := map[key]*Counts{}
	// bySite holds each line's counts by site, for its Interval.
	bySite := map[key]map[string]*Counts{}
	var half string
	addTo := func(k key, site string, c Counts) {
		for _, kk := range []key{k, {"all", k.half, k.variant, k.system}, {k.source, "", k.variant, k.system}, {"all", "", k.variant, k.system}} {
			if totals[kk] == nil {
				totals[kk] = &Counts{}
				bySite[kk] = map[string]*Counts{}
			}
			totals[kk].add(c)
			sk := k.source + "/" + site
			if bySite[kk][sk] == nil {
				bySite[kk][sk] = &Counts{}
			}
			bySite[kk][sk].add(c)
		}
	}
	cal := newCalibration()
	byRule := ruleFills{}
	vocab := vocabularies(pages)
	labels := map[*corpus.Page][]string{}
	noAC := map[*corpus.Page][]heuristics.Result{}
	results := make([]map[string][]heuristics.Result, len(pages))
	for i, p := range pages {
		res, ls, err := classifyPage(p)
		if err != nil {
			return nil, nil, nil, err
		}
		results[i] = res
		if breakdown != nil {
			labels[p], noAC[p] = ls, res[variantNoAC]
		}
	}
	labelled := labelledKinds(pages, results)
	for i, p := range pages {
		half = halfOf(p)
		if opts.quarters {
			half = calibrationHalf(p)
		}
		res := results[i]
		for _, v := range []string{variantServed, variantNoAC} {
			rs := res[v]
			pred := func(i int) string {
				if i < 0 || i >= len(rs) {
					return ""
				}
				r := rs[i]
				if opts.unticked {
					r.Optional = false
				}
				return fills(r)
			}
			var onMiss func(t corpus.Truth, got string)
			if misses != nil {
				onMiss = func(t corpus.Truth, got string) {
					m := Miss{File: p.Rel, Variant: v, Half: half, Index: t.Index, Want: t.Token, Got: got, Label: t.Label}
					if t.Index >= 0 && t.Index < len(rs) {
						m.Why = rs[t.Index].Evidence
					}
					*misses = append(*misses, m)
				}
			}
			c := tally(p, vocab[p.Source], labelled[p.Source], pred, onMiss)
			if opts.rules != nil && v == variantNoAC {
				byRule.add(calibrationHalf(p), p, rs, pred)
			}
			for _, t := range p.Truths {
				if t.Index >= 0 && t.Index < len(rs) && rs[t.Index].Optional && isTarget(rs[t.Index].Token) {
					c.Unticked++
				}
			}
			addTo(key{p.Source, half, v, "tessera"}, p.Site, c)
			cal.add(calibrationHalf(p), v, p, rs)
			if chrome != nil {
				cp := chrome[v][p.Rel]
				addTo(key{p.Source, half, v, "chromium156"}, p.Site, tally(p, vocab[p.Source], labelled[p.Source], func(i int) string { return cp[i] }, nil))
			}
		}
	}
	if breakdown != nil {
		*breakdown = explain(pages, labels, noAC, vocab)
	}
	if opts.rules != nil {
		*opts.rules = byRule.sorted()
	}
	var out []Score
	for k, c := range totals {
		sc := newScore(k.source, k.half, k.variant, k.system, *c)
		sites := make([]Counts, 0, len(bySite[k]))
		for _, name := range slices.Sorted(maps.Keys(bySite[k])) {
			sites = append(sites, *bySite[k][name])
		}
		sc.Interval = siteInterval(sites)
		out = append(out, sc)
	}
	slices.SortFunc(out, func(a, b Score) int {
		return strings.Compare(a.Source+"\x00"+a.System+"\x00"+halfOrder(a.Half)+a.Variant, b.Source+"\x00"+b.System+"\x00"+halfOrder(b.Half)+b.Variant)
	})
	return out, cal.bins(), cal.byKind(), nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// Halves of the corpus split, as the report names them.
const (
	halfTune    = "tune"
	halfHeldOut = "held-out"
)

// halfOf names the half of the split a page falls in.
func halfOf(p *corpus.Page) string {
	if corpus.HeldOut(p.Site) {
		return halfHeldOut
	}
	return halfTune
}

// Quarters of the held-out half in the reliability tables: the dialog's
// confidence maps are fitted on the calibration quarter
// (corpus.Calibration), so only the untouched quarter says how well they
// hold on forms nothing was fitted on.
const (
	quarterCalibration = "calibration"
	quarterUntouched   = "untouched"
)

// calibrationHalf names the part of the split a page's fills are counted
// in by the reliability tables: the tuning half, or one of the held-out
// half's quarters.
func calibrationHalf(p *corpus.Page) string {
	switch {
	case corpus.Calibration(p.Site):
		return quarterCalibration
	case corpus.HeldOut(p.Site):
		return quarterUntouched
	}
	return halfTune
}

// halfOrder sorts both halves together first, then the tuning half, then
// the held-out half.
func halfOrder(h string) string {
	switch h {
	case "":
		return "0"
	case halfTune:
		return "1"
	}
	return "2"
}

// A Bin is one row of a reliability table: of the fields Tessera would
// fill with a confidence in [Low, High), how many were right (strict).
type Bin struct {
	Half      string  `json:"half"`
	Variant   string  `json:"variant"`
	Low       float64 `json:"low"`
	High      float64 `json:"high"`
	Predicted int     `json:"predicted"`
	Right     int     `json:"right"`
	// MeanConfidence is the mean confidence shown for these fields; a
	// calibrated classifier has it close to Right/Predicted.
	MeanConfidence float64 `json:"meanConfidence"`
}

// binEdges are the lower edges of the reliability table's bins.
var binEdges = []float64{0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.98, 1.0001}

type calibration struct {
	tally map[[2]string][]Bin
	sum   map[[2]string][]float64
	// kinds tallies the fills by half, variant and kind of verdict
	// (heuristics.Result.Verdict).
	kinds map[[3]string]*Kind
}

// A Kind is the reliability of one kind of verdict (Result.Verdict) in
// one half and variant: how many fills, their mean confidence shown and
// how many were right.
type Kind struct {
	Half           string  `json:"half"`
	Variant        string  `json:"variant"`
	Verdict        string  `json:"verdict"`
	Predicted      int     `json:"predicted"`
	Right          int     `json:"right"`
	MeanConfidence float64 `json:"meanConfidence"`
	// AbsError is the mean over the fills' confidence bins (as in the
	// reliability table) of |share right - mean confidence|, weighted by
	// the bins' fills: the expected calibration error of the kind.
	AbsError float64      `json:"absError"`
	bins     [][3]float64 // per bin: fills, right, confidence sum
}

func newCalibration() *calibration {
	return &calibration{tally: map[[2]string][]Bin{}, sum: map[[2]string][]float64{}, kinds: map[[3]string]*Kind{}}
}

// add counts one page's fills of scored fields by their confidence.
func (c *calibration) add(half, variant string, p *corpus.Page, rs []heuristics.Result) {
	for _, t := range p.Truths {
		if t.Index < 0 || t.Index >= len(rs) {
			continue
		}
		r := rs[t.Index]
		got := fills(r)
		if !isTarget(got) {
			continue
		}
		// Right is judged by what is filled: a street box told
		// address-line1 where the label says street-address gets the same
		// value (heuristics.SameFill), and the dialog's odds are of the
		// value.
		strict := heuristics.SameFill(got, t.Token)
		if l := partLabel(t.Label); l != "" {
			strict = got == l
		}
		for _, h := range []string{half, ""} {
			k := [2]string{h, variant}
			if c.tally[k] == nil {
				for i := 0; i+1 < len(binEdges); i++ {
					c.tally[k] = append(c.tally[k], Bin{Half: h, Variant: variant, Low: binEdges[i], High: min(binEdges[i+1], 1)})
				}
				c.sum[k] = make([]float64, len(binEdges)-1)
			}
			i := 0
			for i+2 < len(binEdges) && r.Confidence >= binEdges[i+1] {
				i++
			}
			c.tally[k][i].Predicted++
			c.sum[k][i] += r.Confidence
			if strict {
				c.tally[k][i].Right++
			}
			kinds := []string{r.Verdict(), "all"}
			if r.Verdict() != "hidden" {
				kinds = append(kinds, "shown")
			}
			for _, v := range kinds {
				kk := [3]string{h, variant, v}
				kd := c.kinds[kk]
				if kd == nil {
					kd = &Kind{Half: h, Variant: variant, Verdict: v, bins: make([][3]float64, len(binEdges)-1)}
					c.kinds[kk] = kd
				}
				kd.Predicted++
				kd.MeanConfidence += r.Confidence
				kd.bins[i][0]++
				kd.bins[i][2] += r.Confidence
				if strict {
					kd.Right++
					kd.bins[i][1]++
				}
			}
		}
	}
}

// byKind returns the reliability of each kind of verdict, both halves
// first, then "shown" (every kind but "hidden") and "all" in each half
// and variant.
func (c *calibration) byKind() []Kind {
	var out []Kind
	for _, h := range []string{"", halfTune, quarterCalibration, quarterUntouched} {
		for _, v := range []string{variantServed, variantNoAC} {
			for _, kind := range []string{"autocomplete", "rule", "doubted", "agree", "model", "hidden", "shown", "all"} {
				kd := c.kinds[[3]string{h, v, kind}]
				if kd == nil {
					continue
				}
				k := *kd
				k.MeanConfidence /= float64(k.Predicted)
				for _, b := range k.bins {
					if b[0] > 0 {
						k.AbsError += b[0] / float64(k.Predicted) * math.Abs(b[1]/b[0]-b[2]/b[0])
					}
				}
				out = append(out, k)
			}
		}
	}
	return out
}

// bins returns the reliability tables, both halves first.
func (c *calibration) bins() []Bin {
	var out []Bin
	for _, h := range []string{"", halfTune, quarterCalibration, quarterUntouched} {
		for _, v := range []string{variantServed, variantNoAC} {
			k := [2]string{h, v}
			for i, b := range c.tally[k] {
				if b.Predicted > 0 {
					b.MeanConfidence = c.sum[k][i] / float64(b.Predicted)
				}
				out = append(out, b)
			}
		}
	}
	return out
}

// RuleFills counts the fills one rule decided (autocomplete removed), right
// and wrong, on the tuning half and on the held-out half's calibration
// quarter: a rule right on the pages it was written looking at and wrong
// on sites nobody tuned for fits pages, not forms. The untouched quarter is
// never counted, so that reading this report leaves it untouched.
type RuleFills struct {
	// Rule is the deciding evidence, "signal:rule" ("name:address"): the
	// first that is neither a structural pass, the learned model nor a
	// policy, so a pass that refined a rule's verdict is counted under
	// the rule.
	Rule             string `json:"rule"`
	TuneRight        int    `json:"tuneRight"`
	TuneWrong        int    `json:"tuneWrong"`
	CalibrationRight int    `json:"calibrationRight"`
	CalibrationWrong int    `json:"calibrationWrong"`
}

// ruleFills accumulates RuleFills by rule.
type ruleFills map[string]*RuleFills

// add counts the fills of one page's scored controls in its part of the
// split (calibrationHalf); the untouched quarter's are left out.
func (rf ruleFills) add(part string, p *corpus.Page, rs []heuristics.Result, pred func(int) string) {
	if part != halfTune && part != quarterCalibration {
		return
	}
	for _, t := range p.Truths {
		got := pred(t.Index)
		if !isTarget(got) {
			continue
		}
		rule := decidingRule(rs[t.Index])
		r := rf[rule]
		if r == nil {
			r = &RuleFills{Rule: rule}
			rf[rule] = r
		}
		strict, _ := judge(t, got)
		switch {
		case part == halfTune && strict:
			r.TuneRight++
		case part == halfTune:
			r.TuneWrong++
		case strict:
			r.CalibrationRight++
		default:
			r.CalibrationWrong++
		}
	}
}

// decidingRule names the evidence a fill rests on (RuleFills.Rule), "-"
// when there is none but passes and the model.
func decidingRule(r heuristics.Result) string {
	for _, e := range r.Evidence {
		if !strings.HasPrefix(e.Signal, "pass:") && e.Signal != "model" && e.Signal != "policy" {
			return e.Signal + ":" + e.Rule
		}
	}
	return "-"
}

// sorted returns the rules by wrong fills on the calibration quarter, most
// first, then by name.
func (rf ruleFills) sorted() []RuleFills {
	out := make([]RuleFills, 0, len(rf))
	for _, r := range rf {
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b RuleFills) int {
		if a.CalibrationWrong != b.CalibrationWrong {
			return b.CalibrationWrong - a.CalibrationWrong
		}
		return strings.Compare(a.Rule, b.Rule)
	})
	return out
}
