// Command score measures Tessera's field classification on a labelled
// corpus laid out like ../shared/corpus: every X.html with
// X.html.expected.json beside it, at any depth. It reports, per source and
// overall, recall on profile and payment fields and precision of the fields
// Tessera would fill, strict and lenient, for the pages as served and with
// every autocomplete attribute removed (corpus README, "How classification
// will be scored"). A box offered unticked (heuristics.Result.Optional: the
// page marks it optional, or it asks for a gender) is not filled unless the
// person ticks it, so
// it counts as no prediction; the "unticked" column says how many there
// were. Each line also gives its number of sites and the 95 % bootstrap
// interval of precision and recall over them (sites drawn again with
// replacement, seeded): how much of a difference between two runs is
// the draw of sites.
//
//	go run ./heuristics/cmd/score -corpus ../shared/corpus [-json] [-chrome FILE] [-v] [-explain] [-quarters] [-unticked] [-rules] [-agreement]
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/tessera-app/tessera/heuristics/internal/corpus"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "score:", err)
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// run parses the command line, scores the corpus and writes the report.
func run(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("score", flag.ContinueOnError)
	fl.SetOutput(stderr)
	dir := fl.String("corpus", "", "corpus `directory` (X.html + X.html.expected.json at any depth)")
	asJSON := fl.Bool("json", false, "write the scores as JSON")
	chrome := fl.String("chrome", "", "Chromium predictions `file` (JSON lines) to score side by side; default: DIR/chromium156-predictions.jsonl when present")
	verbose := fl.Bool("v", false, "list every wrong prediction with its evidence")
	why := fl.Bool("explain", false, "sort the wrong fills (autocomplete removed) by what the source's own labels say of them")
	quarters := fl.Bool("quarters", false, "split the held-out half into its calibration and untouched quarters")
	unticked := fl.Bool("unticked", false, "count the boxes offered unticked (optional data, a gender) as predicted: what is recognised, whatever the dialog ticks")
	agree := fl.Bool("agreement", false, "report how consistently each source labels controls of one site that share tag, name and id (the tuning half and the calibration quarter only), and the ceiling that sets")
	rules := fl.Bool("rules", false, "list the rules that decided fills (autocomplete removed), right and wrong on the tuning half and the calibration quarter, never the untouched quarter")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *dir == "" || fl.NArg() > 0 {
		fl.Usage()
		return fmt.Errorf("%w: -corpus DIR is required", flag.ErrHelp)
	}
	pages, err := corpus.Find(*dir)
	if err != nil {
		return err
	}
	chromePath := *chrome
	if chromePath == "" {
		if p := filepath.Join(*dir, "chromium156-predictions.jsonl"); fileExists(p) {
			chromePath = p
		}
	}
	var preds map[string]map[string]map[int]string
	if chromePath != "" {
		if preds, err = chromePredictions(chromePath); err != nil {
			return err
		}
	}
	var misses []Miss
	var mp *[]Miss
	if *verbose {
		mp = &misses
	}
	var breakdown []Breakdown
	var bp *[]Breakdown
	if *why {
		bp = &breakdown
	}
	opts := scoreOptions{misses: mp, breakdown: bp, quarters: *quarters, unticked: *unticked}
	var ruleFills []RuleFills
	if *rules {
		opts.rules = &ruleFills
	}
	scores, bins, kinds, err := scoreCorpus(pages, preds, opts)
	if err != nil {
		return err
	}
	var agreements []Agreement
	if *agree {
		agreements = agreement(pages)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", " ")
		return enc.Encode(struct {
			Pages       int         `json:"pages"`
			Scores      []Score     `json:"scores"`
			Calibration []Bin       `json:"calibration"`
			Verdicts    []Kind      `json:"verdicts"`
			Misses      []Miss      `json:"misses,omitempty"`
			Breakdown   []Breakdown `json:"breakdown,omitempty"`
			Rules       []RuleFills `json:"rules,omitempty"`
			Agreement   []Agreement `json:"agreement,omitempty"`
		}{len(pages), scores, bins, kinds, misses, breakdown, ruleFills, agreements})
	}
	for _, m := range misses {
		why := make([]string, 0, len(m.Why))
		for _, e := range m.Why {
			why = append(why, e.Signal+":"+e.Rule+"="+fmt.Sprintf("%q", e.Text))
		}
		fmt.Fprintf(stdout, "MISS %s %s %s #%d want=%q got=%q label=%q %s\n", m.Variant, m.Half, m.File, m.Index, m.Want, m.Got, m.Label, strings.Join(why, " "))
	}
	if err := writeTable(stdout, len(pages), scores); err != nil {
		return err
	}
	if err := writeCalibration(stdout, bins); err != nil {
		return err
	}
	if err := writeKinds(stdout, kinds); err != nil {
		return err
	}
	if *why {
		if err := writeBreakdown(stdout, breakdown); err != nil {
			return err
		}
	}
	if *agree {
		if err := writeAgreement(stdout, agreements); err != nil {
			return err
		}
	}
	if *rules {
		return writeRules(stdout, ruleFills)
	}
	return nil
}

