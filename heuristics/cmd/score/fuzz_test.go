package main

import (
	"github.com/tessera-app/tessera/heuristics/internal/corpus"
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoadPage feeds arbitrary expected-label files to the loader: it must
// return an error or truths, never panic, and never count an unscored
// control.
func FuzzLoadPage(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/corpus/*/*.expected.json")
	for _, s := range seeds {
		data, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		page := filepath.Join(dir, "p.html")
		if err := os.WriteFile(page+".expected.json", data, 0o600); err != nil {
			t.Fatal(err)
		}
		p, err := corpus.LoadPage(dir, page)
		if err != nil {
			return
		}
		for _, tr := range p.Truths {
			got, _ := judge(tr, tr.Token)
			if !got {
				t.Fatalf("judge(%+v, own token) = false", tr)
			}
		}
	})
}
