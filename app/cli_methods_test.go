package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/tessera-app/tessera/devsync"
	"github.com/tessera-app/tessera/matcher"
	"github.com/tessera-app/tessera/nativemsg"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
	"github.com/tessera-app/tessera/vault/vaulttest"
)

// syncBuffer is a log the broker's goroutines may write concurrently.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// cliApp serves an App over a real socket with a real vault in a temporary
// directory, uninitialized, and returns a dialer of sessions of a kind.
func cliApp(t *testing.T, kr vault.Keyring) (*vault.Vault, func(kind string) *rpcConn, *syncBuffer) {
	t.Helper()
	opts := vault.Options{ScryptWorkFactor: testWorkFactor}
	if kr != nil {
		opts.Keyring = kr
	}
	v, err := vault.Open(t.TempDir(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	log := &syncBuffer{}
	// Every peer is Tessera's own executable started by a browser; a browser
	// session comes through its host, which attaches first.
	a, dial := serve(t, Config{Vault: v, Log: log, Inspect: browserPeer})
	dial = pairedDial(t, a, dial)
	return v, func(kind string) *rpcConn {
		c := &rpcConn{t: t, c: dial()}
		if kind == KindBrowser {
			send(t, c.c, attachFrame)
		}
		if r := c.call("session.hello", fmt.Sprintf(`{"protocol":[1],"client":{"kind":%q,"name":"test"}}`, kind)); code(r) != "" {
			t.Fatalf("hello as %s = %v", kind, r)
		}
		return c
	}, log
}

// rpcConn is one session; call sends a request and returns its answer,
// skipping notifications, which it keeps.
type rpcConn struct {
	t      *testing.T
	c      net.Conn
	n      int
	notes  []map[string]any
	frames []string // every frame received, to search for leaks
}

func (r *rpcConn) call(method, params string) map[string]any {
	r.t.Helper()
	r.n++
	id := fmt.Sprint(r.n)
	msg := fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"method":%q}`, id, method)
	if params != "" {
		msg = fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"method":%q,"params":%s}`, id, method, params)
	}
	send(r.t, r.c, msg)
	for {
		m := recv(r.t, r.c)
		b, _ := json.Marshal(m)
		r.frames = append(r.frames, string(b))
		if m["id"] == id {
			return m
		}
		r.notes = append(r.notes, m)
	}
}

func result(m map[string]any) map[string]any {
	r, _ := m["result"].(map[string]any)
	return r
}

func errMessage(m map[string]any) string {
	e, _ := m["error"].(map[string]any)
	s, _ := e["message"].(string)
	return s
}

const cliPass = "sunny meadow river"

func TestCLIMethodsForbiddenToOtherKinds(t *testing.T) {
	v, dial, _ := cliApp(t, nil)
	if err := v.Init(vault.InitOptions{Passphrase: []byte(cliPass)}); err != nil {
		t.Fatal(err)
	}
	v.Lock()
	pp, _ := json.Marshal(cliPass)
	calls := []struct{ method, params string }{
		{"vault.init", fmt.Sprintf(`{"passphrase":%s}`, pp)},
		{"vault.lock", `{}`},
		{"profile.import", `{"format":"json","data":"{\"$formspecProfile\":\"1.0\",\"id\":\"x\",\"label\":\"X\"}"}`},
		{"profile.set", `{"profile":"x","key":"https://schema.org/email","value":"a@b.example"}`},
		{"profile.show", fmt.Sprintf(`{"profile":"x","passphrase":%s}`, pp)},
		{"profile.unset", `{"profile":"x","key":"https://schema.org/email"}`},
		{"profile.delete", `{"profile":"x"}`},
		{"vault.passwd", fmt.Sprintf(`{"passphrase":%s,"newPassphrase":"violet copper tide"}`, pp)},
		{"vault.rekey", fmt.Sprintf(`{"passphrase":%s}`, pp)},
		{"profile.export", fmt.Sprintf(`{"passphrase":%s}`, pp)},
		{"sync.status", `{}`},
		{"sync.now", `{}`},
	}
	for _, kind := range []string{KindBrowser, KindAgent} {
		c := dial(kind)
		for _, call := range calls {
			if m := c.call(call.method, call.params); code(m) != nativemsg.CodeForbidden {
				t.Errorf("%s session: %s = %v, want %s", kind, call.method, m, nativemsg.CodeForbidden)
			}
		}
		// A browser's vault.unlock brings the unlock screen forward (here
		// there is no window), never unlocks with a passphrase it sends.
		m := c.call("vault.unlock", fmt.Sprintf(`{"passphrase":%s}`, pp))
		if r := result(m); r["state"] != vault.StateLocked || r["shown"] != false || v.State() != vault.StateLocked {
			t.Errorf("%s session: vault.unlock with a passphrase = %v; vault %s, want the unlock screen's answer and the vault locked", kind, m, v.State())
		}
	}
}

