package ui

import (
	"testing"
	"time"
)

func TestVaultSettings(t *testing.T) {
	u, v, _ := editorUI(t)
	u.cfg.AutoLock.SetIdleLimit(15 * time.Minute)
	s, err := u.VaultSettings()
	if err != nil {
		t.Fatal(err)
	}
	if s.Dir != v.Dir() || s.State != "unlocked" || !s.HasPassphrase || s.HasKeyring || s.AutoLockMinutes != 15 || !s.LockOnSession {
		t.Errorf("VaultSettings() = %+v", s)
	}
	u.cfg.Getenv = func(k string) string {
		if k == "TESSERA_LOCK_ON_SESSION" {
			return "off"
		}
		return ""
	}
	u.Lock()
	if s, _ := u.VaultSettings(); s.LockOnSession || s.State != "locked" {
		t.Errorf("with TESSERA_LOCK_ON_SESSION=off, locked: %+v", s)
	}
}
