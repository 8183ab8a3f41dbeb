package broker

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tessera-app/tessera/app/confirm"
	"github.com/tessera-app/tessera/nativemsg"
)

// Session kinds, from session.hello's client.kind.
const (
	KindBrowser = "browser"
	KindAgent   = "agent"
	KindCLI     = "cli"
)

// A Client is one connected browser (or agent) as the UI shows it.
type Client struct {
	ID        string    `json:"id"`
	Kind      string    `json:"kind"`   // "browser" or "agent"
	Name      string    `json:"name"`   // e.g. "chromium", from session.hello
	Origin    string    `json:"origin"` // extension origin the host verified
	Connected time.Time `json:"connected"`
	// Verified reports whether the app verified the peer process: Tessera's
	// own host started by a trusted browser (Browser names its family), or
	// Tessera's own executable for the CLI and agents.
	Verified bool   `json:"verified"`
	Browser  string `json:"browser,omitempty"`
	// Paired reports whether a browser session proved a key the person
	// paired.
	Paired bool `json:"paired,omitempty"`
	// Why says why a peer is not verified.
	Why string `json:"why,omitempty"`
}

// A Session is one connection's state. Its fields are the broker's; others
// read them through its methods.
type Session struct {
	id   string
	seq  uint64
	conn net.Conn
	wmu  sync.Mutex
	// mu guards client after hello (the broker and pairing update it).
	mu     sync.Mutex
	client Client
	origin string
	hello  atomic.Bool
	slots  chan struct{}
	// writeTimeout bounds the wait for the peer to read one frame.
	writeTimeout time.Duration
	// peer is what the app verified of the process behind conn (peerErr
	// when it could not); frames counts the frames read, since host.attach
	// counts only as the first.
	peer    nativemsg.PeerInfo
	peerErr error
	frames  int
	// host reports a connection from Tessera's own host started by a
	// trusted browser, which named its verified extension origin.
	host bool
	// verified reports whether the session may use more than hello.
	verified bool
	// challenge is the session's random pairing challenge (browsers only);
	// paired reports whether the session proved a paired key (pairID), and
	// pairing whether its pairing dialog waits.
	challenge []byte
	paired    atomic.Bool
	pairID    string
	pairing   atomic.Bool
	// trustedExe is the browser executable the person approved that
	// started this session's host, when the built-in rule did not.
	trustedExe string
	// out holds the app's own requests to this peer.
	out outbound
}

// NewDetached returns a session with no connection that has said hello as
// c, verified as c says, and proven the paired key pairID when that is not
// empty: for tests of the services that take a session, and never served.
func NewDetached(c Client, pairID string, challenge []byte) *Session {
	s := &Session{id: c.ID, client: c, origin: c.Origin, verified: c.Verified, challenge: challenge, pairID: pairID, writeTimeout: writeTimeout}
	s.seq, _ = strconv.ParseUint(trimS(c.ID), 10, 64)
	s.hello.Store(true)
	s.paired.Store(pairID != "")
	s.out.closed = true
	return s
}

func trimS(id string) string {
	if len(id) > 0 && id[0] == 's' {
		return id[1:]
	}
	return id
}

// ID is the app's id of the connection ("s1", "s2", …).
func (s *Session) ID() string { return s.id }

// Kind is KindBrowser, KindAgent or KindCLI ("" before hello).
func (s *Session) Kind() string { return s.Client().Kind }

// Client is the session as the UI shows it.
func (s *Session) Client() Client {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.client
}

// Origin is the extension origin the host verified (browsers only).
func (s *Session) Origin() string { return s.origin }

// Verified reports whether the app verified the process behind s (at
// hello), so it may use more than hello.
func (s *Session) Verified() bool { return s.hello.Load() && s.verified }