func TestCLIVaultLifecycle(t *testing.T) {
	v, dial, log := cliApp(t, nil)
	c := dial(KindCLI)
	browser := dial(KindBrowser)
	pp, _ := json.Marshal(cliPass)
	steps := []struct {
		name, method, params string
		code                 string // "" means success
		state                string // the vault's state after the step
	}{
		{"unlock before init", "vault.unlock", fmt.Sprintf(`{"passphrase":%s}`, pp), nativemsg.CodeVaultUninitialized, vault.StateUninitialized},
		{"set before init", "profile.set", `{"profile":"home","key":"https://schema.org/email","value":"a@b.example"}`, nativemsg.CodeVaultUninitialized, vault.StateUninitialized},
		{"init weak", "vault.init", `{"passphrase":"password123"}`, nativemsg.CodeInvalidValue, vault.StateUninitialized},
		{"init short", "vault.init", `{"passphrase":"Zq9!"}`, nativemsg.CodeInvalidValue, vault.StateUninitialized},
		{"init unknown field", "vault.init", `{"passphrase":"x","workFactor":10}`, nativemsg.CodeInvalidParams, vault.StateUninitialized},
		// No keyring in this app: init without a passphrase cannot work.
		{"init keyring only", "vault.init", `{}`, nativemsg.CodeUnsupported, vault.StateUninitialized},
		{"init", "vault.init", fmt.Sprintf(`{"passphrase":%s}`, pp), "", vault.StateUnlocked},
		{"init again", "vault.init", fmt.Sprintf(`{"passphrase":%s}`, pp), nativemsg.CodeInvalidValue, vault.StateUnlocked},
		{"lock", "vault.lock", `{}`, "", vault.StateLocked},
		{"set while locked", "profile.set", `{"profile":"home","key":"https://schema.org/email","value":"a@b.example"}`, nativemsg.CodeVaultLocked, vault.StateLocked},
		{"unlock wrong", "vault.unlock", `{"passphrase":"meadow sunny river"}`, nativemsg.CodeInvalidValue, vault.StateLocked},
		{"unlock keyring", "vault.unlock", `{}`, nativemsg.CodeUnsupported, vault.StateLocked},
		{"unlock", "vault.unlock", fmt.Sprintf(`{"passphrase":%s}`, pp), "", vault.StateUnlocked},
		{"lock without params", "vault.lock", ``, "", vault.StateLocked},
		{"unlock again", "vault.unlock", fmt.Sprintf(`{"passphrase":%s}`, pp), "", vault.StateUnlocked},
	}
	for _, s := range steps {
		m := c.call(s.method, s.params)
		if got := code(m); got != s.code {
			t.Fatalf("%s: %s(%s) = %v, want code %q", s.name, s.method, s.params, m, s.code)
		}
		if s.code == "" && result(m)["state"] != s.state {
			t.Errorf("%s: result %v, want state %q", s.name, m, s.state)
		}
		if got := v.State(); got != s.state {
			t.Fatalf("%s: vault %s, want %s", s.name, got, s.state)
		}
	}
	// Every state change reached the browser; wait for the last one by
	// asking something after it.
	browser.call("session.ping", `{"payload":1}`)
	var states []string
	for _, n := range browser.notes {
		if n["method"] == "vault.stateChanged" {
			p, _ := n["params"].(map[string]any)
			states = append(states, fmt.Sprint(p["state"]))
		}
	}
	if want := "unlocked locked unlocked locked unlocked"; strings.Join(states, " ") != want {
		t.Errorf("browser saw vault.stateChanged %q, want %q", states, want)
	}
	for _, f := range append(c.frames, browser.frames...) {
		if strings.Contains(f, cliPass) || strings.Contains(f, "password123") {
			t.Errorf("a frame carries a passphrase: %s", f)
		}
	}
	if l := log.String(); strings.Contains(l, cliPass) || strings.Contains(l, "meadow sunny") {
		t.Errorf("the log carries a passphrase: %s", l)
	}
}

