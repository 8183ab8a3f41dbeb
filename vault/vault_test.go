package vault

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tessera-app/tessera/profile"
	"github.com/zalando/go-keyring"
)

func TestDefaultDir(t *testing.T) {
	tests := []struct {
		goos string
		env  map[string]string
		want string
	}{
		{"linux", map[string]string{"TESSERA_HOME": "/x/t", "HOME": "/home/a"}, "/x/t"},
		{"linux", map[string]string{"XDG_DATA_HOME": "/xdg", "HOME": "/home/a"}, "/xdg/tessera"},
		{"linux", map[string]string{"XDG_DATA_HOME": "rel", "HOME": "/home/a"}, "/home/a/.local/share/tessera"},
		{"linux", map[string]string{"HOME": "/home/a"}, "/home/a/.local/share/tessera"},
		{"darwin", map[string]string{"HOME": "/Users/a"}, "/Users/a/Library/Application Support/Tessera"},
		{"windows", map[string]string{"LOCALAPPDATA": "/appdata"}, filepath.Join("/appdata", "Tessera")},
	}
	for _, tt := range tests {
		t.Run(tt.goos+"/"+tt.want, func(t *testing.T) {
			got, err := defaultDir(tt.goos, func(k string) string { return tt.env[k] })
			if err != nil || got != filepath.FromSlash(tt.want) {
				t.Errorf("defaultDir(%q) = %q, %v, want %q", tt.goos, got, err, tt.want)
			}
		})
	}
	if _, err := defaultDir("linux", func(string) string { return "" }); err == nil {
		t.Errorf("defaultDir with no HOME = nil error, want one")
	}
}

func TestLifecycle(t *testing.T) {
	dir := t.TempDir()
	kr := newFakeKeyring()
	clock := &manualClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	opts := Options{Keyring: kr, Clock: clock, IdleTimeout: time.Minute, ScryptWorkFactor: testWorkFactor}

	v, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.State(); got != StateUninitialized {
		t.Fatalf("State() = %q, want %q", got, StateUninitialized)
	}
	if _, err := v.Profiles(); !errors.Is(err, ErrUninitialized) {
		t.Fatalf("Profiles() on new dir = %v, want ErrUninitialized", err)
	}
	if err := v.Init(InitOptions{Passphrase: []byte("pw one"), Keyring: true}); err != nil {
		t.Fatal(err)
	}
	if err := v.Init(InitOptions{Passphrase: []byte("x")}); !errors.Is(err, ErrExists) {
		t.Fatalf("second Init = %v, want ErrExists", err)
	}
	if got := v.State(); got != StateUnlocked {
		t.Fatalf("State() after Init = %q, want %q", got, StateUnlocked)
	}
	if _, err := v.CreateProfile("me", "Personal"); err != nil {
		t.Fatal(err)
	}

	// Idle auto-lock: just under the timeout stays unlocked, over it locks.
	clock.Add(59 * time.Second)
	if _, err := v.Profile("me"); err != nil {
		t.Fatalf("Profile after 59s idle: %v", err)
	}
	if got := v.State(); got != StateUnlocked {
		t.Fatalf("State() after 59s idle = %q, want %q", got, StateUnlocked)
	}
	clock.Add(61 * time.Second)
	if got := v.State(); got != StateLocked {
		t.Fatalf("State() after idle = %q, want %q", got, StateLocked)
	}
	if _, err := v.Profile("me"); !errors.Is(err, ErrLocked) {
		t.Fatalf("Profile on idle-locked vault = %v, want ErrLocked", err)
	}

	if err := v.UnlockPassphrase([]byte("wrong")); !errors.Is(err, ErrBadPassphrase) {
		t.Fatalf("UnlockPassphrase(wrong) = %v, want ErrBadPassphrase", err)
	}
	if err := v.UnlockPassphrase([]byte("pw one")); err != nil {
		t.Fatal(err)
	}
	if err := v.ChangePassphrase([]byte("pw two")); err != nil {
		t.Fatal(err)
	}
	v.Lock()
	if err := v.UnlockPassphrase([]byte("pw one")); !errors.Is(err, ErrBadPassphrase) {
		t.Fatalf("UnlockPassphrase(old) = %v, want ErrBadPassphrase", err)
	}
	if err := v.UnlockKeyring(); err != nil {
		t.Fatal(err)
	}
	if err := v.Rekey([]byte("pw one")); !errors.Is(err, ErrBadPassphrase) {
		t.Fatalf("Rekey(old passphrase) = %v, want ErrBadPassphrase", err)
	}
	if err := v.Rekey([]byte("pw two")); err != nil {
		t.Fatal(err)
	}
	v.Close()

	v, err = Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if got := v.State(); got != StateLocked {
		t.Fatalf("State() after reopen = %q, want %q", got, StateLocked)
	}
	for name, unlock := range map[string]func() error{
		"keyring":    v.UnlockKeyring,
		"passphrase": func() error { return v.UnlockPassphrase([]byte("pw two")) },
	} {
		v.Lock()
		if err := unlock(); err != nil {
			t.Fatalf("unlock with %s after rekey: %v", name, err)
		}
		if p, err := v.Profile("me"); err != nil || p.Label != "Personal" {
			t.Fatalf("Profile(me) after %s unlock = %+v, %v, want label Personal", name, p, err)
		}
	}
	if err := v.Destroy(); err != nil {
		t.Fatal(err)
	}
	if got := v.State(); got != StateUninitialized {
		t.Fatalf("State() after Destroy = %q, want %q", got, StateUninitialized)
	}
	if len(kr.items) != 0 {
		t.Errorf("keyring after Destroy holds %d items, want 0", len(kr.items))
	}
	if _, err := os.Stat(filepath.Join(dir, dbName)); !os.IsNotExist(err) {
		t.Errorf("vault file after Destroy: %v, want not exist", err)
	}
}

