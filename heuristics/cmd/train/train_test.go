package main

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"

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

func TestTrainErrors(t *testing.T) {
	if err := run(nil, &bytes.Buffer{}, &bytes.Buffer{}); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("run() = %v, want a usage error", err)
	}
	// Every site of the score command's corpus falls in the held-out half.
	if err := run([]string{"-corpus", "../score/testdata/corpus", "-out", filepath.Join(t.TempDir(), "m.bin")}, &bytes.Buffer{}, &bytes.Buffer{}); !errors.Is(err, errTooFew) {
		t.Errorf("run(held-out only) = %v, want errTooFew", err)
	}
}