func TestCLIProfiles(t *testing.T) {
	v, dial, _ := cliApp(t, nil)
	if err := v.Init(vault.InitOptions{Passphrase: []byte(cliPass)}); err != nil {
		t.Fatal(err)
	}
	c := dial(KindCLI)
	pp, _ := json.Marshal(cliPass)
	work, _ := json.Marshal(`{"$formspecProfile":"1.0","id":"work","label":"Work","concepts":{"https://schema.org/email":{"value":"sam@work.example"}}}`)
	card, _ := json.Marshal("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Bruno Okafor\r\nEMAIL:bruno@example.org\r\nEND:VCARD\r\n")
	steps := []struct {
		name, method, params string
		code                 string
		want                 []string // substrings of the answer
	}{
		{"set creates", "profile.set", `{"profile":"home","key":"https://schema.org/givenName","value":"Noor","label":"Home stuff"}`, "", []string{`"created":true`, `"key":"concept:https://schema.org/givenName"`}},
		{"set field", "profile.set", `{"profile":"home","key":"field:loyalty.card","value":"L-1029"}`, "", []string{`"created":false`, `"key":"field:loyalty.card"`}},
		{"set JSON value", "profile.set", `{"profile":"home","key":"concept:https://schema.org/address","value":{"postalCode":"1015 CJ"}}`, "", nil},
		{"set null", "profile.set", `{"profile":"home","key":"x","value":null}`, nativemsg.CodeInvalidParams, nil},
		{"set no key", "profile.set", `{"profile":"home","value":"v"}`, nativemsg.CodeInvalidParams, nil},
		// The command line's rule for concept keys (matcher.ResolveConceptKey).
		{"set unknown property", "profile.set", `{"profile":"home","key":"https://schema.org/fooBar","value":"v"}`, nativemsg.CodeInvalidParams, []string{`unknown schema.org property`}},
		{"set lower-cased property", "profile.set", `{"profile":"home","key":"concept:https://schema.org/birthdate","value":"1990-01-01"}`, nativemsg.CodeInvalidParams, []string{`did you mean \"birthDate\"`}},
		{"list", "profile.list", `{}`, "", []string{`"label":"Home stuff"`, `"entries":3`}},
		{"show without passphrase", "profile.show", `{"profile":"home"}`, nativemsg.CodeForbidden, []string{"--passphrase-file"}},
		{"show wrong passphrase", "profile.show", `{"profile":"home","passphrase":"not the one"}`, nativemsg.CodeInvalidValue, []string{"wrong passphrase"}},
		{"show", "profile.show", fmt.Sprintf(`{"profile":"home","passphrase":%s}`, pp), "", []string{`"Noor"`, `"L-1029"`, `"1015 CJ"`}},
		{"show missing", "profile.show", fmt.Sprintf(`{"profile":"nope","passphrase":%s}`, pp), nativemsg.CodeNotFound, nil},
		{"import json", "profile.import", fmt.Sprintf(`{"format":"json","data":%s}`, work), "", []string{`"imported":["work"]`, `"created":1`, `"learned":1`}},
		{"import vcard as", "profile.import", fmt.Sprintf(`{"format":"vcard","data":%s,"profile":"bruno"}`, card), "", []string{`"imported":["bruno"]`}},
		{"import bad format", "profile.import", `{"format":"csv","data":""}`, nativemsg.CodeInvalidParams, nil},
		{"import broken", "profile.import", `{"format":"json","data":"{\"id\": "}`, nativemsg.CodeInvalidValue, nil},
		{"export without passphrase", "profile.export", `{}`, nativemsg.CodeForbidden, nil},
		{"export some", "profile.export", fmt.Sprintf(`{"profiles":["work","bruno"],"passphrase":%s}`, pp), "", []string{`"sam@work.example"`, `"bruno@example.org"`}},
		{"unset", "profile.unset", `{"profile":"work","key":"https://schema.org/email"}`, "", []string{`"done":true`}},
		{"unset again", "profile.unset", `{"profile":"work","key":"https://schema.org/email"}`, nativemsg.CodeNotFound, nil},
		{"delete", "profile.delete", `{"profile":"bruno"}`, "", []string{`"done":true`}},
		{"delete again", "profile.delete", `{"profile":"bruno"}`, nativemsg.CodeNotFound, nil},
	}
	for _, s := range steps {
		m := c.call(s.method, s.params)
		if got := code(m); got != s.code {
			t.Fatalf("%s: %s(%s) = %v, want code %q", s.name, s.method, s.params, m, s.code)
		}
		b, _ := json.Marshal(m)
		for _, w := range s.want {
			if !strings.Contains(string(b), w) {
				t.Errorf("%s: answer %s lacks %s", s.name, b, w)
			}
		}
	}
	p, err := v.Profile("home")
	if err != nil {
		t.Fatal(err)
	}
	if e := p.Fields["loyalty.card"]; string(e.Value) != `"L-1029"` || !e.Verified || e.Source.Type != "manual" {
		t.Errorf("profile.set stored %+v, want a verified manual \"L-1029\"", e)
	}
	m := c.call("profile.export", fmt.Sprintf(`{"passphrase":%s}`, pp))
	if ps, _ := result(m)["profiles"].([]any); len(ps) != 2 {
		t.Errorf("profile.export of all = %v, want 2 profiles", m)
	}
	if w, err := v.Profile("work"); err != nil || len(w.Concepts) != 0 {
		t.Errorf("after profile.unset work = %+v, %v; want it without entries", w, err)
	}
}

