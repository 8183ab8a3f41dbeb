package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tessera-app/tessera/heuristics/internal/corpus"
	"github.com/tessera-app/tessera/heuristics/internal/linear"
)

// TestTrainReproducible learns from a small corpus of our own
// twice: the same corpus and flags must give the same bytes, and a file
// the heuristics can read.
func TestTrainReproducible(t *testing.T) {
	var files [][]byte
	for range 2 {
		out := filepath.Join(t.TempDir(), "m.bin")
		err := run([]string{"-corpus", "testdata/corpus", "-out", out, "-bits", "10"}, &bytes.Buffer{}, &bytes.Buffer{})
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := linear.Decode(data); err != nil {
			t.Fatalf("Decode(trained model) error: %v", err)
		}
		files = append(files, data)
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Error("two runs of train on the same corpus gave different models")
	}
}

// TestTrainCrossValidate reports without writing a model.
func TestTrainCrossValidate(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"-corpus", "testdata/corpus", "-cv", "2", "-bits", "10", "-out", filepath.Join(t.TempDir(), "none")}, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out.Bytes(), []byte("cv all ")) {
		t.Errorf("run(-cv 2) wrote %q, want a cv line", out.String())
	}
}

// TestFoldsOfTuningSites: cross-validation's folds split the tuning half's
// sites evenly, for every k. Taken from the hash's low bits, which decide
// the half, they left half the folds empty.
func TestFoldsOfTuningSites(t *testing.T) {
	var sites []string
	for i := 0; len(sites) < 400; i++ {
		if s := fmt.Sprintf("shop%d", i); !corpus.HeldOut(s) {
			sites = append(sites, s)
		}
	}
	for _, k := range []int{2, 3, 4, 8} {
		n := make([]int, k)
		for _, s := range sites {
			n[foldOf(s, k)]++
		}
		for f, c := range n {
			if c < len(sites)/k/2 {
				t.Errorf("foldOf(k=%d): fold %d holds %d of %d tuning sites (%v)", k, f, c, len(sites), n)
			}
		}
	}
}

func TestTrainErrors(t *testing.T) {
	if err := run(nil, &bytes.Buffer{}, &bytes.Buffer{}); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("run() = %v, want a usage error", err)
	}
	// Every site of the score command's corpus falls in the held-out half.
	if err := run([]string{"-corpus", "../score/testdata/corpus", "-out", filepath.Join(t.TempDir(), "m.bin")}, &bytes.Buffer{}, &bytes.Buffer{}); !errors.Is(err, errTooFew) {
		t.Errorf("run(held-out only) = %v, want errTooFew", err)
	}
}

