package app

import (
	"context"
	"fmt"
)

// Locking the vault when the person steps away: the screen locks or the
// machine suspends. The platform file says where those events come from;
// watchSessionLock turns each into a vault lock, announced like an idle
// lock.

// A lockEvent says why the vault should lock now.
type lockEvent string

// Lock events.
const (
	lockScreen  lockEvent = "the screen was locked"
	lockSuspend lockEvent = "the computer is going to sleep"
)

// vaultLocker is a vault the app can lock.
type vaultLocker interface {
	Lock()
	State() string
}

// watchSessionLock locks the vault on every event from events until ctx is
// done or events is closed.
func (a *App) watchSessionLock(ctx context.Context, events <-chan lockEvent) {
	v, ok := a.cfg.Vault, a.cfg.Vault != nil
	if !ok {
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
			fmt.Fprintf(a.cfg.Log, "tessera: vault locked: %s\n", ev)
			a.vaultChanged()
		}
	}
}