func TestCLIPasswdRekey(t *testing.T) {
	v, dial, _ := cliApp(t, nil)
	if err := v.Init(vault.InitOptions{Passphrase: []byte(cliPass)}); err != nil {
		t.Fatal(err)
	}
	if _, err := v.CreateProfile("home", "Home"); err != nil {
		t.Fatal(err)
	}
	v.Lock()
	c := dial(KindCLI)
	const next = "violet copper tide"
	steps := []struct {
		name, method, params string
		code                 string
	}{
		{"weak new", "vault.passwd", `{"passphrase":"sunny meadow river","newPassphrase":"password1"}`, nativemsg.CodeInvalidValue},
		{"wrong current", "vault.passwd", `{"passphrase":"meadow sunny river","newPassphrase":"violet copper tide"}`, nativemsg.CodeInvalidValue},
		// Replacing a passphrase takes the current one.
		{"no current", "vault.passwd", `{"newPassphrase":"violet copper tide"}`, nativemsg.CodeInvalidValue},
		{"passwd", "vault.passwd", `{"passphrase":"sunny meadow river","newPassphrase":"violet copper tide"}`, ""},
		{"old no longer unlocks", "vault.unlock", `{"passphrase":"sunny meadow river"}`, nativemsg.CodeInvalidValue},
		{"rekey wrong", "vault.rekey", `{"passphrase":"sunny meadow river"}`, nativemsg.CodeInvalidValue},
		{"rekey", "vault.rekey", `{"passphrase":"violet copper tide"}`, ""},
		{"lock", "vault.lock", `{}`, ""},
		{"new unlocks", "vault.unlock", `{"passphrase":"violet copper tide"}`, ""},
	}
	for _, s := range steps {
		if m := c.call(s.method, s.params); code(m) != s.code {
			t.Fatalf("%s: %s = %v, want code %q", s.name, s.method, m, s.code)
		}
	}
	if _, err := v.Profile("home"); err != nil {
		t.Errorf("after passwd and rekey: %v", err)
	}
	v.Lock()
	if err := v.UnlockPassphrase([]byte(next)); err != nil {
		t.Errorf("the vault file opens with the new passphrase: %v", err)
	}
}

// A vault that only the keyring opens gets its first passphrase without a
// current one, as in the window.
func TestCLIPasswdFirst(t *testing.T) {
	v, dial, _ := cliApp(t, &vaulttest.Keyring{})
	c := dial(KindCLI)
	c.call("vault.init", `{}`)
	if m := c.call("vault.passwd", `{"newPassphrase":"violet copper tide"}`); code(m) != "" {
		t.Fatalf("vault.passwd on a keyring-only vault = %v", m)
	}
	if info, _ := v.Info(); !info.HasPassphrase {
		t.Errorf("after vault.passwd: %+v, want a passphrase", info)
	}
}

