package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tessera-app/tessera/app/ui"
	"github.com/tessera-app/tessera/devsync"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

// Two apps, each with its own vault, kept in step through one folder from
// Settings: the first sets the folder up, the second joins with the first
// vault's recovery passphrase; a value set on either reaches the other;
// sync stops while a vault is locked and comes back at the unlock.
func TestSyncFromSettings(t *testing.T) {
	folder := t.TempDir()
	a, va, pa := editorUI(t)
	b, vb, pb := editorUI(t)
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
	for name, v := range map[string]*vault.Vault{"laptop": va, "desktop": vb} {
		ps, err := v.Profiles()
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
	// Both devices change the laptop profile's email at once: both values
	// are kept, and the editor shows the detail as a conflict to settle.
	if _, err := a.SetValue(pa, profile.ConceptEmail, "ada@laptop.example"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.SetValue(pa, profile.ConceptEmail, "ada@desktop.example"); err != nil {
		t.Fatal(err)
	}
	for _, u := range []*ui.UI{a, b, a} {
		if _, err := u.SyncNow(); err != nil {
			t.Fatal(err)
		}
	}
	pv, err := a.ProfileDetail(pa)
	if err != nil {
		t.Fatal(err)
	}
	var email *ui.ConceptValues
	for gi := range pv.Groups {
		for ci := range pv.Groups[gi].Concepts {
			if c := &pv.Groups[gi].Concepts[ci]; c.IRI == profile.ConceptEmail {
				email = c
			}
		}
	}
	if email == nil || !email.Conflict || len(email.Values) < 2 {
		t.Errorf("editor's email after concurrent edits = %+v, want a conflict with both values", email)
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

// A device joins from Settings by approval: it asks through the folder
// and shows a code; the device already in lists the request with the same
// code, and approving it starts sync on the new device. A request declined
// says so on the device that made it.
func TestSyncJoinByApprovalFromSettings(t *testing.T) {
	folder := t.TempDir()
	a, _, pa := editorUI(t)
	b, vb, _ := editorUI(t)
	c, _, _ := editorUI(t)
	if _, err := a.SetUpSync(folder, "laptop", goodPass); err != nil {
		t.Fatal(err)
	}
	if _, err := a.SetValue(pa, profile.ConceptEmail, "ada@example.org"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.SyncNow(); err != nil {
		t.Fatal(err)
	}
	if _, err := a.AskToJoinSync(folder, "again"); err == nil {
		t.Error("AskToJoinSync on a vault that already syncs succeeded")
	}
	v, err := b.AskToJoinSync(folder, "desktop")
	if err != nil {
		t.Fatal(err)
	}
	if v.Joining == nil || v.Joining.Code != "" || v.Running {
		t.Fatalf("after asking: %+v, want a request without a code yet", v)
	}
	// Each side's card reads the state in turn, as both are shown.
	av, _ := a.SyncStatus()
	bv, _ := b.SyncStatus()
	av, _ = a.SyncStatus()
	if len(av.Pending) != 1 || bv.Joining == nil || len(bv.Joining.Code) != 6 || av.Pending[0].Code != bv.Joining.Code {
		t.Fatalf("pending on the laptop %+v, request on the desktop %+v: want one request, same code", av.Pending, bv.Joining)
	}
	wrong := "000000"
	if bv.Joining.Code == wrong {
		wrong = "111111"
	}
	if _, err := a.ApproveSyncJoin(av.Pending[0].ID, wrong); err == nil {
		t.Error("approving with another code succeeded")
	}
	if _, err := a.ApproveSyncJoin(av.Pending[0].ID, bv.Joining.Code); err != nil {
		t.Fatal(err)
	}
	bv, _ = b.SyncStatus()
	if !bv.Running || bv.Joining != nil {
		t.Fatalf("after approval the desktop shows %+v, want sync running", bv)
	}
	ps, err := vb.Profiles()
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, p := range ps {
		if e, ok := p.Concepts[profile.ConceptEmail]; ok {
			s, _ := e.StringValue()
			found = found || s == "ada@example.org"
		}
	}
	if !found {
		t.Error("the desktop did not receive the laptop's email")
	}
	if av, _ = a.SyncStatus(); len(av.Pending) != 0 {
		t.Errorf("pending after the join: %+v", av.Pending)
	}

	// A third device asks; the laptop declines.
	if _, err := c.AskToJoinSync(folder, "stranger"); err != nil {
		t.Fatal(err)
	}
	av, _ = a.SyncStatus()
	c.SyncStatus()
	if len(av.Pending) != 1 {
		t.Fatalf("pending = %+v, want the stranger's request", av.Pending)
	}
	if _, err := a.DeclineSyncJoin(av.Pending[0].ID); err != nil {
		t.Fatal(err)
	}
	cv, _ := c.SyncStatus()
	if cv.Running || cv.Joining == nil || !strings.Contains(cv.Joining.Problem, "declined") {
		t.Errorf("after declining, the stranger shows %+v, want declined", cv)
	}
	if cv, _ = c.CancelSyncJoin(); cv.Joining != nil {
		t.Errorf("after Cancel: %+v", cv.Joining)
	}
}

// Changing the recovery passphrase in Settings gives the sync folder the
// new one and a new epoch: the old passphrase no longer opens the folder.
func TestSyncFollowsPassphraseChange(t *testing.T) {
	const newPass = "orchard lantern harbour velvet"
	folder := t.TempDir()
	a, _, _ := editorUI(t)
	if _, err := a.SetUpSync(folder, "laptop", goodPass); err != nil {
		t.Fatal(err)
	}
	if _, err := a.ChangePassphrase(goodPass, newPass, newPass); err != nil {
		t.Fatal(err)
	}
	if _, err := devsync.ReadGroupFile(devsync.DirFS(folder), []byte(goodPass)); !errors.Is(err, devsync.ErrBadPassphrase) {
		t.Errorf("the old passphrase on the folder: %v, want ErrBadPassphrase", err)
	}
	if _, err := devsync.ReadGroupFile(devsync.DirFS(folder), []byte(newPass)); err != nil {
		t.Errorf("the new passphrase on the folder: %v", err)
	}
	if v, _ := a.SyncStatus(); v.Status == nil || v.Status.Epoch != 2 {
		t.Errorf("after the change: %+v, want epoch 2", v.Status)
	}
}

// `tessera vault passwd` through the running app changes the sync folder's
// passphrase as Settings does.
func TestSyncFollowsPassphraseChangeFromCLI(t *testing.T) {
	const newPass = "violet copper tide"
	v, dial, _ := cliApp(t, nil)
	if err := v.Init(vault.InitOptions{Passphrase: []byte(cliPass)}); err != nil {
		t.Fatal(err)
	}
	folder := t.TempDir()
	c := dial(KindCLI)
	pp, _ := json.Marshal(cliPass)
	if m := c.call("sync.setup", fmt.Sprintf(`{"folder":%q,"name":"laptop","passphrase":%s}`, folder, pp)); code(m) != "" {
		t.Fatalf("sync.setup = %v", m)
	}
	if m := c.call("vault.passwd", fmt.Sprintf(`{"passphrase":%s,"newPassphrase":%q}`, pp, newPass)); code(m) != "" {
		t.Fatalf("vault.passwd = %v", m)
	}
	if _, err := devsync.ReadGroupFile(devsync.DirFS(folder), []byte(cliPass)); !errors.Is(err, devsync.ErrBadPassphrase) {
		t.Errorf("the old passphrase on the folder: %v, want ErrBadPassphrase", err)
	}
	if _, err := devsync.ReadGroupFile(devsync.DirFS(folder), []byte(newPass)); err != nil {
		t.Errorf("the new passphrase on the folder: %v", err)
	}
}
