// Command train learns the field model heuristics embeds
// (heuristics/fieldmodel.bin) from the tuning half of a labelled corpus
// laid out like ../shared/corpus: the pages of the sites corpus.HeldOut
// leaves in, autocomplete attributes removed, every scored control an
// example labelled with its autofill token ("" for "not something to
// autofill"). Chromium's pages are left out: their labels are Chromium's
// own output. The maps from the confidence computed to the confidence the
// dialog shows are fitted on the calibration quarter (corpus.Calibration),
// the held-out sites set aside for that alone. The same corpus and flags
// give the same file.
//
//	go run ./heuristics/cmd/train -corpus ../shared/corpus [-out heuristics/fieldmodel.bin]
//	go run ./heuristics/cmd/train -corpus ../shared/corpus -cv 4 [-confusion 20] [-oof FILE] [-hidden N]
//
// The second form writes no model: it reports precision and recall of
// models that did not learn from the sites they are scored on, the honest
// estimate to tune features and settings by, and with -confusion the
// commonest wrong decisions per source. With -oof it also writes, as JSON
// lines, what the whole classifier (rules, passes and the model of the
// fold that did not learn the page's site) decides for every labelled
// control of the tuning half: errors to study without reading the
// held-out half, where the shipped model has learned every tuning page.
// With -hidden it weighs, in the linear model's place, models with a
// hidden layer of N units (hiddenModel): the measurement behind shipping
// the linear one.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/tessera-app/tessera/form"
	"github.com/tessera-app/tessera/heuristics"
	"github.com/tessera-app/tessera/heuristics/internal/corpus"
	"github.com/tessera-app/tessera/heuristics/internal/linear"
	"github.com/tessera-app/tessera/profile"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "train:", err)
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// run parses the command line, learns the model and writes it.
func run(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("train", flag.ContinueOnError)
	fl.SetOutput(stderr)
	dir := fl.String("corpus", "", "corpus `directory` (X.html + X.html.expected.json at any depth)")
	out := fl.String("out", "heuristics/fieldmodel.bin", "model `file` to write")
	o := linear.Options{}
	bits := fl.Uint("bits", 14, "log2 of the number of feature buckets")
	fl.IntVar(&o.Epochs, "epochs", 12, "passes over the examples")
	fl.Float64Var(&o.Rate, "rate", 0.1, "AdaGrad learning rate")
	fl.Float64Var(&o.L2, "l2", 1e-4, "L2 weight decay")
	fl.Uint64Var(&o.Seed, "seed", 1, "seed of the example order")
	minCount := fl.Int("min", 3, "fewest examples a token needs to be a class of its own")
	folds := fl.Int("cv", 0, "instead of writing a model, report precision and recall by `k`-fold cross-validation over the tuning sites")
	confusion := fl.Int("confusion", 0, "with -cv, also list the `n` commonest wrong decisions (label, decision) per source at override 0.90")
	listWrong := fl.Bool("wrong", false, "with -cv, also list every wrong decision at override 0.90 with its page and control (tuning sites only)")
	hidden := fl.Int("hidden", 0, "with -cv, weigh instead models with a hidden layer of `n` units (measured, never written)")
	oof := fl.String("oof", "", "with -cv, also write every labelled control of the tuning half classified with the model of the fold that left its site out, as JSON lines, to `file`")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *dir == "" || fl.NArg() > 0 || *bits < 10 || *bits > 20 || (*oof != "" || *hidden != 0) && *folds < 2 || *hidden < 0 || *hidden > 256 {
		fl.Usage()
		return fmt.Errorf("%w: -corpus DIR is required, -bits in 10..20, -oof and -hidden (0..256) only with -cv", flag.ErrHelp)
	}
	o.Bits = uint8(*bits)
	start := time.Now()
	pages, err := corpus.Find(*dir)
	if err != nil {
		return err
	}
	// A source that never labels a kind of field (DuckDuckGo has no label
	// for a company or a gender) leaves such fields unlabelled: there an
	// unlabelled field teaches nothing.
	vocab := map[string]map[string]bool{}
	for _, p := range pages {
		if vocab[p.Source] == nil {
			vocab[p.Source] = map[string]bool{}
		}
		for _, t := range p.Truths {
			vocab[p.Source][label(t)] = true
		}
	}
	var data []labelled
	var tuning, calPages []tuningPage
	npages := 0
	for _, p := range pages {
		calibration := corpus.Calibration(p.Site)
		if p.Source == "chromium" || corpus.HeldOut(p.Site) && !calibration {
			continue
		}
		tp, err := extract(p)
		if err != nil {
			return err
		}
		if calibration {
			// Read only to fit the dialog's confidence maps below.
			calPages = append(calPages, tp)
			continue
		}
		snap := tp.snap
		feats, rules, named := heuristics.Features(snap)
		align := corpus.Align(p, snap)
		tp.feats, tp.rules = feats, rules
		tuning = append(tuning, tp)
		npages++
		for _, t := range p.Truths {
			if t.Index < 0 || t.Index >= len(align) || align[t.Index] < 0 {
				continue
			}
			k := align[t.Index]
			if feats[k] == nil {
				continue
			}
			if r := rules[k]; label(t) == "" && r != "" && r != heuristics.Veto && !vocab[p.Source][r] {
				continue
			}
			data = append(data, labelled{feats[k], label(t), rules[k], named[k], p.Site, p.Source, p.Rel, t.Index})
		}
	}
	count := map[string]int{}
	for _, d := range data {
		count[d.token]++
	}
	classes := []string{""}
	for tok, n := range count {
		if tok != "" && n >= *minCount {
			classes = append(classes, tok)
		}
	}
	slices.Sort(classes[1:])
	index := map[string]int{}
	for i, c := range classes {
		index[c] = i
	}
	var fit, cal, all []linear.Example
	var calRules []string
	var kept, rare []labelled
	for _, d := range data {
		ci, ok := index[d.token]
		if !ok {
			// Too rare to learn: not taught, but cross-validation still
			// counts it (a miss unless the rules find it).
			rare = append(rare, d)
			continue
		}
		e := linear.Example{Features: d.features, Class: ci, Group: d.site}
		all = append(all, e)
		kept = append(kept, d)
		if calibrationSite(d.site) {
			cal = append(cal, e)
			calRules = append(calRules, d.rule)
		} else {
			fit = append(fit, e)
		}
	}
	if len(all) == 0 || len(cal) == 0 {
		return fmt.Errorf("%w: %d tuning examples, %d for calibration", errTooFew, len(all), len(cal))
	}
	if *folds > 1 {
		crossValidate(stdout, classes, all, kept, rare, *folds, *confusion, *listWrong, *hidden, o)
		if *oof != "" {
			return writeOutOfFold(stdout, *oof, tuning, classes, all, kept, *folds, o)
		}
		return nil
	}
	// The temperature is fitted on sites the first model did not learn
	// from, then carried to the model that learns from every site.
	first := linear.Train(classes, fit, o)
	temp := linear.FitTemperature(first, cal)
	// Where the model's likeliest class is the rules' verdict, two voices
	// agree: that case gets a temperature of its own.
	var agree []linear.Example
	p := make([]float32, len(classes))
	for i, e := range cal {
		if classes[first.Predict(e.Features, p)] == calRules[i] {
			agree = append(agree, e)
		}
	}
	agreeTemp := linear.FitTemperature(first, agree)
	m := linear.Train(classes, all, o)
	m.Temperature, m.AgreeTemperature = temp, agreeTemp
	// The calibration maps: every page of the calibration quarter
	// (corpus.Calibration: held-out sites no rule was written for and no
	// weight learned from) classified by the model, with its autocomplete
	// attributes removed and as served, each fill's confidence against
	// whether it was right, by kind of verdict (heuristics.Result.Verdict).
	// Fills of tuning pages would overstate the rules, which were written
	// looking at them. A page's fill the two variants share counts once:
	// the variant as served adds only what the page declared.
	fb, err := m.MarshalBinary()
	if err != nil {
		return err
	}
	confs := map[string][]float32{}
	rights := map[string][]bool{}
	nfills := 0
	for _, tp := range calPages {
		for _, snap := range []*form.Snapshot{tp.snap, tp.served} {
			rs, err := heuristics.ClassifyWithModel(snap, fb)
			if err != nil {
				return err
			}
			align := corpus.Align(tp.page, snap)
			for _, t := range tp.page.Truths {
				if t.Index < 0 || t.Index >= len(align) || align[t.Index] < 0 {
					continue
				}
				c, r := align[t.Index], rs[align[t.Index]]
				if !isTarget(r.Token) || r.Optional || snap.Controls[c].Visibility.Hidden {
					continue
				}
				kind := r.Verdict()
				if snap == tp.served && !declared(snap.Controls[c]) {
					continue
				}
				got := filled(r)
				confs[kind] = append(confs[kind], float32(r.Confidence))
				rights[kind] = append(rights[kind], heuristics.SameFill(got, label(t)))
				nfills++
			}
		}
	}
	// A kind with too few fills to measure is read through the map of
	// every verdict but the page's own (the kind "").
	calib := map[string][]linear.Point{}
	var pooled []float32
	var pooledRight []bool
	for kind, cs := range confs {
		if kind != "autocomplete" {
			pooled = append(pooled, cs...)
			pooledRight = append(pooledRight, rights[kind]...)
		}
		if len(cs) >= minKindFills {
			calib[kind] = linear.FitCalibration(cs, rights[kind])
		}
	}
	if len(pooled) > 0 {
		calib[""] = linear.FitCalibration(pooled, pooledRight)
	}
	m.Calibration = calib
	bin, err := m.MarshalBinary()
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, bin, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d tuning pages, %d examples (%d for the temperature), %d classes, temperatures %.2f (agreeing with the rules %.2f), calibration %v from %d fills of %d calibration pages, %d bytes to %s in %s\n",
		npages, len(all), len(cal), len(classes), temp, agreeTemp, calib, nfills, len(calPages), len(bin), *out, time.Since(start).Round(time.Millisecond))
	return nil
}

