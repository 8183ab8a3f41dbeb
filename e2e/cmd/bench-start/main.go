//go:build linux

// Command bench-start measures what every browser connection pays before
// its first answer: it starts a host as Chromium starts a native host
// (`tessera-host chrome-extension://<id>/`, frames on stdin and stdout,
// the app's channel in TESSERA_RUNTIME_DIR), sends session.hello and times
// from just before the process is started to the relayed hello reply, then
// closes stdin and reads the host's peak RSS (wait4's ru_maxrss). Three
// hosts take turns: tessera-host (what `tessera install` registers when it
// is beside tessera), tessera's own host mode (`tessera
// chrome-extension://<id>/`), and the bare echo host (e2e/echohost), which
// answers hello itself: the floor. The app runs headless (`tessera
// --headless`) with a temporary TESSERA_HOME. Run it from the repository
// root:
//
//	go run ./e2e/cmd/bench-start [-n 200] [-tessera PATH] [-check]
//
// Without -tessera it builds the cgo-free binaries (tessera and
// tessera-host beside it); pass the desktop build (build/bin/tessera, with
// build/bin/tessera-host beside it) to measure those. With -check it exits
// non-zero when the registered host's (tessera-host's when there is one)
// p50 start-to-first-frame is over 15 ms or its p50 peak RSS over 20 MB,
// issue 12's targets.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"github.com/tessera-app/tessera/nativemsg"
)

// Issue 12's targets for the host.
const (
	targetStart = 15 * time.Millisecond
	targetRSS   = 20 << 20
)

// errTarget is returned with -check when a target is missed.
var errTarget = errors.New("host start over its target")

// hello is the first request the extension sends.
const hello = `{"jsonrpc":"2.0","id":"1","method":"session.hello","params":{"protocol":[1],"client":{"kind":"browser","name":"chromium","version":"156.0","extension":"0.1.0"}}}`

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bench-start:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("bench-start", flag.ContinueOnError)
	n := fs.Int("n", 200, "host starts to time, each for tessera-host, tessera and the echo host (after 5 warm-up starts each)")
	tessera := fs.String("tessera", "", "tessera binary to measure, with the tessera-host beside it (default: build the cgo-free ones)")
	echo := fs.String("echo", "", "echo host binary (default: build ./e2e/echohost)")
	check := fs.Bool("check", false, "exit non-zero unless the registered host's p50 start is within 15 ms and its p50 peak RSS within 20 MB")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *n < 1 || fs.NArg() > 0 {
		return fmt.Errorf("bad flags: -n %d %q", *n, fs.Args())
	}
	tmp, err := os.MkdirTemp("", "tessera-bench-start-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if *tessera == "" {
		*tessera = filepath.Join(tmp, "tessera")
		fmt.Fprintln(out, "building tessera and tessera-host…")
		if err := build(ctx, *tessera, "."); err != nil {
			return err
		}
		if err := build(ctx, nativemsg.Sibling(*tessera), "./cmd/tessera-host"); err != nil {
			return err
		}
	}
	// The host tessera install registers: tessera-host when it is beside.
	small := nativemsg.HostExecutable(*tessera)
	if small == *tessera {
		fmt.Fprintf(out, "no tessera-host beside %s: measuring tessera's host mode only\n", *tessera)
	}
	if *echo == "" {
		*echo = filepath.Join(tmp, "echohost")
		if err := build(ctx, *echo, "./e2e/echohost"); err != nil {
			return err
		}
	}
	home, runtime := filepath.Join(tmp, "home"), filepath.Join(tmp, "run")
	for _, d := range []string{home, runtime} {
		if err := os.Mkdir(d, 0o700); err != nil {
			return err
		}
	}
	// No session bus: the app would otherwise start dbus-daemon and
	// gnome-keyring-daemon for the keyring, which outlive it.
	env := append(os.Environ(), "TESSERA_HOME="+home, "TESSERA_RUNTIME_DIR="+runtime, "TESSERA_KEYRING=none",
		"DBUS_SESSION_BUS_ADDRESS=unix:path="+filepath.Join(tmp, "no-bus"))
	stop, err := startApp(*tessera, env, runtime, filepath.Join(tmp, "app.log"))
	if err != nil {
		return err
	}
	defer stop()

	origin := "chrome-extension://" + nativemsg.ChromeExtensionID + "/"
	type row struct {
		name, bin string
		samples   []sample
	}
	rows := []*row{{name: "tessera-host + app", bin: small}, {name: "tessera host mode + app", bin: *tessera}, {name: "echo host floor", bin: *echo}}
	if small == *tessera {
		rows = rows[1:]
	}
	for i := -5; i < *n; i++ {
		for _, r := range rows {
			s, err := startOnce(r.bin, origin, env)
			if err != nil {
				return fmt.Errorf("%s: %w", r.name, err)
			}
			if i >= 0 {
				r.samples = append(r.samples, s)
			}
		}
	}
	sums := make([]summary, len(rows))
	for i, r := range rows {
		sums[i] = summarize(r.samples)
	}
	floor := sums[len(sums)-1]
	fmt.Fprintf(out, "\nprocess start -> session.hello answered, %d starts each (taking turns)\n", *n)
	fmt.Fprintf(out, "%-24s %9s %9s %9s %12s %12s %9s\n", "", "p50 ms", "p99 ms", "min ms", "RSS p50 MB", "RSS max MB", "p50/echo")
	for i, r := range rows {
		s := sums[i]
		fmt.Fprintf(out, "%-24s %9.2f %9.2f %9.2f %12.1f %12.1f %8.2fx\n", r.name, ms(s.p50), ms(s.p99), ms(s.min), mb(s.rss50), mb(s.rssMax), ms(s.p50)/ms(floor.p50))
	}
	fmt.Fprintf(out, "targets for the registered host (%s): start <= %v, peak RSS <= %d MB\n", filepath.Base(small), targetStart, targetRSS>>20)
	if hs := sums[0]; *check && (hs.p50 > targetStart || hs.rss50 > targetRSS) {
		return errTarget
	}
	return nil
}

