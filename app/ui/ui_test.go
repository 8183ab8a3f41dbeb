package ui

import "testing"

// The window's lifecycle as Wails drives it: a quit asked for before
// OnStartup is not lost; the window presents the dialogs and gets status
// events only between Start and Stop, since calling the runtime after
// OnShutdown aborts the process.
func TestWindowLifecycle(t *testing.T) {
	cfg, h := testConfig(nil)
	early := New(cfg)
	if err := early.Quit(); err != nil {
		t.Fatalf("Quit() = %v", err)
	}
	if h.quitMarks != 1 {
		t.Errorf("Quit() marked the user's quit %d times, want 1", h.quitMarks)
	}
	sh := &fakeShell{}
	NewWindow(early).Start(sh)
	if sh.quits != 1 {
		t.Errorf("a quit before Start reached the runtime %d times, want 1", sh.quits)
	}

	u := New(cfg)
	w := NewWindow(u)
	sh = &fakeShell{}
	w.Start(sh)
	if h.presenter == nil {
		t.Error("Start installed no presenter: dialogs would be declined for want of a window")
	}
	h.Changed()
	if len(sh.events) != 1 || sh.events[0].Vault != "uninitialized" {
		t.Fatalf("after one change the window got %+v, want one status event, uninitialized", sh.events)
	}
	w.Stop()
	if h.presenter != nil {
		t.Error("Stop left the window's presenter in place")
	}
	h.Changed()
	w.Show()
	if len(sh.events) != 1 || sh.shows != 0 {
		t.Errorf("after Stop the runtime got %d events and %d shows, want 1 and 0", len(sh.events), sh.shows)
	}
}

// What the person does in Settings counts as their action, which keeps
// the vault unlocked (package vaultctl).
func TestSettingsActionsCount(t *testing.T) {
	cfg, h := testConfig(nil)
	u := New(cfg)
	if _, err := u.TrustBrowser("/usr/bin/chromium"); err != nil {
		t.Fatal(err)
	}
	if _, err := u.UntrustBrowser("/usr/bin/chromium"); err != nil {
		t.Fatal(err)
	}
	if got := h.actions(); got != 2 {
		t.Errorf("TrustBrowser and UntrustBrowser counted %d actions, want 2", got)
	}
}
