//go:build e2e && linux

// Command bench-fill measures a whole fill in a real headless Chromium: the
// test build of the extension, the real host, and the real app (built with
// -tags testhooks, so TESSERA_TEST_DECISION=approve answers its dialog as
// presented) with a vault holding e2e/testdata/profile.json. On a 50-field
// form (e2e/testdata/pages/bench50.html), reloaded before every run, it
// times
//
//   - trigger → dialog: from just before the fill is started through
//     globalThis.tessera.fill(tabId) to the app presenting the dialog (the
//     "presented" event of TESSERA_TEST_EVENTS);
//   - approve → filled: from the app's "decided" event to the last input or
//     change event a control of the page received (page listeners, on
//     performance.timeOrigin + performance.now()), split into approve →
//     first field (the app's answer reaching the page) and first → last
//     field (the extension applying the values);
//
// and prints p50 and p99 of each. All clocks are the machine's wall clock.
// Run it from the repository root:
//
//	go run -tags e2e,testhooks ./e2e/cmd/bench-fill [-n 50] [-warmup 3] [-check]
//
// With -check it exits non-zero when a p50 misses its target (trigger →
// dialog ≤ 150 ms, approve → filled ≤ 50 ms).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/tessera-app/tessera/e2e"
)

// Targets of issue 11, in milliseconds (p50).
const (
	targetDialog = 150.0
	targetFilled = 50.0
)

// errTarget is returned with -check when a target is missed.
var errTarget = errors.New("fill benchmark target missed")

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bench-fill:", err)
		os.Exit(1)
	}
}

// pageTimes is what the bench page's listeners recorded.
type pageTimes struct {
	// First and Last are the times of the first and the last input/change
	// event, in Unix ms.
	First float64 `json:"first"`
	Last  float64 `json:"last"`
	// Controls is how many distinct controls received one.
	Controls int `json:"controls"`
}

// recordJS installs the listeners on the freshly loaded bench page.
const recordJS = `(() => {
	window.__bench = {first: 0, last: 0, seen: new Set()};
	const note = (e) => {
		__bench.last = performance.timeOrigin + performance.now();
		if (!__bench.first) __bench.first = __bench.last;
		__bench.seen.add(e.target.id);
	};
	document.addEventListener('input', note, true);
	document.addEventListener('change', note, true);
	return true;
})()`

const readJS = `({first: __bench.first, last: __bench.last, controls: __bench.seen.size})`

