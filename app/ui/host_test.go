package ui

import (
	"io"
	"sync"
	"time"

	"github.com/tessera-app/tessera/app/agents"
	"github.com/tessera-app/tessera/app/broker"
	"github.com/tessera-app/tessera/app/confirm"
	"github.com/tessera-app/tessera/app/fill"
	"github.com/tessera-app/tessera/app/trust"
	"github.com/tessera-app/tessera/vault"
)

// fakeHost is the app as the window's service sees it: it pushes status
// on every change, keeps the presenter it is given, counts the person's
// actions and writes the audit log to the vault, as the app does.
type fakeHost struct {
	v Vault

	mu        sync.Mutex
	onChange  func()
	presenter confirm.Presenter
	acted     int
	quitMarks int
}

func (h *fakeHost) Status() Status {
	st := "uninitialized"
	if h.v != nil {
		st = h.v.State()
	}
	return Status{Version: "test", Vault: st, Clients: []broker.Client{}}
}

func (h *fakeHost) OnChange(f func()) { h.mu.Lock(); h.onChange = f; h.mu.Unlock() }

func (h *fakeHost) SetPresenter(p confirm.Presenter) { h.mu.Lock(); h.presenter = p; h.mu.Unlock() }

func (h *fakeHost) PersonActed() { h.mu.Lock(); h.acted++; h.mu.Unlock() }

func (h *fakeHost) Changed() {
	h.mu.Lock()
	f := h.onChange
	h.mu.Unlock()
	if f != nil {
		f()
	}
}

func (h *fakeHost) VaultChanged() { h.Changed() }

func (h *fakeHost) MarkUserQuit() { h.mu.Lock(); h.quitMarks++; h.mu.Unlock() }

func (h *fakeHost) Audit(r vault.Release) {
	if h.v != nil {
		fill.Audit(io.Discard, h.v, r)
	}
}

func (h *fakeHost) actions() int { h.mu.Lock(); defer h.mu.Unlock(); return h.acted }

// fakeAgents has no agent sites and nothing held for the audit log.
type fakeAgents struct{}

func (fakeAgents) Access() agents.AgentAccess { return agents.AgentAccess{} }
func (fakeAgents) CloseSite(string) (agents.AgentAccess, error) {
	return agents.AgentAccess{}, nil
}
func (fakeAgents) Untrust(string, string) (agents.AgentAccess, error) {
	return agents.AgentAccess{}, nil
}
func (fakeAgents) FlushAudit() {}

// fakeSync is sync that was never set up.
type fakeSync struct{}

func (fakeSync) View() SyncView                                 { return SyncView{} }
func (fakeSync) Poll() SyncView                                 { return SyncView{} }
func (fakeSync) SetUp(string, string, string) (SyncView, error) { return SyncView{}, nil }
func (fakeSync) Now() (SyncView, error)                         { return SyncView{}, nil }
func (fakeSync) RemoveDevice(string) (SyncView, error)          { return SyncView{}, nil }
func (fakeSync) Stop() (SyncView, error)                        { return SyncView{}, nil }
func (fakeSync) AskToJoin(string, string) (SyncView, error)     { return SyncView{}, nil }
func (fakeSync) CancelJoin() SyncView                           { return SyncView{} }
func (fakeSync) ApproveJoin(string, string) (SyncView, error) {
	return SyncView{}, nil
}
func (fakeSync) DeclineJoin(string) (SyncView, error) { return SyncView{}, nil }
func (fakeSync) PassphraseChanged(old, pp []byte)     {}

// fakeTrust has nothing paired and no browser approved.
type fakeTrust struct{}

func (fakeTrust) All() []trust.PairedBrowser      { return nil }
func (fakeTrust) Unpair(string) error             { return nil }
func (fakeTrust) View() trust.TrustedBrowsersView { return trust.TrustedBrowsersView{} }
func (fakeTrust) Trust(string, time.Time) error   { return nil }
func (fakeTrust) Untrust(string) error            { return nil }

// fakeAutoLock is the idle limit alone.
type fakeAutoLock struct {
	mu sync.Mutex
	d  time.Duration
}

func (l *fakeAutoLock) IdleLimit() time.Duration     { l.mu.Lock(); defer l.mu.Unlock(); return l.d }
func (l *fakeAutoLock) SetIdleLimit(d time.Duration) { l.mu.Lock(); l.d = d; l.mu.Unlock() }

// testConfig returns a Config over v (nil: no vault) with fakes for the
// rest of the app, and the fake host.
func testConfig(v Vault) (Config, *fakeHost) {
	h := &fakeHost{v: v}
	return Config{
		Vault: v, Home: "", Getenv: func(string) string { return "" }, Now: time.Now,
		ExportWorkFactor: testWorkFactor,
		App:              h, Confirms: confirm.NewQueue(time.Now, h.PersonActed), Agents: fakeAgents{},
		Pairs: fakeTrust{}, Browsers: fakeTrust{}, AutoLock: &fakeAutoLock{}, Sync: fakeSync{},
	}, h
}

// fakeShell records what the UI asked of the Wails runtime.
type fakeShell struct {
	mu     sync.Mutex
	events []Status
	shows  int
	quits  int
}

func (f *fakeShell) Emit(event string, data any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if event == StatusEvent {
		f.events = append(f.events, data.(Status))
	}
}
func (f *fakeShell) Show()                                 { f.mu.Lock(); f.shows++; f.mu.Unlock() }
func (f *fakeShell) ExecJS(string)                         {}
func (f *fakeShell) Quit()                                 { f.mu.Lock(); f.quits++; f.mu.Unlock() }
func (*fakeShell) OpenFile(string) (string, error)         { return "", nil }
func (*fakeShell) SaveFile(string, string) (string, error) { return "", nil }
