package ui

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
	"github.com/tessera-app/tessera/vault/vaulttest"
)

// testWorkFactor keeps scrypt fast; the real cost is the vault's concern.
const testWorkFactor = 10

const goodPass = "correct horse battery"

// newVaultUI returns a UI over a real, uninitialized vault in a temporary
// directory, started on a fake shell that records status events.
func newVaultUI(t testing.TB, kr vault.Keyring) (*UI, *vault.Vault, *fakeShell) {
	t.Helper()
	opts := vault.Options{ScryptWorkFactor: testWorkFactor}
	if kr != nil {
		opts.Keyring = kr
	}
	v, err := vault.Open(t.TempDir(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	cfg, _ := testConfig(v)
	u := New(cfg)
	sh := &fakeShell{}
	NewWindow(u).Start(sh)
	return u, v, sh
}

func (f *fakeShell) lastVault() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.events) == 0 {
		return ""
	}
	return f.events[len(f.events)-1].Vault
}

func TestSetUpVaultRules(t *testing.T) {
	tests := []struct {
		name, pass, confirm string
		want                error
	}{
		{"too short", "short", "short", ErrWeakPassphrase},
		// Length counts characters, not bytes: 7 two-byte runes are short.
		{"short in characters", "ééééééé", "ééééééé", ErrWeakPassphrase},
		{"empty", "", "", ErrWeakPassphrase},
		{"mismatch", goodPass, goodPass + " ", ErrPassphraseMismatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, v, _ := newVaultUI(t, nil)
			_, err := u.SetUpVault(tt.pass, tt.confirm)
			if !errors.Is(err, tt.want) {
				t.Errorf("SetUpVault(%q, %q) = %v, want %v", tt.pass, tt.confirm, err, tt.want)
			}
			if st := v.State(); st != vault.StateUninitialized {
				t.Errorf("after a rejected SetUpVault the vault is %q, want %q", st, vault.StateUninitialized)
			}
		})
	}
	t.Run("too long", func(t *testing.T) {
		u, _, _ := newVaultUI(t, nil)
		long := strings.Repeat("x", MaxPassphraseLen+1)
		if _, err := u.SetUpVault(long, long); err == nil {
			t.Errorf("SetUpVault(%d bytes) succeeded, want an error", len(long))
		}
	})
}

func TestSetUpVault(t *testing.T) {
	tests := []struct {
		name         string
		keyring      *vaulttest.Keyring // nil: none configured
		wantKeyring  bool
		wantProblem  bool
		wantSetCalls int
	}{
		{"keyring works", &vaulttest.Keyring{}, true, false, 1},
		// The machine the self-test runs on: the passphrase alone must do.
		{"keyring broken", &vaulttest.Keyring{Broken: true}, false, true, 1},
		{"no keyring configured", nil, false, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var kr vault.Keyring
			if tt.keyring != nil {
				kr = tt.keyring
			}
			u, v, sh := newVaultUI(t, kr)
			got, err := u.SetUpVault(goodPass, goodPass)
			if err != nil {
				t.Fatalf("SetUpVault = %v", err)
			}
			if got.State != vault.StateUnlocked || !got.HasPassphrase || got.HasKeyring != tt.wantKeyring || (got.KeyringProblem != "") != tt.wantProblem {
				t.Errorf("SetUpVault view = %+v, want unlocked with passphrase, keyring %v, problem %v", got, tt.wantKeyring, tt.wantProblem)
			}
			if sh.lastVault() != vault.StateUnlocked {
				t.Errorf("window last saw vault %q, want %q", sh.lastVault(), vault.StateUnlocked)
			}
			if tt.keyring != nil && tt.keyring.Sets() != tt.wantSetCalls {
				t.Errorf("keyring Set called %d times, want %d", tt.keyring.Sets(), tt.wantSetCalls)
			}
			v.Lock()
			if err := v.UnlockPassphrase([]byte(goodPass)); err != nil {
				t.Errorf("the passphrase set up in the window does not unlock the vault: %v", err)
			}
			if _, err := u.SetUpVault(goodPass, goodPass); !errors.Is(err, vault.ErrExists) {
				t.Errorf("second SetUpVault = %v, want %v", err, vault.ErrExists)
			}
		})
	}
}

