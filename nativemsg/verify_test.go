//go:build linux

package nativemsg_test

import (
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tessera-app/tessera/nativemsg"
)

// Inspect on a connection from this very process: same executable, and its
// parent (the go tool or a shell) is no browser.
func TestInspectSelf(t *testing.T) {
	dir := channel(t)
	l, err := nativemsg.Listen(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		c, err := nativemsg.Dial(context.Background(), dir)
		if err == nil {
			time.Sleep(time.Second)
			c.Close()
		}
	}()
	c, err := l.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	info, err := nativemsg.Inspect(c)
	if err != nil {
		t.Fatal(err)
	}
	if info.Process.PID != os.Getpid() || !info.Process.SameExe || info.Process.PPID != os.Getppid() {
		t.Errorf("Inspect = %+v, want this process (%d, parent %d), same executable", info.Process, os.Getpid(), os.Getppid())
	}
	if info.Browser != "" || info.Why == "" {
		t.Errorf("Inspect browser = %q (why %q), want none: no browser started this test", info.Browser, info.Why)
	}
	if err := nativemsg.VerifyApp(c); err != nil {
		t.Errorf("VerifyApp(self) = %v", err)
	}
}

func TestBrowserFamily(t *testing.T) {
	for exe, want := range map[string]string{
		"/usr/lib/chromium/chromium": "chromium", "/opt/google/chrome/chrome": "chrome",
		"/usr/lib/firefox-esr/firefox-esr": "firefox", "/usr/bin/python3": "", "/tmp/chromium-evil/bash": "",
	} {
		if got := nativemsg.BrowserFamily(exe); got != want {
			t.Errorf("BrowserFamily(%q) = %q, want %q", exe, got, want)
		}
	}
}

// The host sends nothing to a process serving the channel that is not
// Tessera: here a copy of this test binary (another file) listens on it.
func TestHostRefusesImpostorApp(t *testing.T) {
	if os.Getenv("TESSERA_IMPOSTOR_DIR") != "" {
		return
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	cp := filepath.Join(t.TempDir(), "impostor")
	if err := os.WriteFile(cp, b, 0o700); err != nil {
		t.Fatal(err)
	}
	dir := channel(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := exec.CommandContext(ctx, cp, "-test.run=^TestImpostorServe$")
	cmd.Env = append(os.Environ(), "TESSERA_IMPOSTOR_DIR="+dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	var c net.Conn
	for i := 0; ; i++ {
		if c, err = nativemsg.Dial(ctx, dir); err == nil {
			break
		}
		if i > 200 {
			t.Fatalf("impostor did not listen: %v", err)
		}
		time.Sleep(25 * time.Millisecond)
	}
	err = nativemsg.VerifyApp(c)
	c.Close()
	if !errors.Is(err, nativemsg.ErrNotVerified) || !strings.Contains(err.Error(), "impostor") {
		t.Fatalf("VerifyApp(impostor) = %v, want ErrNotVerified naming it", err)
	}
	// The real host: the browser's hello gets APP_UNAVAILABLE, and the
	// impostor never receives a frame (it would exit non-zero).
	bw := runHost(t, ctx, nativemsg.HostConfig{Origin: goodOrigin, Dir: dir})
	if m := bw.call(t, hello); errCode(m) != nativemsg.CodeAppUnavailable {
		t.Fatalf("hello through host with an impostor app = %v, want APP_UNAVAILABLE", m)
	}
}

// TestImpostorServe is the impostor of TestHostRefusesImpostorApp: it
// serves the channel and fails if anything arrives.
func TestImpostorServe(t *testing.T) {
	dir := os.Getenv("TESSERA_IMPOSTOR_DIR")
	if dir == "" {
		t.Skip("only run by TestHostRefusesImpostorApp")
	}
	l, err := nativemsg.Listen(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		go func() {
			buf := make([]byte, 1)
			c.SetReadDeadline(time.Now().Add(20 * time.Second))
			if n, _ := c.Read(buf); n > 0 {
				os.Exit(3)
			}
		}()
	}
}

// The browser side of a host cannot speak host.*: a second attach naming
// another origin is answered FORBIDDEN by the host and never reaches the app.
func TestHostFiltersHostMethods(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := channel(t)
	a := startApp(t, ctx, dir)
	bw := runHost(t, ctx, nativemsg.HostConfig{Origin: goodOrigin, Dir: dir})
	if m := bw.call(t, `{"jsonrpc":"2.0","id":"a","method":"host.attach","params":{"origin":"chrome-extension://evilevilevilevilevilevilevilevil/"}}`); errCode(m) != nativemsg.CodeForbidden {
		t.Fatalf("host.attach from the browser = %v, want FORBIDDEN", m)
	}
	if m := bw.call(t, hello); m["result"] == nil {
		t.Fatalf("hello = %v", m)
	}
	if st := a.Status(); len(st.Clients) != 1 || st.Clients[0].Origin != goodOrigin {
		t.Fatalf("clients = %+v, want the verified origin", st.Clients)
	}
}
