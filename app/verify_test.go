package app

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tessera-app/tessera/app/broker"
	"github.com/tessera-app/tessera/nativemsg"
)

// browserPeer stands in for nativemsg.Inspect in tests of the broker's other
// duties: every peer is Tessera's own host, started by Chromium.
func browserPeer(net.Conn) (nativemsg.PeerInfo, error) {
	return nativemsg.PeerInfo{Process: nativemsg.Process{PID: 1, Exe: "/usr/bin/tessera", SameExe: true}, Browser: "chromium"}, nil
}

// attachFrame is what the real host sends first.
var attachFrame = `{"jsonrpc":"2.0","method":"host.attach","params":{"origin":"chrome-extension://` + nativemsg.ChromeExtensionID + `/"}}`

// serveBrowser is serve for connections that come through a browser's host
// of a paired extension install: each dialled connection first sends
// host.attach, as the real host does, and proves the install's key after
// a browser's hello (pairedConn).
func serveBrowser(t *testing.T, cfg Config) (*App, func() net.Conn) {
	t.Helper()
	if cfg.Inspect == nil {
		cfg.Inspect = browserPeer
	}
	a, dial := serve(t, cfg)
	// The extension install is paired: its sessions prove it after hello.
	paired := pairedDial(t, a, dial)
	return a, func() net.Conn {
		c := paired()
		send(t, c, attachFrame)
		return c
	}
}

func helloAnswer(t *testing.T, c net.Conn, kind string) nativemsg.HelloResult {
	t.Helper()
	send(t, c, `{"jsonrpc":"2.0","id":"h","method":"session.hello","params":{"protocol":[1],"client":{"kind":"`+kind+`","name":"Chromium"}}}`)
	m := recv(t, c)
	var r nativemsg.HelloResult
	b, _ := json.Marshal(m["result"])
	if err := json.Unmarshal(b, &r); err != nil || m["result"] == nil {
		t.Fatalf("hello = %v", m)
	}
	return r
}

const listProfilesMsg = `{"jsonrpc":"2.0","id":"p","method":"profile.list","params":{}}`

// The attacks of issue 18 on who is served, against the real process
// inspection: this test process is not started by a browser, so whatever it
// claims, it is no browser; host.attach from it, a second attach, or one
// after other frames changes nothing.
func TestForgedBrowserRefused(t *testing.T) {
	for _, tc := range []struct {
		name   string
		frames []string
	}{
		{"hello as browser", nil},
		{"forged attach", []string{attachFrame}},
		{"attach after a ping", []string{`{"jsonrpc":"2.0","id":"x","method":"session.ping","params":{}}`, attachFrame}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, dial := serve(t, Config{Vault: fixedVault("unlocked")})
			c := dial()
			for _, f := range tc.frames {
				send(t, c, f)
				if strings.Contains(f, `"id"`) {
					recv(t, c)
				}
			}
			r := helloAnswer(t, c, "browser")
			if r.Verified || r.Why == "" {
				t.Fatalf("hello = %+v, want unverified with a reason", r)
			}
			send(t, c, listProfilesMsg)
			if m := recv(t, c); code(m) != nativemsg.CodeNotVerified {
				t.Fatalf("profile.list from a forged browser = %v, want NOT_VERIFIED", m)
			}
		})
	}
}

// A verified host's session cannot be re-pointed: a second host.attach
// (what the extension could send through a host that did not filter it)
// does not replace the origin.
func TestSecondAttachIgnored(t *testing.T) {
	a, dial := serveBrowser(t, Config{Vault: fixedVault("unlocked")})
	c := dial()
	send(t, c, `{"jsonrpc":"2.0","method":"host.attach","params":{"origin":"chrome-extension://evilevilevilevilevilevilevilevil/"}}`)
	if r := helloAnswer(t, c, "browser"); !r.Verified {
		t.Fatalf("hello = %+v, want verified", r)
	}
	st := a.Status()
	if len(st.Clients) != 1 || st.Clients[0].Origin != "chrome-extension://"+nativemsg.ChromeExtensionID+"/" || st.Clients[0].Browser != "chromium" {
		t.Fatalf("clients = %+v, want Tessera's origin from the first attach", st.Clients)
	}
}

