package app

import (
	"context"
	"fmt"

	"io"
	"net"
	"sync"
	"time"

	"github.com/tessera-app/tessera/app/agents"
	"github.com/tessera-app/tessera/app/broker"
	"github.com/tessera-app/tessera/app/confirm"
	"github.com/tessera-app/tessera/app/fill"
	"github.com/tessera-app/tessera/app/trust"
	"github.com/tessera-app/tessera/app/ui"
	"github.com/tessera-app/tessera/app/vaultctl"
	"github.com/tessera-app/tessera/nativemsg"
	"github.com/tessera-app/tessera/vault"
)

// Config configures an App.
type Config struct {
	// Home is the data directory (vault, settings).
	Home string
	// SocketDir is the 0700 per-user channel directory; empty means
	// nativemsg.ChannelDir.
	SocketDir string
	// Version is the app version reported in session.hello; Build the
	// commit and date it was built from, for the window's About.
	Version string
	Build   string
	// Vault is the vault; nil means no vault is configured
	// ("uninitialized").
	Vault Vault
	// PeerCheck decides which socket peers are served; nil means the
	// current-user check (nativemsg.SameUser).
	PeerCheck func(net.Conn) error
	// Inspect names the process behind a connection (its executable, its
	// parent); nil means nativemsg.Inspect. Tests of the broker's other
	// duties pass a fake; the real one has tests of its own.
	Inspect func(net.Conn) (nativemsg.PeerInfo, error)
	// IdleLock locks the vault when the person has not acted for this long
	// (zero: never).
	IdleLock time.Duration
	// HelloTimeout, FrameTimeout and WriteTimeout bound the wait for a
	// connection's hello, for a begun frame to arrive whole, and for the
	// peer to read one frame; zero means the defaults (10 s, 30 s, 10 s).
	HelloTimeout, FrameTimeout, WriteTimeout time.Duration
	// MaxInFlight bounds concurrent requests per connection (default 16).
	MaxInFlight int
	// Log receives diagnostics; nil discards them.
	Log io.Writer
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// ExportWorkFactor is the scrypt work factor of a passphrase-encrypted
	// export (zero: vault.DefaultScryptWorkFactor).
	ExportWorkFactor int
}

// A Client is one connected browser, agent or command line as the UI
// shows it (package broker).
type Client = broker.Client

// Session kinds (package broker).
const (
	KindBrowser = broker.KindBrowser
	KindAgent   = broker.KindAgent
	KindCLI     = broker.KindCLI
)

// Status is what the window shows at a glance (package ui).
type Status = ui.Status

// An App is the running desktop app without its window: the broker and the
// state the UI shows.
type App struct {
	cfg Config

	mu       sync.Mutex
	onChange func()
	// broker serves the app channel and holds the method table; tableErr
	// is what went wrong building the table.
	broker   *broker.Broker
	tableErr error

	// pairs are the extension installs the person paired.
	pairs *trust.Pairs
	// trusted are the browser executables the person approved.
	trusted *trust.Browsers

	// confirms is the queue of dialogs waiting for the person; gate the one
	// way values leave (confirm.Gate).
	confirms *confirm.Queue
	gate     *confirm.Gate
	// confirmTimeout is how long a dialog waits before it declines.
	confirmTimeout time.Duration
	// fill fills pages with the person's consent (package fill).
	fill *fill.Service
	// scripted reports whether a test build's presenter answers dialogs.
	scripted bool
	// vaultctl locks the vault when the person steps away (idle, screen
	// lock, suspend).
	vaultctl *vaultctl.Controller
	// agents serves agents their tools, under the same consent (package
	// agents).
	agents *agents.Service
	// ui is the one UI service: the window's bindings (package ui), and
	// what the command line's methods act through.
	ui *ui.UI
	// syncing is the sync of the vault with the person's other devices
	// (syncctl.go).
	syncing syncCtl
}

// Status returns a snapshot of the app state.
func (a *App) Status() Status {
	return Status{Version: a.cfg.Version, Build: a.cfg.Build, Vault: a.vaultState(), Socket: a.broker.Socket(), Clients: a.broker.Clients()}
}

// OnChange registers f to be called (from any goroutine) whenever Status may
// have changed. The UI uses it to refresh.
func (a *App) OnChange(f func()) {
	a.mu.Lock()
	a.onChange = f
	a.mu.Unlock()
}

func (a *App) changed() {
	a.mu.Lock()
	f := a.onChange
	a.mu.Unlock()
	if f != nil {
		f()
	}
}

func (a *App) vaultState() string {
	if a.cfg.Vault == nil {
		return "uninitialized"
	}
	return a.cfg.Vault.State()
}

// exportWorkFactor is the scrypt work factor of a passphrase bundle.
func (a *App) exportWorkFactor() int {
	if a.cfg.ExportWorkFactor > 0 {
		return a.cfg.ExportWorkFactor
	}
	return vault.DefaultScryptWorkFactor
}

// vaultChanged tells the window and every connected browser the vault's
// state as it is now.
func (a *App) vaultChanged() {
	a.mu.Lock()
	st := a.vaultState()
	a.mu.Unlock()
	a.followVaultForSync(st)
	a.Broadcast("vault.stateChanged", map[string]string{"state": st})
	a.changed()
}

// vaultChangedByPerson is vaultChanged after the person set up, unlocked
// or locked the vault, as the window's own bindings do: the audit records
// agents kept while it was locked are written first.
func (a *App) vaultChangedByPerson() {
	a.agents.FlushAudit()
	a.vaultChanged()
}

// markUserQuit records that the person quit the app from its window, so the
// browser's host does not start it again in the background.
func (a *App) markUserQuit() {
	if a.cfg.SocketDir == "" {
		return
	}
	if err := nativemsg.MarkUserQuit(a.cfg.SocketDir); err != nil {
		fmt.Fprintf(a.cfg.Log, "tessera: %v\n", err)
	}
}

// personActed notes an action of the person: a command typed at the CLI,
// a decision in a dialog, an unlock. Only these keep the vault unlocked
// (package vaultctl).
func (a *App) personActed() {
	a.vaultctl.Acted()
}

// watchVault locks the vault when the person has not acted for the idle
// limit, and tells the window, every connected browser and the sync when
// its state changes, every interval until ctx is done (package vaultctl).
func (a *App) watchVault(ctx context.Context, interval time.Duration) {
	if a.cfg.Vault == nil {
		return
	}
	a.followVaultForSync(a.vaultState())
	defer a.followVaultForSync("stopped")
	a.vaultctl.Watch(ctx, interval)
}