// A tuningPage is a corpus page extracted: snap with its autocomplete
// attributes removed, served as the site served it.
type tuningPage struct {
	page         *corpus.Page
	snap, served *form.Snapshot
	// feats and rules are heuristics.Features of snap, for a tuning page
	// (not one of the calibration quarter).
	feats [][]uint32
	rules []string
}

// extract reads a corpus page and extracts it twice: with its
// autocomplete attributes removed, and as served.
func extract(p *corpus.Page) (tuningPage, error) {
	html, err := corpus.ReadLimited(p.Path, form.DefaultMaxBytes)
	if err != nil {
		return tuningPage{}, err
	}
	tp := tuningPage{page: p}
	for _, s := range []**form.Snapshot{&tp.snap, &tp.served} {
		if *s, err = form.Extract(bytes.NewReader(html), form.ExtractOptions{}); err != nil {
			return tuningPage{}, fmt.Errorf("extract %s: %w", p.Rel, err)
		}
	}
	corpus.StripAutocomplete(tp.snap)
	return tp, nil
}

// A labelled control is one example: its features, its label, and the
// rules' token for it.
type labelled struct {
	features []uint32
	token    string
	rule     string
	// named: the rules read it in the control's own label or list.
	named  bool
	site   string
	source string
	// page and index name the control: the page's path in the corpus
	// and its control index there.
	page  string
	index int
}

