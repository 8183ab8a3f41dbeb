package agents

import (
	"context"
	"io"
	"time"

	"github.com/tessera-app/tessera/app/broker"
	"github.com/tessera-app/tessera/app/confirm"
	"github.com/tessera-app/tessera/app/fill"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

// Vault is what the agents' service needs of the vault: its state, the
// audit log, and the profiles' values, only to withhold them from agents.
type Vault interface {
	State() string
	RecordRelease(vault.Release) error
	Profiles() ([]profile.UserProfile, error)
}

var _ Vault = (*vault.Vault)(nil)

// Config is what a Service is given.
type Config struct {
	// Vault is the vault; nil: none is set up.
	Vault Vault
	// Home is the data directory, where the agent access file lives.
	Home string
	// Broker finds the paired browsers an agent acts in; Fill proposes and
	// fills for agents; Gate releases the values of a page tool's call.
	Broker *broker.Broker
	Fill   *fill.Service
	Gate   *confirm.Gate
	// Ask shows a dialog in the window and waits for the person.
	Ask func(context.Context, confirm.Confirmation) confirm.Decision
	// Now is the clock (time.Now when nil); Log receives diagnostics.
	Now func() time.Time
	Log io.Writer
}

// A Service serves agents (PROTOCOL.md §4.3): the tools `tessera mcp`
// lists and calls, run in a paired browser's tab, each under the person's
// consent, every result passing withhold.
type Service struct {
	cfg Config
	// hub is what the app keeps for agent sessions and the sites the person
	// opened to agents.
	hub agentHub
	// audits are agent records waiting for the vault (audit.go).
	audits auditQueue
	// released are the values released to pages in this run, never to be
	// passed to an agent (withhold.go).
	released releasedValues
}

// New returns a Service for cfg; it reads the agent access file.
func New(cfg Config) *Service {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	a := &Service{cfg: cfg}
	a.hub.loadAccess(cfg.Home, cfg.Log)
	return a
}

// Released notes a value released to a page: no agent is ever handed it.
func (a *Service) Released(value string) { a.released.add(value) }

// Ended forgets what was kept for a session that ended.
func (a *Service) Ended(s *broker.Session) { a.hub.drop(s) }

// Notified takes a browser's notification: browser.changed tells the
// agents working on that tab to list their tools again.
func (a *Service) Notified(s *broker.Session, method string, params []byte) {
	if method == browserChangedMethod {
		a.browserChanged(s, params)
	}
}

// vaultState is the vault's state ("uninitialized" without one).
func (a *Service) vaultState() string {
	if a.cfg.Vault == nil {
		return "uninitialized"
	}
	return a.cfg.Vault.State()
}

// OpenSite opens origin to agents and TrustTool lets its read-only page
// tool run without asking, as the person's approval in a dialog does (the
// window's self-test seeds Settings with them).
func (a *Service) OpenSite(origin string)        { a.hub.expose(origin) }
func (a *Service) TrustTool(origin, tool string) { a.hub.trust(origin, tool) }
