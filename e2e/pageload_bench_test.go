//go:build e2e && linux

package e2e

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestPageLoadOverhead measures what Tessera costs a page that is not a
// Formspec form: a 200-field plain page loaded n times in headless
// Chromiums that differ only in their extension ("no Tessera": an empty
// extension; "shipped": Tessera's shipped build as a person installs it),
// in a random order each round.
//
// For each load it records, from the page's navigation timing (ms from
// navigation start): "head", when the page's first own script runs (every
// document_start script has run by then), DOMContentLoaded, load, and the
// first contentful paint (what the person sees). It
// reports each variant's p50/p90, and, because the machine's noise moves
// all variants of one round together, the per-round differences between
// variants: their median with a 95% bootstrap confidence interval. A
// difference whose interval holds 0 is not measurable at this n.
//
// It runs only when asked, as a benchmark does:
//
//	make bench-pageload            (n=200)
//	TESSERA_PAGELOAD_BENCH=N go test -count=1 -tags e2e -run PageLoadOverhead -v ./e2e/
//
// TESSERA_PAGELOAD_BENCH_EXTRA=NAME=DIR;NAME=DIR adds other unpacked builds
// to compare with the shipped one (an earlier commit's, say:
// `git worktree add /tmp/old C && (cd /tmp/old/extension && npm ci && node
// build.mjs --outdir /tmp/old-ext)`).
func TestPageLoadOverhead(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("TESSERA_PAGELOAD_BENCH"))
	if n <= 0 {
		t.Skip("a benchmark: set TESSERA_PAGELOAD_BENCH=N to run it (make bench-pageload)")
	}
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("<!doctype html><html lang=en><head><meta charset=utf-8><script>window.__head = performance.now()</script><title>200 fields</title></head><body><form>")
	for i := range 200 {
		fmt.Fprintf(&b, "<label>Field %d <input name=f%d id=f%d autocomplete=off></label>\n", i, i, i)
	}
	b.WriteString("</form></body></html>")
	if err := os.WriteFile(filepath.Join(dir, "plain200.html"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	pages, err := ServePages(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer pages.Close()

	// The shipped build (not the test build the other e2e tests load).
	shipped := filepath.Join(dir, "shipped")
	repo, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", "build.mjs", "--outdir", shipped)
	cmd.Dir = filepath.Join(repo, "extension")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build the shipped extension: %v\n%s", err, out)
	}
	empty := filepath.Join(dir, "empty")
	os.MkdirAll(empty, 0o755)
	os.WriteFile(filepath.Join(empty, "manifest.json"), []byte(`{"manifest_version":3,"name":"empty","version":"1"}`), 0o644)
	type variant struct{ name, ext string }
	variants := []variant{{"no Tessera", empty}, {"shipped", shipped}}
	for _, kv := range strings.Split(os.Getenv("TESSERA_PAGELOAD_BENCH_EXTRA"), ";") {
		if name, d, ok := strings.Cut(kv, "="); ok {
			variants = append(variants, variant{name, d})
		}
	}
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
	const metrics = 4
	names := [metrics]string{"head", "DOMContentLoaded", "load", "first paint"}
	// got[variant][round][metric]
	got := make([][][metrics]float64, len(variants))
	url := pages.URL + "/plain200.html"
	rng := rand.New(rand.NewPCG(1, 2))
	order := make([]int, len(variants))
	for i := range order {
		order[i] = i
	}
	for round := range n + 2 {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		var row = make([][metrics]float64, len(variants))
		for _, i := range order {
			// A navigation racing the evaluation ("cannot find context") is
			// measured again.
			var s [metrics]float64
			var err error
			for try := 0; try < 3; try++ {
				ctx, cancel := context.WithTimeout(tabs[i], 30*time.Second)
				_, err = chromedp.Run(ctx, chromedp.Navigate(url+"?r="+strconv.Itoa(round)+"."+strconv.Itoa(try)))
				if err == nil {
					_, err = chromedp.Run(ctx, chromedp.Poll[bool](`document.readyState === 'complete' && performance.getEntriesByType('navigation')[0].loadEventEnd > 0 && performance.getEntriesByName('first-contentful-paint').length > 0`, chromedp.WithPollingTimeout(10*time.Second)))
				}
				if err == nil {
					var v []float64
					v, err = chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => { const nav = performance.getEntriesByType('navigation')[0]; const fcp = performance.getEntriesByName('first-contentful-paint')[0]; return [window.__head, nav.domContentLoadedEventEnd, nav.loadEventEnd, fcp ? fcp.startTime : -1]; })()`))
					if err == nil && len(v) == metrics {
						copy(s[:], v)
					} else if err == nil {
						err = fmt.Errorf("got %v", v)
					}
				}
				cancel()
				if err == nil {
					break
				}
			}
			if err != nil {
				t.Fatalf("%s: %v", variants[i].name, err)
			}
			row[i] = s
		}
		if round >= 2 { // two warm-up rounds
			for i := range variants {
				got[i] = append(got[i], row[i])
			}
		}
	}
	pct := func(xs []float64, p float64) float64 {
		ys := slices.Clone(xs)
		slices.Sort(ys)
		return ys[int(p*float64(len(ys)-1)+0.5)]
	}
	col := func(i, k int) []float64 {
		var xs []float64
		for _, s := range got[i] {
			xs = append(xs, s[k])
		}
		return xs
	}
	for i, v := range variants {
		line := fmt.Sprintf("%-18s n=%d", v.name, len(got[i]))
		for k := range metrics {
			xs := col(i, k)
			line += fmt.Sprintf(" · %s p50 %.1f p90 %.1f", names[k], pct(xs, .5), pct(xs, .9))
		}
		t.Log(line + " ms")
	}
	// Paired differences, a round at a time, with a percentile bootstrap
	// of their median.
	boot := rand.New(rand.NewPCG(3, 4))
	diff := func(a, b, k int) string {
		d := make([]float64, len(got[a]))
		for r := range d {
			d[r] = got[b][r][k] - got[a][r][k]
		}
		meds := make([]float64, 2000)
		res := make([]float64, len(d))
		for j := range meds {
			for r := range res {
				res[r] = d[boot.IntN(len(d))]
			}
			meds[j] = pct(res, .5)
		}
		return fmt.Sprintf("%s %+.1f [%+.1f, %+.1f]", names[k], pct(d, .5), pct(meds, .025), pct(meds, .975))
	}
	for i := 1; i < len(variants); i++ {
		from := 1
		if i == 1 {
			from = 0
		}
		t.Logf("%s → %s, median of per-round differences [95%% CI], ms: %s · %s · %s · %s", variants[from].name, variants[i].name, diff(from, i, 0), diff(from, i, 1), diff(from, i, 2), diff(from, i, 3))
	}
}
