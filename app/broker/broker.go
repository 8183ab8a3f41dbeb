package broker

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/tessera-app/tessera/app/trust"
	"github.com/tessera-app/tessera/internal/safefile"
	"github.com/tessera-app/tessera/nativemsg"
)

// Pairing methods: the only ones an unpaired browser session may call
// (besides session.hello).
const (
	PairProveMethod   = "pair.prove"
	PairRequestMethod = "pair.request"
)

// A Handler answers one method for session s. The broker calls it only for
// a session that may act (MayAct), or, for the pairing methods, a verified
// browser that has not paired yet.
type Handler func(ctx context.Context, s *Session, params json.RawMessage) (any, *nativemsg.Error)

// TrustedBrowsers decides for a host whose parent the built-in rule
// refused: the browser executables the person approved (package trust).
type TrustedBrowsers interface {
	Check(parent *nativemsg.Process, why string, now time.Time) (string, error)
}

// Config configures a Broker. Its functions are what the broker needs of
// the rest of the app; nil ones do nothing.
type Config struct {
	// Version is the app version reported in session.hello.
	Version string
	// Inspect names the process behind a connection (nativemsg.Inspect
	// when nil).
	Inspect func(net.Conn) (nativemsg.PeerInfo, error)
	// Trusted are the browsers the person approved; nil: none.
	Trusted TrustedBrowsers
	// HelloTimeout, FrameTimeout and WriteTimeout bound the wait for a
	// connection's hello, for a begun frame to arrive whole, and for the
	// peer to read one frame; zero means 10 s, 30 s, 10 s.
	HelloTimeout, FrameTimeout, WriteTimeout time.Duration
	// MaxInFlight bounds concurrent requests per connection (default 16).
	MaxInFlight int
	// Log receives diagnostics; nil discards them.
	Log io.Writer
	// Now is the clock; nil means time.Now.
	Now func() time.Time

	// VaultState is the vault's state for session.hello.
	VaultState func() string
	// Changed is called when the list of clients may have changed.
	Changed func()
	// Ended is called once a session's connection is over and its
	// requests have returned.
	Ended func(*Session)
	// PersonActed is called for every request of the command line: a
	// command the person typed.
	PersonActed func()
	// Notified receives the notifications of sessions that may act, other
	// than the broker's own (host.attach).
	Notified func(s *Session, method string, params json.RawMessage)
}

// A Broker serves the app channel's connections.
type Broker struct {
	cfg Config

	mu        sync.Mutex
	sessions  map[*Session]struct{}
	nextID    uint64
	strangers int
	socket    string

	tmu      sync.Mutex
	handlers map[string]Handler
}

// New returns a Broker for cfg with an empty method table.
func New(cfg Config) *Broker {
	if cfg.MaxInFlight <= 0 {
		cfg.MaxInFlight = 16
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Inspect == nil {
		cfg.Inspect = nativemsg.Inspect
	}
	if cfg.HelloTimeout <= 0 {
		cfg.HelloTimeout = helloTimeout
	}
	if cfg.FrameTimeout <= 0 {
		cfg.FrameTimeout = frameTimeout
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = writeTimeout
	}
	for _, f := range []*func(){&cfg.Changed, &cfg.PersonActed} {
		if *f == nil {
			*f = func() {}
		}
	}
	if cfg.VaultState == nil {
		cfg.VaultState = func() string { return "uninitialized" }
	}
	if cfg.Ended == nil {
		cfg.Ended = func(*Session) {}
	}
	if cfg.Notified == nil {
		cfg.Notified = func(*Session, string, json.RawMessage) {}
	}
	return &Broker{cfg: cfg, sessions: map[*Session]struct{}{}, handlers: map[string]Handler{}}
}

// Handle adds method to the method table. A method registered twice, or
// session.hello (the broker's own), is an error: no registration silently
// replaces another.
func (b *Broker) Handle(method string, h Handler) error {
	b.tmu.Lock()
	defer b.tmu.Unlock()
	if _, dup := b.handlers[method]; dup || method == "session.hello" || h == nil {
		return fmt.Errorf("method %q registered twice", method)
	}
	b.handlers[method] = h
	return nil
}

// Handler returns the handler of method, nil when there is none.
func (b *Broker) Handler(method string) Handler {
	b.tmu.Lock()
	defer b.tmu.Unlock()
	return b.handlers[method]
}

// Socket is the name ServeListener was given, "" before.
func (b *Broker) Socket() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.socket
}