func TestOpenDefault(t *testing.T) {
	t.Run("keyring works", func(t *testing.T) {
		dir, kr := t.TempDir(), newFakeKeyring()
		v, uerr, err := OpenDefault(dir, testOptions(kr))
		if err != nil || uerr != nil {
			t.Fatalf("OpenDefault = %v, %v", uerr, err)
		}
		if got := v.State(); got != StateUnlocked {
			t.Fatalf("State() = %q, want %q", got, StateUnlocked)
		}
		v.Close()
		v, uerr, err = OpenDefault(dir, testOptions(kr))
		if err != nil || uerr != nil || v.State() != StateUnlocked {
			t.Fatalf("second OpenDefault = %v, %v, state %q", uerr, err, v.State())
		}
		v.Close()
	})
	t.Run("keyring absent", func(t *testing.T) {
		kr := newFakeKeyring()
		kr.err = errors.New("dbus: no session bus")
		v, uerr, err := OpenDefault(t.TempDir(), testOptions(kr))
		if err != nil {
			t.Fatal(err)
		}
		defer v.Close()
		if !errors.Is(uerr, ErrKeyringUnavailable) {
			t.Errorf("OpenDefault unlockErr = %v, want ErrKeyringUnavailable", uerr)
		}
		if got := v.State(); got != StateUninitialized {
			t.Errorf("State() = %q, want %q", got, StateUninitialized)
		}
	})
}

func TestKeyringFailures(t *testing.T) {
	dir, kr := t.TempDir(), newFakeKeyring()
	v := newTestVault(t, dir, kr)
	if _, err := v.CreateProfile("me", "Me"); err != nil {
		t.Fatal(err)
	}
	v.Close()
	tests := []struct {
		name  string
		setup func(*fakeKeyring)
		want  error
	}{
		{"item missing", func(k *fakeKeyring) { clear(k.items) }, ErrKeyringItemMissing},
		{"daemon absent", func(k *fakeKeyring) { k.err = errors.New("no session bus") }, ErrKeyringUnavailable},
		{"stale identity", func(k *fakeKeyring) {
			for n := range k.items {
				k.items[n] = "AGE-SECRET-KEY-1GFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPYYSJZGFPQ4EGAEX"
			}
		}, ErrKeyringItemMissing},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := newFakeKeyring()
			for n, s := range kr.items {
				k.items[n] = s
			}
			tt.setup(k)
			v, err := Open(dir, testOptions(k))
			if err != nil {
				t.Fatal(err)
			}
			defer v.Close()
			if err := v.UnlockKeyring(); !errors.Is(err, tt.want) {
				t.Fatalf("UnlockKeyring() = %v, want %v", err, tt.want)
			}
			// Nothing lost: the passphrase still opens everything.
			if err := v.UnlockPassphrase([]byte("correct horse")); err != nil {
				t.Fatal(err)
			}
			if _, err := v.Profile("me"); err != nil {
				t.Fatalf("Profile(me) after keyring failure: %v", err)
			}
		})
	}
}

