//go:build keyring

package vault

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// These tests talk to the real OS keyring. scripts/test-keyring.sh runs them
// twice on Linux: inside dbus-run-session with an unlocked gnome-keyring
// (the keyring works), and with no session bus at all (the keyring is
// absent and every path must fail cleanly).

func haveSessionBus() bool { return os.Getenv("DBUS_SESSION_BUS_ADDRESS") != "" }

func TestSystemKeyringRoundTrip(t *testing.T) {
	if !haveSessionBus() {
		t.Skip("no session bus: covered by TestSystemKeyringAbsent")
	}
	kr := SystemKeyring()
	account := fmt.Sprintf("test-%d", os.Getpid())
	if _, err := kr.Get(KeyringService, account); !errors.Is(err, ErrKeyringItemMissing) {
		t.Fatalf("Get(missing) = %v, want ErrKeyringItemMissing", err)
	}
	if err := kr.Set(KeyringService, account, "s3cret"); err != nil {
		t.Fatal(err)
	}
	if got, err := kr.Get(KeyringService, account); err != nil || got != "s3cret" {
		t.Fatalf("Get = %q, %v, want %q", got, err, "s3cret")
	}
	if err := kr.Delete(KeyringService, account); err != nil {
		t.Fatal(err)
	}
	if _, err := kr.Get(KeyringService, account); !errors.Is(err, ErrKeyringItemMissing) {
		t.Fatalf("Get after Delete = %v, want ErrKeyringItemMissing", err)
	}
}

func TestSystemKeyringVault(t *testing.T) {
	if !haveSessionBus() {
		t.Skip("no session bus: covered by TestSystemKeyringAbsent")
	}
	dir := t.TempDir()
	opts := Options{Keyring: SystemKeyring(), ScryptWorkFactor: testWorkFactor}
	v, uerr, err := OpenDefault(dir, opts)
	if err != nil || uerr != nil {
		t.Fatalf("OpenDefault = %v, %v", uerr, err)
	}
	if got := v.State(); got != StateUnlocked {
		t.Fatalf("State() = %q, want %q (created through the keyring)", got, StateUnlocked)
	}
	if _, err := v.CreateProfile("me", "Me"); err != nil {
		t.Fatal(err)
	}
	v.Close()

	v, uerr, err = OpenDefault(dir, opts)
	if err != nil || uerr != nil {
		t.Fatalf("second OpenDefault = %v, %v", uerr, err)
	}
	if _, err := v.Profile("me"); err != nil {
		t.Fatalf("Profile after keyring unlock: %v", err)
	}
	if err := v.Destroy(); err != nil {
		t.Fatal(err)
	}
	v.Close()
	if _, err := SystemKeyring().Get(KeyringService, keyringAccount(v.id)); !errors.Is(err, ErrKeyringItemMissing) {
		t.Fatalf("keyring item after Destroy: %v, want ErrKeyringItemMissing", err)
	}
}