// Clients lists the sessions that said hello, the first connected first.
func (b *Broker) Clients() []Client {
	out := []Client{}
	for _, s := range b.all() {
		if s.hello.Load() {
			out = append(out, s.Client())
		}
	}
	slices.SortFunc(out, func(x, y Client) int {
		if c := x.Connected.Compare(y.Connected); c != 0 {
			return c
		}
		return cmp.Compare(x.ID, y.ID)
	})
	return out
}

func (b *Broker) all() []*Session {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]*Session, 0, len(b.sessions))
	for s := range b.sessions {
		out = append(out, s)
	}
	return out
}

// Browsers returns the browser sessions that may act (verified, and
// proved a paired key), the last connected first.
func (b *Broker) Browsers() []*Session {
	var out []*Session
	for _, s := range b.all() {
		if s.Kind() == KindBrowser && s.MayAct() {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(x, y *Session) int {
		if c := y.Client().Connected.Compare(x.Client().Connected); c != 0 {
			return c
		}
		return cmp.Compare(y.seq, x.seq)
	})
	return out
}

// Broadcast sends a notification to every session that may act: a browser
// only once it has proven a paired key.
func (b *Broker) Broadcast(method string, params any) {
	msg, err := nativemsg.Notification(method, params)
	if err != nil {
		return
	}
	for _, s := range b.all() {
		if s.MayAct() {
			s.send(msg)
		}
	}
}

// MarkPaired makes s a paired session of the install id.
func (b *Broker) MarkPaired(s *Session, id string) {
	s.mu.Lock()
	s.pairID = id
	s.client.Paired = true
	s.mu.Unlock()
	s.paired.Store(true)
	b.cfg.Changed()
}

// Unpair ends the sessions that proved the paired key id: they lose their
// connection at once and must pair again.
func (b *Broker) Unpair(id string) {
	b.closeWhere(func(s *Session) bool {
		if s.PairID() != id {
			return false
		}
		s.paired.Store(false)
		return true
	})
	b.cfg.Changed()
}

// Untrust ends the sessions whose host a browser executable at path
// started that the person approved (and approves no longer).
func (b *Broker) Untrust(path string) {
	b.closeWhere(func(s *Session) bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.trustedExe == path
	})
}

func (b *Broker) closeWhere(drop func(*Session) bool) {
	for _, s := range b.all() {
		if drop(s) {
			s.Close()
		}
	}
}

