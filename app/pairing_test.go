package app

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tessera-app/tessera/app/broker"
	"github.com/tessera-app/tessera/app/trust"
	"github.com/tessera-app/tessera/nativemsg"
)

// testInstall is an extension install's key pair, made with real crypto as
// WebCrypto makes it: ECDSA P-256, signatures r‖s.
type testInstall struct {
	priv *ecdsa.PrivateKey
	raw  []byte
}

func newInstall(t testing.TB) testInstall {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := k.PublicKey.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return testInstall{priv: k, raw: raw}
}

// sign signs msg as WebCrypto's ECDSA with SHA-256 does (IEEE P1363).
func (k testInstall) sign(t testing.TB, msg []byte) []byte {
	t.Helper()
	h := sha256.Sum256(msg)
	r, s, err := ecdsa.Sign(rand.Reader, k.priv, h[:])
	if err != nil {
		t.Fatal(err)
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return sig
}

// params are pair.prove's or pair.request's params proving k for the
// session sid with challenge.
func (k testInstall) params(t testing.TB, challenge []byte, sid string) string {
	t.Helper()
	b, _ := json.Marshal(nativemsg.PairParams{
		Key:       base64.StdEncoding.EncodeToString(k.raw),
		Signature: base64.StdEncoding.EncodeToString(k.sign(t, trust.SignedMessage(challenge, sid))),
	})
	return string(b)
}

// pairedConn stands for an extension install the person paired, in tests
// of the broker's other duties: when the test says hello as a browser, it
// proves the install's key (pair.prove) before the test sees hello's
// answer, as the real extension does.
type pairedConn struct {
	net.Conn
	t    *testing.T
	key  testInstall
	mu   sync.Mutex
	held bytes.Buffer // frames read while proving, for the test's reads
}

// pairedDial pairs one install with a and returns a dialer whose
// connections prove it.
func pairedDial(t *testing.T, a *App, dial func() net.Conn) func() net.Conn {
	t.Helper()
	k := newInstall(t)
	if err := a.pairs.Add(trust.PairedBrowser{ID: trust.KeyID(k.raw), Key: k.raw, Origin: "chrome-extension://" + nativemsg.ChromeExtensionID + "/", Browser: "chromium"}); err != nil {
		t.Fatal(err)
	}
	return func() net.Conn { return &pairedConn{Conn: dial(), t: t, key: k} }
}

func (c *pairedConn) Read(b []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held.Len() > 0 {
		return c.held.Read(b)
	}
	return c.Conn.Read(b)
}

func (c *pairedConn) Write(b []byte) (int, error) {
	var m struct {
		ID     string                `json:"id"`
		Method string                `json:"method"`
		Params nativemsg.HelloParams `json:"params"`
	}
	if len(b) < 4 || json.Unmarshal(b[4:], &m) != nil || m.Method != "session.hello" || (m.Params.Client.Kind != KindBrowser && m.Params.Client.Kind != "") {
		return c.Conn.Write(b)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	n, err := c.Conn.Write(b)
	if err != nil {
		return n, err
	}
	// Read up to hello's answer, holding every frame for the test.
	var hello nativemsg.HelloResult
	for {
		f, err := nativemsg.ReadFrame(c.Conn, nativemsg.MaxIncoming)
		if err != nil {
			return n, err
		}
		c.hold(f)
		var r struct {
			ID     string                 `json:"id"`
			Result *nativemsg.HelloResult `json:"result"`
		}
		if json.Unmarshal(f, &r) == nil && r.ID == m.ID {
			if r.Result != nil {
				hello = *r.Result
			}
			break
		}
	}
	if hello.Challenge == "" {
		return n, nil // not served or not a browser: nothing to prove
	}
	ch, _ := base64.StdEncoding.DecodeString(hello.Challenge)
	msg := fmt.Sprintf(`{"jsonrpc":"2.0","id":"pair-proof","method":"pair.prove","params":%s}`, c.key.params(c.t, ch, hello.Session))
	if err := nativemsg.WriteFrame(c.Conn, []byte(msg)); err != nil {
		return n, err
	}
	for {
		f, err := nativemsg.ReadFrame(c.Conn, nativemsg.MaxIncoming)
		if err != nil {
			return n, err
		}
		if bytes.Contains(f, []byte(`"pair-proof"`)) {
			if !bytes.Contains(f, []byte(`"paired":true`)) {
				c.t.Errorf("pair.prove of a paired install = %s", f)
			}
			return n, nil
		}
		c.hold(f)
	}
}

func (c *pairedConn) hold(f []byte) {
	c.held.Write(binary.NativeEndian.AppendUint32(nil, uint32(len(f))))
	c.held.Write(f)
}

// browserHello says hello as a browser through its host and returns the
// answer, with the challenge decoded.
func browserHello(t *testing.T, c net.Conn) (nativemsg.HelloResult, []byte) {
	t.Helper()
	r := helloAnswer(t, c, KindBrowser)
	ch, err := base64.StdEncoding.DecodeString(r.Challenge)
	if err != nil || len(ch) != trust.ChallengeSize {
		t.Fatalf("hello challenge = %q, want %d random bytes", r.Challenge, trust.ChallengeSize)
	}
	return r, ch
}

func call(t *testing.T, c net.Conn, id, method, params string) map[string]any {
	t.Helper()
	send(t, c, fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"method":%q,"params":%s}`, id, method, params))
	for {
		m := recv(t, c)
		if m["id"] == id {
			return m
		}
	}
}

func reasonOf(m map[string]any) string {
	e, _ := m["error"].(map[string]any)
	d, _ := e["data"].(map[string]any)
	s, _ := d["reason"].(string)
	return s
}

// pairingApp serves browsers whose process checks pass (browserPeer), with
// its data in home and dialogs answered by decide (nil: none shown).
func pairingApp(t *testing.T, home string, decide func(Confirmation) *Decision) (*App, *decider, func() net.Conn) {
	t.Helper()
	a, raw := serve(t, Config{Home: home, Vault: fixedVault("unlocked"), Inspect: browserPeer})
	dial := func() net.Conn {
		c := raw()
		send(t, c, attachFrame)
		return c
	}
	var d *decider
	if decide != nil {
		d = &decider{a: a, decide: decide}
		a.SetPresenter(d)
	}
	return a, d, dial
}

func approvePair(c Confirmation) *Decision { return &Decision{ID: c.ID, Approve: true} }
func denyPair(c Confirmation) *Decision    { return &Decision{ID: c.ID, Reason: DeclineDenied} }

// An unpaired extension session may say hello and pair, nothing else.
func TestUnpairedRefusedAllButPairing(t *testing.T) {
	_, _, dial := pairingApp(t, t.TempDir(), nil)
	c := dial()
	r, ch := browserHello(t, c)
	if !r.Verified {
		t.Fatalf("hello = %+v, want verified", r)
	}
	for _, m := range []string{"profile.list", "session.ping", "vault.status", "vault.unlock", "fill.request", "form.analyse", "learn.request", "no.such.method"} {
		if got := call(t, c, m, m, `{}`); code(got) != nativemsg.CodeNotPaired {
			t.Errorf("unpaired %s = %v, want NOT_PAIRED", m, got)
		}
	}
	// A key nobody paired proves nothing.
	if got := call(t, c, "p", PairProveMethod, newInstall(t).params(t, ch, r.Session)); code(got) != nativemsg.CodeNotPaired {
		t.Errorf("pair.prove of an unknown key = %v, want NOT_PAIRED", got)
	}
	if got := call(t, c, "l", "profile.list", `{}`); code(got) != nativemsg.CodeNotPaired {
		t.Errorf("profile.list after a failed proof = %v, want NOT_PAIRED", got)
	}
}

// The person approves the pairing: the dialog names the verified browser
// and shows the code computed from the session's challenge and the key;
// the install is served, and proves itself in later sessions, also after
// the app restarts.
func TestPairApprovedThenProven(t *testing.T) {
	home := t.TempDir()
	a, d, dial := pairingApp(t, home, approvePair)
	k := newInstall(t)
	c := dial()
	r, ch := browserHello(t, c)
	got := call(t, c, "r", PairRequestMethod, k.params(t, ch, r.Session))
	if code(got) != "" {
		t.Fatalf("pair.request = %v", got)
	}
	shown := d.last()
	if shown.Kind != ConfirmPair || shown.Pair == nil || shown.Pair.Code != trust.Code(ch, k.raw) || shown.Pair.Browser != "chromium" || len(shown.Rows) != 0 {
		t.Fatalf("pairing dialog = %+v (pair %+v), want kind pair, browser chromium, code %s", shown, shown.Pair, trust.Code(ch, k.raw))
	}
	if !regexpCode.MatchString(shown.Pair.Code) {
		t.Errorf("code %q, want six digits as \"123 456\"", shown.Pair.Code)
	}
	if m := call(t, c, "l", "profile.list", `{}`); code(m) == nativemsg.CodeNotPaired {
		t.Fatalf("profile.list after pairing = %v", m)
	}
	if st := a.Status(); len(st.Clients) != 1 || !st.Clients[0].Paired {
		t.Errorf("clients = %+v, want one paired", st.Clients)
	}
	// The next session proves the key; no dialog.
	c2 := dial()
	r2, ch2 := browserHello(t, c2)
	if m := call(t, c2, "p", PairProveMethod, k.params(t, ch2, r2.Session)); code(m) != "" {
		t.Fatalf("pair.prove in a later session = %v", m)
	}
	if m := call(t, c2, "s", "vault.status", `{}`); m["result"] == nil {
		t.Errorf("vault.status after the proof = %v", m)
	}
	if n := len(d.shown); n != 1 {
		t.Errorf("%d dialogs shown, want the one pairing dialog", n)
	}
	// Stored 0600 in the data directory, and read by the next run.
	fi, err := os.Stat(filepath.Join(home, trust.PairedFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("paired store = %v (%v), want a 0600 file", fi, err)
	}
	// The next run, with the vault locked: the proof needs no vault.
	_, raw3 := serve(t, Config{Home: home, Vault: fixedVault("locked"), Inspect: browserPeer})
	c3 := raw3()
	send(t, c3, attachFrame)
	r3, ch3 := browserHello(t, c3)
	if m := call(t, c3, "p", PairProveMethod, k.params(t, ch3, r3.Session)); code(m) != "" {
		t.Fatalf("pair.prove after a restart, vault locked = %v", m)
	}
	if m := call(t, c3, "s", "vault.status", `{}`); m["result"] == nil {
		t.Errorf("vault.status of a proven session, vault locked = %v", m)
	}
}

// The attacks on the proof: another key's signature, a signature of an
// earlier session's challenge (replayed), of this challenge for another
// session, and malformed ones.
func TestPairProofAttacks(t *testing.T) {
	a, _, dial := pairingApp(t, t.TempDir(), nil)
	k := newInstall(t)
	if err := a.pairs.Add(trust.PairedBrowser{ID: trust.KeyID(k.raw), Key: k.raw, Origin: "chrome-extension://" + nativemsg.ChromeExtensionID + "/"}); err != nil {
		t.Fatal(err)
	}
	// An earlier session, as an eavesdropper could have recorded it.
	old := dial()
	or, och := browserHello(t, old)
	recorded := k.params(t, och, or.Session)
	if m := call(t, old, "p", PairProveMethod, recorded); code(m) != "" {
		t.Fatalf("genuine proof = %v", m)
	}
	c := dial()
	r, ch := browserHello(t, c)
	mallory := newInstall(t)
	forged, _ := json.Marshal(nativemsg.PairParams{Key: base64.StdEncoding.EncodeToString(k.raw), Signature: base64.StdEncoding.EncodeToString(mallory.sign(t, trust.SignedMessage(ch, r.Session)))})
	otherSession, _ := json.Marshal(nativemsg.PairParams{Key: base64.StdEncoding.EncodeToString(k.raw), Signature: base64.StdEncoding.EncodeToString(k.sign(t, trust.SignedMessage(ch, "s999")))})
	flipped := k.sign(t, trust.SignedMessage(ch, r.Session))
	flipped[10] ^= 1
	flippedP, _ := json.Marshal(nativemsg.PairParams{Key: base64.StdEncoding.EncodeToString(k.raw), Signature: base64.StdEncoding.EncodeToString(flipped)})
	notOnCurve := append([]byte{4}, bytes.Repeat([]byte{1}, 64)...)
	for _, tc := range []struct{ name, params, code string }{
		{"another key's signature", string(forged), nativemsg.CodeNotPaired},
		{"replayed from an earlier session", recorded, nativemsg.CodeNotPaired},
		{"this challenge, another session", string(otherSession), nativemsg.CodeNotPaired},
		{"one bit flipped", string(flippedP), nativemsg.CodeNotPaired},
		{"short signature", fmt.Sprintf(`{"key":%q,"signature":"AAAA"}`, base64.StdEncoding.EncodeToString(k.raw)), nativemsg.CodeNotPaired},
		{"not on the curve", fmt.Sprintf(`{"key":%q,"signature":"AAAA"}`, base64.StdEncoding.EncodeToString(notOnCurve)), nativemsg.CodeInvalidParams},
		{"not base64", `{"key":"!!","signature":"!!"}`, nativemsg.CodeInvalidParams},
		{"unknown field", `{"key":"","signature":"","paired":true}`, nativemsg.CodeInvalidParams},
	} {
		for _, method := range []string{PairProveMethod, PairRequestMethod} {
			if m := call(t, c, "x", method, tc.params); code(m) != tc.code {
				t.Errorf("%s: %s = %v, want %s", tc.name, method, m, tc.code)
			}
		}
		if m := call(t, c, "l", "profile.list", `{}`); code(m) != nativemsg.CodeNotPaired {
			t.Fatalf("%s: profile.list after it = %v, want NOT_PAIRED", tc.name, m)
		}
	}
}

// A declined pairing, or one no window can show, pairs nothing.
func TestPairDeclined(t *testing.T) {
	for _, tc := range []struct {
		name   string
		decide func(Confirmation) *Decision
		reason string
	}{
		{"denied", denyPair, DeclineDenied},
		{"no window", nil, DeclineNoWindow},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			a, _, dial := pairingApp(t, home, tc.decide)
			k := newInstall(t)
			c := dial()
			r, ch := browserHello(t, c)
			m := call(t, c, "r", PairRequestMethod, k.params(t, ch, r.Session))
			if code(m) != nativemsg.CodeNotPaired || reasonOf(m) != tc.reason {
				t.Fatalf("pair.request = %v, want NOT_PAIRED, reason %s", m, tc.reason)
			}
			if m := call(t, c, "l", "profile.list", `{}`); code(m) != nativemsg.CodeNotPaired {
				t.Errorf("profile.list after a declined pairing = %v", m)
			}
			if m := call(t, c, "p", PairProveMethod, k.params(t, ch, r.Session)); code(m) != nativemsg.CodeNotPaired {
				t.Errorf("pair.prove after a declined pairing = %v", m)
			}
			if len(a.pairs.All()) != 0 {
				t.Errorf("store = %+v after a decline, want empty", a.pairs.All())
			}
			if _, err := os.Stat(filepath.Join(home, trust.PairedFile)); !os.IsNotExist(err) {
				t.Errorf("a declined pairing wrote the store (%v)", err)
			}
		})
	}
}

// Unpairing in Settings cuts the install's sessions at once, and its key
// proves nothing afterwards.
func TestUnpairRevokes(t *testing.T) {
	a, _, dial := pairingApp(t, t.TempDir(), approvePair)
	u := newUI(a)
	k := newInstall(t)
	c := dial()
	r, ch := browserHello(t, c)
	if m := call(t, c, "r", PairRequestMethod, k.params(t, ch, r.Session)); code(m) != "" {
		t.Fatalf("pair.request = %v", m)
	}
	list, err := u.PairedBrowsers()
	if err != nil || len(list) != 1 || list[0].Key != nil || list[0].Browser != "chromium" {
		t.Fatalf("PairedBrowsers = %+v, %v; want one chromium, no key bytes", list, err)
	}
	if list, err = u.UnpairBrowser(list[0].ID); err != nil || len(list) != 0 {
		t.Fatalf("UnpairBrowser = %+v, %v", list, err)
	}
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := nativemsg.ReadFrame(c, nativemsg.MaxIncoming); err == nil {
		t.Errorf("the unpaired install's session stays open")
	}
	c2 := dial()
	r2, ch2 := browserHello(t, c2)
	if m := call(t, c2, "p", PairProveMethod, k.params(t, ch2, r2.Session)); code(m) != nativemsg.CodeNotPaired {
		t.Errorf("pair.prove after unpairing = %v, want NOT_PAIRED", m)
	}
	if _, err := u.UnpairBrowser("nope"); err == nil {
		t.Errorf("UnpairBrowser of an unknown id succeeded")
	}
}

// The store is read once, at start: a key written into the file while the
// app runs (by another program of the same user) is not paired.
func TestPairStoreWrittenBehindTheAppsBack(t *testing.T) {
	home := t.TempDir()
	_, _, dial := pairingApp(t, home, nil)
	k := newInstall(t)
	b, _ := json.Marshal([]trust.PairedBrowser{{ID: trust.KeyID(k.raw), Key: k.raw, Origin: "chrome-extension://" + nativemsg.ChromeExtensionID + "/"}})
	if err := os.WriteFile(filepath.Join(home, trust.PairedFile), b, 0o600); err != nil {
		t.Fatal(err)
	}
	c := dial()
	r, ch := browserHello(t, c)
	if m := call(t, c, "p", PairProveMethod, k.params(t, ch, r.Session)); code(m) != nativemsg.CodeNotPaired {
		t.Errorf("pair.prove of a key written behind the app's back = %v, want NOT_PAIRED", m)
	}
}

// Only browsers through their verified host pair: an unverified peer gets
// NOT_VERIFIED, the CLI UNSUPPORTED, and neither gets a challenge.
func TestPairOnlyVerifiedBrowsers(t *testing.T) {
	_, dial := serve(t, Config{Vault: fixedVault("unlocked")}) // real inspection: this test is no browser
	c := dial()
	send(t, c, attachFrame)
	r := helloAnswer(t, c, KindBrowser)
	if r.Verified || r.Challenge != "" {
		t.Fatalf("hello of a forged browser = %+v, want unverified, no challenge", r)
	}
	k := newInstall(t)
	if m := call(t, c, "r", PairRequestMethod, k.params(t, make([]byte, 32), r.Session)); code(m) != nativemsg.CodeNotVerified {
		t.Errorf("pair.request of a forged browser = %v, want NOT_VERIFIED", m)
	}
	_, cdial := serve(t, Config{Vault: fixedVault("unlocked"), Inspect: browserPeer})
	cc := cdial()
	cr := helloAnswer(t, cc, KindCLI)
	if cr.Challenge != "" {
		t.Errorf("a CLI hello has a challenge: %+v", cr)
	}
	if m := call(t, cc, "r", PairRequestMethod, k.params(t, make([]byte, 32), cr.Session)); code(m) != nativemsg.CodeUnsupported {
		t.Errorf("pair.request from the CLI = %v, want UNSUPPORTED", m)
	}
}

// PairCode is what the extension computes too (extension/test/pairing.test.ts
// checks the same vector).
func TestPairCodeVector(t *testing.T) {
	ch := bytes.Repeat([]byte{7}, 32)
	key := append([]byte{4}, bytes.Repeat([]byte{9}, 64)...)
	if got, want := trust.Code(ch, key), pairCodeVector; got != want {
		t.Errorf("trust.Code(7…, 04 9…) = %q, want %q", got, want)
	}
	if !strings.Contains(pairCodeVector, " ") {
		t.Errorf("vector %q", pairCodeVector)
	}
}

var regexpCode = regexp.MustCompile(`^\d{3} \d{3}$`)

const pairCodeVector = "918 152"

// BenchmarkPairProof is the app's cost of checking one session's proof
// (decode, parse the key, verify the ECDSA signature).
func BenchmarkPairProof(b *testing.B) {
	k := newInstall(b)
	s := broker.NewDetached(Client{ID: "s1", Kind: KindBrowser, Verified: true}, "", trust.NewChallenge())
	params := json.RawMessage(k.params(b, s.Challenge(), s.ID()))
	for b.Loop() {
		if _, e := checkProof(s, PairProveMethod, params); e != nil {
			b.Fatal(e)
		}
	}
}
