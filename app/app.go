package app

import (
	"context"
	"sync"
	"time"
)

// Config configures an App.
type Config struct {
	// Home is the data directory (vault, settings); see vault.DefaultDir.
	Home string
	// SocketDir is the 0700 per-user directory holding the app socket;
	// empty means nativemsg.DefaultSocketDir.
	SocketDir string
	// Version is the app version reported in session.hello.
	Version string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// A Client is one connected browser (or agent) as the UI shows it.
type Client struct {
	ID        string    `json:"id"`
	Kind      string    `json:"kind"`   // "browser" or "agent"
	Name      string    `json:"name"`   // e.g. "chromium", from session.hello
	Origin    string    `json:"origin"` // extension origin the host verified
	Connected time.Time `json:"connected"`
}

// Status is what the window shows at a glance.
type Status struct {
	Version string   `json:"version"`
	Vault   string   `json:"vault"` // "uninitialized", "locked", "unlocked"
	Socket  string   `json:"socket"`
	Clients []Client `json:"clients"`
}

// An App is the running desktop app without its window: the broker and the
// state the UI shows.
type App struct {
	cfg Config

	mu       sync.Mutex
	clients  map[string]Client
	onChange func()
	socket   string
}

// Status returns a snapshot of the app state.
func (a *App) Status() Status {
	a.mu.Lock()
	defer a.mu.Unlock()
	st := Status{Version: a.cfg.Version, Vault: a.vaultState(), Socket: a.socket}
	for _, c := range a.clients {
		st.Clients = append(st.Clients, c)
	}
	sortClients(st.Clients)
	return st
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

var _ = context.Background