// declared reports whether a control carries an autocomplete field name:
// the fills of a page as served that its copy without autocomplete
// attributes does not already count.
func declared(c form.Control) bool {
	return c.AutocompleteInfo != nil && c.AutocompleteInfo.Field != ""
}

// minKindFills is the fewest calibration fills a kind of verdict needs
// for a calibration map of its own (under minBlock fills, one knot: their
// share right at their mean confidence). The model's overrides are few
// (10 to 15 fills on the calibration quarter) and right far less often
// than the pooled map says (about half, where the pooled map shows 0.9).
const minKindFills = 10

// calibrationSite reports whether a tuning site's examples are kept for
// fitting the temperature: about one site in five.
func calibrationSite(site string) bool {
	h := fnv.New32a()
	h.Write([]byte("calibration:" + site))
	return h.Sum32()%5 == 0
}

// errTooFew is returned for a corpus whose tuning half has no example to
// learn from or none to calibrate on.
var errTooFew = errors.New("too few labelled controls in the tuning half")

// nonFill are labels of the Mozilla collection for boxes that hold part
// of a street line (a house number, a street name), which the scoring
// rules count as "not something to autofill": classes of their own for
// the model, which tells them from the street boxes; Tessera fills them
// from the street line split (heuristics.Result.Part).
var nonFill = map[string]bool{"address-housenumber": true, "address-streetname": true}

// filled is the label a fill of r counts as: its token, or Mozilla's
// label for the part of a street line it holds (nonFill).
func filled(r heuristics.Result) string {
	if l := "address-" + strings.ReplaceAll(r.Part, "-", ""); r.Part != "" && nonFill[l] {
		return l
	}
	return r.Token
}

// label is the class a truth teaches: its token, or its own label for the
// parts of a street line.
func label(t corpus.Truth) string {
	if t.Token == "" && nonFill[t.Label] {
		return t.Label
	}
	return t.Token
}

// foldOf assigns a site to one of k folds. FNV-1a's low bits depend on
// the low bits of the bytes alone, and the tuning half is the sites whose
// hash has one parity (corpus.HeldOut): taken modulo an even k directly,
// the hash put every tuning site in half the folds (-cv 2 learned from
// nothing, -cv 4 was 2-fold). The hash is mixed first (the finalizer of
// MurmurHash3) so that every bit decides the fold.
func foldOf(site string, k int) int {
	h := fnv.New32a()
	h.Write([]byte("fold:" + site))
	return int(mix32(h.Sum32()) % uint32(k))
}