func run(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("bench-fill", flag.ContinueOnError)
	n := fs.Int("n", 50, "timed fills")
	warmup := fs.Int("warmup", 3, "untimed fills first")
	check := fs.Bool("check", false, "exit non-zero unless both p50s meet their targets")
	verbose := fs.Bool("v", false, "print every run")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *n < 1 || *warmup < 0 {
		return fmt.Errorf("bad flags: -n %d -warmup %d", *n, *warmup)
	}
	root, err := e2e.RepoRoot()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "tsr-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	fmt.Fprintln(out, "building tessera (testhooks) and the test extension…")
	tessera, ext := filepath.Join(tmp, "tessera"), filepath.Join(tmp, "extension")
	if err := e2e.BuildTessera(ctx, root, tessera, "testhooks"); err != nil {
		return err
	}
	defer e2e.StopStrays(tessera)
	if err := e2e.BuildExtension(ctx, root, ext); err != nil {
		return err
	}
	td := filepath.Join(root, "e2e", "testdata")
	w, err := e2e.NewWorld(tessera, tmp, filepath.Join(td, "passphrase.txt"))
	if err != nil {
		return err
	}
	if err := w.Setup(ctx, filepath.Join(td, "profile.json")); err != nil {
		return err
	}
	appLog, err := os.Create(filepath.Join(tmp, "app.log"))
	if err != nil {
		return err
	}
	defer appLog.Close()
	app, err := w.StartApp(e2e.AppOptions{Decision: "approve", Log: appLog})
	if err != nil {
		return err
	}
	defer app.Stop()
	if err := w.Unlock(ctx); err != nil {
		return err
	}
	pages, err := e2e.ServePages(filepath.Join(td, "pages"))
	if err != nil {
		return err
	}
	defer pages.Close()
	udd := filepath.Join(tmp, "udd")
	if err := e2e.Install(ctx, tessera, udd); err != nil {
		return err
	}
	b, err := e2e.StartBrowser(ctx, e2e.BrowserConfig{Extension: ext, UserDataDir: udd, Env: w.Env()})
	if err != nil {
		return err
	}
	defer b.Close()
	sw, err := b.ServiceWorker(15 * time.Second)
	if err != nil {
		return err
	}
	if _, err := e2e.Eval[map[string]any](sw, `tesseraTest.waitFor("connected", 20000)`); err != nil {
		return fmt.Errorf("no session: %w", err)
	}
	url := pages.URL + "/bench50.html"
	tab, closeTab, err := b.Tab(url)
	if err != nil {
		return err
	}
	defer closeTab()

	var dialog, filled, first, apply, total []float64
	fields := -1
	var shown e2e.AppEvent
	for i := 0; i < *warmup+*n; i++ {
		if err := e2e.Open(tab, url); err != nil {
			return err
		}
		if _, err := e2e.Eval[bool](tab, recordJS); err != nil {
			return err
		}
		t0 := time.Now()
		fctx, cancel := context.WithTimeout(sw, time.Minute)
		r, err := e2e.Fill(fctx, url)
		cancel()
		if err != nil {
			return fmt.Errorf("run %d: %w", i+1, err)
		}
		end := time.Now()
		if r.Status != "filled" {
			return fmt.Errorf("run %d: fill %+v, want filled", i+1, r)
		}
		presented, err := app.WaitEvent("presented", "fill", i+1, 5*time.Second)
		if err != nil {
			return fmt.Errorf("run %d: %w", i+1, err)
		}
		decided, err := app.WaitEvent("decided", "fill", i+1, 5*time.Second)
		if err != nil {
			return fmt.Errorf("run %d: %w", i+1, err)
		}
		shown = presented
		pt, err := e2e.Eval[pageTimes](tab, readJS)
		if err != nil {
			return err
		}
		if fields < 0 {
			fields = r.Count("filled")
		} else if got := r.Count("filled"); got != fields {
			return fmt.Errorf("run %d: %d fields filled, earlier runs %d", i+1, got, fields)
		}
		if pt.Controls < fields {
			return fmt.Errorf("run %d: %d controls saw events, %d reported filled", i+1, pt.Controls, fields)
		}
		d := ms(presented.T - t0.UnixNano())
		f := pt.Last - float64(decided.T)/1e6
		fst := pt.First - float64(decided.T)/1e6
		tt := ms(end.UnixNano() - t0.UnixNano())
		if *verbose {
			fmt.Fprintf(out, "run %3d: trigger→dialog %7.2f ms  approve→filled %7.2f ms (first field %7.2f ms)  whole fill %7.2f ms\n", i+1, d, f, fst, tt)
		}
		if i < *warmup {
			continue
		}
		dialog, filled, total = append(dialog, d), append(filled, f), append(total, tt)
		first, apply = append(first, fst), append(apply, pt.Last-pt.First)
	}

	fmt.Fprintf(out, "\nfill of a 50-field form (dialog of %d rows, %d checked; %d fields filled), %d runs after %d warm-up\n", shown.Rows, shown.Checked, fields, *n, *warmup)
	fmt.Fprintf(out, "%-30s %9s %9s %9s %9s %9s   %s\n", "", "p50 ms", "p99 ms", "mean ms", "min ms", "max ms", "target p50")
	met := true
	for _, m := range []struct {
		name   string
		v      []float64
		target float64
	}{
		{"trigger → dialog shown", dialog, targetDialog},
		{"approve → all fields filled", filled, targetFilled},
		{"  approve → first field", first, 0},
		{"  first → last field", apply, 0},
		{"whole fill (trigger → resolved)", total, 0},
	} {
		s := summarise(m.v)
		tgt := ""
		if m.target > 0 {
			tgt = fmt.Sprintf("≤ %.0f ms", m.target)
			if s.p50 > m.target {
				tgt += "  MISSED"
				met = false
			}
		}
		fmt.Fprintf(out, "%-30s %9.2f %9.2f %9.2f %9.2f %9.2f   %s\n", m.name, s.p50, s.p99, s.mean, s.min, s.max, tgt)
	}
	if *check && !met {
		return errTarget
	}
	return nil
}

func ms(ns int64) float64 { return float64(ns) / 1e6 }

type summary struct{ p50, p99, mean, min, max float64 }

// summarise returns nearest-rank percentiles and the mean of v.
func summarise(v []float64) summary {
	s := slices.Clone(v)
	slices.Sort(s)
	rank := func(p float64) float64 {
		i := int(math.Ceil(p*float64(len(s)))) - 1
		return s[max(0, min(i, len(s)-1))]
	}
	var sum float64
	for _, x := range s {
		sum += x
	}
	return summary{p50: rank(0.5), p99: rank(0.99), mean: sum / float64(len(s)), min: s[0], max: s[len(s)-1]}
}