func TestEnrollKeyring(t *testing.T) {
	dir := t.TempDir()
	v, err := Create(dir, testOptions(newFakeKeyring()), InitOptions{Passphrase: []byte("pw")})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	v.Lock()
	if err := v.UnlockKeyring(); !errors.Is(err, ErrKeyringItemMissing) {
		t.Fatalf("UnlockKeyring before enrol = %v, want ErrKeyringItemMissing", err)
	}
	if err := v.UnlockPassphrase([]byte("pw")); err != nil {
		t.Fatal(err)
	}
	if err := v.CheckKeyring(); !errors.Is(err, ErrKeyringItemMissing) {
		t.Fatalf("CheckKeyring before enrol = %v, want ErrKeyringItemMissing", err)
	}
	if err := v.EnrollKeyring(); err != nil {
		t.Fatal(err)
	}
	if err := v.CheckKeyring(); err != nil {
		t.Fatalf("CheckKeyring after enrol = %v", err)
	}
	v.Lock()
	if err := v.UnlockKeyring(); err != nil {
		t.Fatalf("UnlockKeyring after enrol = %v", err)
	}
	info, err := v.Info()
	if err != nil || !info.HasKeyring || !info.HasPassphrase {
		t.Fatalf("Info() = %+v, %v, want both unlock methods", info, err)
	}
}

func TestEntries(t *testing.T) {
	v := newTestVault(t, t.TempDir(), newFakeKeyring())
	if _, err := v.CreateProfile("me", "Personal"); err != nil {
		t.Fatal(err)
	}
	if _, err := v.CreateProfile("me", "Again"); err == nil {
		t.Fatal("CreateProfile with a taken id succeeded")
	}
	email := ConceptKey("https://schema.org/email")
	path := FieldKey("contact.email")
	for k, val := range map[Key]string{email: "a@example.org", path: "b@example.org"} {
		if err := v.SetEntry("me", k, manual(val)); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		key  Key
		want string
	}{{email, "a@example.org"}, {path, "b@example.org"}}
	for _, tt := range tests {
		t.Run(tt.key.String(), func(t *testing.T) {
			e, err := v.Entry("me", tt.key)
			if err != nil {
				t.Fatal(err)
			}
			if got := mustValue(t, e); got != tt.want {
				t.Errorf("Entry(%q) = %q, want %q", tt.key, got, tt.want)
			}
		})
	}
	// Concept and field namespaces are separate even for equal names.
	if _, err := v.Entry("me", FieldKey(email.Name)); !errors.Is(err, ErrNotFound) {
		t.Errorf("Entry(field with concept name) = %v, want ErrNotFound", err)
	}
	p, err := v.Profile("me")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Concepts) != 1 || len(p.Fields) != 1 {
		t.Fatalf("Profile(me) has %d concepts, %d fields, want 1, 1", len(p.Concepts), len(p.Fields))
	}
	if err := v.DeleteEntry("me", email); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Entry("me", email); !errors.Is(err, ErrNotFound) {
		t.Errorf("Entry after DeleteEntry = %v, want ErrNotFound", err)
	}
	if err := v.DeleteEntry("me", email); !errors.Is(err, ErrNotFound) {
		t.Errorf("second DeleteEntry = %v, want ErrNotFound", err)
	}
	if err := v.RenameProfile("me", "Home"); err != nil {
		t.Fatal(err)
	}
	if _, err := v.CreateProfile("", "Work"); err != nil {
		t.Fatal(err)
	}
	ps, err := v.Profiles()
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, p := range ps {
		labels = append(labels, p.Label)
	}
	if !slices.Equal(labels, []string{"Home", "Work"}) {
		t.Errorf("Profiles() labels = %q, want [Home Work]", labels)
	}
	if err := v.DeleteProfile("me"); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Profile("me"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Profile after DeleteProfile = %v, want ErrNotFound", err)
	}
	if err := v.SetEntry("me", email, manual("x")); !errors.Is(err, ErrNotFound) {
		t.Errorf("SetEntry on deleted profile = %v, want ErrNotFound", err)
	}
	if err := v.SetEntry("", email, profile.Entry{Value: []byte("{")}); err == nil {
		t.Errorf("SetEntry with invalid JSON succeeded")
	}
}