// The CLI and agents are Tessera's own executable: this test binary is the
// app's executable here, so it is verified as a CLI, but not once it
// claims to be a browser's host's client, and a copy of it elsewhere (another
// file) is not Tessera.
func TestCLIVerifiedByExecutable(t *testing.T) {
	_, dial := serve(t, Config{Vault: fixedVault("unlocked")})
	if r := helloAnswer(t, dial(), "cli"); !r.Verified {
		t.Fatalf("cli hello = %+v, want verified", r)
	}
	if os.Getenv("TESSERA_VERIFY_CHILD") != "" {
		return
	}
	// A copy of this very binary is another file: not Tessera.
	cp := copyOfTestBinary(t)
	a, _ := serve(t, Config{Vault: fixedVault("unlocked")})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, cp, "-test.run=^TestImpostorClient$", "-test.v")
	cmd.Env = append(os.Environ(), "TESSERA_VERIFY_CHILD=1", "TESSERA_VERIFY_DIR="+a.cfg.SocketDir)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "impostor refused") {
		t.Fatalf("impostor run: %v\n%s", err, out)
	}
}

// TestImpostorClient runs only as the child of TestCLIVerifiedByExecutable,
// from a copy of the test binary.
func TestImpostorClient(t *testing.T) {
	dir := os.Getenv("TESSERA_VERIFY_DIR")
	if dir == "" {
		t.Skip("only run by TestCLIVerifiedByExecutable")
	}
	c, err := nativemsg.Dial(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r := helloAnswer(t, c, "cli")
	if r.Verified {
		t.Fatalf("hello from a copy = %+v, want unverified", r)
	}
	send(t, c, listProfilesMsg)
	if m := recv(t, c); code(m) != nativemsg.CodeNotVerified {
		t.Fatalf("profile.list = %v, want NOT_VERIFIED", m)
	}
	t.Log("impostor refused")
}

// Before a session is verified, a frame bigger than hello needs is refused.
func TestUnverifiedFrameLimit(t *testing.T) {
	_, dial := serve(t, Config{})
	c := dial()
	big := `{"jsonrpc":"2.0","id":"1","method":"session.ping","params":{"payload":"` + strings.Repeat("x", broker.MaxUnverifiedFrame) + `"}}`
	send(t, c, big)
	if m := recv(t, c); code(m) != nativemsg.CodeTooLarge {
		t.Fatalf("oversized unverified frame = %v, want TOO_LARGE", m)
	}
}

// Where the platform cannot check processes yet (macOS, Windows), peers
// are served on the user check alone, and never shown as verified.
func TestUnsupportedPlatformServedUnverified(t *testing.T) {
	unsupported := func(net.Conn) (nativemsg.PeerInfo, error) {
		return nativemsg.PeerInfo{}, nativemsg.ErrVerifyUnsupported
	}
	a, dial := serveBrowser(t, Config{Vault: fixedVault("unlocked"), Inspect: unsupported})
	c := dial()
	if r := helloAnswer(t, c, "browser"); !r.Verified {
		t.Fatalf("hello = %+v, want served", r)
	}
	send(t, c, `{"jsonrpc":"2.0","id":"s","method":"vault.status","params":{}}`)
	if m := recv(t, c); m["result"] == nil {
		t.Fatalf("vault.status = %v", m)
	}
	st := a.Status()
	if len(st.Clients) != 1 || st.Clients[0].Verified || st.Clients[0].Why == "" {
		t.Fatalf("clients = %+v, want one shown as not verified, with why", st.Clients)
	}
}

// copyOfTestBinary copies this test binary to another file: the same code,
// but not this executable.
func copyOfTestBinary(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	cp := filepath.Join(t.TempDir(), "stranger")
	if err := os.WriteFile(cp, b, 0o700); err != nil {
		t.Fatal(err)
	}
	return cp
}
