package app

import (
	"sync"
	"testing"

	"github.com/tessera-app/tessera/app/ui"
	"github.com/tessera-app/tessera/nativemsg"
)

// fakeShell records what the ui.UI asked of the Wails runtime.
type fakeShell struct {
	mu     sync.Mutex
	events []Status
	shows  int
	quits  int
}

func (f *fakeShell) Emit(event string, data any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if event == ui.StatusEvent {
		f.events = append(f.events, data.(Status))
	}
}
func (f *fakeShell) Show()                                 { f.mu.Lock(); f.shows++; f.mu.Unlock() }
func (f *fakeShell) ExecJS(string)                         {}
func (f *fakeShell) Quit()                                 { f.mu.Lock(); f.quits++; f.mu.Unlock() }
func (*fakeShell) OpenFile(string) (string, error)         { return "", nil }
func (*fakeShell) SaveFile(string, string) (string, error) { return "", nil }

func TestUIStatus(t *testing.T) {
	a, err := New(Config{Version: "1.2.3", Vault: fixedVault("locked")})
	if err != nil {
		t.Fatal(err)
	}
	got, err := newUI(a).Status()
	if err != nil || got.Version != "1.2.3" || got.Vault != "locked" || got.Clients == nil {
		t.Errorf("UI.Status() = %+v, %v, want version 1.2.3, vault locked, empty clients list", got, err)
	}
}

func TestUIPushesChanges(t *testing.T) {
	a, err := New(Config{Version: "1.2.3"})
	if err != nil {
		t.Fatal(err)
	}
	u := newUI(a)
	sh := &fakeShell{}
	a.changed() // before the window started: nothing to push to
	ui.NewWindow(u).Start(sh)
	a.changed()
	if len(sh.events) != 1 || sh.events[0].Version != "1.2.3" || sh.events[0].Vault != "uninitialized" {
		t.Fatalf("after one change the window got %+v, want one status event for version 1.2.3, uninitialized", sh.events)
	}
	ui.NewWindow(u).Show()
	if sh.shows != 1 {
		t.Errorf("show() reached the runtime %d times, want 1", sh.shows)
	}
	ui.NewWindow(u).Stop()
	a.changed()
	ui.NewWindow(u).Show()
	// Calling the runtime after OnShutdown aborts the process.
	if len(sh.events) != 1 || sh.shows != 1 {
		t.Errorf("after stop the runtime got %d events and %d shows, want 1 and 1", len(sh.events), sh.shows)
	}
}

// A quit asked for before OnStartup (ctx cancelled early, the broker losing
// the channel) must not be lost, or the window would stay up forever.
func TestUIQuitBeforeStart(t *testing.T) {
	a, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	u := newUI(a)
	if err := u.Quit(); err != nil {
		t.Fatalf("Quit() = %v", err)
	}
	sh := &fakeShell{}
	ui.NewWindow(u).Start(sh)
	if sh.quits != 1 {
		t.Errorf("quit before start reached the runtime %d times, want 1", sh.quits)
	}
	u2 := newUI(a)
	sh2 := &fakeShell{}
	ui.NewWindow(u2).Start(sh2)
	u2.Quit()
	if sh2.quits != 1 {
		t.Errorf("Quit() after start reached the runtime %d times, want 1", sh2.quits)
	}
}

// Regression: after Quit Tessera, the extension's reconnect made the host
// start the app again in the background. Quitting from the window must leave
// the marker the host checks.
func TestUIQuitMarksUserQuit(t *testing.T) {
	dir := t.TempDir()
	a, err := New(Config{SocketDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	u := newUI(a)
	ui.NewWindow(u).Start(&fakeShell{})
	if nativemsg.UserQuit(dir) {
		t.Fatal("UserQuit before Quit")
	}
	u.Quit()
	if !nativemsg.UserQuit(dir) {
		t.Fatal("Quit() left no user-quit marker")
	}
	if err := nativemsg.ClearUserQuit(dir); err != nil || nativemsg.UserQuit(dir) {
		t.Fatalf("ClearUserQuit = %v, marker still there: %v", err, nativemsg.UserQuit(dir))
	}
}
