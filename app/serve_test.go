package app

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tessera-app/tessera/app/broker"
	"github.com/tessera-app/tessera/nativemsg"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

// fixedVault is a vault that reports state and has nothing else: any
// other call panics (the embedded Vault is nil), which a test would see.
func fixedVault(state string) Vault { return stateVault{state: state} }

type stateVault struct {
	Vault
	state string
}

func (v stateVault) State() string { return v.state }

// SyncState says sync is not set up.
func (v stateVault) SyncState() ([]byte, error) { return nil, nil }

func (v stateVault) Info() (vault.Info, error) { return vault.Info{State: v.state}, nil }

// Profiles and ProfileSummaries: a vault with no profile.
func (v stateVault) Profiles() ([]profile.UserProfile, error)          { return nil, nil }
func (v stateVault) ProfileSummaries() ([]vault.ProfileSummary, error) { return nil, nil }

// serve starts an App on a private socket and returns a dialer for it.
func serve(t *testing.T, cfg Config) (*App, func() net.Conn) {
	t.Helper()
	d, err := os.MkdirTemp("", "tsa")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(d, "run")
	t.Cleanup(func() { os.RemoveAll(d) })
	cfg.SocketDir = dir
	a, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	l, err := nativemsg.Listen(dir, cfg.PeerCheck)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { a.ServeListener(ctx, l, dir); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return a, func() net.Conn {
		c, err := nativemsg.Dial(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
}

func send(t *testing.T, c net.Conn, msg string) {
	t.Helper()
	if err := nativemsg.WriteFrameLimit(c, []byte(msg), nativemsg.MaxIncoming); err != nil {
		t.Fatal(err)
	}
}

func recv(t *testing.T, c net.Conn) map[string]any {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(60 * time.Second))
	f, err := nativemsg.ReadFrame(c, nativemsg.MaxIncoming)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(f, &m); err != nil {
		t.Fatalf("frame %q: %v", f, err)
	}
	return m
}

func code(m map[string]any) string {
	e, _ := m["error"].(map[string]any)
	d, _ := e["data"].(map[string]any)
	s, _ := d["code"].(string)
	return s
}

const hello = `{"jsonrpc":"2.0","id":"h","method":"session.hello","params":{"protocol":[1],"client":{"kind":"browser","name":"chromium","version":"156"}}}`

func TestProtocolErrors(t *testing.T) {
	_, dial := serveBrowser(t, Config{Version: "1.2.3", Vault: fixedVault("locked")})
	tests := []struct {
		name   string
		before []string // sent first, answers read and ignored
		msg    string
		code   string // "" means success
		id     any
	}{
		{"request before hello", nil, `{"jsonrpc":"2.0","id":"1","method":"session.ping","params":{"payload":1}}`, nativemsg.CodeHelloRequired, "1"},
		{"unparsable", nil, `{"jsonrpc":`, nativemsg.CodeParseError, nil},
		{"numeric id", nil, `{"jsonrpc":"2.0","id":1,"method":"session.hello"}`, nativemsg.CodeInvalidRequest, nil},
		{"hello without params", nil, `{"jsonrpc":"2.0","id":"2","method":"session.hello"}`, nativemsg.CodeInvalidParams, "2"},
		{"hello unknown field", nil, `{"jsonrpc":"2.0","id":"3","method":"session.hello","params":{"protocol":[1],"bogus":true}}`, nativemsg.CodeInvalidParams, "3"},
		{"hello wrong type", nil, `{"jsonrpc":"2.0","id":"3","method":"session.hello","params":{"protocol":"1"}}`, nativemsg.CodeInvalidParams, "3"},
		{"hello future protocol", nil, `{"jsonrpc":"2.0","id":"4","method":"session.hello","params":{"protocol":[2,3]}}`, nativemsg.CodeProtocolUnsupported, "4"},
		{"hello", nil, hello, "", "h"},
		{"second hello", []string{hello}, strings.Replace(hello, `"h"`, `"h2"`, 1), nativemsg.CodeHelloRepeated, "h2"},
		{"unknown method", []string{hello}, `{"jsonrpc":"2.0","id":"5","method":"nope.nope","params":{}}`, nativemsg.CodeMethodNotFound, "5"},
		{"ping wrong params", []string{hello}, `{"jsonrpc":"2.0","id":"6","method":"session.ping","params":{"x":1}}`, nativemsg.CodeInvalidParams, "6"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := dial()
			for _, b := range tt.before {
				send(t, c, b)
				recv(t, c)
			}
			send(t, c, tt.msg)
			m := recv(t, c)
			if got := code(m); got != tt.code {
				t.Fatalf("answer to %s = %v, want code %q", tt.msg, m, tt.code)
			}
			if m["id"] != tt.id {
				t.Fatalf("answer id = %v, want %v", m["id"], tt.id)
			}
		})
	}
}

func TestHelloResultAndClients(t *testing.T) {
	a, dial := serveBrowser(t, Config{Version: "1.2.3", Vault: fixedVault("locked")})
	changes := make(chan struct{}, 10)
	a.OnChange(func() { changes <- struct{}{} })
	c := dial()
	send(t, c, hello)
	m := recv(t, c)
	res := m["result"].(map[string]any)
	if res["protocol"] != float64(1) || res["app"].(map[string]any)["version"] != "1.2.3" || res["vault"].(map[string]any)["state"] != "locked" {
		t.Fatalf("hello result = %v", res)
	}
	st := a.Status()
	if len(st.Clients) != 1 || st.Clients[0].Name != "chromium" || st.Clients[0].Kind != "browser" {
		t.Fatalf("Status().Clients = %+v", st.Clients)
	}
	c.Close()
	deadline := time.Now().Add(5 * time.Second)
	for len(a.Status().Clients) != 0 {
		if time.Now().After(deadline) {
			t.Fatal("client still listed after disconnect")
		}
		<-changes
	}
}

func TestPingAndChunking(t *testing.T) {
	_, dial := serveBrowser(t, Config{})
	c := dial()
	send(t, c, hello)
	recv(t, c)
	send(t, c, `{"jsonrpc":"2.0","id":"p","method":"session.ping","params":{"payload":{"n":[1,2,3]}}}`)
	m := recv(t, c)
	if got, _ := json.Marshal(m["result"]); string(got) != `{"payload":{"n":[1,2,3]}}` {
		t.Fatalf("ping result = %s", got)
	}
	// A 3 MB payload comes back in session.chunk pieces that reassemble to
	// the exact response.
	big := strings.Repeat("é", 1500*1024)
	send(t, c, `{"jsonrpc":"2.0","id":"big","method":"session.ping","params":{"payload":"`+big+`"}}`)
	var whole bytes.Buffer
	for i := 0; ; i++ {
		m := recv(t, c)
		if m["method"] != nativemsg.ChunkMethod {
			t.Fatalf("frame %d = %v, want a chunk", i, m["method"])
		}
		p := m["params"].(map[string]any)
		if p["id"] != "big" || p["index"] != float64(i) {
			t.Fatalf("chunk %d params = id %v index %v", i, p["id"], p["index"])
		}
		part, err := base64.StdEncoding.DecodeString(p["data"].(string))
		if err != nil {
			t.Fatal(err)
		}
		whole.Write(part)
		if int(p["count"].(float64)) == i+1 {
			break
		}
	}
	var resp struct {
		ID     string
		Result struct{ Payload string }
	}
	if err := json.Unmarshal(whole.Bytes(), &resp); err != nil {
		t.Fatal(err)
	}
	if resp.ID != "big" || resp.Result.Payload != big {
		t.Fatalf("reassembled response id %q, payload %d bytes; want big, %d", resp.ID, len(resp.Result.Payload), len(big))
	}
}

func TestBusyAndPanic(t *testing.T) {
	a, dial := serveBrowser(t, Config{MaxInFlight: 1})
	release := make(chan struct{})
	a.handle("test.block", func(ctx context.Context, a *App, s *broker.Session, p json.RawMessage) (any, *nativemsg.Error) {
		<-release
		return "done", nil
	})
	a.handle("test.panic", func(ctx context.Context, a *App, s *broker.Session, p json.RawMessage) (any, *nativemsg.Error) {
		panic("bug")
	})
	c := dial()
	send(t, c, hello)
	recv(t, c)
	send(t, c, `{"jsonrpc":"2.0","id":"b1","method":"test.block","params":{}}`)
	send(t, c, `{"jsonrpc":"2.0","id":"b2","method":"test.block","params":{}}`)
	m := recv(t, c)
	if code(m) != nativemsg.CodeBusy || m["id"] != "b2" {
		t.Fatalf("second in-flight request = %v, want BUSY for b2", m)
	}
	close(release)
	if m := recv(t, c); m["id"] != "b1" || m["result"] != "done" {
		t.Fatalf("blocked request = %v", m)
	}
	send(t, c, `{"jsonrpc":"2.0","id":"x","method":"test.panic","params":{}}`)
	if m := recv(t, c); code(m) != nativemsg.CodeInternal {
		t.Fatalf("panicking handler = %v, want INTERNAL", m)
	}
	send(t, c, `{"jsonrpc":"2.0","id":"y","method":"session.ping","params":{"payload":1}}`)
	if m := recv(t, c); m["id"] != "y" {
		t.Fatalf("connection unusable after a handler panic: %v", m)
	}
}

func TestOversizedFromPeer(t *testing.T) {
	_, dial := serveBrowser(t, Config{})
	c := dial()
	hdr := []byte{0, 0, 0, 0}
	hdr[3] = 0x7f
	c.Write(hdr)
	if m := recv(t, c); code(m) != nativemsg.CodeTooLarge {
		t.Fatalf("oversized frame = %v, want TOO_LARGE", m)
	}
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := nativemsg.ReadFrame(c, 100); err == nil {
		t.Fatal("connection still open after an oversized frame")
	}
}

// idleVault is an unlocked vault that Lock locks.
type idleVault struct {
	Vault
	mu     sync.Mutex
	locked bool
}

// SyncState says sync is not set up.
func (v *idleVault) SyncState() ([]byte, error) { return nil, nil }

func (v *idleVault) Info() (vault.Info, error) { return vault.Info{State: v.State()}, nil }

func (v *idleVault) State() string {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.locked {
		return "locked"
	}
	return "unlocked"
}

func (v *idleVault) Lock() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.locked = true
}