func TestLearn(t *testing.T) {
	v := newTestVault(t, t.TempDir(), nil)
	if _, err := v.CreateProfile("me", "Me"); err != nil {
		t.Fatal(err)
	}
	email := "https://schema.org/email"
	src := profile.Source{Type: "form-fill", FormURL: "https://shop.example/", FieldPath: "mail"}
	steps := []struct {
		name string
		obs  Observation
		want LearnOutcome
	}{
		{"new concept", Observation{Concept: email, Value: str("a@example.org"), Source: src}, Learned},
		{"same value", Observation{Concept: email, Value: str("a@example.org"), Source: src}, Confirmed},
		{"conflict", Observation{Concept: email, Value: str("b@example.org"), Source: src}, Candidate},
		{"conflict again", Observation{Concept: email, Value: str("b@example.org"), Source: src}, Known},
		{"no concept", Observation{FieldPath: "loyalty.number", Value: str("L-42"), Source: src}, Learned},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			res, err := v.Learn("me", []Observation{s.obs})
			if err != nil {
				t.Fatal(err)
			}
			if res[0].Outcome != s.want {
				t.Errorf("Learn(%s) = %q, want %q", res[0].Key, res[0].Outcome, s.want)
			}
		})
	}
	// The conflicting value never replaced the current one.
	e, err := v.Entry("me", ConceptKey(email))
	if err != nil {
		t.Fatal(err)
	}
	if got := mustValue(t, e); got != "a@example.org" {
		t.Fatalf("Entry(email) after conflict = %q, want %q", got, "a@example.org")
	}
	if _, err := v.Entry("me", FieldKey("loyalty.number")); err != nil {
		t.Fatalf("field-path fallback not stored: %v", err)
	}
	cands, err := v.Candidates("me", ConceptKey(email))
	if err != nil || len(cands) != 1 || mustValue(t, cands[0]) != "b@example.org" {
		t.Fatalf("Candidates(email) = %v, %v, want [b@example.org]", cands, err)
	}
	if err := v.PromoteCandidate("me", ConceptKey(email), 0); err != nil {
		t.Fatal(err)
	}
	e, _ = v.Entry("me", ConceptKey(email))
	cands, _ = v.Candidates("me", ConceptKey(email))
	if mustValue(t, e) != "b@example.org" || len(cands) != 1 || mustValue(t, cands[0]) != "a@example.org" {
		t.Fatalf("after PromoteCandidate: current %s, candidates %v; want b current, a candidate", e.Value, cands)
	}
	// Candidates are bounded; the current value survives the pruning.
	for i := range MaxCandidates + 3 {
		if _, err := v.Learn("me", []Observation{{Concept: email, Value: str(string(rune('c'+i)) + "@example.org")}}); err != nil {
			t.Fatal(err)
		}
	}
	cands, _ = v.Candidates("me", ConceptKey(email))
	e, _ = v.Entry("me", ConceptKey(email))
	if len(cands) > MaxCandidates || mustValue(t, e) != "b@example.org" {
		t.Fatalf("after many conflicts: %d candidates, current %s; want <= %d and b", len(cands), e.Value, MaxCandidates)
	}
}