func TestLockUnlock(t *testing.T) {
	u, _, sh := newVaultUI(t, nil)
	if _, err := u.SetUpVault(goodPass, goodPass); err != nil {
		t.Fatal(err)
	}
	got, err := u.Lock()
	if err != nil || got.State != vault.StateLocked {
		t.Fatalf("Lock() = %+v, %v, want locked", got, err)
	}
	if sh.lastVault() != vault.StateLocked {
		t.Errorf("window last saw vault %q after Lock, want %q", sh.lastVault(), vault.StateLocked)
	}
	tests := []struct {
		name, pass string
		want       error  // nil: unlocks
		msg        string // the message the window shows
	}{
		{"wrong", goodPass + "!", vault.ErrBadPassphrase, "unlock: wrong passphrase"},
		{"empty", "", nil, "unlock: enter the vault passphrase"},
		{"right", goodPass, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := u.Unlock(tt.pass)
			if tt.msg != "" {
				if err == nil || err.Error() != tt.msg || (tt.want != nil && !errors.Is(err, tt.want)) {
					t.Fatalf("Unlock(%q) = %v, want %q", tt.pass, err, tt.msg)
				}
				if st := u.cfg.App.Status().Vault; st != vault.StateLocked {
					t.Errorf("after a failed Unlock the vault is %q, want %q", st, vault.StateLocked)
				}
				return
			}
			if err != nil || got.State != vault.StateUnlocked {
				t.Fatalf("Unlock(%q) = %+v, %v, want unlocked", tt.pass, got, err)
			}
			if sh.lastVault() != vault.StateUnlocked {
				t.Errorf("window last saw vault %q after Unlock, want %q", sh.lastVault(), vault.StateUnlocked)
			}
		})
	}
}

func TestUnlockWithKeyring(t *testing.T) {
	kr := &vaulttest.Keyring{}
	u, v, _ := newVaultUI(t, kr)
	if _, err := u.SetUpVault(goodPass, goodPass); err != nil {
		t.Fatal(err)
	}
	v.Lock()
	view, err := u.Vault()
	if err != nil || !view.KeyringUsable {
		t.Fatalf("Vault() = %+v, %v, want the keyring offered", view, err)
	}
	if got, err := u.UnlockWithKeyring(); err != nil || got.State != vault.StateUnlocked {
		t.Fatalf("UnlockWithKeyring() = %+v, %v, want unlocked", got, err)
	}

	v.Lock()
	kr.SetBroken(true)
	if _, err := u.UnlockWithKeyring(); !errors.Is(err, vault.ErrKeyringUnavailable) {
		t.Fatalf("UnlockWithKeyring() with a broken keyring = %v, want %v", err, vault.ErrKeyringUnavailable)
	}
	// A keyring that failed is not offered again: the passphrase is.
	if view, _ := u.Vault(); view.KeyringUsable || view.KeyringProblem == "" || view.State != vault.StateLocked {
		t.Errorf("Vault() after a keyring failure = %+v, want locked, keyring not offered, problem told", view)
	}
	kr.SetBroken(false)
	if _, err := u.UnlockWithKeyring(); err != nil {
		t.Fatalf("UnlockWithKeyring() once the keyring is back = %v", err)
	}
	if view, _ := u.Vault(); view.KeyringProblem != "" {
		t.Errorf("Vault() after the keyring worked again = %+v, want no problem", view)
	}
}

func TestSetPassphrase(t *testing.T) {
	kr := &vaulttest.Keyring{}
	u, v, _ := newVaultUI(t, kr)
	// What the app does at startup when a keyring works: no passphrase.
	if err := v.Init(vault.InitOptions{Keyring: true}); err != nil {
		t.Fatal(err)
	}
	view, err := u.Vault()
	if err != nil || view.HasPassphrase || view.State != vault.StateUnlocked {
		t.Fatalf("Vault() = %+v, %v, want unlocked without a passphrase", view, err)
	}
	if _, err := u.SetPassphrase(goodPass, "something else"); !errors.Is(err, ErrPassphraseMismatch) {
		t.Errorf("SetPassphrase(mismatch) = %v, want %v", err, ErrPassphraseMismatch)
	}
	if _, err := u.SetPassphrase("short", "short"); !errors.Is(err, ErrWeakPassphrase) {
		t.Errorf("SetPassphrase(%q) = %v, want %v", "short", err, ErrWeakPassphrase)
	}
	view, err = u.SetPassphrase(goodPass, goodPass)
	if err != nil || !view.HasPassphrase {
		t.Fatalf("SetPassphrase = %+v, %v, want a passphrase set", view, err)
	}
	if _, err := u.SetPassphrase("another passphrase", "another passphrase"); !errors.Is(err, ErrPassphraseSet) {
		t.Errorf("SetPassphrase over an existing one = %v, want %v", err, ErrPassphraseSet)
	}
	v.Lock()
	kr.SetBroken(true)
	if got, err := u.Unlock(goodPass); err != nil || got.State != vault.StateUnlocked {
		t.Errorf("Unlock with the recovery passphrase and no keyring = %+v, %v, want unlocked", got, err)
	}
}

