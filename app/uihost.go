package app

import (
	"time"

	"github.com/tessera-app/tessera/app/trust"
	"github.com/tessera-app/tessera/app/ui"
	"github.com/tessera-app/tessera/vault"
)

// newUI returns the window's service for a.
func newUI(a *App) *ui.UI { return ui.New(uiConfig(a)) }

// uiConfig binds the window's service to a's parts through the interfaces
// package ui declares.
func uiConfig(a *App) ui.Config {
	var v ui.Vault
	if a.cfg.Vault != nil {
		v = a.cfg.Vault
	}
	return ui.Config{
		Vault: v, Home: a.cfg.Home, Getenv: a.cfg.Getenv, Now: a.cfg.Now,
		ExportWorkFactor: a.exportWorkFactor(),
		App:              uiHost{a},
		Confirms:         a.confirms,
		Rematch:          a.fill,
		Agents:           a.agents,
		Pairs:            uiPairs{a},
		Browsers:         uiBrowsers{a},
		AutoLock:         a.vaultctl,
		Sync:             syncUI{a},
	}
}

// uiHost is the app as the window needs it (ui.Host).
type uiHost struct{ *App }

func (h uiHost) PersonActed()          { h.personActed() }
func (h uiHost) Changed()              { h.changed() }
func (h uiHost) VaultChanged()         { h.vaultChanged() }
func (h uiHost) MarkUserQuit()         { h.markUserQuit() }
func (h uiHost) Audit(r vault.Release) { h.audit(r) }

// uiPairs are the paired installs as Settings lists them (ui.Pairs).
type uiPairs struct{ a *App }

func (p uiPairs) All() []trust.PairedBrowser { return p.a.pairs.All() }
func (p uiPairs) Unpair(id string) error     { return p.a.Unpair(id) }

// uiBrowsers are the approved browsers as Settings shows them
// (ui.Browsers).
type uiBrowsers struct{ a *App }

func (b uiBrowsers) View() trust.TrustedBrowsersView { return b.a.trusted.View() }

func (b uiBrowsers) Trust(path string, now time.Time) error { return b.a.trusted.Trust(path, now) }

// Untrust withdraws the approval of the browser at path, and its sessions
// end at once.
func (b uiBrowsers) Untrust(path string) error {
	if err := b.a.trusted.Untrust(path); err != nil {
		return err
	}
	b.a.broker.Untrust(path)
	return nil
}
