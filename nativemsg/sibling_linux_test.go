//go:build linux

package nativemsg_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tessera-app/tessera/nativemsg"
)

// The pair tessera and tessera-host, played by copies of this test binary
// under those names (TestSiblingRole): the app accepts the tessera-host
// beside it as its own host and nothing else of that name, and
// tessera-host accepts the tessera beside it as the app.
func TestSiblingVerification(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	install := func(path string) string {
		t.Helper()
		if err := os.WriteFile(path, bin, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, 0o755); err != nil { // whatever the umask
			t.Fatal(err)
		}
		return path
	}
	pair, elsewhere := t.TempDir(), t.TempDir()
	app := install(filepath.Join(pair, "tessera"))
	host := install(filepath.Join(pair, "tessera-host"))
	stray := install(filepath.Join(elsewhere, "tessera-host"))
	if got := nativemsg.Sibling(app); got != host {
		t.Fatalf("Sibling(%s) = %s, want %s", app, got, host)
	}
	if got := nativemsg.HostExecutable(app); got != host {
		t.Errorf("HostExecutable(%s) = %s, want the tessera-host beside it", app, got)
	}
	if alone := filepath.Join(t.TempDir(), "tessera"); nativemsg.HostExecutable(alone) != alone {
		got := nativemsg.HostExecutable(alone)
		t.Errorf("HostExecutable without a tessera-host beside = %s, want tessera itself", got)
	}

	dir := channel(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv := exec.CommandContext(ctx, app, "-test.run=^TestSiblingRole$")
	srv.Env = append(os.Environ(), "TESSERA_SIBLING_ROLE=app", "TESSERA_SIBLING_DIR="+dir)
	out, err := srv.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer srv.Wait()
	defer srv.Process.Kill()
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "listening\n" {
		t.Fatalf("app: %q, %v", line, err)
	}
	dial := func(t *testing.T, bin string) string {
		t.Helper()
		c := exec.CommandContext(ctx, bin, "-test.run=^TestSiblingRole$")
		c.Env = append(os.Environ(), "TESSERA_SIBLING_ROLE=dial", "TESSERA_SIBLING_DIR="+dir)
		b, err := c.Output()
		if err != nil {
			t.Fatalf("%s: %v: %s", bin, err, b)
		}
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "peer ") {
				return l
			}
		}
		t.Fatalf("%s printed no verdict: %s", bin, b)
		return ""
	}
	for _, tc := range []struct {
		name, bin string
		setup     func(t *testing.T)
		want      string
	}{
		{"the app itself", app, nil, "peer sameExe=true sibling=false app=ok"},
		{"tessera-host beside the app", host, nil, "peer sameExe=false sibling=true app=ok"},
		// A copy elsewhere is another file: the app does not take it for
		// its host, and it does not take the app for its own.
		{"a copy of tessera-host elsewhere", stray, nil, "peer sameExe=false sibling=false app=refused"},
		// Anyone may replace a file others can write: not Tessera's.
		{"tessera-host writable by others", host, func(t *testing.T) {
			if err := os.Chmod(host, 0o757); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(host, 0o755) })
		}, "peer sameExe=false sibling=false app=ok"},
		{"tessera-host writable by its group", host, func(t *testing.T) {
			if err := os.Chmod(host, 0o775); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(host, 0o755) })
		}, "peer sameExe=false sibling=false app=ok"},
		{"the app writable by others, seen from tessera-host", host, func(t *testing.T) {
			if err := os.Chmod(app, 0o757); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(app, 0o755) })
		}, "peer sameExe=false sibling=true app=refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.setup != nil {
				tc.setup(t)
			}
			if got := dial(t, tc.bin); got != tc.want {
				t.Errorf("%s: %q, want %q", tc.bin, got, tc.want)
			}
		})
	}
}

// TestSiblingRole is a process of TestSiblingVerification: as "app" it
// serves the channel and tells each peer what it verified of it; as
// "dial" it connects, verifies the app (VerifyApp) and prints both.
func TestSiblingRole(t *testing.T) {
	dir := os.Getenv("TESSERA_SIBLING_DIR")
	switch os.Getenv("TESSERA_SIBLING_ROLE") {
	case "app":
		l, err := nativemsg.Listen(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println("listening")
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			info, err := nativemsg.Inspect(c)
			if err != nil {
				fmt.Fprintf(c, "inspect: %v\n", err)
			} else {
				fmt.Fprintf(c, "sameExe=%v sibling=%v\n", info.Process.SameExe, info.Process.Sibling)
			}
			c.Close()
		}
	case "dial":
		c, err := nativemsg.Dial(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		verdict := "ok"
		if err := nativemsg.VerifyApp(c); err != nil {
			verdict = "refused"
		}
		line, err := bufio.NewReader(c).ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("peer %s app=%s\n", strings.TrimSpace(line), verdict)
	default:
		t.Skip("only run by TestSiblingVerification")
	}
}
