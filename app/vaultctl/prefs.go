package vaultctl

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

// PrefsFile is the preferences file's name in the data directory.
const PrefsFile = "prefs.json"

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

// LoadPrefs reads the preferences in home. A missing file is no
// preference; a file that cannot be read or holds nonsense is an error,
// and the defaults apply.
func LoadPrefs(home string) (Prefs, error) {
	var p Prefs
	if home == "" {
		return p, nil
	}
	if _, err := safefile.ReadJSON(filepath.Join(home, PrefsFile), "preferences", &p); err != nil {
		return Prefs{}, err
	}
	if p.AutoLockMinutes != nil && !slices.Contains(AutoLockChoices, *p.AutoLockMinutes) {
		return Prefs{}, fmt.Errorf("read preferences: %s: auto-lock %d minutes: %w", PrefsFile, *p.AutoLockMinutes, ErrBadAutoLock)
	}
	return p, nil
}

// SavePrefs writes p to home atomically (a new file renamed over the old),
// readable by this user only.
func SavePrefs(home string, p Prefs) error {
	if home == "" {
		return errors.New("save preferences: no data directory")
	}
	return safefile.WriteJSON(filepath.Join(home, PrefsFile), "preferences", p)
}

// AutoLock is the auto-lock time saved in home's preferences; ok is false
// when none was saved (or the file could not be read: err says why, and
// the default applies).
func AutoLock(home string) (d time.Duration, ok bool, err error) {
	p, err := LoadPrefs(home)
	if p.AutoLockMinutes == nil {
		return 0, false, err
	}
	return time.Duration(*p.AutoLockMinutes) * time.Minute, true, err
}

// SaveAutoLock saves the auto-lock time, minutes one of AutoLockChoices,
// in home's preferences. A preferences file that cannot be read is
// replaced: the person chose anew.
func SaveAutoLock(home string, minutes int) error {
	if !slices.Contains(AutoLockChoices, minutes) {
		return fmt.Errorf("auto-lock: %w", ErrBadAutoLock)
	}
	p, err := LoadPrefs(home)
	if err != nil {
		p = Prefs{}
	}
	p.AutoLockMinutes = &minutes
	if err := SavePrefs(home, p); err != nil {
		return fmt.Errorf("auto-lock: %w", err)
	}
	return nil
}