// The idle lock counts only the person's actions: a browser pinging all
// along does not keep the vault unlocked (issue 18).
func TestIdleLockIsAnnounced(t *testing.T) {
	v := &idleVault{}
	a, dial := serveBrowser(t, Config{Vault: v, IdleLock: 300 * time.Millisecond})
	pinger := dial()
	send(t, pinger, hello)
	recv(t, pinger)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			nativemsg.WriteFrameLimit(pinger, []byte(`{"jsonrpc":"2.0","id":"k`+strconv.Itoa(i)+`","method":"session.ping","params":{}}`), nativemsg.MaxIncoming)
		}
	}()
	go func() {
		for {
			if _, err := nativemsg.ReadFrame(pinger, nativemsg.MaxIncoming); err != nil {
				return
			}
		}
	}()
	c := dial()
	send(t, c, hello)
	if m := recv(t, c); m["result"].(map[string]any)["vault"].(map[string]any)["state"] != "unlocked" {
		t.Fatalf("hello = %v, want vault unlocked", m)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go a.watchVault(ctx, 10*time.Millisecond)
	m := recv(t, c)
	if m["method"] != "vault.stateChanged" || m["params"].(map[string]any)["state"] != "locked" {
		t.Fatalf("after idle lock the browser got %v, want vault.stateChanged locked", m)
	}
	if st := a.Status().Vault; st != "locked" {
		t.Fatalf("Status().Vault = %q, want locked", st)
	}
}

// The method table refuses a method registered twice (the table is built
// in several files; a second registration used to replace the first
// silently).
func TestMethodTableRefusesDuplicates(t *testing.T) {
	a, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	a.handle("fill.request", ping)
	a.handle("session.hello", ping)
	if a.tableErr == nil || !strings.Contains(a.tableErr.Error(), `"fill.request"`) || !strings.Contains(a.tableErr.Error(), `"session.hello"`) {
		t.Errorf("tableErr = %v, want both duplicates named", a.tableErr)
	}
	// fill.request still answers as itself, not as session.ping would.
	_, e := a.broker.Handler("fill.request")(context.Background(), broker.NewDetached(Client{ID: "s1", Kind: KindCLI, Verified: true}, "", nil), json.RawMessage(`{"payload":1}`))
	if e == nil {
		t.Error("a duplicate registration replaced the first")
	}
}