// A sample is one host start: the time to the hello reply and the peak RSS
// in bytes.
type sample struct {
	start time.Duration
	rss   int64
}

type summary struct {
	p50, p99, min time.Duration
	rss50, rssMax int64
}

// summarize returns the percentiles of samples (nearest rank).
func summarize(samples []sample) summary {
	d := make([]time.Duration, len(samples))
	r := make([]int64, len(samples))
	for i, s := range samples {
		d[i], r[i] = s.start, s.rss
	}
	slices.Sort(d)
	slices.Sort(r)
	rank := func(n int, p float64) int { return min(n-1, int(p*float64(n))) }
	return summary{
		p50: d[rank(len(d), 0.5)], p99: d[rank(len(d), 0.99)], min: d[0],
		rss50: r[rank(len(r), 0.5)], rssMax: r[len(r)-1],
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
func mb(b int64) float64         { return float64(b) / (1 << 20) }

// startOnce starts bin as Chromium starts a native host, sends hello and
// times the reply, then ends the host by closing its input.
func startOnce(bin, origin string, env []string) (sample, error) {
	cmd := exec.Command(bin, origin)
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return sample{}, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return sample{}, err
	}
	var msg bytes.Buffer
	if err := nativemsg.WriteFrame(&msg, []byte(hello)); err != nil {
		return sample{}, err
	}
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return sample{}, err
	}
	// Chromium writes the first message without waiting for the host; the
	// pipe buffers it until the host reads.
	if _, err := stdin.Write(msg.Bytes()); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return sample{}, err
	}
	reply, err := nativemsg.ReadFrame(stdout, nativemsg.MaxOutgoing)
	elapsed := time.Since(t0)
	stdin.Close()
	io.Copy(io.Discard, stdout)
	werr := cmd.Wait()
	if err != nil {
		return sample{}, fmt.Errorf("read hello reply: %w (stderr: %s)", err, stderr.Bytes())
	}
	if werr != nil {
		return sample{}, fmt.Errorf("host exit: %w (stderr: %s)", werr, stderr.Bytes())
	}
	var r struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(reply, &r); err != nil || len(r.Result) == 0 {
		return sample{}, fmt.Errorf("hello reply %s is not a result", reply)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return sample{}, errors.New("no rusage")
	}
	return sample{start: elapsed, rss: ru.Maxrss << 10}, nil // Linux reports KiB
}

// build runs go build for pkg into out, without cgo (as `make build`).
func build(ctx context.Context, out, pkg string) error {
	cmd := exec.CommandContext(ctx, "go", "build", "-o", out, pkg)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %w\n%s", pkg, err, b)
	}
	return nil
}

// startApp runs the headless app and waits until it listens.
func startApp(tessera string, env []string, dir, logPath string) (stop func(), err error) {
	log, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(tessera, "--headless")
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		log.Close()
		return nil, err
	}
	stop = func() {
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		log.Close()
	}
	if err := nativemsg.WaitListening(context.Background(), dir, 10*time.Second); err != nil {
		stop()
		b, _ := os.ReadFile(logPath)
		return nil, fmt.Errorf("%w\n%s", err, b)
	}
	return stop, nil
}