// mix32 spreads every bit of x over the result (MurmurHash3's fmix32).
func mix32(x uint32) uint32 {
	x ^= x >> 16
	x *= 0x85ebca6b
	x ^= x >> 13
	x *= 0xc2b2ae35
	x ^= x >> 16
	return x
}

// foldModel learns the model from the tuning examples of every site but
// those of fold f (of k).
func foldModel(classes []string, all []linear.Example, data []labelled, k, f int, o linear.Options) *linear.Model {
	return linear.Train(classes, foldExamples(all, data, k, f), o)
}

// foldExamples returns the examples of every fold but f: what fold f's
// models learn from.
func foldExamples(all []linear.Example, data []labelled, k, f int) []linear.Example {
	var train []linear.Example
	for i, e := range all {
		if foldOf(data[i].site, k) != f {
			train = append(train, e)
		}
	}
	return train
}

// A tally counts decisions as the score command does: the targets and
// those found, the fills and those right.
type tally struct{ targets, found, predicted, right int }

// add counts one control labelled want and decided got.
func (t *tally) add(want, got string) {
	if isTarget(want) {
		t.targets++
		if got == want {
			t.found++
		}
	}
	if isTarget(got) {
		t.predicted++
		if got == want {
			t.right++
		}
	}
}

func (t tally) precision() float64 { return float64(t.right) / float64(max(t.predicted, 1)) }
func (t tally) recall() float64    { return float64(t.found) / float64(max(t.targets, 1)) }

// crossValidate learns k models, each without one fold of the tuning
// sites, and reports the precision and recall of their decisions on the
// fold left out (rare: examples of classes too rare to learn, counted
// but not taught), for a few values of the probability below which the
// model is unsure and the rules' verdict stands.
func crossValidate(w io.Writer, classes []string, all []linear.Example, data, rare []labelled, k, confusion int, listWrong bool, hidden int, o linear.Options) {
	sures := []float32{0.5, 0.7, 0.8, 0.9, 0.95}
	res := map[string][]tally{}
	// wrong[source][label, decision] counts the mistakes at override 0.90.
	wrong := map[string]map[[2]string]int{}
	alone := map[string]*tally{}

	for f := range k {
		m := foldModel(classes, all, data, k, f, o)
		var model interface {
			Predict(features []uint32, p []float32) int
		} = m
		if hidden > 0 {
			model = trainHidden(classes, foldExamples(all, data, k, f), o, hidden)
		}
		p := make([]float32, len(classes))
		for _, d := range slices.Concat(data, rare) {
			if foldOf(d.site, k) != f {
				continue
			}
			best := model.Predict(d.features, p)
			// The model's likeliest class alone, without the rules.
			for _, src := range []string{d.source, "all"} {
				if alone[src] == nil {
					alone[src] = &tally{}
				}
				alone[src].add(d.token, classes[best])
			}
			for ki, sure := range sures {
				rule := d.rule
				if rule == heuristics.Veto {
					rule = ""
				}
				got := rule
				if tok, _, ok := m.Decide(rule, d.rule != "", p, best, heuristics.SpeakRules, sure); ok && heuristics.ModelMayOverride(rule, tok, d.named) {
					got = tok
				}
				if sure == heuristics.OverrideRules && got != d.token && (isTarget(got) || isTarget(d.token)) {
					if wrong[d.source] == nil {
						wrong[d.source] = map[[2]string]int{}
					}
					wrong[d.source][[2]string{d.token, got}]++
					if listWrong {
						fmt.Fprintf(w, "cv-miss %s #%d label=%q decision=%q rule=%q\n", d.page, d.index, d.token, got, d.rule)
					}
				}
				for _, src := range []string{d.source, "all"} {
					if res[src] == nil {
						res[src] = make([]tally, len(sures))
					}
					res[src][ki].add(d.token, got)
				}
			}
		}
	}
	for src, ts := range res {
		for ki, t := range ts {
			fmt.Fprintf(w, "cv %s override=%.2f targets=%d P=%.3f R=%.3f\n", src, sures[ki], t.targets, t.precision(), t.recall())
		}
	}
	for src, t := range alone {
		fmt.Fprintf(w, "cv %s model-alone targets=%d P=%.3f R=%.3f\n", src, t.targets, t.precision(), t.recall())
	}
	for src, ws := range wrong {
		pairs := slices.Collect(maps.Keys(ws))
		slices.SortFunc(pairs, func(a, b [2]string) int {
			if ws[a] != ws[b] {
				return ws[b] - ws[a]
			}
			return strings.Compare(a[0]+" "+a[1], b[0]+" "+b[1])
		})
		for _, p := range pairs[:min(confusion, len(pairs))] {
			fmt.Fprintf(w, "cv-wrong %s label=%q decision=%q %d\n", src, p[0], p[1], ws[p])
		}
	}
}

