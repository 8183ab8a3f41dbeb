package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tessera-app/tessera/app/ui"
	"github.com/tessera-app/tessera/app/vaultctl"
	"github.com/tessera-app/tessera/internal/safefile"
	"github.com/tessera-app/tessera/passphrase"
)

func TestPassphraseStrengthIsTheRule(t *testing.T) {
	u := &ui.UI{}
	for _, p := range []string{"", "abc", "password123", "sunny meadow", "sunny meadow river", "correct horse battery staple"} {
		s := u.PassphraseStrength(p)
		if s.Acceptable != (passphrase.Check(p) == nil) {
			t.Errorf("PassphraseStrength(%q).Acceptable = %v, Check says %v", p, s.Acceptable, passphrase.Check(p))
		}
		if s.Acceptable && s.Advice != "" || !s.Acceptable && p != "" && s.Advice == "" {
			t.Errorf("PassphraseStrength(%q) = %+v: advice only when refused", p, s)
		}
		if len(p) >= 4 && strings.Contains(s.Advice, p) {
			t.Errorf("PassphraseStrength(%q) advice %q quotes the passphrase", p, s.Advice)
		}
	}
	if s := u.PassphraseStrength("abc"); s.Words != "too short" || !strings.Contains(s.Advice, "8 characters") {
		t.Errorf("short passphrase: %+v", s)
	}
	if s := u.PassphraseStrength("password123"); s.Words == "strong" || !strings.Contains(s.Advice, "common words") {
		t.Errorf("common passphrase: %+v", s)
	}
	if s := u.PassphraseStrength(strings.Repeat("x", ui.MaxPassphraseLen+1)); s.Acceptable {
		t.Errorf("over-long passphrase accepted: %+v", s)
	}
}

// The auto-lock time chosen in Settings applies at once, is saved in
// prefs.json (0600) and is what the next start uses; a time Settings does
// not offer is refused, and a prefs file holding nonsense leaves the
// default.
func TestAutoLockIsConfigurableAndPersisted(t *testing.T) {
	home := t.TempDir()
	a, err := New(Config{Home: home, IdleLock: vaultIdleLock})
	if err != nil {
		t.Fatal(err)
	}
	u := newUI(a)
	if _, err := u.SetAutoLock(7); err == nil {
		t.Fatal("SetAutoLock(7) accepted a time not offered")
	}
	vs, err := u.SetAutoLock(5)
	if err != nil {
		t.Fatal(err)
	}
	if vs.AutoLockMinutes != 5 || a.vaultctl.IdleLimit() != 5*time.Minute {
		t.Errorf("after SetAutoLock(5): settings %d min, app %v", vs.AutoLockMinutes, a.vaultctl.IdleLimit())
	}
	fi, err := os.Stat(filepath.Join(home, vaultctl.PrefsFile))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("prefs.json mode %v, want 0600", fi.Mode().Perm())
	}
	next := Config{Home: home, IdleLock: vaultIdleLock}
	if err := applyPrefs(&next); err != nil || next.IdleLock != 5*time.Minute {
		t.Errorf("next start: idle lock %v, %v; want 5m", next.IdleLock, err)
	}
	if _, err := u.SetAutoLock(0); err != nil {
		t.Fatal(err)
	}
	next = Config{Home: home, IdleLock: vaultIdleLock}
	if err := applyPrefs(&next); err != nil || next.IdleLock != 0 {
		t.Errorf("never: idle lock %v, %v; want 0", next.IdleLock, err)
	}
	for _, bad := range []string{`{"autoLockMinutes": 3}`, `{"autoLockMinutes": "x"}`, `not json`, strings.Repeat(" ", safefile.MaxState+1)} {
		if err := os.WriteFile(filepath.Join(home, vaultctl.PrefsFile), []byte(bad), 0o600); err != nil {
			t.Fatal(err)
		}
		next = Config{Home: home, IdleLock: vaultIdleLock}
		if err := applyPrefs(&next); err == nil || next.IdleLock != vaultIdleLock {
			t.Errorf("prefs %.20q: idle lock %v, err %v; want the default and an error", bad, next.IdleLock, err)
		}
	}
}

// The idle lock reads the time set now, not the one the app started with.
func TestIdleLockFollowsSetting(t *testing.T) {
	var mu sync.Mutex
	now := time.Unix(1_700_000_000, 0)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	v := &idleVault{}
	a, err := New(Config{Home: t.TempDir(), Vault: v, IdleLock: time.Hour, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	u := newUI(a)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a.personActed()
	go a.watchVault(ctx, 5*time.Millisecond)
	advance(2 * time.Minute)
	time.Sleep(50 * time.Millisecond)
	if v.State() != "unlocked" {
		t.Fatal("locked after 2 minutes with a 60-minute auto-lock")
	}
	if _, err := u.SetAutoLock(1); err != nil {
		t.Fatal(err)
	}
	advance(2 * time.Minute)
	deadline := time.Now().Add(5 * time.Second)
	for v.State() != "locked" && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if v.State() != "locked" {
		t.Error("not locked 2 minutes idle after the auto-lock was set to 1 minute")
	}
}

func TestSuggestPassphraseIsAccepted(t *testing.T) {
	u := &ui.UI{}
	p, err := u.SuggestPassphrase()
	if err != nil {
		t.Fatal(err)
	}
	if err := ui.CheckNewPassphrase(p, p); err != nil {
		t.Errorf("suggested %q refused: %v", p, err)
	}
	if q, _ := u.SuggestPassphrase(); q == p {
		t.Errorf("two suggestions alike: %q", p)
	}
}
