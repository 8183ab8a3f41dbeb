package ui

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/tessera-app/tessera/vault"
)

// progressShell records the progress events besides what fakeShell does.
type progressShell struct {
	fakeShell
	pmu      sync.Mutex
	progress []TransferProgress
}

func (p *progressShell) Emit(event string, data any) {
	if event == TransferProgressEvent {
		p.pmu.Lock()
		p.progress = append(p.progress, data.(TransferProgress))
		p.pmu.Unlock()
	}
	p.fakeShell.Emit(event, data)
}

// TestChangePassphrase: Change passphrase refuses, with words that say
// what to do and nothing changed, a wrong or empty current passphrase, a
// weak, mismatched or unchanged new one; the right one re-seals the vault
// with progress from the check through every record to saving, after which
// only the new passphrase unlocks.
func TestChangePassphrase(t *testing.T) {
	u, v, _ := newVaultUI(t, nil)
	sh := &progressShell{}
	NewWindow(u).Start(sh)
	if _, err := u.SetUpVault(goodPass, goodPass); err != nil {
		t.Fatal(err)
	}
	for i := range 60 {
		if _, err := u.CreateProfile(fmt.Sprintf("profile %02d", i)); err != nil {
			t.Fatal(err)
		}
	}
	const newPass = "lantern orchard velvet harbour"
	for _, c := range []struct {
		cur, pass, confirm string
		want               error
		words              string
	}{
		{"", newPass, newPass, ErrNoCurrentPassphrase, "type the passphrase you unlock"},
		{goodPass + "x", newPass, newPass, vault.ErrBadPassphrase, "current passphrase is wrong, so nothing changed"},
		{goodPass, newPass, newPass + "x", ErrPassphraseMismatch, "do not match"},
		{goodPass, "short", "short", ErrWeakPassphrase, ""},
		{goodPass, goodPass, goodPass, ErrSamePassphrase, "choose another"},
	} {
		_, err := u.ChangePassphrase(c.cur, c.pass, c.confirm)
		if !errors.Is(err, c.want) || !strings.Contains(fmt.Sprint(err), c.words) || !strings.HasPrefix(fmt.Sprint(err), "change passphrase: ") {
			t.Errorf("ChangePassphrase(%q, %q, %q) = %v, want %v saying %q", c.cur, c.pass, c.confirm, err, c.want, c.words)
		}
	}
	v.Lock()
	if _, err := u.Unlock(goodPass); err != nil {
		t.Fatalf("a refused change changed the passphrase: %v", err)
	}
	sh.progress = nil
	view, err := u.ChangePassphrase(goodPass, newPass, newPass)
	if err != nil || view.State != vault.StateUnlocked || !view.HasPassphrase {
		t.Fatalf("ChangePassphrase = %+v, %v, want unlocked with a passphrase", view, err)
	}
	var phases []string
	total := 0
	for _, p := range sh.progress {
		if p.Op != PasswdProgressOp {
			t.Errorf("progress op %q", p.Op)
		}
		if len(phases) == 0 || phases[len(phases)-1] != p.Phase {
			phases = append(phases, p.Phase)
		}
		total = max(total, p.Total)
	}
	last := sh.progress[len(sh.progress)-1]
	if strings.Join(phases, ", ") != "Checking your current passphrase, Sealing the new passphrase, Re-sealing your records, Saving" || total < 60 || last.Done != last.Total || len(sh.progress) < 4 {
		t.Errorf("progress %+v: want the check, the records re-sealed of %d+, then saving", sh.progress, 60)
	}
	v.Lock()
	if _, err := u.Unlock(goodPass); !errors.Is(err, vault.ErrBadPassphrase) {
		t.Errorf("old passphrase after the change: %v, want wrong passphrase", err)
	}
	if _, err := u.Unlock(newPass); err != nil {
		t.Errorf("new passphrase: %v", err)
	}
	if ps, err := u.Profiles(); err != nil || len(ps) != 60 {
		t.Errorf("after the change %d profiles, %v", len(ps), err)
	}
	v.Lock()
	if _, err := u.ChangePassphrase(newPass, goodPass, goodPass); !errors.Is(err, vault.ErrLocked) {
		t.Errorf("locked: %v, want ErrLocked", err)
	}
}