// An oofRecord is one labelled control of the tuning half as the whole
// classifier decides it with a model that did not learn its site.
type oofRecord struct {
	Page    string `json:"page"`
	Site    string `json:"site"`
	Source  string `json:"source"`
	Index   int    `json:"control_index"`
	Label   string `json:"label"`
	Token   string `json:"token"`
	Part    string `json:"part,omitempty"`
	Verdict string `json:"verdict"`
	// Optional: recognised but offered unticked (not filled unless the
	// person ticks it).
	Optional bool `json:"optional,omitempty"`
	// Decision is the probability the fill was decided by; the model's
	// temperature and the dialog's calibration maps, fitted on other
	// data, are left out.
	Decision float64 `json:"decision"`
	// Rule is the rules' class alone (Veto where they vetoed), Model the
	// fold model's likeliest class and ModelP its probability.
	Rule     string                `json:"rule"`
	Model    string                `json:"model"`
	ModelP   float32               `json:"model_p,omitempty"`
	Text     string                `json:"text"`
	Evidence []heuristics.Evidence `json:"evidence,omitempty"`
}

// writeOutOfFold writes to path, for every labelled control of the
// tuning pages, what Classify decides with the model learned, as
// crossValidate learns it, from the other folds' sites: the rules' own
// verdicts on the tuning half are as they ship, the model's are those of
// a site it never saw.
func writeOutOfFold(w io.Writer, path string, tuning []tuningPage, classes []string, all []linear.Example, data []labelled, k int, o linear.Options) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	p := make([]float32, len(classes))
	res := map[string]*tally{}
	for f := range k {
		m := foldModel(classes, all, data, k, f, o)
		m.Temperature, m.AgreeTemperature = 1, 1
		fb, err := m.MarshalBinary()
		if err != nil {
			return err
		}
		for _, tp := range tuning {
			if foldOf(tp.page.Site, k) != f {
				continue
			}
			rs, err := heuristics.ClassifyWithModel(tp.snap, fb)
			if err != nil {
				return err
			}
			feats, rules := tp.feats, tp.rules
			align := corpus.Align(tp.page, tp.snap)
			for _, t := range tp.page.Truths {
				if t.Index < 0 || t.Index >= len(align) || align[t.Index] < 0 {
					continue
				}
				c := align[t.Index]
				r, ctl := rs[c], &tp.snap.Controls[c]
				rec := oofRecord{Page: tp.page.Rel, Site: tp.page.Site, Source: tp.page.Source, Index: t.Index, Label: label(t),
					Token: r.Token, Part: r.Part, Verdict: r.Verdict(), Optional: r.Optional, Decision: r.Decision,
					Rule: rules[c], Text: describeControl(ctl), Evidence: r.Evidence}
				if feats[c] != nil {
					best := m.Predict(feats[c], p)
					rec.Model, rec.ModelP = classes[best], p[best]
				}
				// Counted as the score command counts a fill: a box
				// offered unticked is not filled, and one part of the
				// street line is that part's label.
				got := ""
				if !r.Optional {
					got = filled(r)
				}
				for _, src := range []string{tp.page.Source, "all"} {
					if res[src] == nil {
						res[src] = &tally{}
					}
					res[src].add(rec.Label, got)
				}
				if err := enc.Encode(rec); err != nil {
					return err
				}
			}
		}
	}
	for _, src := range slices.Sorted(maps.Keys(res)) {
		t := res[src]
		fmt.Fprintf(w, "oof %s targets=%d P=%.3f R=%.3f\n", src, t.targets, t.precision(), t.recall())
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// describeControl is what a person reading an oofRecord needs to find
// the control: its label, name and placeholder, those it has.
func describeControl(c *form.Control) string {
	var parts []string
	for _, s := range []string{c.Label, c.Name, c.Placeholder} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, " | ")
}

// isTarget reports whether a token is one Tessera fills: profile or
// payment data, as the score command counts it (not "", a credential, a
// one-time code, a part it does not fill, or a label such as "password"
// that names no profile field).
func isTarget(tok string) bool {
	if tok == "" || nonFill[tok] || heuristics.IsGuardToken(tok) {
		return false
	}
	_, ok := profile.ConceptForToken(tok)
	return ok
}
