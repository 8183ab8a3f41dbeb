package vault

import (
	"errors"
	"slices"
	"testing"

	"github.com/tessera-app/tessera/profile"
)

func TestApplySync(t *testing.T) {
	v := newTestVault(t, t.TempDir(), newFakeKeyring())
	if _, err := v.CreateProfile("home", "Home"); err != nil {
		t.Fatal(err)
	}
	if err := v.SetEntry("home", ConceptKey("email"), manual("a@example.org")); err != nil {
		t.Fatal(err)
	}
	if _, err := v.CreateProfile("gone", "Gone"); err != nil {
		t.Fatal(err)
	}
	snap, err := v.SyncSnapshot()
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Profiles) != 2 || snap.State != nil || len(snap.Profiles[1].Keys) != 1 {
		t.Fatalf("SyncSnapshot() = %+v", snap)
	}
	changes := []SyncChange{
		{Profile: "gone", Delete: true},
		{Profile: "home", Label: "At home", Keys: []SyncValues{{Key: ConceptKey("email"), Values: []profile.Entry{manual("b@example.org"), manual("a@example.org")}}}},
		{Profile: "new", Label: "New", Keys: []SyncValues{{Key: FieldKey("f"), Values: []profile.Entry{manual("x")}}}},
	}
	audit := []Release{{Client: "laptop", ProfileID: "home", Concepts: []string{"email"}}}
	if err := v.ApplySync(snap.Token, changes, audit, []byte(`{"state":1}`)); err != nil {
		t.Fatalf("ApplySync: %v", err)
	}
	// A second apply from the same snapshot finds the vault changed.
	if err := v.ApplySync(snap.Token, nil, nil, []byte(`{}`)); !errors.Is(err, ErrSyncRace) {
		t.Fatalf("ApplySync(stale token) = %v, want ErrSyncRace", err)
	}
	if e, _ := v.Entry("home", ConceptKey("email")); mustValue(t, e) != "b@example.org" {
		t.Errorf("current email = %s, want b@example.org", e.Value)
	}
	if c, _ := v.Candidates("home", ConceptKey("email")); len(c) != 1 || mustValue(t, c[0]) != "a@example.org" {
		t.Errorf("candidates = %v, want [a@example.org]", c)
	}
	ps, _ := v.ProfileSummaries()
	var labels []string
	for _, p := range ps {
		labels = append(labels, p.Label)
	}
	if !slices.Equal(labels, []string{"At home", "New"}) {
		t.Errorf("labels = %q, want [At home New]", labels)
	}
	rel, _ := v.Releases()
	if n := len(rel); n != 1 || rel[0].Event != EventSync || rel[0].Client != "laptop" {
		t.Errorf("audit = %+v, want one sync event from laptop", rel)
	}
	// The state survives a re-key, sealed under the new key, and the
	// file still verifies at the next unlock.
	if err := v.ChangePassphrase([]byte("new passphrase")); err != nil {
		t.Fatal(err)
	}
	v.Lock()
	if err := v.UnlockPassphrase([]byte("new passphrase")); err != nil {
		t.Fatal(err)
	}
	if st, err := v.SyncState(); err != nil || string(st) != `{"state":1}` {
		t.Errorf("SyncState() = %s, %v", st, err)
	}
	if err := v.CheckPassphrase([]byte("new passphrase")); err != nil {
		t.Errorf("CheckPassphrase(right) = %v", err)
	}
	if err := v.CheckPassphrase([]byte("nope")); !errors.Is(err, ErrBadPassphrase) {
		t.Errorf("CheckPassphrase(wrong) = %v, want ErrBadPassphrase", err)
	}
}
