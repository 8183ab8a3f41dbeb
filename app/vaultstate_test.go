package app

import (
	"encoding/json"
	"net"
	"strings"
	"testing"

	"github.com/tessera-app/tessera/app/ui"
	"github.com/tessera-app/tessera/nativemsg"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

// serveVault serves an App over a new real vault (not yet set up) and
// returns a connection that has said hello.
func serveVault(t *testing.T) (*vault.Vault, *App, net.Conn) {
	t.Helper()
	v, err := vault.Open(t.TempDir(), vault.Options{ScryptWorkFactor: testWorkFactor})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	a, dial := serveBrowser(t, Config{Vault: v})
	c := dial()
	send(t, c, hello)
	recv(t, c)
	return v, a, c
}

// Every state change made in the window reaches connected browsers, which
// stop offering fills the moment the vault locks.
func TestVaultChangesReachBrowsers(t *testing.T) {
	_, a, c := serveVault(t)
	u := newUI(a)
	steps := []struct {
		name string
		do   func() (ui.VaultView, error)
		want string
	}{
		{"SetUpVault", func() (ui.VaultView, error) { return u.SetUpVault(goodPass, goodPass) }, vault.StateUnlocked},
		{"Lock", u.Lock, vault.StateLocked},
		{"Unlock", func() (ui.VaultView, error) { return u.Unlock(goodPass) }, vault.StateUnlocked},
	}
	for _, s := range steps {
		if _, err := s.do(); err != nil {
			t.Fatalf("%s() = %v", s.name, err)
		}
		m := recv(t, c)
		if p, _ := m["params"].(map[string]any); m["method"] != "vault.stateChanged" || p["state"] != s.want {
			t.Errorf("after %s() the browser got %v, want vault.stateChanged %s", s.name, m, s.want)
		}
	}
}

// TestProfileListOverProtocol checks that profile.list reports the vault's
// state as its protocol error while the vault cannot be read, and lists the
// profiles, without any value, once it can.
func TestProfileListOverProtocol(t *testing.T) {
	v, a, c := serveVault(t)
	list := func(id string) map[string]any {
		t.Helper()
		send(t, c, `{"jsonrpc":"2.0","id":"`+id+`","method":"profile.list"}`)
		for {
			m := recv(t, c)
			if m["id"] == id {
				return m
			}
		}
	}
	if m := list("1"); code(m) != nativemsg.CodeVaultUninitialized {
		t.Errorf("profile.list before set-up = %v, want %s", m, nativemsg.CodeVaultUninitialized)
	}

	u := newUI(a)
	if _, err := u.SetUpVault(goodPass, goodPass); err != nil {
		t.Fatal(err)
	}
	p, err := v.CreateProfile("", "Work")
	if err != nil {
		t.Fatal(err)
	}
	const secret = "distinctive-value-4711@example.org"
	if err := v.SetEntry(p.ID, vault.ConceptKey("https://schema.org/email"), profile.Entry{Value: json.RawMessage(`"` + secret + `"`), Confidence: 1}); err != nil {
		t.Fatal(err)
	}
	m := list("2")
	res, _ := m["result"].(map[string]any)
	ps, _ := res["profiles"].([]any)
	if len(ps) != 1 {
		t.Fatalf("profile.list unlocked = %v, want one profile", m)
	}
	got, _ := ps[0].(map[string]any)
	if got["label"] != "Work" || got["id"] != p.ID || got["entries"] != float64(1) {
		t.Errorf("profile.list profile = %v, want label Work, id %s, 1 entry", got, p.ID)
	}
	if b, _ := json.Marshal(m); strings.Contains(string(b), secret) || strings.Contains(string(b), "schema.org") {
		t.Errorf("profile.list leaks profile content: %s", b)
	}

	if _, err := u.Lock(); err != nil {
		t.Fatal(err)
	}
	if m := list("3"); code(m) != nativemsg.CodeVaultLocked {
		t.Errorf("profile.list locked = %v, want %s", m, nativemsg.CodeVaultLocked)
	}
	send(t, c, `{"jsonrpc":"2.0","id":"4","method":"profile.list","params":{"x":1}}`)
	for {
		m := recv(t, c)
		if m["id"] == "4" {
			if code(m) != nativemsg.CodeInvalidParams {
				t.Errorf("profile.list with unknown params = %v, want %s", m, nativemsg.CodeInvalidParams)
			}
			break
		}
	}
}
