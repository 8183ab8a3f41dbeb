package app

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/tessera-app/tessera/internal/safefile"
)

// The window's preferences: what the person chose in Settings that is not
// vault data (the vault's own settings are sealed in it). They live in
// prefs.json in the data directory, beside the vault, mode 0600, and are
// read once at start.

// prefsFile is the preferences file's name in Config.Home.
const prefsFile = "prefs.json"

// Prefs are the person's preferences. A field that is nil was never set:
// its default applies.
type Prefs struct {
	// AutoLockMinutes is how long the vault stays unlocked without the
	// person acting (0: never); one of AutoLockChoices.
	AutoLockMinutes *int `json:"autoLockMinutes,omitempty"`
}

// AutoLockChoices are the auto-lock times Settings offers, in minutes
// (0: never).
var AutoLockChoices = []int{1, 5, 15, 30, 60, 240, 0}

// ErrBadAutoLock is returned (wrapped) for an auto-lock time Settings does
// not offer.
var ErrBadAutoLock = errors.New("choose one of the auto-lock times offered")

// loadPrefs reads the preferences in home. A missing file is no
// preference; a file that cannot be read or holds nonsense is an error,
// and the defaults apply.
func loadPrefs(home string) (Prefs, error) {
	var p Prefs
	if home == "" {
		return p, nil
	}
	if _, err := safefile.ReadJSON(filepath.Join(home, prefsFile), "preferences", &p); err != nil {
		return Prefs{}, err
	}
	if p.AutoLockMinutes != nil && !slices.Contains(AutoLockChoices, *p.AutoLockMinutes) {
		return Prefs{}, fmt.Errorf("read preferences: %s: auto-lock %d minutes: %w", prefsFile, *p.AutoLockMinutes, ErrBadAutoLock)
	}
	return p, nil
}

// savePrefs writes p to home atomically (a new file renamed over the old),
// readable by this user only.
func savePrefs(home string, p Prefs) error {
	if home == "" {
		return errors.New("save preferences: no data directory")
	}
	return safefile.WriteJSON(filepath.Join(home, prefsFile), "preferences", p)
}

// applyPrefs sets cfg from the preferences in its home, and returns why
// they could not be read, if they could not.
func applyPrefs(cfg *Config) error {
	p, err := loadPrefs(cfg.Home)
	if p.AutoLockMinutes != nil {
		cfg.IdleLock = time.Duration(*p.AutoLockMinutes) * time.Minute
	}
	return err
}

// idleLock returns how long the vault stays unlocked without the person
// acting (0: never).
func (a *App) idleLock() time.Duration {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.idleLimit
}

// SetAutoLock sets how many minutes the vault stays unlocked while the
// person does nothing with Tessera (0: never), one of AutoLockChoices,
// saves it for the next start and applies it now. It returns the vault
// settings as they are now.
func (u *UI) SetAutoLock(minutes int) (VaultSettings, error) {
	if !slices.Contains(AutoLockChoices, minutes) {
		return VaultSettings{}, fmt.Errorf("auto-lock: %w", ErrBadAutoLock)
	}
	u.app.personActed()
	p, err := loadPrefs(u.app.cfg.Home)
	if err != nil {
		// The file is replaced by a valid one: the person chose anew.
		p = Prefs{}
	}
	p.AutoLockMinutes = &minutes
	if err := savePrefs(u.app.cfg.Home, p); err != nil {
		return VaultSettings{}, fmt.Errorf("auto-lock: %w", err)
	}
	u.app.mu.Lock()
	u.app.idleLimit = time.Duration(minutes) * time.Minute
	u.app.mu.Unlock()
	u.app.changed()
	return u.VaultSettings()
}
