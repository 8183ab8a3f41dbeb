package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"github.com/tessera-app/tessera/app/agents"
	"github.com/tessera-app/tessera/app/broker"
	"github.com/tessera-app/tessera/app/cmdline"
	"github.com/tessera-app/tessera/app/confirm"
	"github.com/tessera-app/tessera/app/fill"
	"github.com/tessera-app/tessera/app/trust"
	"github.com/tessera-app/tessera/app/vaultctl"
	"github.com/tessera-app/tessera/nativemsg"
)

// New returns an App for cfg. It opens nothing yet; Serve starts the broker.
func New(cfg Config) (*App, error) {
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Getenv == nil {
		cfg.Getenv = os.Getenv
	}
	a := &App{cfg: cfg}
	var lockable vaultctl.Lockable
	if cfg.Vault != nil {
		lockable = cfg.Vault
	}
	a.vaultctl = vaultctl.New(vaultctl.Config{
		Vault: lockable, IdleLimit: cfg.IdleLock, Now: cfg.Now, Log: cfg.Log,
		Changed:  func(string) { a.vaultChanged() },
		Unlocked: func() { a.agents.FlushAudit() },
	})
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
	a.broker = broker.New(broker.Config{
		Version: cfg.Version, Inspect: cfg.Inspect, Trusted: trusted,
		HelloTimeout: cfg.HelloTimeout, FrameTimeout: cfg.FrameTimeout, WriteTimeout: cfg.WriteTimeout,
		MaxInFlight: cfg.MaxInFlight, Log: cfg.Log, Now: cfg.Now,
		VaultState:  a.vaultState,
		Changed:     a.changed,
		PersonActed: a.personActed,
		Ended: func(s *broker.Session) {
			a.fill.Ended(s)
			a.agents.Ended(s)
		},
		Notified: func(s *broker.Session, method string, params json.RawMessage) {
			a.agents.Notified(s, method, params)
		},
	})
	a.confirms = confirm.NewQueue(cfg.Now, a.personActed)
	a.gate = confirm.NewGate(windowAsker{a}, a.audit)
	var fv fill.Vault
	var av agents.Vault
	if cfg.Vault != nil {
		fv, av = cfg.Vault, cfg.Vault
	}
	a.fill = fill.New(fill.Config{
		Vault: fv, Queue: a.confirms, Gate: a.gate,
		ConfirmTimeout: func() time.Duration { return a.confirmTimeout },
		Released:       func(v string) { a.agents.Released(v) },
		ShowUnlock:     a.showUnlock,
		Now:            cfg.Now, Log: cfg.Log,
	})
	a.agents = agents.New(agents.Config{
		Vault: av, Home: cfg.Home, Broker: a.broker, Fill: a.fill, Gate: a.gate, Ask: a.ask,
		Now: cfg.Now, Log: cfg.Log,
	})
	a.ui = newUI(a)
	a.confirmTimeout = confirmTimeout(cfg.Getenv)
	a.handle("session.ping", ping)
	a.handle("profile.list", listProfiles)
	a.handle(PairProveMethod, pairProve)
	a.handle(PairRequestMethod, pairRequest)
	a.tableErr = errors.Join(a.tableErr, a.fill.Register(a.broker))
	a.handle("vault.status", vaultStatus)
	var cv cmdline.Vault
	if cfg.Vault != nil {
		cv = cfg.Vault
	}
	a.tableErr = errors.Join(a.tableErr, cmdline.New(cmdline.Config{
		Vault: cv, Window: a.ui, Sync: cliSync{a}, Gate: a.gate,
		HasWindow: a.hasWindow, VaultState: a.vaultState,
		Changed: a.changed, VaultChanged: a.vaultChangedByPerson,
		ShowUnlock: a.requestUnlockScreen, Now: cfg.Now,
	}).Register(a.broker))
	a.tableErr = errors.Join(a.tableErr, a.agents.Register(a.broker))
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
	defer a.agents.AuditUnwritten()
	return a.broker.ServeListener(ctx, l, name)
}

// Broadcast sends a notification to every session that may act: a browser
// only once it has proven a paired key.
func (a *App) Broadcast(method string, params any) {
	a.broker.Broadcast(method, params)
}

// A handler is one of the app's methods; handle binds it to the app.
type handler func(ctx context.Context, a *App, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error)

// handle adds method to the broker's method table; a method registered
// twice is an error New returns, so no registration silently replaces
// another.
func (a *App) handle(method string, h handler) {
	err := a.broker.Handle(method, func(ctx context.Context, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
		return h(ctx, a, s, params)
	})
	a.tableErr = errors.Join(a.tableErr, err)
}

// ProfileList is the result of profile.list: which profiles there are, to
// pick one for a fill. It carries no value of any profile.
type ProfileList struct {
	Profiles []ProfileSummary `json:"profiles"`
}

// listProfiles answers profile.list. A locked or unset vault is reported as
// VAULT_LOCKED or VAULT_UNINITIALIZED, so the extension can tell the person
// what to do in the app.
func listProfiles(ctx context.Context, a *App, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
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
			return nil, fill.VaultError("profile.list", err)
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
		return nil, fill.VaultError("profile.list", err)
	}
	return ProfileList{Profiles: fill.Summaries(ps)}, nil
}

func ping(ctx context.Context, a *App, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
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
	return broker.DecodeParams(params, v)
}
