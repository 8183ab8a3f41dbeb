package matcher

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tessera-app/tessera/form"
	"github.com/tessera-app/tessera/heuristics"
	"github.com/tessera-app/tessera/profile"
)

// pageLine is one line of a pages/*.want.jsonl file: the shape `tessera
// match` prints, without what follows the heuristics' own tuning — the
// confidence, and the concept of skipped controls (the golden vectors pin
// those).
type pageLine struct {
	ControlIndex int     `json:"control_index"`
	Value        *string `json:"value"`
	Concept      *string `json:"concept"`
	Relationship *string `json:"relationship"`
	Skip         *string `json:"skip"`
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// TestPages runs extraction, classification and matching over our own
// test pages: testdata/pages/NAME-CC.html with profile-CC.json, against
// NAME-CC.want.jsonl (rewritten with -update). A want file without a page
// of its own fills the classifier's golden page NAME.html
// (heuristics/testdata/pages): what it classifies, filled.
func TestPages(t *testing.T) {
	// base names a page's want file and profile (NAME-CC) beside it.
	type testPage struct{ html, base string }
	var pages []testPage
	htmls, _ := filepath.Glob(filepath.Join("testdata", "pages", "*.html"))
	for _, h := range htmls {
		pages = append(pages, testPage{h, strings.TrimSuffix(h, ".html")})
	}
	wants, _ := filepath.Glob(filepath.Join("testdata", "pages", "*.want.jsonl"))
	for _, w := range wants {
		base := strings.TrimSuffix(w, ".want.jsonl")
		if _, err := os.Stat(base + ".html"); err != nil {
			name := filepath.Base(base)
			pages = append(pages, testPage{filepath.Join("..", "heuristics", "testdata", "pages", name[:strings.LastIndexByte(name, '-')]+".html"), base})
		}
	}
	if len(pages) == 0 {
		t.Fatal("no test pages")
	}
	for _, tp := range pages {
		page, base := tp.html, tp.base
		t.Run(filepath.Base(base)+".html", func(t *testing.T) {
			cc := base[strings.LastIndexByte(base, '-')+1:]
			var p profile.UserProfile
			if err := json.Unmarshal(readFile(t, filepath.Join("testdata", "pages", "profile-"+cc+".json")), &p); err != nil {
				t.Fatal(err)
			}
			snap, err := form.Extract(bytes.NewReader(readFile(t, page)), form.ExtractOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			enc := json.NewEncoder(&got)
			for _, pr := range Match(FieldsFromSnapshot(snap, heuristics.Classify(snap)), &p, Options{}) {
				l := pageLine{pr.Index, pr.Value, nil, optional(pr.Relationship), optional(pr.Skip)}
				if pr.Value != nil {
					l.Concept = optional(pr.Concept)
				}
				enc.Encode(l)
			}
			wantFile := base + ".want.jsonl"
			if *update {
				if err := os.WriteFile(wantFile, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want := readFile(t, wantFile)
			gs, ws := bufio.NewScanner(&got), bufio.NewScanner(bytes.NewReader(want))
			for n := 0; ; n++ {
				g, w := gs.Scan(), ws.Scan()
				if !g && !w {
					break
				}
				if gs.Text() != ws.Text() {
					t.Errorf("control %d:\n got %s\nwant %s", n, gs.Text(), ws.Text())
				}
			}
		})
	}
}