// ServeListener serves connections from l until ctx is done; name is what
// Socket reports.
func (b *Broker) ServeListener(ctx context.Context, l net.Listener, name string) error {
	b.mu.Lock()
	b.socket = name
	b.mu.Unlock()
	b.cfg.Changed()
	var wg sync.WaitGroup
	stop := context.AfterFunc(ctx, func() { l.Close() })
	defer stop()
	var backoff time.Duration
	for {
		c, err := l.Accept()
		if err != nil && ctx.Err() == nil && !errors.Is(err, net.ErrClosed) {
			// Out of file descriptors (or another passing failure): wait and
			// try again rather than stop serving the person's browsers.
			backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
			fmt.Fprintf(b.cfg.Log, "tessera: accept: %v; retrying in %v\n", err, backoff)
			select {
			case <-time.After(backoff):
			case <-ctx.Done():
			}
			continue
		}
		backoff = 0
		if err != nil {
			l.Close()
			for _, s := range b.all() {
				s.Close()
			}
			wg.Wait()
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("accept: %w", err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.serveConn(ctx, c)
		}()
	}
}

func (b *Broker) serveConn(ctx context.Context, c net.Conn) {
	b.mu.Lock()
	b.nextID++
	s := &Session{id: "s" + strconv.FormatUint(b.nextID, 10), seq: b.nextID, conn: c, slots: make(chan struct{}, b.cfg.MaxInFlight), writeTimeout: b.cfg.WriteTimeout}
	b.sessions[s] = struct{}{}
	b.mu.Unlock()
	s.peer, s.peerErr = b.cfg.Inspect(c)
	// Programs that are not Tessera are few at a time; the person's own
	// host, CLI and agents (Tessera's executable) are never counted.
	own := s.peerErr == nil && (s.peer.Process.SameExe || s.peer.Process.Sibling)
	if !own {
		b.mu.Lock()
		full := b.strangers >= MaxStrangers
		if !full {
			b.strangers++
		}
		b.mu.Unlock()
		if full {
			c.Close()
			b.mu.Lock()
			delete(b.sessions, s)
			b.mu.Unlock()
			return
		}
		defer func() {
			b.mu.Lock()
			b.strangers--
			b.mu.Unlock()
		}()
	}
	var inflight sync.WaitGroup
	// Requests of this connection (a fill waiting for its dialog) end with it.
	sctx, cancel := context.WithCancel(ctx)
	defer func() {
		cancel()
		c.Close()
		s.out.close()
		inflight.Wait()
		b.cfg.Ended(s)
		b.mu.Lock()
		delete(b.sessions, s)
		b.mu.Unlock()
		if s.hello.Load() {
			b.cfg.Changed()
		}
	}()
	for {
		idle := time.Duration(0)
		if !s.hello.Load() {
			idle = b.cfg.HelloTimeout
		}
		frame, err := nativemsg.ReadFrameConn(c, b.frameLimit(s), idle, b.cfg.FrameTimeout)
		if err != nil {
			if errors.Is(err, nativemsg.ErrTooLarge) {
				s.send(nativemsg.ErrorResponse(nil, nativemsg.NewError(nativemsg.CodeTooLarge, "message over %d bytes refused", nativemsg.MaxIncoming)))
			} else if errors.Is(err, nativemsg.ErrEmpty) {
				s.send(nativemsg.ErrorResponse(nil, nativemsg.NewError(nativemsg.CodeInvalidRequest, "empty message")))
				continue
			}
			return
		}
		s.frames++
		m, id, err := nativemsg.Decode(frame)
		if err != nil {
			code := nativemsg.CodeInvalidRequest
			if errors.Is(err, nativemsg.ErrParse) {
				code = nativemsg.CodeParseError
			}
			s.send(nativemsg.ErrorResponse(id, nativemsg.NewError(code, "%v", err)))
			continue
		}
		switch {
		case m.IsNotification():
			b.notification(s, m)
			continue
		case m.IsResponse():
			// Only an answer to a request the app sent is taken; the app
			// sends none to a browser that has not proven a paired key.
			if s.MayAct() {
				s.out.deliver(m)
			}
			continue
		}
		if m.Method == "session.hello" {
			// Hello is handled in order so nothing overtakes it.
			b.respond(s, m, b.hello(s, m.Params))
			continue
		}
		if !s.hello.Load() {
			s.send(nativemsg.ErrorResponse(m.ID, nativemsg.NewError(nativemsg.CodeHelloRequired, "say session.hello first")))
			continue
		}
		if !s.verified {
			s.send(nativemsg.ErrorResponse(m.ID, nativemsg.NewError(nativemsg.CodeNotVerified, "this connection is not verified: %s", s.Client().Why)))
			continue
		}
		if needsPairing(s, m.Method) {
			s.send(nativemsg.ErrorResponse(m.ID, nativemsg.NewError(nativemsg.CodeNotPaired, "%s: this browser is not paired with Tessera: pair it from the extension's popup", m.Method)))
			continue
		}
		if s.Kind() == KindCLI {
			b.cfg.PersonActed() // a command the person typed
		}
		h := b.Handler(m.Method)
		if h == nil {
			s.send(nativemsg.ErrorResponse(m.ID, nativemsg.NewError(nativemsg.CodeMethodNotFound, "unknown method %q", m.Method)))
			continue
		}
		select {
		case s.slots <- struct{}{}:
		default:
			s.send(nativemsg.ErrorResponse(m.ID, nativemsg.NewError(nativemsg.CodeBusy, "more than %d requests in flight", b.cfg.MaxInFlight)))
			continue
		}
		inflight.Add(1)
		go func() {
			defer inflight.Done()
			out := b.call(sctx, h, s, m.Params)
			// Free the slot before answering, so a client that has its
			// answer may send the next request without meeting BUSY.
			<-s.slots
			b.respond(s, m, out)
		}()
	}
}

// needsPairing reports whether s must prove a paired key before method.
func needsPairing(s *Session, method string) bool {
	if s.Kind() != KindBrowser || s.paired.Load() {
		return false
	}
	return method != PairProveMethod && method != PairRequestMethod
}

type outcome struct {
	result any
	err    *nativemsg.Error
}

func (b *Broker) call(ctx context.Context, h Handler, s *Session, params json.RawMessage) (out outcome) {
	defer func() {
		// A bug in one handler must not take the app down with it.
		if r := recover(); r != nil {
			fmt.Fprintf(b.cfg.Log, "tessera: handler panic: %v\n", r)
			out = outcome{err: nativemsg.NewError(nativemsg.CodeInternal, "internal error")}
		}
	}()
	res, err := h(ctx, s, params)
	return outcome{res, err}
}

func (b *Broker) respond(s *Session, m *nativemsg.Message, o outcome) {
	if o.err != nil {
		s.send(nativemsg.ErrorResponse(m.ID, o.err))
		return
	}
	msg, err := nativemsg.Response(*m.ID, o.result)
	if err != nil {
		s.send(nativemsg.ErrorResponse(m.ID, nativemsg.NewError(nativemsg.CodeInternal, "encode result")))
		return
	}
	s.send(msg)
}

// notification handles host.attach: only as the very first frame of a
// connection from Tessera's own host started by a trusted browser, and only
// naming Tessera's extension, is it believed. Anything else (a second
// attach, one relayed from the extension, one from another program) is
// ignored, and the session stays what its process is. Other notifications
// go to Config.Notified, from sessions that may act only.
func (b *Broker) notification(s *Session, m *nativemsg.Message) {
	if m.Method != nativemsg.AttachMethod {
		if s.MayAct() {
			b.cfg.Notified(s, m.Method, m.Params)
		}
		return
	}
	if s.frames != 1 || s.hello.Load() {
		return
	}
	var p nativemsg.AttachParams
	if json.Unmarshal(m.Params, &p) != nil || !nativemsg.OriginAllowed(p.Origin) {
		return
	}
	// A host started by a browser the built-in rule refuses may still be
	// one the person approved.
	b.trustParent(s)
	why := ""
	switch {
	case errors.Is(s.peerErr, nativemsg.ErrVerifyUnsupported):
		s.host = true
		s.origin = p.Origin
		why = nativemsg.ErrVerifyUnsupported.Error()
	case s.peerErr != nil:
		why = "its process could not be verified (" + s.peerErr.Error() + ")"
	case !s.peer.Process.SameExe && !s.peer.Process.Sibling:
		why = "it is not Tessera's own host (" + s.peer.Process.Exe + ")"
	case s.peer.Browser == "":
		why = "Tessera's host was not started by a trusted browser: " + s.peer.Why
	default:
		s.host = true
		s.origin = p.Origin
	}
	s.mu.Lock()
	s.client.Why = why
	s.mu.Unlock()
}

// trustParent looks up a peer whose parent the built-in rule refused among
// the browsers the person approved: only Tessera's own host is looked
// up, since only it can be a browser's.
func (b *Broker) trustParent(s *Session) {
	p := &s.peer
	if b.cfg.Trusted == nil || s.peerErr != nil || p.Browser != "" || p.Parent == nil || p.Parent.Exe == "" || !(p.Process.SameExe || p.Process.Sibling) {
		return
	}
	name, err := b.cfg.Trusted.Check(p.Parent, p.Why, b.cfg.Now())
	if err != nil {
		p.Why = err.Error()
		return
	}
	p.Browser, p.Why = name, ""
	s.mu.Lock()
	s.trustedExe = p.Parent.Exe
	s.mu.Unlock()
}

// frameLimit is the largest frame read from s: a snapshot needs megabytes,
// but a peer that has not said who it is gets only what hello needs.
func (b *Broker) frameLimit(s *Session) int {
	if s.hello.Load() && s.verified {
		return nativemsg.MaxIncoming
	}
	return MaxUnverifiedFrame
}

// MaxUnverifiedFrame bounds frames before a session is verified.
const MaxUnverifiedFrame = 64 << 10

// Connection limits (PROTOCOL.md §4, Limits).
const (
	// helloTimeout is how long a connection may stay before its hello.
	helloTimeout = 10 * time.Second
	// frameTimeout is how long a begun frame may take to arrive whole.
	frameTimeout = 30 * time.Second
	// writeTimeout is how long one frame may wait for the peer to read it.
	writeTimeout = 10 * time.Second
	// MaxStrangers caps connections from processes that are not Tessera.
	MaxStrangers = 32
)

// verify decides, at hello, whether a session claiming kind is what it
// claims: a browser only through Tessera's host started by a trusted
// browser; the CLI and agents only as Tessera's own executable, directly.
func verify(s *Session, kind string) (verified bool, why string) {
	switch {
	case kind == KindBrowser && s.host:
		return true, ""
	case errors.Is(s.peerErr, nativemsg.ErrVerifyUnsupported) && !s.host:
		// Served on the user check alone, as before process checks existed;
		// the client is shown as not verified (PROTOCOL.md §2.1).
		return true, ""
	case kind == KindBrowser && s.Client().Why != "":
		return false, s.Client().Why
	case kind == KindBrowser:
		return false, "a browser connects through Tessera's host, and this connection did not"
	case s.host:
		return false, "a " + kind + " does not connect through the browser's host"
	case s.peerErr != nil:
		return false, "its process could not be verified (" + s.peerErr.Error() + ")"
	case !s.peer.Process.SameExe:
		return false, "it is not Tessera's own program (" + s.peer.Process.Exe + ")"
	}
	return true, ""
}

func (b *Broker) hello(s *Session, params json.RawMessage) outcome {
	if s.hello.Load() {
		return outcome{err: nativemsg.NewError(nativemsg.CodeHelloRepeated, "session.hello was already said")}
	}
	var p nativemsg.HelloParams
	if err := DecodeParams(params, &p); err != nil {
		return outcome{err: nativemsg.NewError(nativemsg.CodeInvalidParams, "session.hello: %v", err)}
	}
	if !slices.Contains(p.Protocol, nativemsg.ProtocolVersion) {
		return outcome{err: nativemsg.NewError(nativemsg.CodeProtocolUnsupported, "protocol versions %v unsupported; this app speaks %d", p.Protocol, nativemsg.ProtocolVersion)}
	}
	kind := p.Client.Kind
	switch kind {
	case KindAgent, KindCLI:
	default:
		kind = KindBrowser
	}
	verified, why := verify(s, kind)
	// Where the platform cannot check processes yet, a peer is served on the
	// user check alone, but never shown as verified.
	shown := verified
	if verified && errors.Is(s.peerErr, nativemsg.ErrVerifyUnsupported) {
		shown, why = false, nativemsg.ErrVerifyUnsupported.Error()
	}
	var challenge []byte
	if kind == KindBrowser {
		challenge = trust.NewChallenge()
	}
	s.mu.Lock()
	s.verified = verified
	s.challenge = challenge
	s.client = Client{ID: s.id, Kind: kind, Name: Truncate(p.Client.Name, 64), Origin: s.origin, Connected: b.cfg.Now(), Verified: shown, Why: why}
	if s.host {
		s.client.Browser = s.peer.Browser
	}
	s.mu.Unlock()
	s.hello.Store(true)
	b.cfg.Changed()
	var r nativemsg.HelloResult
	r.Protocol = nativemsg.ProtocolVersion
	r.App.Name = "tessera"
	r.App.Version = b.cfg.Version
	r.Vault.State = b.cfg.VaultState()
	r.Session = s.id
	r.Verified, r.Why = verified, why
	if verified && challenge != nil {
		r.Challenge = base64.StdEncoding.EncodeToString(challenge)
	}
	return outcome{result: r}
}

// DecodeParams decodes a method's params into v, refusing absent params
// where an object is needed, unknown fields and trailing data.
func DecodeParams(params json.RawMessage, v any) error {
	if len(params) == 0 {
		return errors.New("params required")
	}
	return safefile.DecodeStrict(params, v)
}

// Strangers is how many connections from programs that are not Tessera
// are open; at most MaxStrangers are.
func (b *Broker) Strangers() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.strangers
}
