package devsync

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/tessera-app/tessera/vault"
)

// TestJoinByApproval: a new device asks, the person checks both show the
// same code and approves on a device already in; no passphrase typed.
func TestJoinByApproval(t *testing.T) {
	ctx := context.Background()
	folder := t.TempDir()
	a, b := newHome(t, "passphrase of a"), newHome(t, "passphrase of b")
	a.v.CreateProfile("home", "Home")
	a.v.SetEntry("home", vault.FieldKey("city"), entry("Lyon"))
	var err error
	a.setUp(t, folder, "laptop", "passphrase of a")
	req, err := RequestJoin(DirFS(folder))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := req.Code(); !errors.Is(err, ErrPending) {
		t.Fatalf("Code() before an answer = %v, want ErrPending", err)
	}
	// Closed (vault locked and unlocked since), the Syncer still answers.
	a.s.Close()
	p, err := a.s.PendingJoins()
	if err != nil || len(p) != 1 || p[0].ID != req.ID || p[0].Code != "" {
		t.Fatalf("PendingJoins() = %+v, %v; want the request, no code yet", p, err)
	}
	code, err := req.Code()
	if err != nil || len(code) != 6 {
		t.Fatalf("Code() = %q, %v", code, err)
	}
	p, _ = a.s.PendingJoins()
	if len(p) != 1 || p[0].Code != code {
		t.Fatalf("the approving device shows %+v, the new one %q", p, code)
	}
	wrong := "000000"
	if code == wrong {
		wrong = "111111"
	}
	if err := a.s.ApproveJoin(req.ID, wrong); !errors.Is(err, ErrCodeMismatch) {
		t.Fatalf("ApproveJoin(wrong code) = %v, want ErrCodeMismatch", err)
	}
	if _, err := req.Secret(); !errors.Is(err, ErrPending) {
		t.Fatalf("Secret() before approval = %v, want ErrPending", err)
	}
	if err := a.s.ApproveJoin(req.ID, code); err != nil {
		t.Fatal(err)
	}
	secret, err := req.Secret()
	if err != nil {
		t.Fatal(err)
	}
	if b.s, err = SetupWithSecret(ctx, b.v, folder, "desktop", secret, testOpts); err != nil {
		t.Fatal(err)
	}
	if got := b.values(t, "home", vault.FieldKey("city")); !slices.Equal(got, []string{`"Lyon"`}) {
		t.Errorf("after joining: city = %q", got)
	}
	if p, _ := a.s.PendingJoins(); len(p) != 0 {
		t.Errorf("PendingJoins() after the join = %+v, want none", p)
	}
}

// TestJoinRevealMustOpenCommitment: a nonce put in the middle that does not
// open the request's commitment gives no code, so nothing to approve.
func TestJoinRevealMustOpenCommitment(t *testing.T) {
	folder := t.TempDir()
	a := newHome(t, "p")
	a.setUp(t, folder, "laptop", "p")
	req, _ := RequestJoin(DirFS(folder))
	a.s.PendingJoins()
	if _, err := req.Code(); err != nil {
		t.Fatal(err)
	}
	DirFS(folder).WriteFile(joinName(req.ID, 3), []byte(`{"nonce":"00000000000000000000000000000000000000000000000000000000000000aa"}`))
	if err := a.s.ApproveJoin(req.ID, "123456"); err == nil || errors.Is(err, ErrCodeMismatch) {
		t.Fatalf("ApproveJoin after a forged reveal = %v, want a commitment error", err)
	}
	if p, _ := a.s.PendingJoins(); len(p) != 0 {
		t.Errorf("PendingJoins() lists a request whose reveal does not open its commitment: %+v", p)
	}
}

// approve runs a join by approval of h through member m.
func approve(t *testing.T, m, h *home, folder, name string) {
	t.Helper()
	req, err := RequestJoin(DirFS(folder))
	if err != nil {
		t.Fatal(err)
	}
	m.s.PendingJoins()
	code, err := req.Code()
	if err != nil {
		t.Fatal(err)
	}
	if err := m.s.ApproveJoin(req.ID, code); err != nil {
		t.Fatal(err)
	}
	secret, err := req.Secret()
	if err != nil {
		t.Fatal(err)
	}
	if h.s, err = SetupWithSecret(context.Background(), h.v, folder, name, secret, testOpts); err != nil {
		t.Fatal(err)
	}
}

