package app

import (
	"testing"

	"github.com/tessera-app/tessera/profile"
)

// Two apps, each with its own vault, kept in step through one folder from
// Settings: the first sets the folder up, the second joins with the first
// vault's recovery passphrase; a value set on either reaches the other;
// sync stops while a vault is locked and comes back at the unlock.
func TestSyncFromSettings(t *testing.T) {
	folder := t.TempDir()
	a, _, pa := editorUI(t)
	b, _, pb := editorUI(t)
	if v, _ := a.SyncStatus(); v.Enabled || v.Running {
		t.Fatalf("SyncStatus() before set-up = %+v", v)
	}
	if _, err := a.SetUpSync(folder, "laptop", "not the passphrase"); err == nil {
		t.Fatal("SetUpSync with a wrong recovery passphrase succeeded")
	}
	if _, err := a.SetUpSync(folder, "laptop", goodPass); err != nil {
		t.Fatal(err)
	}
	if _, err := a.SetValue(pa, profile.ConceptEmail, "ada@example.org"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.SyncNow(); err != nil {
		t.Fatal(err)
	}
	if _, err := b.SetUpSync(folder, "desktop", goodPass); err != nil {
		t.Fatal(err)
	}
	if _, err := b.SetValue(pb, profile.ConceptGivenName, "Ada"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.SyncNow(); err != nil {
		t.Fatal(err)
	}
	if _, err := a.SyncNow(); err != nil {
		t.Fatal(err)
	}
	for name, u := range map[string]*UI{"laptop": a, "desktop": b} {
		ps, err := u.app.cfg.Vault.(profileLister).Profiles()
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, p := range ps {
			for c, e := range p.Concepts {
				if s, ok := e.StringValue(); ok {
					got[c+"="+s] = true
				}
			}
		}
		if !got[profile.ConceptEmail+"=ada@example.org"] || !got[profile.ConceptGivenName+"=Ada"] {
			t.Errorf("%s after sync holds %v, want both devices' values", name, got)
		}
	}
	v, _ := a.SyncStatus()
	if !v.Running || v.Status == nil || len(v.Status.Devices) != 2 {
		t.Errorf("SyncStatus() = %+v, want two devices", v)
	}
	if _, err := a.Lock(); err != nil {
		t.Fatal(err)
	}
	if v, _ := a.SyncStatus(); v.Running {
		t.Error("sync still runs with the vault locked")
	}
	if _, err := a.Unlock(goodPass); err != nil {
		t.Fatal(err)
	}
	if v, _ := a.SyncStatus(); !v.Running {
		t.Error("sync did not come back at the unlock")
	}
}