func TestProfiles(t *testing.T) {
	u, v, _ := newVaultUI(t, nil)
	if _, err := u.Profiles(); !errors.Is(err, vault.ErrUninitialized) {
		t.Errorf("Profiles() before set-up = %v, want %v", err, vault.ErrUninitialized)
	}
	if _, err := u.SetUpVault(goodPass, goodPass); err != nil {
		t.Fatal(err)
	}
	if ps, err := u.Profiles(); err != nil || len(ps) != 0 {
		t.Errorf("Profiles() of a new vault = %v, %v, want none", ps, err)
	}
	labels := []struct{ in, want string }{
		{"  Work ", "Work"},
		{"Personal", "Personal"},
	}
	for _, l := range labels {
		p, err := u.CreateProfile(l.in)
		if err != nil || p.Label != l.want || p.ID == "" || p.Entries != 0 {
			t.Fatalf("CreateProfile(%q) = %+v, %v, want label %q, an id, no entries", l.in, p, err, l.want)
		}
	}
	if _, err := u.CreateProfile("   "); err == nil {
		t.Errorf("CreateProfile(%q) succeeded, want an error", "   ")
	}
	ps, err := u.Profiles()
	if err != nil || len(ps) != 2 || ps[0].Label != "Personal" || ps[1].Label != "Work" {
		t.Fatalf("Profiles() = %+v, %v, want Personal and Work", ps, err)
	}
	secret := "+441632960001"
	val, _ := json.Marshal(secret)
	e := profile.Entry{Value: val, Confidence: 1, Source: profile.Source{Type: "manual", Timestamp: "2026-01-01T00:00:00Z"}}
	if err := v.SetEntry(ps[1].ID, vault.ConceptKey("https://schema.org/telephone"), e); err != nil {
		t.Fatal(err)
	}
	ps, err = u.Profiles()
	if err != nil || ps[1].Entries != 1 || ps[1].Updated == "" {
		t.Fatalf("Profiles() after one entry = %+v, %v, want Work with 1 entry and a time", ps, err)
	}
	// The list is what the window holds: a value must never be in it.
	if b, _ := json.Marshal(ps); strings.Contains(string(b), secret) {
		t.Errorf("Profiles() JSON %s carries a stored value", b)
	}

	if _, err := u.Lock(); err != nil {
		t.Fatal(err)
	}
	if _, err := u.Profiles(); !errors.Is(err, vault.ErrLocked) || err.Error() != "list profiles: the vault is locked: unlock it first" {
		t.Errorf("Profiles() when locked = %v, want %v worded for the window", err, vault.ErrLocked)
	}
	if _, err := u.CreateProfile("Family"); !errors.Is(err, vault.ErrLocked) {
		t.Errorf("CreateProfile when locked = %v, want %v", err, vault.ErrLocked)
	}
}

// Without a vault (it could not be opened at startup) the card still
// renders, and every action says why it cannot work.
func TestNoVault(t *testing.T) {
	cfg, _ := testConfig(nil)
	u := New(cfg)
	if view, err := u.Vault(); err != nil || view.State != vault.StateUninitialized {
		t.Errorf("Vault() = %+v, %v, want uninitialized", view, err)
	}
	calls := map[string]func() error{
		"SetUpVault":        func() error { _, err := u.SetUpVault(goodPass, goodPass); return err },
		"Unlock":            func() error { _, err := u.Unlock(goodPass); return err },
		"UnlockWithKeyring": func() error { _, err := u.UnlockWithKeyring(); return err },
		"Lock":              func() error { _, err := u.Lock(); return err },
		"SetPassphrase":     func() error { _, err := u.SetPassphrase(goodPass, goodPass); return err },
		"Profiles":          func() error { _, err := u.Profiles(); return err },
		"CreateProfile":     func() error { _, err := u.CreateProfile("Work"); return err },
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			if err := call(); !errors.Is(err, ErrNoVault) {
				t.Errorf("%s() = %v, want %v", name, err, ErrNoVault)
			}
		})
	}
}