// A reveal with the passphrase unlocks a locked vault, as vault.unlock
// does; a wrong one leaves it locked.
func TestCLIRevealUnlocks(t *testing.T) {
	v, dial, _ := cliApp(t, nil)
	if err := v.Init(vault.InitOptions{Passphrase: []byte(cliPass)}); err != nil {
		t.Fatal(err)
	}
	if _, err := v.CreateProfile("home", "Home"); err != nil {
		t.Fatal(err)
	}
	v.Lock()
	c := dial(KindCLI)
	if m := c.call("profile.show", `{"profile":"home","passphrase":"not the one"}`); code(m) != nativemsg.CodeInvalidValue || v.State() != vault.StateLocked {
		t.Fatalf("profile.show with a wrong passphrase = %v, vault %s; want INVALID_VALUE and locked", m, v.State())
	}
	pp, _ := json.Marshal(cliPass)
	if m := c.call("profile.show", fmt.Sprintf(`{"profile":"home","passphrase":%s}`, pp)); code(m) != "" || result(m)["label"] != "Home" {
		t.Fatalf("profile.show = %v, want the profile", m)
	}
	if v.State() != vault.StateUnlocked {
		t.Errorf("after profile.show with the passphrase the vault is %s, want unlocked", v.State())
	}
}

func TestCLIKeyring(t *testing.T) {
	kr := &vaulttest.Keyring{}
	v, dial, _ := cliApp(t, kr)
	c := dial(KindCLI)
	if m := c.call("vault.init", `{}`); code(m) != "" || v.State() != vault.StateUnlocked {
		t.Fatalf("vault.init with the keyring = %v, vault %s", m, v.State())
	}
	if info, _ := v.Info(); !info.HasKeyring || info.HasPassphrase {
		t.Errorf("after a keyring-only init: %+v", info)
	}
	c.call("vault.lock", `{}`)
	if m := c.call("vault.unlock", `{}`); code(m) != "" || v.State() != vault.StateUnlocked {
		t.Fatalf("vault.unlock with the keyring = %v, vault %s", m, v.State())
	}
	// Without a passphrase nothing proves the person is behind the call.
	if m := c.call("profile.export", `{"passphrase":"anything at all"}`); code(m) != nativemsg.CodeInvalidValue || !strings.Contains(errMessage(m), "no passphrase") {
		t.Errorf("profile.export on a keyring-only vault = %v, want INVALID_VALUE saying it has no passphrase", m)
	}
}

func TestCLINoVault(t *testing.T) {
	_, dial := serve(t, Config{})
	c := &rpcConn{t: t, c: dial()}
	c.call("session.hello", `{"protocol":[1],"client":{"kind":"cli"}}`)
	for _, method := range []string{"vault.lock", "vault.unlock"} {
		if m := c.call(method, `{}`); code(m) != nativemsg.CodeUnsupported {
			t.Errorf("%s without a vault = %v, want %s", method, m, nativemsg.CodeUnsupported)
		}
	}
}

// TestCatalogConceptsAreKnown checks that every concept the window offers
// passes the rule profile.set applies to concept keys, so the window and
// the command line accept the same concepts.
func TestCatalogConceptsAreKnown(t *testing.T) {
	for _, c := range profile.Catalog {
		if got, err := matcher.ResolveConceptKey(c.IRI); err != nil || got != c.IRI {
			t.Errorf("ResolveConceptKey(%q) = %q, %v; want it unchanged", c.IRI, got, err)
		}
	}
}

// The command line asks the running app for its sync's state: off until
// the folder is set up, then the folder's devices.
func TestCLISync(t *testing.T) {
	v, dial, _ := cliApp(t, nil)
	if err := v.Init(vault.InitOptions{Passphrase: []byte(cliPass)}); err != nil {
		t.Fatal(err)
	}
	c := dial(KindCLI)
	if m := c.call("sync.status", `{}`); code(m) != nativemsg.CodeUnsupported || !strings.Contains(errMessage(m), "not running") {
		t.Errorf("sync.status before set-up = %v, want UNSUPPORTED: not running", m)
	}
	s, err := devsync.Setup(context.Background(), v, t.TempDir(), "laptop", []byte(cliPass), devsync.Options{WorkFactor: testWorkFactor})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	// The app follows the vault: locked and unlocked, it finds the set-up.
	c.call("vault.lock", `{}`)
	pp, _ := json.Marshal(cliPass)
	if m := c.call("vault.unlock", fmt.Sprintf(`{"passphrase":%s}`, pp)); code(m) != "" {
		t.Fatal(m)
	}
	m := c.call("sync.now", `{}`)
	if code(m) != "" || result(m)["status"] == nil {
		t.Fatalf("sync.now = %v", m)
	}
	m = c.call("sync.status", `{}`)
	if r := result(m); code(m) != "" || r["name"] != "laptop" {
		t.Errorf("sync.status = %v, want the folder's state naming this device", m)
	}
}
