//go:build e2e && linux

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestFormspecPageLoadOverhead measures what the Formspec page-world script
// and bridge (document_start in every top document) cost a page that is not
// a Formspec form: a 200-field plain page loaded n times in three headless
// Chromiums, interleaved: with no Tessera (an empty extension), with
// Tessera minus its two Formspec content scripts, and with Tessera as
// shipped. It reports DOMContentLoaded and load (navigation timing, ms) and
// the time until the page-world detection has run (the "idle" figure: load
// plus Tessera's deferred detection, measured as the first animation frame
// after a 0 ms timer following load). It runs only when asked, as a
// benchmark does:
//
//	TESSERA_FORMSPEC_BENCH=50 go test -count=1 -tags e2e -run FormspecPageLoadOverhead -v ./e2e/
func TestFormspecPageLoadOverhead(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("TESSERA_FORMSPEC_BENCH"))
	if n <= 0 {
		t.Skip("a benchmark: set TESSERA_FORMSPEC_BENCH=N to run it")
	}
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("<!doctype html><html lang=en><meta charset=utf-8><title>200 fields</title><form>")
	for i := range 200 {
		fmt.Fprintf(&b, "<label>Field %d <input name=f%d id=f%d autocomplete=off></label>\n", i, i, i)
	}
	b.WriteString("</form></html>")
	if err := os.WriteFile(filepath.Join(dir, "plain200.html"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	pages, err := ServePages(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer pages.Close()
	// The three extensions.
	empty := filepath.Join(dir, "empty")
	os.MkdirAll(empty, 0o755)
	os.WriteFile(filepath.Join(empty, "manifest.json"), []byte(`{"manifest_version":3,"name":"empty","version":"1"}`), 0o644)
	without := filepath.Join(dir, "without")
	if err := os.CopyFS(without, os.DirFS(art.Extension)); err != nil {
		t.Fatal(err)
	}
	mb, _ := os.ReadFile(filepath.Join(without, "manifest.json"))
	var m map[string]any
	json.Unmarshal(mb, &m)
	var kept []any
	for _, c := range m["content_scripts"].([]any) {
		js := fmt.Sprint(c.(map[string]any)["js"])
		if !strings.Contains(js, "formspec") {
			kept = append(kept, c)
		}
	}
	if len(kept) != len(m["content_scripts"].([]any))-2 {
		t.Fatalf("the manifest's Formspec scripts were not found: %v", m["content_scripts"])
	}
	m["content_scripts"] = kept
	mb, _ = json.Marshal(m)
	os.WriteFile(filepath.Join(without, "manifest.json"), mb, 0o644)

	variants := []struct{ name, ext string }{{"no Tessera", empty}, {"Tessera without Formspec scripts", without}, {"Tessera as shipped", art.Extension}}
	tabs := make([]context.Context, len(variants))
	for i, v := range variants {
		br, err := StartBrowser(context.Background(), BrowserConfig{Extension: v.ext, UserDataDir: filepath.Join(dir, "u"+strconv.Itoa(i))})
		if err != nil {
			t.Fatal(err)
		}
		defer br.Close()
		tab, cancel, err := br.Tab("about:blank")
		if err != nil {
			t.Fatal(err)
		}
		defer cancel()
		tabs[i] = tab
	}
	type sample struct {
		DCL  float64 `json:"dcl"`
		Load float64 `json:"load"`
		Idle float64 `json:"idle"`
	}
	got := make([][]sample, len(variants))
	url := pages.URL + "/plain200.html"
	for round := range n + 2 {
		for i, tab := range tabs {
			// A navigation racing the evaluation ("cannot find context") is
			// measured again.
			var s sample
			var err error
			for try := 0; try < 3; try++ {
				ctx, cancel := context.WithTimeout(tab, 30*time.Second)
				_, err = chromedp.Run(ctx, chromedp.Navigate(url+"?r="+strconv.Itoa(round)+"."+strconv.Itoa(try)))
				if err == nil {
					_, err = chromedp.Run(ctx, chromedp.Poll[bool](`document.readyState === 'complete'`, chromedp.WithPollingTimeout(10*time.Second)))
				}
				if err == nil {
					s, err = chromedp.Run(ctx, chromedp.Evaluate[sample](`new Promise((resolve) => setTimeout(() => requestAnimationFrame(() => {
						const nav = performance.getEntriesByType('navigation')[0];
						resolve({dcl: nav.domContentLoadedEventEnd, load: nav.loadEventEnd, idle: performance.now()});
					}), 0))`, chromedp.EvalAwaitPromise))
				}
				cancel()
				if err == nil {
					break
				}
			}
			if err != nil {
				t.Fatalf("%s: %v", variants[i].name, err)
			}
			if round >= 2 { // two warm-up rounds
				got[i] = append(got[i], s)
			}
		}
	}
	med := func(xs []float64) (float64, float64) {
		slices.Sort(xs)
		return xs[len(xs)/2], xs[len(xs)*9/10]
	}
	for i, v := range variants {
		var dcl, load, idle []float64
		for _, s := range got[i] {
			dcl, load, idle = append(dcl, s.DCL), append(load, s.Load), append(idle, s.Idle-s.Load)
		}
		d50, d90 := med(dcl)
		l50, l90 := med(load)
		i50, i90 := med(idle)
		t.Logf("%-34s n=%d  DOMContentLoaded p50 %.1f p90 %.1f ms · load p50 %.1f p90 %.1f ms · load→idle p50 %.1f p90 %.1f ms", v.name, len(got[i]), d50, d90, l50, l90, i50, i90)
	}
}