// uiOver returns a UI over v, started on a fake shell.
func uiOver(t *testing.T, v *vault.Vault) *UI {
	t.Helper()
	cfg, _ := testConfig(v)
	u := New(cfg)
	NewWindow(u).Start(&fakeShell{})
	return u
}

// TestVaultFileProblems puts the vault file in each state the vault refuses
// (an older copy, edited, missing) and checks that the window says so in
// its own words, the rollback before the tampering it also is, and that
// the error still matches its sentinel.
func TestVaultFileProblems(t *testing.T) {
	newVault := func(t *testing.T, kr vault.Keyring) string {
		t.Helper()
		dir := t.TempDir()
		v, err := vault.Create(dir, vault.Options{Keyring: kr, ScryptWorkFactor: testWorkFactor}, vault.InitOptions{Passphrase: []byte(goodPass), Keyring: kr != nil})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := v.CreateProfile("home", "Home"); err != nil {
			t.Fatal(err)
		}
		v.Close()
		return dir
	}
	onFile := func(t *testing.T, dir string, q string) {
		t.Helper()
		db, err := sql.Open("sqlite", filepath.Join(dir, "vault.db"))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name    string
		prepare func(t *testing.T, kr *vaulttest.Keyring) string
		want    error
		msg     string
	}{
		{"older copy", func(t *testing.T, kr *vaulttest.Keyring) string {
			dir := newVault(t, kr)
			old, err := os.ReadFile(filepath.Join(dir, "vault.db"))
			if err != nil {
				t.Fatal(err)
			}
			v, err := vault.Open(dir, vault.Options{Keyring: kr})
			if err != nil {
				t.Fatal(err)
			}
			if err := v.UnlockKeyring(); err != nil {
				t.Fatal(err)
			}
			if err := v.RenameProfile("home", "Home, renamed"); err != nil {
				t.Fatal(err)
			}
			v.Close()
			if err := os.WriteFile(filepath.Join(dir, "vault.db"), old, 0o600); err != nil {
				t.Fatal(err)
			}
			return dir
		}, vault.ErrRollback, "the vault file is an older copy than the one Tessera last used here"},
		{"edited", func(t *testing.T, kr *vaulttest.Keyring) string {
			dir := newVault(t, kr)
			onFile(t, dir, "DELETE FROM profiles")
			return dir
		}, vault.ErrTampered, "the vault file was changed outside Tessera"},
		{"missing", func(t *testing.T, kr *vaulttest.Keyring) string {
			dir := newVault(t, kr)
			if err := os.Remove(filepath.Join(dir, "vault.db")); err != nil {
				t.Fatal(err)
			}
			return dir
		}, vault.ErrMissing, "the vault file is missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kr := &vaulttest.Keyring{}
			dir := tt.prepare(t, kr)
			v, err := vault.Open(dir, vault.Options{Keyring: kr, ScryptWorkFactor: testWorkFactor})
			if err != nil {
				t.Fatal(err)
			}
			defer v.Close()
			u := uiOver(t, v)
			calls := map[string]func() error{
				"unlock":              func() error { _, err := u.Unlock(goodPass); return err },
				"unlock with keyring": func() error { _, err := u.UnlockWithKeyring(); return err },
			}
			if tt.want == vault.ErrMissing {
				calls["set up vault"] = func() error { _, err := u.SetUpVault(goodPass, goodPass); return err }
				if view, err := u.Vault(); err != nil || !view.Missing {
					t.Errorf("Vault() = %+v, %v; want Missing", view, err)
				}
			}
			for op, call := range calls {
				err := call()
				if !errors.Is(err, tt.want) || !strings.HasPrefix(fmt.Sprint(err), op+": "+tt.msg) {
					t.Errorf("%s = %v, want %q… matching %v", op, err, op+": "+tt.msg, tt.want)
				}
			}
			if st := v.State(); st == vault.StateUnlocked {
				t.Errorf("vault state after the refusals = %q", st)
			}
		})
	}
}