func TestAudit(t *testing.T) {
	v := newTestVault(t, t.TempDir(), nil)
	want := []Release{
		{Time: time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC), Origin: "https://shop.example", Frame: "main", Concepts: []string{"https://schema.org/email"}, ProfileID: "me"},
		{Time: time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC), Origin: "https://bank.example", Frame: "https://bank.example/iframe", Concepts: []string{"https://schema.org/name"}, ProfileID: "work"},
	}
	for _, r := range want {
		if err := v.RecordRelease(r); err != nil {
			t.Fatal(err)
		}
	}
	got, err := v.Releases()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("Releases() has %d events, want %d", len(got), len(want))
	}
	for i := range want {
		if !got[i].Time.Equal(want[i].Time) || got[i].Origin != want[i].Origin || got[i].Frame != want[i].Frame ||
			!slices.Equal(got[i].Concepts, want[i].Concepts) || got[i].ProfileID != want[i].ProfileID {
			t.Errorf("Releases()[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
	v.Lock()
	if _, err := v.Releases(); !errors.Is(err, ErrLocked) {
		t.Errorf("Releases() when locked = %v, want ErrLocked", err)
	}
}

func TestKeyringOnlyVault(t *testing.T) {
	dir := t.TempDir()
	kr := newFakeKeyring()
	v, err := Create(dir, testOptions(kr), InitOptions{Keyring: true})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if err := v.Rekey(nil); err != nil {
		t.Fatalf("Rekey(nil) on a vault without passphrase: %v", err)
	}
	v.Lock()
	if err := v.UnlockPassphrase([]byte("anything")); !errors.Is(err, ErrNoPassphrase) {
		t.Fatalf("UnlockPassphrase on a keyring-only vault = %v, want ErrNoPassphrase", err)
	}
	if err := v.UnlockKeyring(); err != nil {
		t.Fatal(err)
	}
	// Setting a passphrase later gives the recovery path.
	if err := v.ChangePassphrase([]byte("recovery")); err != nil {
		t.Fatal(err)
	}
	v.Lock()
	if err := v.UnlockPassphrase([]byte("recovery")); err != nil {
		t.Fatal(err)
	}
	if err := v.Rekey(nil); !errors.Is(err, ErrBadPassphrase) {
		t.Fatalf("Rekey(nil) once a passphrase is set = %v, want ErrBadPassphrase", err)
	}
}

// TestNewerSchema guards against a downgraded tessera reading (and then
// writing) a vault whose layout it does not know.
func TestNewerSchema(t *testing.T) {
	dir := t.TempDir()
	v := newTestVault(t, dir, nil)
	if _, err := v.db.Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	v.Close()
	_, err := Open(dir, testOptions(nil))
	if err == nil || !strings.Contains(err.Error(), "schema version 99 is newer") {
		t.Fatalf("Open(schema 99) = %v, want a newer-schema error", err)
	}
}

func TestKeyringCallTimeout(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	hung := func() (string, error) {
		<-release
		return "late", nil
	}
	if _, err := callTimeout(10*time.Millisecond, hung); !errors.Is(err, ErrKeyringUnavailable) {
		t.Fatalf("callTimeout(hung call) = %v, want ErrKeyringUnavailable", err)
	}
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"ok", nil, nil},
		{"not found", keyring.ErrNotFound, ErrKeyringItemMissing},
		{"dbus down", errors.New("dbus: connection refused"), ErrKeyringUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := callTimeout(time.Minute, func() (string, error) { return "s", tt.err })
			if !errors.Is(err, tt.want) || (tt.want == nil && err != nil) {
				t.Errorf("callTimeout(%v) = %v, want %v", tt.err, err, tt.want)
			}
		})
	}
}

func TestKeyringFromEnv(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "TESSERA_KEYRING" {
				return v
			}
			return ""
		}
	}
	if kr := KeyringFromEnv(env("none")); kr != nil {
		t.Errorf("KeyringFromEnv(TESSERA_KEYRING=none) = %T, want nil", kr)
	}
	if kr := KeyringFromEnv(env("")); kr == nil {
		t.Error("KeyringFromEnv(unset) = nil, want the system keyring")
	}
}

// TestOpenDefaultMissingFile guards against the app starting a new, empty
// vault where the person's vault file vanished (issue 18).
func TestOpenDefaultMissingFile(t *testing.T) {
	dir, kr := t.TempDir(), newFakeKeyring()
	v, uerr, err := OpenDefault(dir, testOptions(kr))
	if err != nil || uerr != nil {
		t.Fatalf("OpenDefault = %v, %v", uerr, err)
	}
	if _, err := v.CreateProfile("me", "Me"); err != nil {
		t.Fatal(err)
	}
	v.Close()
	if err := os.Remove(filepath.Join(dir, dbName)); err != nil {
		t.Fatal(err)
	}
	v, uerr, err = OpenDefault(dir, testOptions(kr))
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if !errors.Is(uerr, ErrMissing) {
		t.Fatalf("OpenDefault where the file vanished: unlockErr = %v, want ErrMissing", uerr)
	}
	if _, err := os.Stat(filepath.Join(dir, dbName)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("OpenDefault created a vault file in place of the vanished one: %v", err)
	}
	if info, err := v.Info(); err != nil || !info.Missing || info.State != StateUninitialized {
		t.Fatalf("Info() = %+v, %v; want missing and uninitialized", info, err)
	}
}
