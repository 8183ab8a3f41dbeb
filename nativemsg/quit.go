package nativemsg

import (
	"errors"
	"os"
)

// ErrUserQuit is returned by a host asked to start an app that the person
// quit on purpose: the browser reconnecting must not bring it back.
var ErrUserQuit = errors.New("the Tessera app was quit; start it to reconnect")

// MarkUserQuit records that the person quit the app on purpose, so hosts
// stop starting it in the background until it is started by hand.
func MarkUserQuit(dir string) error {
	return os.WriteFile(quitMarker(dir), nil, 0o600)
}

// ClearUserQuit forgets MarkUserQuit; the app calls it when a person starts it.
func ClearUserQuit(dir string) error {
	if err := os.Remove(quitMarker(dir)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// UserQuit reports whether the person quit the app on purpose.
func UserQuit(dir string) bool {
	_, err := os.Stat(quitMarker(dir))
	return err == nil
}