// TestSyncerRemoveDevice: vaults, not replicas: a device removed in
// Settings stops receiving, even after its app restarts, while a device
// that joins afterwards, by approval or with the passphrase, reads
// everything.
func TestSyncerRemoveDevice(t *testing.T) {
	ctx := context.Background()
	folder := t.TempDir()
	a, b, c, d := newHome(t, "passphrase of a"), newHome(t, "passphrase of b"), newHome(t, "passphrase of c"), newHome(t, "passphrase of d")
	a.v.CreateProfile("home", "Home")
	a.v.SetEntry("home", vault.FieldKey("city"), entry("Lyon"))
	var err error
	a.setUp(t, folder, "laptop", "passphrase of a")
	approve(t, a, b, folder, "old phone")
	a.sync(t)
	bid := b.s.Status().Devices
	var bdev string
	for _, ds := range bid {
		if ds.Self {
			bdev = ds.Device
		}
	}
	if err := a.s.RemoveDevice(ctx, bdev); err != nil {
		t.Fatal(err)
	}
	a.v.SetEntry("home", vault.FieldKey("city"), entry("Nantes"))
	a.sync(t)

	// b's app restarts (the Syncer reloads its state from the vault).
	b.s.Close()
	b.s, err = Open(b.v, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	b.s.SyncNow(ctx)
	if _, err := b.s.SyncNow(ctx); !errors.Is(err, ErrRemoved) {
		t.Errorf("removed device SyncNow = %v, want ErrRemoved", err)
	}
	if got := b.values(t, "home", vault.FieldKey("city")); slices.Contains(got, `"Nantes"`) {
		t.Errorf("removed device received %q", got)
	}
	if st := b.s.Status(); !st.Removed {
		t.Errorf("removed device status = %+v, want Removed", st.Status)
	}

	approve(t, a, c, folder, "desktop")
	d.setUp(t, folder, "tablet", "passphrase of a")
	if got := c.values(t, "home", vault.FieldKey("city")); !slices.Equal(got, []string{`"Nantes"`}) {
		t.Errorf("joined by approval after the removal: city = %q", got)
	}
	if got := d.values(t, "home", vault.FieldKey("city")); !slices.Equal(got, []string{`"Nantes"`}) {
		t.Errorf("joined with the passphrase after the removal: city = %q", got)
	}
	a.sync(t)
	if st := a.s.Status(); st.Epoch != 2 || len(st.Problems) != 0 {
		t.Errorf("status = epoch %d, problems %q", st.Epoch, st.Problems)
	}
}

// TestJoinDeclined: the person declines a request on a device already in;
// the new device learns it, and the request no longer shows.
func TestJoinDeclined(t *testing.T) {
	folder := t.TempDir()
	a := newHome(t, "passphrase of a")
	var err error
	a.setUp(t, folder, "laptop", "passphrase of a")
	req, err := RequestJoin(DirFS(folder))
	if err != nil {
		t.Fatal(err)
	}
	a.s.PendingJoins()
	if _, err := req.Code(); err != nil {
		t.Fatal(err)
	}
	if err := a.s.DeclineJoin(req.ID); err != nil {
		t.Fatal(err)
	}
	if p, _ := a.s.PendingJoins(); len(p) != 0 {
		t.Errorf("PendingJoins() after declining = %+v, want none", p)
	}
	if _, err := req.Secret(); !errors.Is(err, ErrDeclined) {
		t.Errorf("Secret() after declining = %v, want ErrDeclined", err)
	}
	req.Cancel()
	if _, err := req.Code(); !errors.Is(err, ErrPending) {
		t.Errorf("Code() after Cancel = %v, want ErrPending (no files left)", err)
	}
}

// TestSyncerDisableLeaves: a device that stops syncing leaves the group:
// the others list it as removed, in a new epoch it cannot open.
func TestSyncerDisableLeaves(t *testing.T) {
	folder := t.TempDir()
	a, b := newHome(t, "passphrase of a"), newHome(t, "passphrase of b")
	a.setUp(t, folder, "laptop", "passphrase of a")
	b.setUp(t, folder, "desktop", "passphrase of a")
	a.sync(t)
	if err := b.s.Disable(); err != nil {
		t.Fatal(err)
	}
	a.sync(t)
	st := a.s.Status()
	removed := false
	for _, d := range st.Devices {
		removed = removed || d.Name == "desktop" && d.Removed
	}
	if !removed || st.Epoch != 2 || len(st.Problems) != 0 {
		t.Errorf("after the desktop stopped: epoch %d, devices %+v, problems %q; want it removed in epoch 2", st.Epoch, st.Devices, st.Problems)
	}
}
