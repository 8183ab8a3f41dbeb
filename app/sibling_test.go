package app

import (
	"net"
	"testing"

	"github.com/tessera-app/tessera/nativemsg"
)

// tessera-host, the file beside the app (nativemsg.Process.Sibling), is
// Tessera's own host: a browser is served through it. It is no CLI or
// agent, and the same process not known as either file is not the host.
func TestSiblingHost(t *testing.T) {
	peer := func(p nativemsg.Process) func(net.Conn) (nativemsg.PeerInfo, error) {
		return func(net.Conn) (nativemsg.PeerInfo, error) {
			return nativemsg.PeerInfo{Process: p, Browser: "chromium"}, nil
		}
	}
	host := nativemsg.Process{PID: 1, Exe: "/usr/bin/tessera-host", Sibling: true}
	stranger := nativemsg.Process{PID: 1, Exe: "/tmp/tessera-host"}
	for _, tc := range []struct {
		name    string
		p       nativemsg.Process
		attach  bool
		kind    string
		want    bool
		wantWhy string
	}{
		{"browser through tessera-host", host, true, "browser", true, ""},
		{"tessera-host as a cli", host, false, "cli", false, "it is not Tessera's own program (/usr/bin/tessera-host)"},
		{"browser through another tessera-host", stranger, true, "browser", false, "it is not Tessera's own host (/tmp/tessera-host)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := Config{Vault: fixedVault("unlocked"), Inspect: peer(tc.p)}
			var c net.Conn
			if tc.attach {
				_, dial := serveBrowser(t, cfg)
				c = dial()
			} else {
				_, dial := serve(t, cfg)
				c = dial()
			}
			r := helloAnswer(t, c, tc.kind)
			if r.Verified != tc.want || r.Why != tc.wantWhy {
				t.Fatalf("hello = %+v, want verified %v, why %q", r, tc.want, tc.wantWhy)
			}
		})
	}
}
