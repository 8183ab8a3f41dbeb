package vault

import (
	"database/sql"
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

// TestSyncStateUnderManifest: the sealed sync state is covered by the
// manifest like a row: an older copy put back, or the state removed,
// outside Tessera is noticed, at the next read and at the next unlock,
// and never re-sealed into a valid one by a passphrase change.
func TestSyncStateUnderManifest(t *testing.T) {
	for _, tc := range []struct {
		name   string
		tamper func(t *testing.T, db *sql.DB, older []byte)
	}{
		{"older copy", func(t *testing.T, db *sql.DB, older []byte) {
			mustExec(t, db, "UPDATE meta SET value = ? WHERE name = ?", older, metaSyncState)
		}},
		{"removed", func(t *testing.T, db *sql.DB, older []byte) {
			mustExec(t, db, "DELETE FROM meta WHERE name = ?", metaSyncState)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			kr := newFakeKeyring()
			v := newTestVault(t, dir, kr)
			if err := v.PutSyncState([]byte(`{"n":1}`)); err != nil {
				t.Fatal(err)
			}
			var older []byte
			onFile(t, dir, func(db *sql.DB) {
				if err := db.QueryRow("SELECT value FROM meta WHERE name = ?", metaSyncState).Scan(&older); err != nil {
					t.Fatal(err)
				}
			})
			if err := v.PutSyncState([]byte(`{"n":2}`)); err != nil {
				t.Fatal(err)
			}
			if st, err := v.SyncState(); err != nil || string(st) != `{"n":2}` {
				t.Fatalf("SyncState() = %s, %v", st, err)
			}
			onFile(t, dir, func(db *sql.DB) { tc.tamper(t, db, older) })
			if _, err := v.SyncState(); !errors.Is(err, ErrTampered) {
				t.Errorf("SyncState() after tampering = %v, want ErrTampered", err)
			}
			if _, err := v.SyncSnapshot(); !errors.Is(err, ErrTampered) {
				t.Errorf("SyncSnapshot() after tampering = %v, want ErrTampered", err)
			}
			if err := v.ChangePassphraseFrom([]byte("correct horse"), []byte("battery staple horse"), nil); !errors.Is(err, ErrTampered) {
				t.Errorf("ChangePassphraseFrom() after tampering = %v, want ErrTampered", err)
			}
			v.Close()
			v2, err := Open(dir, testOptions(kr))
			if err != nil {
				t.Fatal(err)
			}
			defer v2.Close()
			if err := v2.UnlockPassphrase([]byte("correct horse")); !errors.Is(err, ErrTampered) {
				t.Errorf("unlock after tampering = %v, want ErrTampered", err)
			}
		})
	}
}

// TestSyncStateOldManifest: a vault whose manifest was written before it
// covered the sync state (format 2) opens with the sync state it holds;
// the next write covers it.
func TestSyncStateOldManifest(t *testing.T) {
	dir := t.TempDir()
	kr := newFakeKeyring()
	v := newTestVault(t, dir, kr)
	if err := v.PutSyncState([]byte(`{"n":1}`)); err != nil {
		t.Fatal(err)
	}
	old, err := sealRecord(v.k.seal, encodeV2(&v.m.manifestState), manifestPlace.ad())
	if err != nil {
		t.Fatal(err)
	}
	var first []byte
	v.Close()
	onFile(t, dir, func(db *sql.DB) {
		mustExec(t, db, "UPDATE meta SET value = ? WHERE name = ?", old, metaManifest)
		db.QueryRow("SELECT value FROM meta WHERE name = ?", metaSyncState).Scan(&first)
	})
	v, err = Open(dir, testOptions(kr))
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if err := v.UnlockPassphrase([]byte("correct horse")); err != nil {
		t.Fatalf("unlock with a format 2 manifest: %v", err)
	}
	if st, err := v.SyncState(); err != nil || string(st) != `{"n":1}` {
		t.Fatalf("SyncState() = %s, %v", st, err)
	}
	if err := v.PutSyncState([]byte(`{"n":2}`)); err != nil {
		t.Fatal(err)
	}
	onFile(t, dir, func(db *sql.DB) {
		mustExec(t, db, "UPDATE meta SET value = ? WHERE name = ?", first, metaSyncState)
	})
	if _, err := v.SyncState(); !errors.Is(err, ErrTampered) {
		t.Errorf("older sync state after the upgrade: %v, want ErrTampered", err)
	}
}

// TestApplySyncSites: site rules go with their profile in the snapshot,
// and ApplySync gives a profile exactly the rules listed: one added, one
// moved from another profile (keeping when it was made and last used),
// one removed.
func TestApplySyncSites(t *testing.T) {
	v := newTestVault(t, t.TempDir(), newFakeKeyring())
	for _, id := range []string{"home", "work"} {
		if _, err := v.CreateProfile(id, id); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range []SiteRule{
		{Origin: "https://shop.example", Profile: "home", Concepts: []string{emailKey.Name}},
		{Origin: "https://old.example", Profile: "work", Concepts: []string{emailKey.Name}},
	} {
		if err := v.SetSiteRule(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := v.TouchSiteRule("https://shop.example"); err != nil {
		t.Fatal(err)
	}
	before, _, _ := v.SiteRule("https://shop.example")
	snap, err := v.SyncSnapshot()
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Profiles[0].Sites) != 1 || snap.Profiles[0].Sites[0].Origin != "https://shop.example" || len(snap.Profiles[1].Sites) != 1 {
		t.Fatalf("snapshot sites = %+v / %+v", snap.Profiles[0].Sites, snap.Profiles[1].Sites)
	}
	changes := []SyncChange{{Profile: "work", SetSites: true, Sites: []SiteRule{
		{Origin: "https://shop.example", Concepts: []string{emailKey.Name}},
		{Origin: "https://new.example", Concepts: []string{emailKey.Name}},
	}}}
	if err := v.ApplySync(snap.Token, changes, nil, []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	rules, err := v.SiteRules()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rules {
		got = append(got, r.Origin+" "+r.Profile)
	}
	if !slices.Equal(got, []string{"https://new.example work", "https://shop.example work"}) {
		t.Errorf("rules after ApplySync = %q", got)
	}
	moved, _, _ := v.SiteRule("https://shop.example")
	if !moved.Created.Equal(before.Created) || !moved.LastUsed.Equal(before.LastUsed) || moved.LastUsed.IsZero() {
		t.Errorf("moved rule times = %v, %v; want %v, %v", moved.Created, moved.LastUsed, before.Created, before.LastUsed)
	}
}
