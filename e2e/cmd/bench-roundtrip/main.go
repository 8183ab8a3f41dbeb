//go:build e2e && linux

// Command bench-roundtrip measures the round trip service worker -> native
// host -> app -> back in a real headless Chromium: n sequential
// session.ping calls timed inside the service worker with performance.now(),
// through the tessera host and the real (headless) app, and the same through
// the bare echo host (e2e/echohost) as the floor. Run it from the repository
// root:
//
//	go run -tags e2e ./e2e/cmd/bench-roundtrip [-n 1000] [-rounds 1] [-payload 0] [-check]
//
// With -check it exits non-zero when p50 or p99 is over twice the floor's.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/tessera-app/tessera/e2e"
	"github.com/tessera-app/tessera/nativemsg"
)

// errTarget is returned with -check when the target ratio is missed.
var errTarget = errors.New("round trip over twice the echo floor")

// result mirrors BenchResult in extension/src/background/bench.ts.
type result struct {
	N    int     `json:"n"`
	P50  float64 `json:"p50"`
	P99  float64 `json:"p99"`
	Mean float64 `json:"mean"`
	Min  float64 `json:"min"`
	Max  float64 `json:"max"`
}

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bench-roundtrip:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("bench-roundtrip", flag.ContinueOnError)
	n := fs.Int("n", 1000, "timed session.ping calls per measurement (after min(100, n) warm-up calls)")
	rounds := fs.Int("rounds", 1, "measure app and floor this many times, alternating")
	payload := fs.Int("payload", 0, "size in bytes of a string payload (0: a small object)")
	check := fs.Bool("check", false, "exit non-zero unless p50 and p99 are each within 2x of the floor's")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *n < 1 || *rounds < 1 || *payload < 0 || *payload > nativemsg.MaxOutgoing/2 {
		return fmt.Errorf("bad flags: -n %d -rounds %d -payload %d", *n, *rounds, *payload)
	}
	root, err := e2e.RepoRoot()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "tessera-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	fmt.Fprintln(out, "building tessera, echohost and the test extension…")
	art, err := e2e.Build(ctx, root, tmp)
	if err != nil {
		return err
	}
	defer e2e.StopStrays(art.Tessera)
	// The extension must be paired before it may ping (PROTOCOL.md §2.1):
	// a testhooks build approves the pairing dialog by itself
	// (TESSERA_TEST_PAIR, default approve) and denies any other dialog.
	if err := e2e.BuildTessera(ctx, root, art.Tessera, "testhooks"); err != nil {
		return err
	}

	home, runtime := mkdir(tmp, "home"), mkdir(tmp, "run")
	env := e2e.TesseraEnv(home, runtime)
	appUDD, echoUDD := mkdir(tmp, "udd-app"), mkdir(tmp, "udd-echo")
	if err := e2e.Install(ctx, art.Tessera, appUDD); err != nil {
		return err
	}
	if err := e2e.InstallEcho(art.EchoHost, echoUDD); err != nil {
		return err
	}
	stop, err := startApp(art.Tessera, env, runtime, filepath.Join(tmp, "app.log"))
	if err != nil {
		return err
	}
	defer stop()

	js := `{seq: 0}`
	if *payload > 0 {
		js = fmt.Sprintf(`"x".repeat(%d)`, *payload)
	}
	var app, floor []result
	for r := 0; r < *rounds; r++ {
		a, err := measure(ctx, art.Extension, appUDD, env, *n, js)
		if err != nil {
			return fmt.Errorf("tessera: %w", err)
		}
		f, err := measure(ctx, art.Extension, echoUDD, env, *n, js)
		if err != nil {
			return fmt.Errorf("echo host: %w", err)
		}
		app, floor = append(app, a), append(floor, f)
	}

	fmt.Fprintf(out, "\nround trip service worker -> host -> back, %d sequential session.ping calls, payload %s\n", *n, describePayload(*payload))
	fmt.Fprintf(out, "%-30s %9s %9s %9s %9s %9s\n", "", "p50 ms", "p99 ms", "mean ms", "min ms", "max ms")
	met := true
	for r := range app {
		a, f := app[r], floor[r]
		fmt.Fprintf(out, "%-30s %9.3f %9.3f %9.3f %9.3f %9.3f\n", fmt.Sprintf("tessera host + app (round %d)", r+1), a.P50, a.P99, a.Mean, a.Min, a.Max)
		fmt.Fprintf(out, "%-30s %9.3f %9.3f %9.3f %9.3f %9.3f\n", fmt.Sprintf("echo host floor (round %d)", r+1), f.P50, f.P99, f.Mean, f.Min, f.Max)
		r50, r99 := a.P50/f.P50, a.P99/f.P99
		fmt.Fprintf(out, "%-30s %8.2fx %8.2fx   (target <= 2x)\n", "ratio", r50, r99)
		met = met && r50 <= 2 && r99 <= 2
	}
	if *check && !met {
		return errTarget
	}
	return nil
}

func describePayload(n int) string {
	if n == 0 {
		return "{seq: 0}"
	}
	return fmt.Sprintf("a %d-byte string", n)
}

func mkdir(parent, name string) string {
	d := filepath.Join(parent, name)
	os.MkdirAll(d, 0o700)
	return d
}

// startApp runs the headless app and waits until it listens.
func startApp(tessera string, env []string, dir, logPath string) (stop func(), err error) {
	log, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(tessera, "--headless")
	cmd.Env = append(os.Environ(), env...)
	cmd.Env = append(cmd.Env, "TESSERA_TEST_DECISION=deny")
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	stop = func() {
		cmd.Process.Kill()
		cmd.Wait()
		log.Close()
	}
	if err := nativemsg.WaitListening(context.Background(), dir, 10*time.Second); err != nil {
		stop()
		return nil, err
	}
	return stop, nil
}

// measure starts a browser on udd, waits for the extension's session and
// runs the benchmark in its service worker.
func measure(ctx context.Context, ext, udd string, env []string, n int, payloadJS string) (result, error) {
	b, err := e2e.StartBrowser(ctx, e2e.BrowserConfig{Extension: ext, UserDataDir: udd, Env: env})
	if err != nil {
		return result{}, err
	}
	defer b.Close()
	sw, err := b.ServiceWorker(15 * time.Second)
	if err != nil {
		return result{}, err
	}
	if _, err := e2e.Eval[map[string]any](sw, `tesseraTest.waitFor("connected", 20000)`); err != nil {
		return result{}, fmt.Errorf("no session: %w", err)
	}
	return e2e.Eval[result](sw, fmt.Sprintf(`tesseraTest.bench(%d, %s)`, n, payloadJS))
}
