//go:build unix

package nativemsg_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/tessera-app/tessera/app"
	"github.com/tessera-app/tessera/nativemsg"
)

var goodOrigin = "chrome-extension://" + nativemsg.ChromeExtensionID + "/"

func channel(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("", "tsh")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return filepath.Join(d, "run")
}

func startApp(t *testing.T, ctx context.Context, dir string) *app.App {
	t.Helper()
	a, err := app.New(app.Config{SocketDir: dir, Version: "test", Inspect: browserHost})
	if err != nil {
		t.Fatal(err)
	}
	l, err := nativemsg.Listen(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	go a.ServeListener(ctx, l, dir)
	return a
}

// browserHost stands in for nativemsg.Inspect: the host under test runs in
// this test process, which no browser started. verify_test.go attacks the
// real inspection.
func browserHost(net.Conn) (nativemsg.PeerInfo, error) {
	return nativemsg.PeerInfo{Process: nativemsg.Process{PID: 1, SameExe: true}, Browser: "chromium"}, nil
}

// browser is the browser side of a host: it writes frames to the host's
// stdin and reads its stdout.
type browser struct {
	in  *io.PipeWriter
	out *io.PipeReader
	// done receives RunHost's result.
	done chan error
}

func runHost(t *testing.T, ctx context.Context, cfg nativemsg.HostConfig) *browser {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	b := &browser{in: inW, out: outR, done: make(chan error, 1)}
	go func() {
		err := nativemsg.RunHost(ctx, inR, outW, cfg)
		outW.Close()
		b.done <- err
	}()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	return b
}

func (b *browser) call(t *testing.T, msg string) map[string]any {
	t.Helper()
	go nativemsg.WriteFrameLimit(b.in, []byte(msg), nativemsg.MaxIncoming)
	return b.read(t)
}

func (b *browser) read(t *testing.T) map[string]any {
	t.Helper()
	got := make(chan []byte, 1)
	go func() {
		f, _ := nativemsg.ReadFrame(b.out, nativemsg.MaxOutgoing)
		got <- f
	}()
	select {
	case f := <-got:
		var m map[string]any
		if err := json.Unmarshal(f, &m); err != nil {
			t.Fatalf("host answered %q: %v", f, err)
		}
		return m
	case <-time.After(15 * time.Second):
		t.Fatal("no answer from host")
		return nil
	}
}

func errCode(m map[string]any) string {
	e, _ := m["error"].(map[string]any)
	d, _ := e["data"].(map[string]any)
	s, _ := d["code"].(string)
	return s
}

const hello = `{"jsonrpc":"2.0","id":"h1","method":"session.hello","params":{"protocol":[1],"client":{"kind":"browser","name":"chromium"}}}`

func TestHostRelaysToApp(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := channel(t)
	a := startApp(t, ctx, dir)
	b := runHost(t, ctx, nativemsg.HostConfig{Origin: goodOrigin, Dir: dir})
	m := b.call(t, hello)
	res, ok := m["result"].(map[string]any)
	if !ok || res["protocol"] != float64(1) {
		t.Fatalf("hello through host = %v", m)
	}
	st := a.Status()
	if len(st.Clients) != 1 || st.Clients[0].Origin != goodOrigin {
		t.Fatalf("app clients = %+v, want one from %s", st.Clients, goodOrigin)
	}
	b.in.Close()
	select {
	case err := <-b.done:
		if err != nil {
			t.Fatalf("RunHost after stdin EOF = %v, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("host did not exit on stdin EOF")
	}
}

func TestHostRefusesForeignOrigin(t *testing.T) {
	ctx := context.Background()
	dir := channel(t)
	startApp(t, ctx, dir)
	b := runHost(t, ctx, nativemsg.HostConfig{Origin: "chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/", Dir: dir})
	m := b.read(t)
	if errCode(m) != nativemsg.CodeForbidden {
		t.Fatalf("foreign origin answer = %v, want FORBIDDEN", m)
	}
	if err := <-b.done; !errors.Is(err, nativemsg.ErrForbiddenOrigin) {
		t.Fatalf("RunHost = %v, want ErrForbiddenOrigin", err)
	}
}

func TestHostStartsApp(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := channel(t)
	started := 0
	b := runHost(t, ctx, nativemsg.HostConfig{Origin: goodOrigin, Dir: dir, StartApp: func() error {
		started++
		startApp(t, ctx, dir)
		return nil
	}})
	m := b.call(t, hello)
	if _, ok := m["result"]; !ok || started != 1 {
		t.Fatalf("hello after start = %v (started %d times), want a result after one start", m, started)
	}
}

func TestHostAppUnavailable(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := channel(t)
	b := runHost(t, ctx, nativemsg.HostConfig{Origin: goodOrigin, Dir: dir, StartTimeout: 200 * time.Millisecond,
		StartApp: func() error { return errors.New("no app installed") }})
	m := b.call(t, hello)
	if errCode(m) != nativemsg.CodeAppUnavailable || m["id"] != "h1" {
		t.Fatalf("hello with no app = %v, want APP_UNAVAILABLE for h1", m)
	}
	// The app comes up later: the next request reaches it.
	startApp(t, ctx, dir)
	deadline := time.Now().Add(5 * time.Second)
	for {
		m = b.call(t, hello)
		if _, ok := m["result"]; ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("host never reached the late app: %v", m)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// An oversized frame used to end the host (its body was never read), so one
// big snapshot cost the extension its port: now the host answers TOO_LARGE
// and discards exactly the announced length, holding none of it, up to
// Chrome's own 64 MiB cap. A longer length is not a browser's and ends it.
func TestHostOversizedFrame(t *testing.T) {
	tests := []struct {
		name string
		size uint32
		// body is how many bytes of the body the browser sends before
		// closing stdin (-1: all of them, then a hello).
		body int64
		// ends reports whether the host must end after the answer, with
		// ErrTooLarge when tooLarge (nil otherwise: a clean end).
		ends, tooLarge bool
	}{
		{"just over the limit", nativemsg.MaxIncoming + 1, -1, false, false},
		{"Chrome's cap", nativemsg.MaxSkip, -1, false, false},
		{"over Chrome's cap", nativemsg.MaxSkip + 1, 0, true, true},
		{"4 GiB length", 1<<32 - 1, 0, true, true},
		{"stream ends inside the body", nativemsg.MaxIncoming + 1, 1 << 20, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			dir := channel(t)
			startApp(t, ctx, dir)
			b := runHost(t, ctx, nativemsg.HostConfig{Origin: goodOrigin, Dir: dir})
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			go func() {
				var hdr [4]byte
				binary.NativeEndian.PutUint32(hdr[:], tt.size)
				if _, err := b.in.Write(hdr[:]); err != nil {
					return
				}
				// The body is itself made of frame headers announcing a
				// hello, so a host that skipped a byte too few or too many
				// would answer something else than the hello below.
				chunk := bytes.Repeat(binary.NativeEndian.AppendUint32(nil, uint32(len(hello))), 16<<10)
				left := int64(tt.size)
				if tt.body >= 0 {
					left = tt.body
				}
				for left > 0 {
					n := min(left, int64(len(chunk)))
					if _, err := b.in.Write(chunk[:n]); err != nil {
						return
					}
					left -= n
				}
				if tt.body >= 0 {
					b.in.Close()
					return
				}
				nativemsg.WriteFrameLimit(b.in, []byte(hello), nativemsg.MaxIncoming)
			}()
			m := b.read(t)
			if errCode(m) != nativemsg.CodeTooLarge || m["id"] != nil {
				t.Fatalf("oversized frame answer = %v, want TOO_LARGE with id null", m)
			}
			if tt.ends {
				select {
				case err := <-b.done:
					if tt.tooLarge != errors.Is(err, nativemsg.ErrTooLarge) || !tt.tooLarge && err != nil {
						t.Fatalf("RunHost = %v, want ErrTooLarge %v", err, tt.tooLarge)
					}
				case <-time.After(15 * time.Second):
					t.Fatal("host kept running")
				}
				return
			}
			if m := b.read(t); m["id"] != "h1" || m["result"] == nil {
				t.Fatalf("after the skipped frame the host answered %v, want the hello's result", m)
			}
			runtime.ReadMemStats(&after)
			if grew := after.TotalAlloc - before.TotalAlloc; grew > nativemsg.MaxIncoming/2 {
				t.Errorf("skipping a %d-byte frame allocated %d bytes, want it streamed", tt.size, grew)
			}
		})
	}
}

// The host hides its memory only once the app has answered: by then the
// app has read its executable (it inspects a connection before reading
// from it), which a non-dumpable host would hide. Answered runs once, and
// its error ends the host.
func TestHostAnswered(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := channel(t)
	startApp(t, ctx, dir)
	calls := 0
	b := runHost(t, ctx, nativemsg.HostConfig{Origin: goodOrigin, Dir: dir, Answered: func() error { calls++; return nil }})
	if m := b.call(t, hello); m["result"] == nil {
		t.Fatalf("hello = %v", m)
	}
	b.call(t, `{"jsonrpc":"2.0","id":"p","method":"session.ping","params":{"payload":1}}`)
	if calls != 1 {
		t.Errorf("Answered called %d times, want once", calls)
	}

	failed := errors.New("cannot hide")
	b = runHost(t, ctx, nativemsg.HostConfig{Origin: goodOrigin, Dir: dir, Answered: func() error { return failed }})
	go nativemsg.WriteFrameLimit(b.in, []byte(hello), nativemsg.MaxIncoming)
	select {
	case err := <-b.done:
		if !errors.Is(err, failed) {
			t.Fatalf("RunHost = %v, want Answered's error", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the host went on after Answered failed")
	}
}

func TestParseCaller(t *testing.T) {
	tests := []struct {
		args   []string
		origin string
		ok     bool
	}{
		{[]string{"chrome-extension://abc/"}, "chrome-extension://abc/", true},
		{[]string{"chrome-extension://abc/", "--parent-window=12"}, "chrome-extension://abc/", true},
		{[]string{"/home/u/.mozilla/native-messaging-hosts/dev.tessera.host.json", "tessera@tessera-app.dev"}, "tessera@tessera-app.dev", true},
		{[]string{"install"}, "", false},
		{[]string{"--hidden"}, "", false},
		{nil, "", false},
	}
	for _, tt := range tests {
		origin, ok := nativemsg.ParseCaller(tt.args)
		if origin != tt.origin || ok != tt.ok {
			t.Errorf("ParseCaller(%q) = %q, %v; want %q, %v", tt.args, origin, ok, tt.origin, tt.ok)
		}
	}
}
