package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tessera-app/tessera/app/trust"
	"github.com/tessera-app/tessera/nativemsg"
)

// The attacks on "Trusted browsers", with real processes: a user-owned
// program the built-in rule refuses starts Tessera's host (this test
// binary, the app's own executable). Not approved, it is refused; approved
// in Settings, served; the file changed in place, or another file put at
// its path (same contents, another inode), refused until approved again;
// the approval withdrawn, refused.
func TestTrustedBrowser(t *testing.T) {
	if os.Getenv("TESSERA_TB_ROLE") != "" {
		t.Skip("a child of this test")
	}
	a, _ := serve(t, Config{Home: t.TempDir(), Vault: fixedVault("unlocked")})
	u := newUI(a)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	browser := filepath.Join(dir, "mybrowser")
	copyFile(t, self, browser)
	// run starts browser, which starts the host; it returns what the
	// app answered the host's hello.
	run := func(browser string) (verified bool, why string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, browser, "-test.run=^TestTrustedBrowserChild$", "-test.v")
		cmd.Env = append(os.Environ(), "TESSERA_TB_ROLE=browser", "TESSERA_TB_SELF="+self, "TESSERA_TB_DIR="+a.cfg.SocketDir)
		out, err := cmd.CombinedOutput()
		m := regexp.MustCompile(`RESULT verified=(\w+) why="(.*)"`).FindStringSubmatch(string(out))
		if err != nil || m == nil {
			t.Fatalf("browser run: %v\n%s", err, out)
		}
		return m[1] == "true", m[2]
	}
	refused := func(path string) (trust.RefusedBrowser, bool) {
		v, _ := u.TrustedBrowsers()
		i := slices.IndexFunc(v.Refused, func(r trust.RefusedBrowser) bool { return r.Path == path })
		if i < 0 {
			return trust.RefusedBrowser{}, false
		}
		return v.Refused[i], true
	}

	if _, err := u.TrustBrowser(browser); err == nil {
		t.Fatalf("TrustBrowser of a program never refused succeeded")
	}
	if ok, why := run(browser); ok || !strings.Contains(why, browser) {
		t.Fatalf("unapproved browser: verified %v, why %q; want refused, naming %s", ok, why, browser)
	}
	if r, ok := refused(browser); !ok || r.Changed {
		t.Fatalf("Settings' refused browsers lack %s: %+v", browser, r)
	}
	v, err := u.TrustBrowser(browser)
	if err != nil || len(v.Trusted) != 1 || v.Trusted[0].Path != browser || len(v.Trusted[0].SHA256) != 64 {
		t.Fatalf("TrustBrowser = %+v, %v", v, err)
	}
	if ok, why := run(browser); !ok {
		t.Fatalf("approved browser refused: %s", why)
	}

	// Changed in place: the same inode, other contents.
	f, err := os.OpenFile(browser, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("\x00changed"))
	f.Close()
	if ok, why := run(browser); ok || !strings.Contains(why, "changed") {
		t.Fatalf("browser changed in place: verified %v, why %q; want refused as changed", ok, why)
	}
	if r, ok := refused(browser); !ok || !r.Changed {
		t.Errorf("Settings does not show %s as changed: %+v", browser, r)
	}
	if _, err := u.TrustBrowser(browser); err != nil {
		t.Fatal(err)
	}
	if ok, why := run(browser); !ok {
		t.Fatalf("browser approved again refused: %s", why)
	}

	// Another file at the path: the same contents, another inode.
	other := filepath.Join(dir, "other")
	copyFile(t, browser, other)
	if err := os.Rename(other, browser); err != nil {
		t.Fatal(err)
	}
	if ok, why := run(browser); ok || !strings.Contains(why, "changed") {
		t.Fatalf("another file at the approved path: verified %v, why %q; want refused", ok, why)
	}
	if _, err := u.TrustBrowser(browser); err != nil {
		t.Fatal(err)
	}
	if ok, _ := run(browser); !ok {
		t.Fatalf("re-approved browser refused")
	}

	// A program named like a browser, in a directory others may write
	// (the rule's test even when the tests run as root), never approved.
	open := t.TempDir()
	if err := os.Chmod(open, 0o777); err != nil {
		t.Fatal(err)
	}
	chromium := filepath.Join(open, "chromium")
	copyFile(t, self, chromium)
	if ok, why := run(chromium); ok {
		t.Fatalf("an unapproved user-owned chromium was served (%q)", why)
	}

	if v, err := u.UntrustBrowser(browser); err != nil || len(v.Trusted) != 0 {
		t.Fatalf("UntrustBrowser = %+v, %v", v, err)
	}
	if ok, _ := run(browser); ok {
		t.Fatalf("browser served after its approval was withdrawn")
	}
	if _, err := u.UntrustBrowser(browser); err == nil {
		t.Errorf("UntrustBrowser of a browser not approved succeeded")
	}
}

// TestTrustedBrowserChild is the browser and the host of TestTrustedBrowser.
func TestTrustedBrowserChild(t *testing.T) {
	switch os.Getenv("TESSERA_TB_ROLE") {
	case "browser":
		cmd := exec.Command(os.Getenv("TESSERA_TB_SELF"), "-test.run=^TestTrustedBrowserChild$", "-test.v")
		cmd.Env = append(os.Environ(), "TESSERA_TB_ROLE=host")
		out, err := cmd.CombinedOutput()
		fmt.Printf("%s\n", out)
		if err != nil {
			t.Fatal(err)
		}
	case "host":
		c, err := nativemsg.Dial(context.Background(), os.Getenv("TESSERA_TB_DIR"))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		send(t, c, attachFrame)
		r := helloAnswer(t, c, KindBrowser)
		fmt.Printf("RESULT verified=%v why=%q\n", r.Verified, r.Why)
	default:
		t.Skip("only run by TestTrustedBrowser")
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	src, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o700)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
}