// writeAgreement prints each source's labelling consistency (Agreement).
func writeAgreement(w io.Writer, as []Agreement) error {
	fmt.Fprintln(w, "\nlabels of one site's controls that share tag, name and id (tuning half and calibration quarter; pairs with a label on either side):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "source\tpairs\tagreeing\tshare\tcontrols\tas most of their group\tceiling")
	for _, a := range as {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.3f\t%d\t%d\t%.3f\n", a.Source, a.Pairs, a.Agreeing, a.Share, a.Controls, a.Majority, a.Ceiling)
	}
	return tw.Flush()
}

// writeRules prints the fills each deciding rule made (RuleFills).
func writeRules(w io.Writer, rs []RuleFills) error {
	fmt.Fprintln(w, "\nfills by deciding rule, autocomplete removed (the untouched quarter is not counted):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "rule\ttune right\ttune wrong\tshare wrong\tcalibration right\tcalibration wrong\tshare wrong")
	for _, r := range rs {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.3f\t%d\t%d\t%.3f\n", r.Rule, r.TuneRight, r.TuneWrong, ratio(r.TuneWrong, r.TuneRight+r.TuneWrong),
			r.CalibrationRight, r.CalibrationWrong, ratio(r.CalibrationWrong, r.CalibrationRight+r.CalibrationWrong))
	}
	return tw.Flush()
}

// writeBreakdown prints the wrong fills of each source by kind, each fill
// in the first kind that fits, in column order.
func writeBreakdown(w io.Writer, bs []Breakdown) error {
	fmt.Fprintln(w, "\nwrong fills, autocomplete removed, by what the source's own labels say:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "source\twrong\tclose pair (lenient)\ttoken the source never labels\tsame label text labelled so elsewhere\tother")
	for _, b := range bs {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\n", b.Source, b.Wrong, b.ClosePair, b.NeverLabelled, b.SameLabelElsewhere, b.Other)
	}
	return tw.Flush()
}

func writeTable(w io.Writer, pages int, scores []Score) error {
	fmt.Fprintf(w, "%d pages\n", pages)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "source\thalf\tsystem\tvariant\ttargets\tpredicted\tP\tR\tP lenient\tR lenient\tP vocab\tunticked\tacc\tacc tokens\tsites\tP 95%\tR 95%")
	for _, last := range []bool{false, true} {
		for _, s := range scores {
			if (s.Source == "all") != last {
				continue
			}
			iv := s.Interval
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%d\t%.3f\t%.3f\t%d\t%.3f-%.3f\t%.3f-%.3f\n", s.Source, halfName(s.Half), s.System, variantName(s.Variant),
				s.Counts.Targets, s.Counts.Predicted, s.Precision, s.Recall, s.PrecisionLenient, s.RecallLenient, s.PrecisionVocab, s.Counts.Unticked, s.Accuracy, s.AccuracyTokens,
				iv.Sites, iv.PLow, iv.PHigh, iv.RLow, iv.RHigh)
		}
	}
	return tw.Flush()
}

func variantName(v string) string {
	if v == variantNoAC {
		return "no-autocomplete"
	}
	return "as-served"
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func halfName(h string) string {
	if h == "" {
		return "both"
	}
	return h
}

// writeCalibration prints the reliability tables: of the fields shown at
// a confidence, how many were right.
func writeCalibration(w io.Writer, bins []Bin) error {
	fmt.Fprintln(w, "\ncalibration (Tessera's fills of scored fields, strict; the held-out half in its two quarters: the dialog's confidence maps are fitted on the calibration quarter, the untouched quarter judges them):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "half\tvariant\tconfidence\tfilled\tright\tshare right\tmean confidence")
	for _, b := range bins {
		if b.Predicted == 0 {
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t[%.2f, %.2f)\t%d\t%d\t%.3f\t%.3f\n", halfName(b.Half), variantName(b.Variant), b.Low, b.High, b.Predicted, b.Right, ratio(b.Right, b.Predicted), b.MeanConfidence)
	}
	return tw.Flush()
}

// writeKinds prints the reliability of each kind of verdict: a dialog
// whose confidences are calibrated shows each kind's fills at about the
// share of them that is right.
func writeKinds(w io.Writer, ks []Kind) error {
	fmt.Fprintln(w, "\ncalibration by who decided (Result.Verdict; abs error: mean |share right - confidence| over the bins above, weighted by fills):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "half\tvariant\tverdict\tfilled\tright\tshare right\tmean confidence\tabs error")
	for _, k := range ks {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%.3f\t%.3f\t%.3f\n", halfName(k.Half), variantName(k.Variant), k.Verdict, k.Predicted, k.Right, ratio(k.Right, k.Predicted), k.MeanConfidence, k.AbsError)
	}
	return tw.Flush()
}
