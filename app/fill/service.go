package fill

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/tessera-app/tessera/app/broker"
	"github.com/tessera-app/tessera/app/confirm"
	"github.com/tessera-app/tessera/nativemsg"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

// Vault is what filling needs of the vault; *vault.Vault is one.
type Vault interface {
	Profiles() ([]profile.UserProfile, error)
	RecordRelease(vault.Release) error
	Learn(profileID string, obs []vault.Observation) ([]vault.LearnResult, error)
	SiteRule(origin string) (vault.SiteRule, bool, error)
	SetSiteRule(vault.SiteRule) error
	TouchSiteRule(origin string) error
}

var _ Vault = (*vault.Vault)(nil)

// Config is what a Service is given.
type Config struct {
	// Vault is the vault; nil: none is set up (VAULT_UNINITIALIZED).
	Vault Vault
	// Queue shows the person's dialogs; Gate releases values (the one way
	// they leave the vault).
	Queue *confirm.Queue
	Gate  *confirm.Gate
	// ConfirmTimeout is how long a dialog waits before it declines.
	ConfirmTimeout func() time.Duration
	// Released is told every value released to a page, so that no agent is
	// ever handed one (the app's withhold).
	Released func(value string)
	// ShowUnlock brings the window's unlock screen forward when a request
	// meets a locked vault, and reports whether there is a window.
	ShowUnlock func() bool
	// Now is the clock (time.Now when nil); Log receives diagnostics.
	Now func() time.Time
	Log io.Writer
}

// A Service fills pages with the person's consent: it analyses pages,
// proposes, asks through the gate, continues and reports fills, learns
// from a submit, remembers sites, and answers the Formspec Assist methods.
// Browsers reach it through the methods Register adds; agents call its
// typed API (Propose, Fill, Report, Analyse) directly.
type Service struct {
	cfg      Config
	confirms *confirm.Queue
	gate     *confirm.Gate

	mu sync.Mutex
	// pending are the fill confirmations waiting, by confirmation id.
	pending map[string]*pendingFill
	// fills are the approved fills that may still continue and report.
	fills fills
	// pageCalls are agents' page-tool runs in flight (formspec.go).
	pageCalls pageToolCalls
}

// New returns a Service for cfg.
func New(cfg Config) *Service {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	if cfg.ConfirmTimeout == nil {
		cfg.ConfirmTimeout = func() time.Duration { return confirm.DefaultConfirmTimeout }
	}
	if cfg.Released == nil {
		cfg.Released = func(string) {}
	}
	if cfg.ShowUnlock == nil {
		cfg.ShowUnlock = func() bool { return false }
	}
	return &Service{cfg: cfg, confirms: cfg.Queue, gate: cfg.Gate, pending: map[string]*pendingFill{}}
}

// A method is one of the service's protocol methods.
type method func(ctx context.Context, a *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error)

// Register adds the fill-with-consent methods (PROTOCOL.md §4.1) and the
// Formspec Assist methods (§4.4) to b.
func (a *Service) Register(b *broker.Broker) error {
	var errs []error
	for name, m := range map[string]method{
		"form.analyse":   analyseForm,
		"fill.propose":   proposeFill,
		"fill.request":   requestFill,
		"fill.continue":  continueFill,
		"fill.report":    reportFill,
		"learn.request":  requestLearn,
		"formspec.help":  formspecHelp,
		"formspec.match": formspecMatch,
		"formspec.apply": formspecApply,
		"formspec.learn": formspecLearn,
	} {
		errs = append(errs, b.Handle(name, func(ctx context.Context, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
			return m(ctx, a, s, params)
		}))
	}
	return errors.Join(errs...)
}

// Ended forgets the fills of a session that ended.
func (a *Service) Ended(s *broker.Session) { a.fills.dropSession(s) }

// BeginPageCall notes that agent runs a page tool in browser's tab until
// end is called: a Formspec apply asked from that tab meanwhile names the
// agent as who asks (formspec.go).
func (a *Service) BeginPageCall(browser *broker.Session, tab int, agent *broker.Session) (end func()) {
	return a.pageCalls.begin(browser, tab, agent)
}
