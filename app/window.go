package app

import (
	"context"
	"encoding/json"

	"github.com/tessera-app/tessera/app/broker"
	"github.com/tessera-app/tessera/nativemsg"
)

// VaultStatus is the result of vault.status.
type VaultStatus struct {
	State    string `json:"state"`
	Profiles int    `json:"profiles"`
	Window   bool   `json:"window"`
}

func vaultStatus(ctx context.Context, a *App, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	if len(params) > 0 {
		var p struct{}
		if err := broker.DecodeParams(params, &p); err != nil {
			return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "vault.status: %v", err)
		}
	}
	a.mu.Lock()
	st := VaultStatus{State: a.vaultState()}
	a.mu.Unlock()
	st.Window = a.hasWindow()
	if st.State == "unlocked" {
		if v, ok := a.cfg.Vault, a.cfg.Vault != nil; ok {
			if ps, err := v.Profiles(); err == nil {
				st.Profiles = len(ps)
			}
		}
	}
	return st, nil
}

// UnlockShown is the result of a browser's vault.unlock.
type UnlockShown struct {
	State   string `json:"state"`
	Shown   bool   `json:"shown"`
	Message string `json:"message,omitempty"`
}

// requestUnlockScreen brings the window forward on its unlock screen, for
// a browser's vault.unlock.
func (a *App) requestUnlockScreen(s *broker.Session) (any, *nativemsg.Error) {
	a.mu.Lock()
	st := a.vaultState()
	a.mu.Unlock()
	out := UnlockShown{State: st, Shown: a.showUnlock()}
	if !out.Shown {
		out.Message = "Tessera runs without a window: unlock it with `tessera vault unlock --passphrase-file FILE`"
	}
	return out, nil
}

// showUnlock brings the unlock screen forward and reports whether there is
// a window to do it in.
func (a *App) showUnlock() bool {
	p := a.confirms.Presenter()
	if p == nil {
		return false
	}
	p.ShowUnlock()
	return true
}

// hasWindow reports whether something shows dialogs: without, every
// dialog declines with DeclineNoWindow.
func (a *App) hasWindow() bool { return a.confirms.Presenter() != nil }

// setScriptedPresenter installs the testhooks presenter; the window's own
// presenter does not replace it.
func (a *App) setScriptedPresenter(p Presenter) {
	a.mu.Lock()
	a.scripted = true
	a.mu.Unlock()
	a.confirms.SetPresenter(p)
}

// SetPresenter installs p as what shows dialogs (nil: nothing does, and
// every request is declined), unless a test build's scripted presenter is
// in place.
func (a *App) SetPresenter(p Presenter) {
	a.mu.Lock()
	scripted := a.scripted
	a.mu.Unlock()
	if !scripted {
		a.confirms.SetPresenter(p)
	}
}