// PairID is the fingerprint of the paired key s proved, "" when none.
func (s *Session) PairID() string {
	if !s.paired.Load() {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pairID
}

// Challenge is the session's random pairing challenge (browsers only).
func (s *Session) Challenge() []byte { return s.challenge }

// Parent is the process that started the session's peer, as verified;
// nil when unknown.
func (s *Session) Parent() *nativemsg.Process {
	if s.peer.Parent == nil {
		return nil
	}
	p := *s.peer.Parent
	return &p
}

// BeginPairing marks that a pairing dialog of s waits; it reports false
// when one waits already. end marks it over.
func (s *Session) BeginPairing() (end func(), ok bool) {
	if !s.pairing.CompareAndSwap(false, true) {
		return nil, false
	}
	return func() { s.pairing.Store(false) }, true
}

// MayAct reports whether s is served beyond hello and pairing: it said
// hello, the app verified its process, and, for a browser, it proved a key
// the person paired. The broker sends a browser that may not act nothing
// but answers to hello and pairing, and reads nothing from it but those.
func (s *Session) MayAct() bool {
	if !s.hello.Load() || !s.verified {
		return false
	}
	return s.Kind() != KindBrowser || s.paired.Load()
}

// Notify sends s the notification method with params; it does nothing for
// a session that may not act.
func (s *Session) Notify(method string, params any) {
	if !s.MayAct() || s.conn == nil {
		return
	}
	if msg, err := nativemsg.Notification(method, params); err == nil {
		s.send(msg)
	}
}

// Close ends the session's connection.
func (s *Session) Close() {
	if s.conn != nil {
		s.conn.Close()
	}
}

// send writes one frame; results larger than the browser's frame limit are
// split into session.chunk notifications (PROTOCOL.md, "Large results").
func (s *Session) send(msg []byte) {
	if s.conn == nil {
		return
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	// A peer that does not read its answers loses its connection instead of
	// holding them in the app's memory.
	s.conn.SetWriteDeadline(time.Now().Add(s.writeTimeout))
	if len(msg) <= nativemsg.MaxOutgoing {
		if nativemsg.WriteFrame(s.conn, msg) != nil {
			s.conn.Close()
		}
		return
	}
	var m struct {
		ID *string `json:"id"`
	}
	json.Unmarshal(msg, &m)
	id := ""
	if m.ID != nil {
		id = *m.ID
	}
	count := (len(msg) + nativemsg.ChunkSize - 1) / nativemsg.ChunkSize
	for i := 0; i < count; i++ {
		part := msg[i*nativemsg.ChunkSize : min((i+1)*nativemsg.ChunkSize, len(msg))]
		n, err := nativemsg.Notification(nativemsg.ChunkMethod, nativemsg.Chunk{ID: id, Index: i, Count: count, Data: base64.StdEncoding.EncodeToString(part)})
		if err != nil || nativemsg.WriteFrame(s.conn, n) != nil {
			s.conn.Close()
			return
		}
	}
}

// Request sends method to the peer of s and decodes its answer into out.
// An error answer is returned as the peer sent it; a peer that goes away
// is NO_BROWSER, and ctx ending is TIMEOUT. A session that may not act is
// asked nothing (NO_BROWSER).
func (s *Session) Request(ctx context.Context, method string, params, out any) *nativemsg.Error {
	if !s.MayAct() {
		return nativemsg.NewError(nativemsg.CodeNoBrowser, "%s: this browser is not paired with Tessera", method)
	}
	id, ch, ok := s.out.start()
	if !ok {
		return nativemsg.NewError(nativemsg.CodeBusy, "%s: the browser has too many requests waiting", method)
	}
	defer s.out.forget(id)
	p, err := json.Marshal(params)
	if err != nil {
		return nativemsg.NewError(nativemsg.CodeInternal, "%s: encode params", method)
	}
	msg, err := json.Marshal(nativemsg.Message{JSONRPC: "2.0", ID: &id, Method: method, Params: p})
	if err != nil || len(msg) > nativemsg.MaxOutgoing {
		// The browser's limit: the app never splits its own requests.
		return nativemsg.NewError(nativemsg.CodeTooLarge, "%s: request over the browser's 1 MiB limit", method)
	}
	s.send(msg)
	select {
	case m, open := <-ch:
		if !open {
			return nativemsg.NewError(nativemsg.CodeNoBrowser, "%s: the browser went away", method)
		}
		if m.Error != nil {
			// The extension's codes are passed on only when they are in the
			// published table (NewError maps the rest to INTERNAL).
			return nativemsg.NewError(m.Error.Data.Code, "%s", Truncate(m.Error.Message, 2000))
		}
		if out != nil {
			if err := json.Unmarshal(m.Result, out); err != nil {
				return nativemsg.NewError(nativemsg.CodeInvalidValue, "%s: the browser answered with an unknown shape: %v", method, err)
			}
		}
		return nil
	case <-ctx.Done():
		return nativemsg.NewError(nativemsg.CodeTimeout, "%s: no answer from the browser in time", method)
	}
}

// Truncate cuts s to at most n bytes.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// Peer is s as the release gate knows it (package confirm).
func (s *Session) Peer() confirm.Peer {
	c := s.Client()
	name := c.Name
	if c.Browser != "" {
		name = c.Browser
	}
	p := confirm.Peer{Kind: c.Kind, Name: name, Session: s.id, Origin: s.origin, Verified: s.Verified(), Claimed: c.Kind == KindAgent}
	if c.Kind == KindBrowser {
		p.Paired = s.PairID()
	}
	return p
}

// ClientInfo names s for a dialog, saying whether the app verified it. An
// agent's name is what its MCP client said in initialize: the app verified
// the `tessera mcp` process, never the name, so the dialog shows it as a
// claim.
func (s *Session) ClientInfo() confirm.ClientInfo {
	c := s.Client()
	name := c.Name
	if c.Browser != "" {
		name = c.Browser
	}
	return confirm.ClientInfo{Kind: c.Kind, Name: name, Origin: s.origin, Verified: c.Verified && c.Kind != KindAgent}
}
