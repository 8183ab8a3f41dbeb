package vault

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/zalando/go-keyring"
)

// KeyringService is the service name under which the vault stores its
// keyring identities; the account is "vault-" followed by the vault id.
const KeyringService = "dev.tessera"

// KeyringTimeout bounds each call to the system keyring. A session bus
// whose Secret Service cannot start makes a call wait for D-Bus activation
// for minutes (measured: 120 s per call); past this bound the keyring
// counts as unavailable and the person is asked for the passphrase. It
// leaves time for a keyring that prompts to be unlocked.
const KeyringTimeout = 20 * time.Second

// A Keyring stores small secrets in the operating system's credential store.
// Get must return an error wrapping ErrKeyringItemMissing when the item does
// not exist, so that a missing item can be told apart from an absent keyring.
type Keyring interface {
	Get(service, user string) (string, error)
	Set(service, user, secret string) error
	Delete(service, user string) error
}

// SystemKeyring returns the OS keyring: the Secret Service over D-Bus on
// Linux and BSD, the Keychain on macOS, the Credential Manager on Windows.
// Its errors wrap ErrKeyringItemMissing or ErrKeyringUnavailable, and no
// call takes longer than KeyringTimeout.
func SystemKeyring() Keyring { return systemKeyring{timeout: KeyringTimeout} }

// KeyringFromEnv returns the keyring the environment asks for:
// TESSERA_KEYRING=none means no keyring at all (nil: the OS keyring is
// never touched, and the vault unlocks by passphrase only); anything else
// the OS keyring. getenv reads the environment, so callers and tests decide
// where it comes from.
func KeyringFromEnv(getenv func(string) string) Keyring {
	if getenv("TESSERA_KEYRING") == "none" {
		return nil
	}
	return SystemKeyring()
}

type systemKeyring struct{ timeout time.Duration }

// errNoSessionBus is the error of every keyring call without a session
// bus (see noSessionBus).
var errNoSessionBus = fmt.Errorf("%w: no D-Bus session bus", ErrKeyringUnavailable)

func (k systemKeyring) Get(service, user string) (string, error) {
	if noSessionBus(os.Getenv) {
		return "", errNoSessionBus
	}
	return callTimeout(k.timeout, func() (string, error) { return keyring.Get(service, user) })
}

func (k systemKeyring) Set(service, user, secret string) error {
	if noSessionBus(os.Getenv) {
		return errNoSessionBus
	}
	_, err := callTimeout(k.timeout, func() (struct{}, error) { return struct{}{}, keyring.Set(service, user, secret) })
	return err
}

func (k systemKeyring) Delete(service, user string) error {
	if noSessionBus(os.Getenv) {
		return errNoSessionBus
	}
	_, err := callTimeout(k.timeout, func() (struct{}, error) { return struct{}{}, keyring.Delete(service, user) })
	return err
}

// callTimeout runs a keyring call, giving up after d. The abandoned call
// finishes in the background; its result is dropped.
func callTimeout[T any](d time.Duration, f func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	ch := make(chan result, 1)
	go func() {
		v, err := f()
		ch <- result{v, err}
	}()
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case r := <-ch:
		return r.v, keyringErr(r.err)
	case <-timer.C:
		var zero T
		return zero, fmt.Errorf("%w: no answer within %s", ErrKeyringUnavailable, d)
	}
}

func keyringErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, keyring.ErrNotFound):
		return fmt.Errorf("%w: %v", ErrKeyringItemMissing, err)
	default:
		return fmt.Errorf("%w: %v", ErrKeyringUnavailable, err)
	}
}

// noSessionBus reports whether, where the keyring is the Secret Service
// (neither macOS nor Windows), there is no session bus to reach it: no
// DBUS_SESSION_BUS_ADDRESS and no $XDG_RUNTIME_DIR/bus. The D-Bus library
// would then run dbus-launch --autolaunch, whose dbus-daemon, and the
// gnome-keyring-daemon it activates, outlive this process: nothing Tessera
// starts may outlive its owner, so the keyring is unavailable instead.
func noSessionBus(getenv func(string) string) bool {
	switch runtime.GOOS {
	case "darwin", "windows":
		return false
	}
	if getenv("DBUS_SESSION_BUS_ADDRESS") != "" {
		return false
	}
	if dir := getenv("XDG_RUNTIME_DIR"); dir != "" {
		if _, err := os.Stat(filepath.Join(dir, "bus")); err == nil {
			return false
		}
	}
	return true
}
