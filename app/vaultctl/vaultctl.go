package vaultctl

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"
)

// Lockable is what the controller needs of the vault.
type Lockable interface {
	State() string
	Lock()
}

// Config configures a Controller.
type Config struct {
	// Vault is the vault; nil: there is none, and nothing is watched.
	Vault Lockable
	// IdleLimit is how long the vault stays unlocked without the person
	// acting (zero: never); SetIdleLimit changes it.
	IdleLimit time.Duration
	// Now is the clock (time.Now when nil); Log receives what was locked
	// and why (discarded when nil).
	Now func() time.Time
	Log io.Writer
	// Changed is called with the vault's state after each change the
	// controller notices or makes.
	Changed func(state string)
	// Unlocked is called when Watch notices the vault became unlocked.
	Unlocked func()
}

// A Controller locks the vault when the person steps away.
type Controller struct {
	cfg Config

	mu         sync.Mutex
	lastAction time.Time
	idleLimit  time.Duration
}

// New returns a Controller for cfg.
func New(cfg Config) *Controller {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	if cfg.Changed == nil {
		cfg.Changed = func(string) {}
	}
	if cfg.Unlocked == nil {
		cfg.Unlocked = func() {}
	}
	return &Controller{cfg: cfg, idleLimit: cfg.IdleLimit}
}

// Acted notes an action of the person: a command typed at the CLI, a
// decision in a dialog, an unlock. Only these keep the vault unlocked;
// requests from browsers and agents do not, so background traffic cannot
// postpone the idle lock.
func (c *Controller) Acted() {
	c.mu.Lock()
	c.lastAction = c.cfg.Now()
	c.mu.Unlock()
}

// IdleLimit is how long the vault stays unlocked without the person acting
// (zero: never).
func (c *Controller) IdleLimit() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.idleLimit
}

// SetIdleLimit changes the idle limit, from the next check on.
func (c *Controller) SetIdleLimit(d time.Duration) {
	c.mu.Lock()
	c.idleLimit = d
	c.mu.Unlock()
}

// Watch checks every interval until ctx is done: it locks the vault when
// the person has not acted for the idle limit, and calls Changed when the
// state changes (Unlocked first, when it became unlocked).
func (c *Controller) Watch(ctx context.Context, interval time.Duration) {
	v := c.cfg.Vault
	if v == nil {
		return
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	last := v.State()
	if last == "unlocked" {
		c.Acted()
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			st := v.State()
			if st == "unlocked" && last != "unlocked" {
				c.Acted() // unlocking is the person's doing
				c.cfg.Unlocked()
			}
			c.mu.Lock()
			idle := c.cfg.Now().Sub(c.lastAction)
			limit := c.idleLimit
			c.mu.Unlock()
			if st == "unlocked" && limit > 0 && idle >= limit {
				v.Lock()
			}
			if st := v.State(); st != last {
				last = st
				c.cfg.Changed(st)
			}
		}
	}
}

// A LockEvent says why the vault should lock now.
type LockEvent string

// Lock events.
const (
	LockScreen  LockEvent = "the screen was locked"
	LockSuspend LockEvent = "the computer is going to sleep"
)

// WatchSessionLock locks the vault on every event from events until ctx is
// done or events is closed (SessionLockEvents says where they come from).
func (c *Controller) WatchSessionLock(ctx context.Context, events <-chan LockEvent) {
	v := c.cfg.Vault
	if v == nil {
		return
	}
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-events:
			if !ok {
				return
			}
			if v.State() != "unlocked" {
				continue
			}
			v.Lock()
			fmt.Fprintf(c.cfg.Log, "tessera: vault locked: %s\n", ev)
			c.cfg.Changed(v.State())
		}
	}
}
