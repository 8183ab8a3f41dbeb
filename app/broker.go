package app

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tessera-app/tessera/app/confirm"
	"github.com/tessera-app/tessera/app/trust"
	"github.com/tessera-app/tessera/nativemsg"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

// New returns an App for cfg. It opens nothing yet; Serve starts the broker.
func New(cfg Config) (*App, error) {
	if cfg.MaxInFlight <= 0 {
		cfg.MaxInFlight = 16
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Getenv == nil {
		cfg.Getenv = os.Getenv
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
	a := &App{cfg: cfg, clients: map[string]Client{}, sessions: map[*session]struct{}{}, pending: map[string]*pendingFill{}, idleLimit: cfg.IdleLock}
	pairs, err := trust.LoadPairs(cfg.Home)
	if err != nil {
		// Nothing is paired then; the person pairs again.
		fmt.Fprintf(cfg.Log, "tessera: %v\n", err)
	}
	a.pairs = pairs
	trusted, err := trust.LoadBrowsers(cfg.Home)
	if err != nil {
		fmt.Fprintf(cfg.Log, "tessera: %v\n", err)
	}
	a.trusted = trusted
	a.agents.loadAccess(cfg.Home, cfg.Log)
	a.confirms = confirm.NewQueue(cfg.Now, a.personActed)
	a.gate = confirm.NewGate(windowAsker{a}, a.auditRelease)
	a.ui = newUI(a)
	a.confirmTimeout = confirmTimeout(cfg.Getenv)
	a.handlers = map[string]handler{}
	a.handle("session.ping", ping)
	a.handle("profile.list", listProfiles)
	a.handle(PairProveMethod, pairProve)
	a.handle(PairRequestMethod, pairRequest)
	a.registerFillMethods()
	a.registerFormspecMethods()
	a.registerCLIMethods()
	a.registerAgentMethods()
	if a.tableErr != nil {
		return nil, a.tableErr
	}
	return a, nil
}

// Serve listens on the app channel and serves connections, one goroutine
// each, until ctx is done. It returns nativemsg.ErrAlreadyRunning when
// another instance serves the channel.
func (a *App) Serve(ctx context.Context) error {
	dir := a.cfg.SocketDir
	if dir == "" {
		d, err := nativemsg.ChannelDir(a.cfg.Getenv)
		if err != nil {
			return fmt.Errorf("channel dir: %w", err)
		}
		dir = d
	}
	l, err := nativemsg.Listen(dir, a.cfg.PeerCheck)
	if err != nil {
		return err
	}
	return a.ServeListener(ctx, l, dir)
}

// ServeListener serves connections from l until ctx is done; name is what
// Status reports as the socket.
func (a *App) ServeListener(ctx context.Context, l net.Listener, name string) error {
	a.mu.Lock()
	a.socket = name
	a.mu.Unlock()
	a.changed()
	defer a.auditUnwritten()
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
			fmt.Fprintf(a.cfg.Log, "tessera: accept: %v; retrying in %v\n", err, backoff)
			select {
			case <-time.After(backoff):
			case <-ctx.Done():
			}
			continue
		}
		backoff = 0
		if err != nil {
			l.Close()
			a.mu.Lock()
			for s := range a.sessions {
				s.conn.Close()
			}
			a.mu.Unlock()
			wg.Wait()
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("accept: %w", err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			a.serveConn(ctx, c)
		}()
	}
}

// Broadcast sends a notification to every session that may act: a browser
// only once it has proven a paired key.
func (a *App) Broadcast(method string, params any) {
	msg, err := nativemsg.Notification(method, params)
	if err != nil {
		return
	}
	a.mu.Lock()
	var ss []*session
	for s := range a.sessions {
		if s.mayAct() {
			ss = append(ss, s)
		}
	}
	a.mu.Unlock()
	for _, s := range ss {
		s.send(msg)
	}
}

func sortClients(cs []Client) {
	sort.Slice(cs, func(i, j int) bool {
		if !cs[i].Connected.Equal(cs[j].Connected) {
			return cs[i].Connected.Before(cs[j].Connected)
		}
		return cs[i].ID < cs[j].ID
	})
}

// session is one connection's state.
type session struct {
	id     string
	conn   net.Conn
	wmu    sync.Mutex
	origin string
	hello  atomic.Bool
	slots  chan struct{}
	client Client
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
	// paired reports whether the session proved a paired key (pairID),
	// and pairAsking whether its pairing dialog waits (pairing.go).
	challenge  []byte
	paired     atomic.Bool
	pairID     string
	pairAsking atomic.Bool
	// trustedExe is the browser executable the person approved that
	// started this session's host, when the built-in rule did not.
	trustedExe string
	// out holds the app's own requests to this peer (agent.go).
	out outbound
}

// mayAct reports whether s is served beyond hello and pairing: it said
// hello, the app verified its process, and, for a browser, it proved a key
// the person paired. The app sends a browser that may not act nothing but
// answers to hello and pairing, and reads nothing from it but those.
func (s *session) mayAct() bool {
	if !s.hello.Load() || !s.verified {
		return false
	}
	return s.client.Kind != KindBrowser || s.paired.Load()
}

// send writes one frame; results larger than the browser's frame limit are
// split into session.chunk notifications (PROTOCOL.md, "Large results").
func (s *session) send(msg []byte) {
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

func (a *App) serveConn(ctx context.Context, c net.Conn) {
	a.mu.Lock()
	a.nextID++
	s := &session{id: "s" + strconv.FormatUint(a.nextID, 10), conn: c, slots: make(chan struct{}, a.cfg.MaxInFlight), writeTimeout: a.cfg.WriteTimeout}
	a.sessions[s] = struct{}{}
	a.mu.Unlock()
	s.peer, s.peerErr = a.cfg.Inspect(c)
	// Programs that are not Tessera are few at a time; the person's own
	// host, CLI and agents (Tessera's executable) are never counted.
	own := s.peerErr == nil && (s.peer.Process.SameExe || s.peer.Process.Sibling)
	if !own {
		a.mu.Lock()
		full := a.strangers >= maxStrangers
		if !full {
			a.strangers++
		}
		a.mu.Unlock()
		if full {
			c.Close()
			a.mu.Lock()
			delete(a.sessions, s)
			a.mu.Unlock()
			return
		}
		defer func() {
			a.mu.Lock()
			a.strangers--
			a.mu.Unlock()
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
		a.fills.dropSession(s)
		a.agents.drop(s)
		a.mu.Lock()
		delete(a.sessions, s)
		_, had := a.clients[s.id]
		delete(a.clients, s.id)
		a.mu.Unlock()
		if had {
			a.changed()
		}
	}()
	for {
		idle := time.Duration(0)
		if !s.hello.Load() {
			idle = a.cfg.HelloTimeout
		}
		frame, err := nativemsg.ReadFrameConn(c, a.frameLimit(s), idle, a.cfg.FrameTimeout)
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
			a.notification(s, m)
			continue
		case m.IsResponse():
			// Only an answer to a request the app sent is taken; the app
			// sends none to a browser that has not proven a paired key.
			if s.mayAct() {
				s.out.deliver(m)
			}
			continue
		}
		if m.Method == "session.hello" {
			// Hello is handled in order so nothing overtakes it.
			a.respond(s, m, a.hello(s, m.Params))
			continue
		}
		if !s.hello.Load() {
			s.send(nativemsg.ErrorResponse(m.ID, nativemsg.NewError(nativemsg.CodeHelloRequired, "say session.hello first")))
			continue
		}
		if !s.verified {
			s.send(nativemsg.ErrorResponse(m.ID, nativemsg.NewError(nativemsg.CodeNotVerified, "this connection is not verified: %s", s.client.Why)))
			continue
		}
		if needsPairing(s, m.Method) {
			s.send(nativemsg.ErrorResponse(m.ID, nativemsg.NewError(nativemsg.CodeNotPaired, "%s: this browser is not paired with Tessera: pair it from the extension's popup", m.Method)))
			continue
		}
		if s.client.Kind == KindCLI {
			a.personActed() // a command the person typed
		}
		h, ok := a.handlers[m.Method]
		if !ok {
			s.send(nativemsg.ErrorResponse(m.ID, nativemsg.NewError(nativemsg.CodeMethodNotFound, "unknown method %q", m.Method)))
			continue
		}
		select {
		case s.slots <- struct{}{}:
		default:
			s.send(nativemsg.ErrorResponse(m.ID, nativemsg.NewError(nativemsg.CodeBusy, "more than %d requests in flight", a.cfg.MaxInFlight)))
			continue
		}
		inflight.Add(1)
		go func() {
			defer inflight.Done()
			out := a.call(sctx, h, s, m.Params)
			// Free the slot before answering, so a client that has its
			// answer may send the next request without meeting BUSY.
			<-s.slots
			a.respond(s, m, out)
		}()
	}
}

type outcome struct {
	result any
	err    *nativemsg.Error
}

func (a *App) call(ctx context.Context, h handler, s *session, params json.RawMessage) (out outcome) {
	defer func() {
		// A bug in one handler must not take the app down with it.
		if r := recover(); r != nil {
			fmt.Fprintf(a.cfg.Log, "tessera: handler panic: %v\n", r)
			out = outcome{err: nativemsg.NewError(nativemsg.CodeInternal, "internal error")}
		}
	}()
	res, err := h(ctx, a, s, params)
	return outcome{res, err}
}

func (a *App) respond(s *session, m *nativemsg.Message, o outcome) {
	if o.err != nil {
		s.send(nativemsg.ErrorResponse(m.ID, o.err))
		return
	}
	b, err := nativemsg.Response(*m.ID, o.result)
	if err != nil {
		s.send(nativemsg.ErrorResponse(m.ID, nativemsg.NewError(nativemsg.CodeInternal, "encode result")))
		return
	}
	s.send(b)
}

// notification handles host.attach: only as the very first frame of a
// connection from Tessera's own host started by a trusted browser, and only
// naming Tessera's extension, is it believed. Anything else (a second
// attach, one relayed from the extension, one from another program) is
// ignored, and the session stays what its process is.
func (a *App) notification(s *session, m *nativemsg.Message) {
	if m.Method == browserChangedMethod {
		if s.mayAct() {
			a.browserChanged(s, m.Params)
		}
		return
	}
	if m.Method != nativemsg.AttachMethod || s.frames != 1 || s.hello.Load() {
		return
	}
	var p nativemsg.AttachParams
	if json.Unmarshal(m.Params, &p) != nil || !nativemsg.OriginAllowed(p.Origin) {
		return
	}
	// A host started by a browser the built-in rule refuses may still be
	// one the person approved (trusted.go).
	a.trustParent(s)
	switch {
	case errors.Is(s.peerErr, nativemsg.ErrVerifyUnsupported):
		s.host = true
		s.origin = p.Origin
		s.client.Why = nativemsg.ErrVerifyUnsupported.Error()
	case s.peerErr != nil:
		s.client.Why = "its process could not be verified (" + s.peerErr.Error() + ")"
	case !s.peer.Process.SameExe && !s.peer.Process.Sibling:
		s.client.Why = "it is not Tessera's own host (" + s.peer.Process.Exe + ")"
	case s.peer.Browser == "":
		s.client.Why = "Tessera's host was not started by a trusted browser: " + s.peer.Why
	default:
		s.host = true
		s.origin = p.Origin
	}
}

// frameLimit is the largest frame read from s: a snapshot needs megabytes,
// but a peer that has not said who it is gets only what hello needs.
func (a *App) frameLimit(s *session) int {
	if s.hello.Load() && s.verified {
		return nativemsg.MaxIncoming
	}
	return maxUnverifiedFrame
}

// maxUnverifiedFrame bounds frames before a session is verified.
const maxUnverifiedFrame = 64 << 10

// Connection limits (PROTOCOL.md §4, Limits).
const (
	// helloTimeout is how long a connection may stay before its hello.
	helloTimeout = 10 * time.Second
	// frameTimeout is how long a begun frame may take to arrive whole.
	frameTimeout = 30 * time.Second
	// writeTimeout is how long one frame may wait for the peer to read it.
	writeTimeout = 10 * time.Second
	// maxStrangers caps connections from processes that are not Tessera.
	maxStrangers = 32
)

// verify decides, at hello, whether a session claiming kind is what it
// claims: a browser only through Tessera's host started by a trusted
// browser; the CLI and agents only as Tessera's own executable, directly.
func (a *App) verify(s *session, kind string) (verified bool, why string) {
	switch {
	case kind == KindBrowser && s.host:
		return true, ""
	case errors.Is(s.peerErr, nativemsg.ErrVerifyUnsupported) && !s.host:
		// Served on the user check alone, as before process checks existed;
		// the client is shown as not verified (PROTOCOL.md §2.1).
		return true, ""
	case kind == KindBrowser && s.client.Why != "":
		return false, s.client.Why
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

type handler func(ctx context.Context, a *App, s *session, params json.RawMessage) (any, *nativemsg.Error)

// handle adds method to the method table; a method registered twice is an
// error New returns, so no registration silently replaces another.
func (a *App) handle(method string, h handler) {
	if _, dup := a.handlers[method]; dup || method == "session.hello" {
		a.tableErr = errors.Join(a.tableErr, fmt.Errorf("method %q registered twice", method))
		return
	}
	a.handlers[method] = h
}

func (a *App) hello(s *session, params json.RawMessage) outcome {
	if s.hello.Load() {
		return outcome{err: nativemsg.NewError(nativemsg.CodeHelloRepeated, "session.hello was already said")}
	}
	var p nativemsg.HelloParams
	if err := strictUnmarshal(params, &p); err != nil {
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
	verified, why := a.verify(s, kind)
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
	a.mu.Lock()
	s.verified = verified
	s.challenge = challenge
	s.client = Client{ID: s.id, Kind: kind, Name: truncate(p.Client.Name, 64), Origin: s.origin, Connected: a.cfg.Now(), Verified: shown, Why: why}
	if s.host {
		s.client.Browser = s.peer.Browser
	}
	a.clients[s.id] = s.client
	a.mu.Unlock()
	s.hello.Store(true)
	a.changed()
	var r nativemsg.HelloResult
	r.Protocol = nativemsg.ProtocolVersion
	r.App.Name = "tessera"
	r.App.Version = a.cfg.Version
	a.mu.Lock()
	r.Vault.State = a.vaultState()
	a.mu.Unlock()
	r.Session = s.id
	r.Verified, r.Why = verified, why
	if verified && challenge != nil {
		r.Challenge = base64.StdEncoding.EncodeToString(challenge)
	}
	return outcome{result: r}
}

// profileLister is what profile.list needs of the vault; the desktop app's
// *vault.Vault has it.
type profileLister interface {
	Profiles() ([]profile.UserProfile, error)
}

// ProfileList is the result of profile.list: which profiles there are, to
// pick one for a fill. It carries no value of any profile.
type ProfileList struct {
	Profiles []ProfileSummary `json:"profiles"`
}

// listProfiles answers profile.list. A locked or unset vault is reported as
// VAULT_LOCKED or VAULT_UNINITIALIZED, so the extension can tell the person
// what to do in the app.
func listProfiles(ctx context.Context, a *App, s *session, params json.RawMessage) (any, *nativemsg.Error) {
	if len(params) > 0 {
		var p struct{}
		if err := strictUnmarshal(params, &p); err != nil {
			return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "profile.list: %v", err)
		}
	}
	if v, ok := a.cfg.Vault, a.cfg.Vault != nil; ok {
		// Counted without decrypting a single value.
		ps, err := v.ProfileSummaries()
		if err != nil {
			return nil, vaultError("profile.list", err)
		}
		out := ProfileList{Profiles: make([]ProfileSummary, 0, len(ps))}
		for _, p := range ps {
			out.Profiles = append(out.Profiles, ProfileSummary{ID: p.ID, Label: p.Label, Entries: p.Entries, Updated: p.Updated})
		}
		return out, nil
	}
	v, ok := a.cfg.Vault, a.cfg.Vault != nil
	if !ok {
		return nil, nativemsg.NewError(nativemsg.CodeUnsupported, "profile.list: this app has no vault")
	}
	ps, err := v.Profiles()
	if err != nil {
		return nil, vaultError("profile.list", err)
	}
	return ProfileList{Profiles: summaries(ps)}, nil
}

// summaryLister is a vault that lists profiles without decrypting values.
type summaryLister interface {
	ProfileSummaries() ([]vault.ProfileSummary, error)
}

// vaultError maps a vault error to its protocol error. Anything but the
// states a person can change is INTERNAL, with no detail: vault errors may
// name files, and the browser needs no more than that it failed.
func vaultError(method string, err error) *nativemsg.Error {
	switch {
	case errors.Is(err, vault.ErrLocked):
		return nativemsg.NewError(nativemsg.CodeVaultLocked, "%s: the vault is locked: unlock it in the Tessera app", method)
	case errors.Is(err, vault.ErrUninitialized):
		return nativemsg.NewError(nativemsg.CodeVaultUninitialized, "%s: no vault yet: set one up in the Tessera app", method)
	}
	return nativemsg.NewError(nativemsg.CodeInternal, "%s: the vault could not be read", method)
}

func ping(ctx context.Context, a *App, s *session, params json.RawMessage) (any, *nativemsg.Error) {
	var p struct {
		Payload json.RawMessage `json:"payload"`
	}
	if err := strictUnmarshal(params, &p); err != nil {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "session.ping: %v", err)
	}
	if p.Payload == nil {
		p.Payload = json.RawMessage("null")
	}
	return p, nil
}

// strictUnmarshal decodes params into v, refusing absent params where an
// object is needed, unknown fields and trailing data.
func strictUnmarshal(params json.RawMessage, v any) error {
	if len(params) == 0 {
		return errors.New("params required")
	}
	dec := json.NewDecoder(bytes.NewReader(params))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data")
	}
	return nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
