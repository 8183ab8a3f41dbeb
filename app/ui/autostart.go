package ui

import (
	"errors"
	"fmt"
	"os"

	"github.com/tessera-app/tessera/desktopentry"
)

// "Start Tessera when I log in" (Settings): an XDG autostart entry that
// starts Tessera with its window hidden, off until the person turns it on
// (package desktopentry). Where the desktop has no such entries (Windows,
// macOS) the setting is not offered.

// AutostartView is the Settings toggle.
type AutostartView struct {
	// Supported reports whether this desktop has autostart entries.
	Supported bool `json:"supported"`
	Enabled   bool `json:"enabled"`
}

// Autostart reports whether Tessera starts when the person logs in.
func (u *UI) Autostart() (AutostartView, error) {
	on, err := desktopentry.AutostartEnabled(u.cfg.Getenv)
	if errors.Is(err, desktopentry.ErrUnsupported) {
		return AutostartView{}, nil
	}
	if err != nil {
		return AutostartView{Supported: true}, fmt.Errorf("autostart: %w", err)
	}
	return AutostartView{Supported: true, Enabled: on}, nil
}

// SetAutostart turns starting Tessera at log-in on or off.
func (u *UI) SetAutostart(on bool) (AutostartView, error) {
	u.personActed()
	var err error
	if on {
		exe, xerr := os.Executable()
		if xerr != nil {
			return AutostartView{}, fmt.Errorf("autostart: %w", xerr)
		}
		err = desktopentry.EnableAutostart(u.cfg.Getenv, exe)
	} else {
		err = desktopentry.DisableAutostart(u.cfg.Getenv)
	}
	if err != nil {
		return AutostartView{}, fmt.Errorf("autostart: %w", err)
	}
	return u.Autostart()
}