// TestSystemKeyringRollback replaces the vault file with an older copy of
// itself, consistent in every row: only the write counter the real Secret
// Service keeps tells the copy from the vault. Rekey's fresh identity must
// then be what the keyring holds and opens the vault.
func TestSystemKeyringRollback(t *testing.T) {
	if !haveSessionBus() {
		t.Skip("no session bus: covered by TestSystemKeyringAbsent")
	}
	dir := t.TempDir()
	kr := SystemKeyring()
	opts := Options{Keyring: kr, ScryptWorkFactor: testWorkFactor}
	v, err := Create(dir, opts, InitOptions{Passphrase: []byte("correct horse"), Keyring: true})
	if err != nil {
		t.Fatal(err)
	}
	id := v.id
	t.Cleanup(func() {
		kr.Delete(KeyringService, keyringAccount(id))
		kr.Delete(KeyringService, counterAccount(id))
	})
	if _, err := v.CreateProfile("me", "Me"); err != nil {
		t.Fatal(err)
	}
	if err := v.SetEntry("me", ConceptKey("https://schema.org/email"), manual("before@example.org")); err != nil {
		t.Fatal(err)
	}
	oldItem, err := kr.Get(KeyringService, keyringAccount(id))
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Rekey([]byte("correct horse")); err != nil {
		t.Fatal(err)
	}
	if item, err := kr.Get(KeyringService, keyringAccount(id)); err != nil || item == oldItem || strings.Count(item, "AGE-SECRET-KEY-") != 1 {
		t.Fatalf("keyring item after Rekey: %v, a new single identity wanted", err)
	}
	v.Close()
	backup, err := os.ReadFile(filepath.Join(dir, dbName))
	if err != nil {
		t.Fatal(err)
	}

	v, err = Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := v.UnlockKeyring(); err != nil {
		t.Fatalf("UnlockKeyring after Rekey: %v", err)
	}
	if err := v.SetEntry("me", ConceptKey("https://schema.org/email"), manual("after@example.org")); err != nil {
		t.Fatal(err)
	}
	v.Close()
	if n, err := kr.Get(KeyringService, counterAccount(id)); err != nil || n == "0" {
		t.Fatalf("write counter in the keyring = %q, %v", n, err)
	}

	if err := os.WriteFile(filepath.Join(dir, dbName), backup, 0o600); err != nil {
		t.Fatal(err)
	}
	v, err = Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if err := v.UnlockKeyring(); !errors.Is(err, ErrTampered) {
		t.Fatalf("UnlockKeyring on the older copy = %v, want ErrTampered", err)
	}
	if err := v.UnlockPassphrase([]byte("correct horse")); !errors.Is(err, ErrTampered) {
		t.Fatalf("UnlockPassphrase on the older copy = %v, want ErrTampered", err)
	}
}

// TestSystemKeyringAbsent is the "no keyring daemon" path: no session bus.
func TestSystemKeyringAbsent(t *testing.T) {
	if haveSessionBus() {
		t.Skip("session bus present: run without DBUS_SESSION_BUS_ADDRESS (scripts/test-keyring.sh does)")
	}
	if _, err := SystemKeyring().Get(KeyringService, "any"); !errors.Is(err, ErrKeyringUnavailable) {
		t.Fatalf("Get without a bus = %v, want ErrKeyringUnavailable", err)
	}
	dir := t.TempDir()
	opts := Options{Keyring: SystemKeyring(), ScryptWorkFactor: testWorkFactor}
	v, uerr, err := OpenDefault(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if !errors.Is(uerr, ErrKeyringUnavailable) {
		t.Errorf("OpenDefault unlockErr = %v, want ErrKeyringUnavailable", uerr)
	}
	if got := v.State(); got != StateUninitialized {
		t.Fatalf("State() = %q, want %q: the UI asks for a passphrase", got, StateUninitialized)
	}
	if err := v.Init(InitOptions{Passphrase: []byte("pw"), Keyring: true}); !errors.Is(err, ErrKeyringUnavailable) {
		t.Fatalf("Init with keyring and no bus = %v, want ErrKeyringUnavailable", err)
	}
	if _, err := os.Stat(v.dbPath()); !os.IsNotExist(err) {
		t.Fatalf("failed Init left a vault file: %v", err)
	}
	if err := v.Init(InitOptions{Passphrase: []byte("pw")}); err != nil {
		t.Fatalf("passphrase-only Init without a bus: %v", err)
	}
}

// BenchmarkSystemKeyringUnlockLoad is BenchmarkUnlockKeyringLoad with the
// real Secret Service round trip: run it inside the session of
// scripts/test-keyring.sh, e.g.
//
//	dbus-run-session -- sh -c 'printf pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null;
//	    go test -tags keyring -run "^$" -bench SystemKeyring ./vault/'
func BenchmarkSystemKeyringUnlockLoad(b *testing.B) {
	if !haveSessionBus() {
		b.Skip("no session bus")
	}
	dir, kr := b.TempDir(), SystemKeyring()
	seedBenchVault(b, dir, kr, testWorkFactor)
	b.Cleanup(func() {
		if v, err := Open(dir, Options{Keyring: kr}); err == nil {
			v.Destroy()
			v.Close()
		}
	})
	benchUnlockLoad(b, dir, kr)
}
