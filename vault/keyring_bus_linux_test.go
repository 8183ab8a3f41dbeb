package vault

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestSystemKeyringNeverAutolaunchesABus checks that without a session bus
// the OS keyring is unavailable at once and dbus-launch is never run: the
// dbus-daemon it starts, and the gnome-keyring-daemon that activates, would
// outlive the test (issue 12, part 5: `make test` left hundreds behind).
// A dbus-launch first in PATH records that it ran.
func TestSystemKeyringNeverAutolaunchesABus(t *testing.T) {
	bin, run := t.TempDir(), t.TempDir()
	marker := filepath.Join(t.TempDir(), "dbus-launch-ran")
	script := "#!/bin/sh\ntouch " + marker + "\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "dbus-launch"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", run) // no bus socket in it
	_, err := SystemKeyring().Get(KeyringService, "vault-test")
	if !errors.Is(err, ErrKeyringUnavailable) {
		t.Errorf("Get without a session bus = %v, want ErrKeyringUnavailable", err)
	}
	if err := SystemKeyring().Set(KeyringService, "vault-test", "x"); !errors.Is(err, ErrKeyringUnavailable) {
		t.Errorf("Set without a session bus = %v, want ErrKeyringUnavailable", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the keyring ran dbus-launch: its dbus-daemon outlives the process")
	}
}

func TestNoSessionBus(t *testing.T) {
	run := t.TempDir()
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if noSessionBus(env(map[string]string{"DBUS_SESSION_BUS_ADDRESS": "unix:path=/x"})) {
		t.Error("an address is a bus")
	}
	if !noSessionBus(env(map[string]string{"XDG_RUNTIME_DIR": run})) {
		t.Error("a runtime dir without a bus socket is no bus")
	}
	if err := os.WriteFile(filepath.Join(run, "bus"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if noSessionBus(env(map[string]string{"XDG_RUNTIME_DIR": run})) {
		t.Error("$XDG_RUNTIME_DIR/bus is a bus")
	}
}
