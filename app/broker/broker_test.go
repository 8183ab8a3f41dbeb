package broker

import (
	"context"
	"encoding/json"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/tessera-app/tessera/nativemsg"
)

// hostPeer stands in for nativemsg.Inspect: every peer is Tessera's own
// host, started by Chromium.
func hostPeer(net.Conn) (nativemsg.PeerInfo, error) {
	return nativemsg.PeerInfo{Process: nativemsg.Process{PID: 1, Exe: "/usr/bin/tessera", SameExe: true}, Browser: "chromium"}, nil
}

// pipeListener hands the broker the server ends of net.Pipe connections.
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}
func (l *pipeListener) Close() error {
	select {
	case <-l.done:
	default:
		close(l.done)
	}
	return nil
}
func (l *pipeListener) Addr() net.Addr { return &net.UnixAddr{Name: "pipe"} }

func serve(t *testing.T, cfg Config, methods map[string]Handler) (*Broker, func() net.Conn) {
	t.Helper()
	cfg.Inspect = hostPeer
	b := New(cfg)
	for m, h := range methods {
		if err := b.Handle(m, h); err != nil {
			t.Fatal(err)
		}
	}
	l := &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { b.ServeListener(ctx, l, "pipe"); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return b, func() net.Conn {
		c, s := net.Pipe()
		l.conns <- s
		t.Cleanup(func() { c.Close() })
		return c
	}
}

func send(t *testing.T, c net.Conn, msg string) {
	t.Helper()
	c.SetWriteDeadline(time.Now().Add(5 * time.Second))
	if err := nativemsg.WriteFrame(c, []byte(msg)); err != nil {
		t.Fatal(err)
	}
}

func recv(t *testing.T, c net.Conn) map[string]any {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	b, err := nativemsg.ReadFrame(c, nativemsg.MaxIncoming)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func errCode(m map[string]any) string {
	e, _ := m["error"].(map[string]any)
	d, _ := e["data"].(map[string]any)
	s, _ := d["code"].(string)
	return s
}

const attach = `{"jsonrpc":"2.0","method":"host.attach","params":{"origin":"chrome-extension://` + nativemsg.ChromeExtensionID + `/"}}`
const browserHello = `{"jsonrpc":"2.0","id":"h","method":"session.hello","params":{"protocol":[1],"client":{"kind":"browser","name":"Chromium"}}}`

// An unpaired browser session may say hello and pair, nothing else; the
// broker sends it nothing else, and once it is marked paired it may act.
func TestUnpairedBrowserMayOnlyPair(t *testing.T) {
	var sessions = make(chan *Session, 4)
	b, dial := serve(t, Config{}, map[string]Handler{
		"x.echo": func(ctx context.Context, s *Session, p json.RawMessage) (any, *nativemsg.Error) { return "echo", nil },
		PairProveMethod: func(ctx context.Context, s *Session, p json.RawMessage) (any, *nativemsg.Error) {
			sessions <- s
			return "proving", nil
		},
	})
	c := dial()
	send(t, c, attach)
	send(t, c, browserHello)
	if m := recv(t, c); m["result"] == nil {
		t.Fatalf("hello = %v", m)
	}
	send(t, c, `{"jsonrpc":"2.0","id":"1","method":"x.echo","params":{}}`)
	if m := recv(t, c); errCode(m) != nativemsg.CodeNotPaired {
		t.Fatalf("x.echo unpaired = %v, want NOT_PAIRED", m)
	}
	send(t, c, `{"jsonrpc":"2.0","id":"2","method":"pair.prove","params":{}}`)
	if m := recv(t, c); m["result"] != "proving" {
		t.Fatalf("pair.prove unpaired = %v", m)
	}
	s := <-sessions
	if s.MayAct() || s.PairID() != "" || len(b.Browsers()) != 0 {
		t.Fatal("an unpaired browser may act")
	}
	// Nothing is sent to it: not a broadcast, not a notification, not a
	// request (which fails at once).
	b.Broadcast("x.news", map[string]int{"n": 1})
	s.Notify("x.news", map[string]int{"n": 2})
	if e := s.Request(context.Background(), "x.ask", nil, nil); e == nil || e.Data.Code != nativemsg.CodeNoBrowser {
		t.Fatalf("Request to an unpaired browser = %v, want NO_BROWSER", e)
	}
	b.MarkPaired(s, "k1")
	if !s.MayAct() || s.PairID() != "k1" || len(b.Browsers()) != 1 || !b.Clients()[0].Paired {
		t.Fatal("a paired browser may not act")
	}
	go b.Broadcast("x.news", map[string]int{"n": 3}) // a pipe has no buffer
	if m := recv(t, c); m["method"] != "x.news" || m["params"].(map[string]any)["n"] != float64(3) {
		t.Fatalf("first frame after pairing = %v, want the broadcast made after it", m)
	}
	send(t, c, `{"jsonrpc":"2.0","id":"3","method":"x.echo","params":{}}`)
	if m := recv(t, c); m["result"] != "echo" {
		t.Fatalf("x.echo paired = %v", m)
	}
	// Unpairing ends its connection.
	b.Unpair("k1")
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := nativemsg.ReadFrame(c, nativemsg.MaxIncoming); err == nil {
		t.Fatal("the unpaired session's connection is still open")
	}
}

// The method table refuses a second registration and session.hello, and
// keeps the first.
func TestHandleRefusesDuplicates(t *testing.T) {
	b := New(Config{})
	first := func(ctx context.Context, s *Session, p json.RawMessage) (any, *nativemsg.Error) { return "first", nil }
	second := func(ctx context.Context, s *Session, p json.RawMessage) (any, *nativemsg.Error) { return "second", nil }
	if err := b.Handle("x.m", first); err != nil {
		t.Fatal(err)
	}
	if err := b.Handle("x.m", second); err == nil || !strings.Contains(err.Error(), `"x.m"`) {
		t.Errorf("second Handle = %v, want an error naming x.m", err)
	}
	if err := b.Handle("session.hello", first); err == nil {
		t.Error("session.hello registered")
	}
	if r, _ := b.Handler("x.m")(context.Background(), nil, nil); r != "first" {
		t.Errorf("x.m answers %v, want the first registration", r)
	}
}

func TestDecodeParamsStrict(t *testing.T) {
	var v struct{ A int }
	for _, bad := range []string{``, `{"A":1,"B":2}`, `{"A":1} {}`, `[1]`} {
		if err := DecodeParams(json.RawMessage(bad), &v); err == nil {
			t.Errorf("DecodeParams(%q) accepted", bad)
		}
	}
	if err := DecodeParams(json.RawMessage(`{"A":7}`), &v); err != nil || v.A != 7 {
		t.Errorf("DecodeParams = %v, %+v", err, v)
	}
}
