package ui

import (
	"sync"
	"time"

	"github.com/tessera-app/tessera/app/agents"
	"github.com/tessera-app/tessera/app/broker"
	"github.com/tessera-app/tessera/app/confirm"
	"github.com/tessera-app/tessera/app/trust"
	"github.com/tessera-app/tessera/vault"
)

// StatusEvent is the frontend event carrying a fresh Status whenever the
// app's state changes (a browser connects, the vault is unlocked, ...).
const StatusEvent = "status"

// Status is what the window shows at a glance.
type Status struct {
	Version string          `json:"version"`
	Build   string          `json:"build,omitempty"`
	Vault   string          `json:"vault"` // "uninitialized", "locked", "unlocked"
	Socket  string          `json:"socket"`
	Clients []broker.Client `json:"clients"`
}

// Host is what the window needs of the running app as a whole.
type Host interface {
	// Status returns a snapshot of the app's state.
	Status() Status
	// OnChange registers f to be called whenever Status may have changed
	// (nil: nothing is).
	OnChange(f func())
	// SetPresenter installs what shows the person's dialogs (nil: nothing
	// does, and every request is declined).
	SetPresenter(confirm.Presenter)
	// PersonActed notes an action of the person, which keeps the vault
	// unlocked (package vaultctl).
	PersonActed()
	// Changed tells the window that Status may have changed.
	Changed()
	// VaultChanged tells the window, every connected browser and the sync
	// the vault's state as it is now.
	VaultChanged()
	// MarkUserQuit records that the person quit from the window, so the
	// browser's host does not start the app again in the background.
	MarkUserQuit()
	// Audit appends r to the vault's audit log.
	Audit(r vault.Release)
}

// Confirms is the queue of the person's dialogs (*confirm.Queue).
type Confirms interface {
	Current() (confirm.Confirmation, bool)
	Decide(confirm.Decision) error
}

// A Rematcher matches the fields of a waiting confirmation again from
// another profile: the fill service. Rematch replaces the confirmation in
// the queue, keeping its id and expiry, and returns the new one, so that a
// decision names rows the queue knows.
type Rematcher interface {
	Rematch(confirmationID, profileID string) (confirm.Confirmation, error)
}

// Agents is what Settings shows and changes of agents' access, and the
// audit log agents keep while the vault is locked (*agents.Service).
type Agents interface {
	Access() agents.AgentAccess
	CloseSite(origin string) (agents.AgentAccess, error)
	Untrust(origin, tool string) (agents.AgentAccess, error)
	FlushAudit()
}

// Pairs are the extension installs the person paired.
type Pairs interface {
	// All lists them.
	All() []trust.PairedBrowser
	// Unpair forgets install id and closes its sessions.
	Unpair(id string) error
}

// Browsers are the browser executables the person approved.
type Browsers interface {
	View() trust.TrustedBrowsersView
	Trust(path string, now time.Time) error
	// Untrust withdraws the approval of the browser at path and ends its
	// sessions.
	Untrust(path string) error
}

// AutoLock is the vault's idle limit while the app runs
// (*vaultctl.Controller).
type AutoLock interface {
	IdleLimit() time.Duration
	SetIdleLimit(time.Duration)
}

// Config is what New needs: the app's parts the window reads and acts on.
type Config struct {
	// Vault is the vault; nil means the app has none (ErrNoVault).
	Vault Vault
	// Home is the data directory.
	Home string
	// Getenv reads the environment; Now is the clock.
	Getenv func(string) string
	Now    func() time.Time
	// ExportWorkFactor is the scrypt work factor of a passphrase-encrypted
	// export.
	ExportWorkFactor int

	App      Host
	Confirms Confirms
	Rematch  Rematcher
	Agents   Agents
	Pairs    Pairs
	Browsers Browsers
	AutoLock AutoLock
	Sync     Sync
}

// UI is the service bound to the window. Each exported method is callable
// from the frontend as window.go.ui.UI.Method() and returns (T, error), so
// that a failure rejects the JavaScript promise. The window's lifecycle is
// not among them: the app drives it through Window.
type UI struct {
	cfg Config

	mu      sync.Mutex
	sh      Shell // nil until the window has started, and after it stopped
	pending bool  // quit was asked for before the window started
	// keyringErr is why the keyring failed in this run, nil while it has
	// not; see noteKeyring.
	keyringErr error
	// pendingImport is the import previewed and waiting for the person's
	// choice (transfer.go).
	pendingImport *pendingImport
}

// New returns the UI service for cfg.
func New(cfg Config) *UI { return &UI{cfg: cfg} }

// Status returns what the status screen shows.
func (u *UI) Status() (Status, error) { return u.cfg.App.Status(), nil }

// Quit ends the app: the window closes and the broker stops serving
// browsers. (Closing the window only hides it.)
func (u *UI) Quit() error {
	u.cfg.App.MarkUserQuit()
	u.quit()
	return nil
}

// Window is the app's handle on the window's lifecycle, wired to Wails'
// OnStartup and OnShutdown. It is not bound, so the page cannot call it.
type Window struct{ u *UI }

// NewWindow returns the lifecycle handle of u's window.
func NewWindow(u *UI) *Window { return &Window{u} }

// Start is wired to OnStartup: from now on state changes reach the window
// through sh.
func (w *Window) Start(sh Shell) {
	u := w.u
	u.mu.Lock()
	u.sh = sh
	pending := u.pending
	u.mu.Unlock()
	if pending {
		sh.Quit()
		return
	}
	u.cfg.App.OnChange(u.push)
	u.startDialog()
}

// Stop is wired to OnShutdown: the runtime must not be called any more.
func (w *Window) Stop() {
	u := w.u
	u.cfg.App.OnChange(nil)
	u.stopDialog()
	u.mu.Lock()
	u.sh = nil
	u.mu.Unlock()
}

// Show brings the window up, e.g. when Tessera is launched a second time.
func (w *Window) Show() {
	if sh := w.u.shell(); sh != nil {
		sh.Show()
	}
}

// Quit ends wails.Run, now or as soon as the window has started.
func (w *Window) Quit() { w.u.quit() }

// push sends the current status to the window.
func (u *UI) push() {
	if sh := u.shell(); sh != nil {
		sh.Emit(StatusEvent, u.cfg.App.Status())
	}
}

func (u *UI) quit() {
	u.mu.Lock()
	sh := u.sh
	if sh == nil {
		u.pending = true
	}
	u.mu.Unlock()
	if sh != nil {
		sh.Quit()
	}
}

func (u *UI) shell() Shell {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.sh
}

// personActed notes an action of the person (Host.PersonActed).
func (u *UI) personActed() { u.cfg.App.PersonActed() }

// changed tells the window that Status may have changed (Host.Changed).
func (u *UI) changed() { u.cfg.App.Changed() }
