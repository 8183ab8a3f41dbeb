package ui

import (
	"fmt"
	"slices"

	"github.com/tessera-app/tessera/app/confirm"
)

// The confirmation dialog's Go side: the confirm.Presenter that puts the
// head of the confirmation queue in the window, and the bindings the
// dialog answers through. The window never decides by itself: a decision it sends
// names the confirmation it shows, and the queue keeps only rows that
// confirmation offered.

// Events the window receives about confirmations.
const (
	// ConfirmEvent carries the confirm.Confirmation to show now.
	ConfirmEvent = "confirm"
	// ConfirmWithdrawnEvent carries the id of a confirmation that left the
	// queue without the window's decision (timeout, cancelled request); the
	// dialog showing it closes.
	ConfirmWithdrawnEvent = "confirm-withdrawn"
	// ShowUnlockEvent asks the window to open its unlock screen (a
	// browser's vault.unlock).
	ShowUnlockEvent = "show-unlock"
)

// windowPresenter presents confirmations in the window: it sends the
// confirmation to the page and brings the window to the front. It goes
// through the UI's shell, so that nothing reaches the runtime once the
// window has stopped.
type windowPresenter struct{ u *UI }

// Present shows c. The event goes first so that the dialog is in the page
// when the window appears. show presents the GTK window (raise and focus).
// WindowSetAlwaysOnTop is not used: on Linux Wails v2.15 calls GTK for it
// off the main thread.
func (p windowPresenter) Present(c confirm.Confirmation) {
	if sh := p.u.shell(); sh != nil {
		sh.Emit(ConfirmEvent, c)
		sh.Show()
	}
}

// Withdraw closes the dialog showing confirmation id, if any.
func (p windowPresenter) Withdraw(id string) {
	if sh := p.u.shell(); sh != nil {
		sh.Emit(ConfirmWithdrawnEvent, id)
	}
}

// ShowUnlock brings the window forward on its unlock screen.
func (p windowPresenter) ShowUnlock() {
	if sh := p.u.shell(); sh != nil {
		sh.Emit(ShowUnlockEvent, nil)
		sh.Show()
	}
}

// PendingConfirmation returns the confirmation the dialog should show now,
// or nil when none waits. The page asks when it loads, so a window opened
// after a confirmation was presented still shows it.
func (u *UI) PendingConfirmation() (*confirm.Confirmation, error) {
	c, ok := u.cfg.Confirms.Current()
	if !ok {
		return nil, nil
	}
	return &c, nil
}

// Decide answers the confirmation the dialog shows. It returns an error
// wrapping confirm.ErrNoConfirmation when d.ID is not that confirmation
// (it was answered, timed out or withdrawn meanwhile). A decline keeps no rows and
// is "denied" (the window's only way to decline); Remember is dropped
// unless the confirmation offered it and d approves.
func (u *UI) Decide(d confirm.Decision) error {
	c, ok := u.cfg.Confirms.Current()
	if !ok || c.ID != d.ID {
		return fmt.Errorf("decide: %w", confirm.ErrNoConfirmation)
	}
	if !d.Approve || !c.Rememberable {
		d.Remember = false
	}
	if !d.Approve {
		d.Reason = confirm.DeclineDenied
	}
	if err := u.cfg.Confirms.Decide(d); err != nil {
		return fmt.Errorf("decide: %w", err)
	}
	return nil
}

// SwitchProfile matches the confirmation id the dialog shows again from
// profile, one of the confirmation's Profiles, and returns it as the
// dialog should now show it. Its errors wrap confirm.ErrNoConfirmation
// (id is not shown) or the app's own.
func (u *UI) SwitchProfile(id, profile string) (confirm.Confirmation, error) {
	c, ok := u.cfg.Confirms.Current()
	if !ok || c.ID != id {
		return confirm.Confirmation{}, fmt.Errorf("switch profile: %w", confirm.ErrNoConfirmation)
	}
	if !slices.ContainsFunc(c.Profiles, func(p confirm.ProfileSummary) bool { return p.ID == profile }) {
		return confirm.Confirmation{}, fmt.Errorf("switch profile: %q is not offered for this site", profile)
	}
	if profile == c.Profile {
		return c, nil
	}
	nc, err := u.cfg.Rematch.Rematch(id, profile)
	if err != nil {
		return confirm.Confirmation{}, fmt.Errorf("switch profile: %w", err)
	}
	return nc, nil
}

// startDialog makes the window present the queue's confirmations (unless
// a test build's scripted presenter answers them); it is called once the
// shell is set.
func (u *UI) startDialog() { u.cfg.App.SetPresenter(windowPresenter{u}) }

// stopDialog stops presenting: the runtime must not be called any more,
// and with no window to ask in the app declines what waits.
func (u *UI) stopDialog() { u.cfg.App.SetPresenter(nil) }