// TestCalibrationQuarterOnly: the confidence maps are fitted on the
// calibration quarter's pages and nothing else, and those pages teach the
// model nothing: a corpus of tuning pages alone gives no maps; a copy of
// one of its pages under a site of the calibration quarter gives maps and
// the same weights; a copy under a site of the untouched quarter changes
// nothing at all.
func TestCalibrationQuarterOnly(t *testing.T) {
	train := func(extra map[string]string) *linear.Model {
		t.Helper()
		dir := filepath.Join(t.TempDir(), "corpus")
		if err := os.CopyFS(dir, os.DirFS("testdata/corpus")); err != nil {
			t.Fatal(err)
		}
		for name, from := range extra {
			for _, ext := range []string{".html", ".html.expected.json"} {
				b, err := os.ReadFile(filepath.Join("testdata/corpus/fixture", from+ext))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "fixture", name+ext), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		out := filepath.Join(t.TempDir(), "m.bin")
		if err := run([]string{"-corpus", dir, "-out", out, "-bits", "10"}, &bytes.Buffer{}, &bytes.Buffer{}); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		m, err := linear.Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	weights := func(m *linear.Model) []byte {
		t.Helper()
		c := *m
		c.Calibration = nil
		b, err := c.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	alone := train(nil)
	if len(alone.Calibration) != 0 {
		t.Errorf("tuning pages alone gave calibration maps %v", alone.Calibration)
	}
	// "birch" is in the calibration quarter, "walmart" in the untouched
	// one (corpus.Calibration).
	cal := train(map[string]string{"birch_checkout": "bolt_checkout"})
	if len(cal.Calibration) == 0 {
		t.Error("a page of the calibration quarter gave no calibration map")
	}
	if !bytes.Equal(weights(cal), weights(alone)) {
		t.Error("a page of the calibration quarter changed the weights")
	}
	untouched := train(map[string]string{"walmart_checkout": "bolt_checkout"})
	if len(untouched.Calibration) != 0 || !bytes.Equal(weights(untouched), weights(alone)) {
		t.Error("a page of the untouched quarter changed the model")
	}
}

// TestTrainOutOfFold: -oof writes one record for every labelled control
// of the tuning half, each decided by a model that did not learn its
// site, and reports the whole classifier's precision and recall; without
// -cv it is refused.
func TestTrainOutOfFold(t *testing.T) {
	path := filepath.Join(t.TempDir(), "oof.jsonl")
	var out bytes.Buffer
	if err := run([]string{"-corpus", "testdata/corpus", "-cv", "2", "-bits", "10", "-oof", path}, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out.Bytes(), []byte("oof all targets=")) {
		t.Errorf("run(-oof) wrote %q, want an oof line", out.String())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pages, err := corpus.Find("testdata/corpus")
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, p := range pages {
		if !corpus.HeldOut(p.Site) {
			want += len(p.Truths)
		}
	}
	var got int
	labelled := map[string]bool{}
	for line := range bytes.Lines(data) {
		var r oofRecord
		if err := json.Unmarshal(line, &r); err != nil {
			t.Fatalf("record %q: %v", line, err)
		}
		if corpus.HeldOut(r.Site) {
			t.Errorf("record of held-out site %s", r.Site)
		}
		got++
		labelled[r.Label] = true
		if r.Token != "" && r.Verdict == "" {
			t.Errorf("record %+v has a token and no verdict", r)
		}
	}
	if got == 0 || got != want {
		t.Errorf("-oof wrote %d records, want one per labelled tuning control (%d)", got, want)
	}
	if len(labelled) < 3 {
		t.Errorf("records carry labels %v, want the corpus's", labelled)
	}
	if err := run([]string{"-corpus", "testdata/corpus", "-oof", path}, &bytes.Buffer{}, &bytes.Buffer{}); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("run(-oof without -cv) = %v, want a usage error", err)
	}
}

// TestHiddenLearnsInteraction: the hidden-layer model crossValidate weighs
// (-hidden) learns what two features mean together and neither alone
// (exclusive or), which no linear model can; and the same examples and
// options give the same model.
func TestHiddenLearnsInteraction(t *testing.T) {
	const bias, a, b = 7, 100, 200
	cases := []struct {
		features []uint32
		class    int
	}{{[]uint32{bias}, 0}, {[]uint32{bias, a}, 1}, {[]uint32{bias, b}, 1}, {[]uint32{bias, a, b}, 0}}
	var ex []linear.Example
	for range 50 {
		for _, c := range cases {
			ex = append(ex, linear.Example{Features: c.features, Class: c.class})
		}
	}
	classes := []string{"", "x"}
	o := linear.Options{Bits: 10, Epochs: 40, Rate: 0.1, L2: 1e-4, Seed: 1}
	m := trainHidden(classes, ex, o, 32)
	lin := linear.Train(classes, ex, o)
	p := make([]float32, len(classes))
	linWrong := 0
	for _, c := range cases {
		if got := m.Predict(c.features, p); got != c.class || p[got] < 0.9 {
			t.Errorf("hidden model: features %v gave class %d at %.2f, want %d at 0.9 or more", c.features, got, p[got], c.class)
		}
		if lin.Predict(c.features, p) != c.class {
			linWrong++
		}
	}
	if linWrong == 0 {
		t.Error("the linear model learned exclusive or: the examples test no interaction")
	}
	again := trainHidden(classes, ex, o, 32)
	if !slices.Equal(m.embed, again.embed) || !slices.Equal(m.out, again.out) {
		t.Error("two trainings on the same examples gave different hidden models")
	}
}

// TestTrainHiddenFlag: -hidden is a cross-validation measurement, refused
// without -cv, and reports the model alone beside the whole classifier.
func TestTrainHiddenFlag(t *testing.T) {
	if err := run([]string{"-corpus", "testdata/corpus", "-hidden", "8"}, &bytes.Buffer{}, &bytes.Buffer{}); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("run(-hidden without -cv) error %v, want flag.ErrHelp", err)
	}
	var out bytes.Buffer
	if err := run([]string{"-corpus", "testdata/corpus", "-cv", "2", "-bits", "10", "-hidden", "8"}, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"cv all model-alone ", "cv all override=0.90 "} {
		if !bytes.Contains(out.Bytes(), []byte(want)) {
			t.Errorf("run(-cv 2 -hidden 8) wrote %q, want a %q line", out.String(), want)
		}
	}
}
