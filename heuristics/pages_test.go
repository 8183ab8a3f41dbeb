package heuristics

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tessera-app/tessera/form"
)

// TestGoldenPages extracts and classifies small pages of our own writing
// and compares every control with X.html.want (one token per control in
// document order, "-" for none).
func TestGoldenPages(t *testing.T) {
	pages, err := filepath.Glob("testdata/pages/*.html")
	if err != nil || len(pages) == 0 {
		t.Fatalf("no golden pages: %v", err)
	}
	for _, p := range pages {
		t.Run(filepath.Base(p), func(t *testing.T) {
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			snap, err := form.Extract(f, form.ExtractOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want := readWant(t, p+".want")
			got := Classify(snap)
			if len(got) != len(want) {
				t.Fatalf("Classify(%s) gave %d results, want %d", p, len(got), len(want))
			}
			for i, r := range got {
				w := want[i]
				if w == "-" {
					w = ""
				}
				if r.Token != w {
					t.Errorf("Classify(%s #%d %q).Token = %q, want %q (evidence %+v)", p, i, describe(&snap.Controls[i]), r.Token, w, r.Evidence)
				}
			}
		})
	}
}

func readWant(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			out = append(out, l)
		}
	}
	return out
}
