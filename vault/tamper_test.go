package vault

import (
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tessera-app/tessera/profile"
)

// The attacks of issue 18 on the vault file: each is what someone with
// write access to the file (sqlite3, a restored backup) could do, and each
// must end in ErrTampered, never in a value. Every one of them went
// unnoticed before the manifest: a replayed row brought back an old value,
// a deleted row silently dropped one.

var (
	emailKey = ConceptKey("https://schema.org/email")
	nameKey  = ConceptKey("https://schema.org/givenName")
)

// tamperFixture builds a closed vault with two profiles, a current value
// and a candidate, and a release, and returns its directory and keyring.
func tamperFixture(t *testing.T) (string, *fakeKeyring) {
	t.Helper()
	dir, kr := t.TempDir(), newFakeKeyring()
	v := newTestVault(t, dir, kr)
	for _, id := range []string{"a", "b"} {
		if _, err := v.CreateProfile(id, "Profile "+id); err != nil {
			t.Fatal(err)
		}
		if err := v.SetEntry(id, emailKey, manual(id+"@example.org")); err != nil {
			t.Fatal(err)
		}
		if err := v.SetEntry(id, nameKey, manual("Name "+id)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := v.Learn("a", []Observation{{Concept: emailKey.Name, Value: str("candidate@example.org")}}); err != nil {
		t.Fatal(err)
	}
	if err := v.RecordRelease(Release{Origin: "https://x.example", ProfileID: "a"}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"a", "b"} {
		if err := v.SetSiteRule(SiteRule{Origin: siteOf(id), Profile: id, Concepts: []string{emailKey.Name}}); err != nil {
			t.Fatal(err)
		}
	}
	v.Close()
	return dir, kr
}

// siteOf returns the origin of profile id's site rule in tamperFixture.
func siteOf(id string) string { return "https://" + id + ".example" }

// saveSite returns the site rule row of origin as the file holds it.
func saveSite(t *testing.T, dir string, kr Keyring, origin string) savedRow {
	t.Helper()
	v := unlocked(t, dir, kr)
	lookup := siteLookup(v.k, origin)
	v.Close()
	var r savedRow
	onFile(t, dir, func(db *sql.DB) {
		if err := db.QueryRow("SELECT id, profile, ver, lookup, rec FROM sites WHERE lookup = ?", lookup).
			Scan(&r.id, &r.profile, &r.ver, &r.lookup, &r.rec); err != nil {
			t.Fatal(err)
		}
	})
	return r
}

func (r savedRow) writeBackSite(t *testing.T, db *sql.DB) {
	t.Helper()
	mustExec(t, db, "INSERT INTO sites (id, profile, lookup, ver, rec) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET profile = excluded.profile, lookup = excluded.lookup, ver = excluded.ver, rec = excluded.rec",
		r.id, r.profile, r.lookup, r.ver, r.rec)
}

// onFile runs SQL on the vault file the way sqlite3 would: its own
// connection, no keys, no lock.
func onFile(t *testing.T, dir string, f func(db *sql.DB)) {
	t.Helper()
	db, err := sql.Open("sqlite", filepath.Join(dir, dbName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	f(db)
}

func mustExec(t *testing.T, db *sql.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// rowOf returns the entry row id holding key's rank-rank value in profile.
func rowOf(t *testing.T, dir string, kr Keyring, pid string, key Key, rank int64) int64 {
	t.Helper()
	v, err := Open(dir, testOptions(kr))
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if err := v.UnlockPassphrase([]byte("correct horse")); err != nil {
		t.Fatal(err)
	}
	var row int64
	err = v.withRead("find row", func(o *op) error {
		prow, _, err := findProfile(o, pid)
		if err != nil {
			return err
		}
		cur, err := entryRows(o, prow, pid, key)
		for _, s := range cur {
			if s.rank == rank {
				row = s.row
			}
		}
		return err
	})
	if err != nil || row == 0 {
		t.Fatalf("no row for %s rank %d: %v", key, rank, err)
	}
	return row
}

type savedRow struct {
	id, profile, rank, ver int64
	lookup, rec            []byte
}

func saveRow(t *testing.T, dir string, id int64) savedRow {
	t.Helper()
	var r savedRow
	onFile(t, dir, func(db *sql.DB) {
		if err := db.QueryRow("SELECT id, profile, rank, ver, lookup, rec FROM entries WHERE id = ?", id).
			Scan(&r.id, &r.profile, &r.rank, &r.ver, &r.lookup, &r.rec); err != nil {
			t.Fatal(err)
		}
	})
	return r
}

func (r savedRow) writeBack(t *testing.T, db *sql.DB) {
	t.Helper()
	mustExec(t, db, "INSERT INTO entries (id, profile, lookup, rank, ver, rec) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET profile = excluded.profile, lookup = excluded.lookup, rank = excluded.rank, ver = excluded.ver, rec = excluded.rec",
		r.id, r.profile, r.lookup, r.rank, r.ver, r.rec)
}

// readAll unlocks the vault in dir (by passphrase, with kr as the keyring)
// and reads every value there is; it returns the first error.
func readAll(dir string, kr Keyring) error {
	v, err := Open(dir, testOptions(kr))
	if err != nil {
		return err
	}
	defer v.Close()
	if err := v.UnlockPassphrase([]byte("correct horse")); err != nil {
		return err
	}
	return readEverything(v)
}

func readEverything(v *Vault) error {
	if _, err := v.Profiles(); err != nil {
		return err
	}
	if _, err := v.ProfileSummaries(); err != nil {
		return err
	}
	for _, id := range []string{"a", "b"} {
		if _, err := v.Entry(id, emailKey); err != nil {
			return err
		}
		if _, err := v.Candidates(id, emailKey); err != nil {
			return err
		}
		if _, err := v.Profile(id); err != nil {
			return err
		}
	}
	for _, id := range []string{"a", "b"} {
		if _, _, err := v.SiteRule(siteOf(id)); err != nil {
			return err
		}
	}
	if _, err := v.SiteRules(); err != nil {
		return err
	}
	_, err := v.Releases()
	return err
}

// TestTamperedFile attacks a closed vault file: the damage is found when
// the vault is unlocked, before any value is read.
func TestTamperedFile(t *testing.T) {
	tests := []struct {
		name   string
		attack func(t *testing.T, dir string, kr *fakeKeyring)
	}{
		{"stale row written back", func(t *testing.T, dir string, kr *fakeKeyring) {
			old := saveRow(t, dir, rowOf(t, dir, kr, "a", emailKey, 0))
			setEntry(t, dir, kr, "a", emailKey, "new@example.org")
			onFile(t, dir, func(db *sql.DB) { old.writeBack(t, db) })
		}},
		{"stale record under today's version", func(t *testing.T, dir string, kr *fakeKeyring) {
			old := saveRow(t, dir, rowOf(t, dir, kr, "a", emailKey, 0))
			setEntry(t, dir, kr, "a", emailKey, "new@example.org")
			onFile(t, dir, func(db *sql.DB) { mustExec(t, db, "UPDATE entries SET rec = ? WHERE id = ?", old.rec, old.id) })
		}},
		{"deleted value written back", func(t *testing.T, dir string, kr *fakeKeyring) {
			old := saveRow(t, dir, rowOf(t, dir, kr, "a", nameKey, 0))
			v := unlocked(t, dir, kr)
			if err := v.DeleteEntry("a", nameKey); err != nil {
				t.Fatal(err)
			}
			v.Close()
			onFile(t, dir, func(db *sql.DB) { old.writeBack(t, db) })
		}},
		{"row deleted", func(t *testing.T, dir string, kr *fakeKeyring) {
			id := rowOf(t, dir, kr, "b", emailKey, 0)
			onFile(t, dir, func(db *sql.DB) { mustExec(t, db, "DELETE FROM entries WHERE id = ?", id) })
		}},
		{"candidate deleted", func(t *testing.T, dir string, kr *fakeKeyring) {
			id := rowOf(t, dir, kr, "a", emailKey, 1)
			onFile(t, dir, func(db *sql.DB) { mustExec(t, db, "DELETE FROM entries WHERE id = ?", id) })
		}},
		{"profile deleted", func(t *testing.T, dir string, kr *fakeKeyring) {
			onFile(t, dir, func(db *sql.DB) {
				mustExec(t, db, "DELETE FROM entries WHERE profile = 2")
				mustExec(t, db, "DELETE FROM profiles WHERE id = 2")
			})
		}},
		{"audit row deleted", func(t *testing.T, dir string, kr *fakeKeyring) {
			onFile(t, dir, func(db *sql.DB) { mustExec(t, db, "DELETE FROM audit") })
		}},
		{"row moved to another id", func(t *testing.T, dir string, kr *fakeKeyring) {
			id := rowOf(t, dir, kr, "a", emailKey, 0)
			onFile(t, dir, func(db *sql.DB) { mustExec(t, db, "UPDATE entries SET id = 999 WHERE id = ?", id) })
		}},
		{"row moved to another profile", func(t *testing.T, dir string, kr *fakeKeyring) {
			onFile(t, dir, func(db *sql.DB) { mustExec(t, db, "UPDATE entries SET profile = 3 - profile") })
		}},
		{"candidate made current", func(t *testing.T, dir string, kr *fakeKeyring) {
			cur, cand := rowOf(t, dir, kr, "a", emailKey, 0), rowOf(t, dir, kr, "a", emailKey, 1)
			onFile(t, dir, func(db *sql.DB) {
				mustExec(t, db, "UPDATE entries SET rank = -1 WHERE id = ?", cur)
				mustExec(t, db, "UPDATE entries SET rank = 0 WHERE id = ?", cand)
				mustExec(t, db, "UPDATE entries SET rank = 1 WHERE id = ?", cur)
			})
		}},
		{"records swapped", func(t *testing.T, dir string, kr *fakeKeyring) {
			onFile(t, dir, func(db *sql.DB) {
				mustExec(t, db, "UPDATE profiles SET rec = (SELECT rec FROM profiles p2 WHERE p2.id <> profiles.id)")
			})
		}},
		{"entry records swapped", func(t *testing.T, dir string, kr *fakeKeyring) {
			onFile(t, dir, func(db *sql.DB) {
				mustExec(t, db, "UPDATE entries SET rec = (SELECT rec FROM entries e2 WHERE e2.id <> entries.id ORDER BY e2.id LIMIT 1)")
			})
		}},
		{"entry record in the audit log", func(t *testing.T, dir string, kr *fakeKeyring) {
			onFile(t, dir, func(db *sql.DB) {
				mustExec(t, db, "UPDATE audit SET rec = (SELECT rec FROM entries LIMIT 1), ver = (SELECT ver FROM entries LIMIT 1)")
			})
		}},
		{"row copied to a new id", func(t *testing.T, dir string, kr *fakeKeyring) {
			onFile(t, dir, func(db *sql.DB) {
				mustExec(t, db, "INSERT INTO audit (id, ver, rec) SELECT id + 100, ver, rec FROM audit")
			})
		}},
		{"byte flipped", func(t *testing.T, dir string, kr *fakeKeyring) {
			onFile(t, dir, func(db *sql.DB) {
				// Byte 41 becomes 00, or 01 where it was 00 already (1 in
				// 256 sealed records): always a change.
				mustExec(t, db, "UPDATE entries SET rec = CAST(substr(rec, 1, 40) || CASE WHEN substr(rec, 41, 1) = x'00' THEN x'01' ELSE x'00' END || substr(rec, 42) AS BLOB) WHERE id = 1")
			})
		}},
		{"manifest deleted", func(t *testing.T, dir string, kr *fakeKeyring) {
			onFile(t, dir, func(db *sql.DB) { mustExec(t, db, "DELETE FROM meta WHERE name = ?", metaManifest) })
		}},
		{"manifest and row of an earlier state", func(t *testing.T, dir string, kr *fakeKeyring) {
			old := saveRow(t, dir, rowOf(t, dir, kr, "a", emailKey, 0))
			var man []byte
			onFile(t, dir, func(db *sql.DB) {
				db.QueryRow("SELECT value FROM meta WHERE name = ?", metaManifest).Scan(&man)
			})
			setEntry(t, dir, kr, "a", emailKey, "new@example.org")
			setEntry(t, dir, kr, "b", emailKey, "other@example.org")
			onFile(t, dir, func(db *sql.DB) {
				old.writeBack(t, db)
				mustExec(t, db, "UPDATE meta SET value = ? WHERE name = ?", man, metaManifest)
			})
		}},
		{"versions rewritten", func(t *testing.T, dir string, kr *fakeKeyring) {
			onFile(t, dir, func(db *sql.DB) { mustExec(t, db, "UPDATE entries SET ver = ver + 1") })
		}},
		{"stale site rule written back", func(t *testing.T, dir string, kr *fakeKeyring) {
			old := saveSite(t, dir, kr, siteOf("a"))
			v := unlocked(t, dir, kr)
			if err := v.SetSiteRule(SiteRule{Origin: siteOf("a"), Profile: "a", Concepts: []string{nameKey.Name}}); err != nil {
				t.Fatal(err)
			}
			v.Close()
			onFile(t, dir, func(db *sql.DB) { old.writeBackSite(t, db) })
		}},
		{"deleted site rule written back", func(t *testing.T, dir string, kr *fakeKeyring) {
			old := saveSite(t, dir, kr, siteOf("a"))
			v := unlocked(t, dir, kr)
			if err := v.DeleteSiteRule(siteOf("a")); err != nil {
				t.Fatal(err)
			}
			v.Close()
			onFile(t, dir, func(db *sql.DB) { old.writeBackSite(t, db) })
		}},
		{"site rule deleted", func(t *testing.T, dir string, kr *fakeKeyring) {
			id := saveSite(t, dir, kr, siteOf("b")).id
			onFile(t, dir, func(db *sql.DB) { mustExec(t, db, "DELETE FROM sites WHERE id = ?", id) })
		}},
		{"site rule moved to another id", func(t *testing.T, dir string, kr *fakeKeyring) {
			id := saveSite(t, dir, kr, siteOf("a")).id
			onFile(t, dir, func(db *sql.DB) { mustExec(t, db, "UPDATE sites SET id = 999 WHERE id = ?", id) })
		}},
		{"site rule moved to another profile", func(t *testing.T, dir string, kr *fakeKeyring) {
			id := saveSite(t, dir, kr, siteOf("a")).id
			onFile(t, dir, func(db *sql.DB) { mustExec(t, db, "UPDATE sites SET profile = 3 - profile WHERE id = ?", id) })
		}},
		{"site rule records swapped", func(t *testing.T, dir string, kr *fakeKeyring) {
			onFile(t, dir, func(db *sql.DB) {
				mustExec(t, db, "UPDATE sites SET rec = (SELECT rec FROM sites s2 WHERE s2.id <> sites.id)")
			})
		}},
		{"site rule lookups swapped", func(t *testing.T, dir string, kr *fakeKeyring) {
			a, b := saveSite(t, dir, kr, siteOf("a")), saveSite(t, dir, kr, siteOf("b"))
			onFile(t, dir, func(db *sql.DB) {
				mustExec(t, db, "UPDATE sites SET lookup = x'00' WHERE id = ?", a.id)
				mustExec(t, db, "UPDATE sites SET lookup = ? WHERE id = ?", a.lookup, b.id)
				mustExec(t, db, "UPDATE sites SET lookup = ? WHERE id = ?", b.lookup, a.id)
			})
		}},
		{"site rule copied to a new id", func(t *testing.T, dir string, kr *fakeKeyring) {
			onFile(t, dir, func(db *sql.DB) {
				mustExec(t, db, "INSERT INTO sites (id, profile, lookup, ver, rec) SELECT id + 100, profile, randomblob(32), ver, rec FROM sites")
			})
		}},
		{"vault id changed", func(t *testing.T, dir string, kr *fakeKeyring) {
			onFile(t, dir, func(db *sql.DB) {
				mustExec(t, db, "UPDATE meta SET value = randomblob(16) WHERE name = ?", metaVaultID)
			})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, kr := tamperFixture(t)
			tt.attack(t, dir, kr)
			// The keyring counter is left out: these attacks are caught
			// by the file alone, passphrase-only vaults included.
			err := readAll(dir, nil)
			if !errors.Is(err, ErrTampered) {
				t.Fatalf("unlock and read after %s = %v, want ErrTampered", tt.name, err)
			}
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("%v does not match ErrCorrupt", err)
			}
		})
	}
}

func unlocked(t *testing.T, dir string, kr Keyring) *Vault {
	t.Helper()
	v, err := Open(dir, testOptions(kr))
	if err != nil {
		t.Fatal(err)
	}
	if err := v.UnlockPassphrase([]byte("correct horse")); err != nil {
		v.Close()
		t.Fatal(err)
	}
	return v
}

func setEntry(t *testing.T, dir string, kr Keyring, pid string, key Key, val string) {
	t.Helper()
	v := unlocked(t, dir, kr)
	defer v.Close()
	if err := v.SetEntry(pid, key, manual(val)); err != nil {
		t.Fatal(err)
	}
}

// TestTamperedWhileOpen attacks the file while the app holds the vault
// unlocked: sqlite3 on the file beside the running app. The reads that meet
// the changed rows refuse them; a write on top of them does not launder
// them either.
func TestTamperedWhileOpen(t *testing.T) {
	tests := []struct {
		name   string
		attack func(t *testing.T, db *sql.DB, old savedRow)
		read   func(v *Vault) error
	}{
		{"stale row, Entry", func(t *testing.T, db *sql.DB, old savedRow) { old.writeBack(t, db) },
			func(v *Vault) error { _, err := v.Entry("a", emailKey); return err }},
		{"stale row, Profiles", func(t *testing.T, db *sql.DB, old savedRow) { old.writeBack(t, db) },
			func(v *Vault) error { _, err := v.Profiles(); return err }},
		{"stale row, Profile", func(t *testing.T, db *sql.DB, old savedRow) { old.writeBack(t, db) },
			func(v *Vault) error { _, err := v.Profile("a"); return err }},
		{"stale row, SetEntry on top", func(t *testing.T, db *sql.DB, old savedRow) { old.writeBack(t, db) },
			func(v *Vault) error { return v.SetEntry("a", emailKey, manual("x@example.org")) }},
		{"row deleted, Entry", func(t *testing.T, db *sql.DB, old savedRow) {
			mustExec(t, db, "DELETE FROM entries WHERE id = ?", old.id)
		}, func(v *Vault) error { _, err := v.Entry("a", emailKey); return err }},
		{"row deleted, Profile", func(t *testing.T, db *sql.DB, old savedRow) {
			mustExec(t, db, "DELETE FROM entries WHERE id = ?", old.id)
		}, func(v *Vault) error { _, err := v.Profile("a"); return err }},
		{"row deleted, ProfileSummaries", func(t *testing.T, db *sql.DB, old savedRow) {
			mustExec(t, db, "DELETE FROM entries WHERE id = ?", old.id)
		}, func(v *Vault) error { _, err := v.ProfileSummaries(); return err }},
		{"candidate deleted, Candidates", func(t *testing.T, db *sql.DB, old savedRow) {
			mustExec(t, db, "DELETE FROM entries WHERE profile = ? AND rank = 1", old.profile)
		}, func(v *Vault) error { _, err := v.Candidates("a", emailKey); return err }},
		{"profile deleted, Profile", func(t *testing.T, db *sql.DB, old savedRow) {
			mustExec(t, db, "DELETE FROM profiles WHERE id = ?", old.profile)
		}, func(v *Vault) error { _, err := v.Profile("a"); return err }},
		{"row moved, Entry", func(t *testing.T, db *sql.DB, old savedRow) {
			mustExec(t, db, "UPDATE entries SET id = 999 WHERE id = ?", old.id)
		}, func(v *Vault) error { _, err := v.Entry("a", emailKey); return err }},
		{"audit row deleted, Releases", func(t *testing.T, db *sql.DB, old savedRow) {
			mustExec(t, db, "DELETE FROM audit")
		}, func(v *Vault) error { _, err := v.Releases(); return err }},
		{"site rule deleted, SiteRule", func(t *testing.T, db *sql.DB, old savedRow) {
			mustExec(t, db, "DELETE FROM sites WHERE profile = ?", old.profile)
		}, func(v *Vault) error { _, _, err := v.SiteRule(siteOf("a")); return err }},
		{"site rule deleted, SiteRules", func(t *testing.T, db *sql.DB, old savedRow) {
			mustExec(t, db, "DELETE FROM sites WHERE profile = ?", old.profile)
		}, func(v *Vault) error { _, err := v.SiteRules(); return err }},
		{"site rule deleted, SetSiteRule", func(t *testing.T, db *sql.DB, old savedRow) {
			mustExec(t, db, "DELETE FROM sites WHERE profile = ?", old.profile)
		}, func(v *Vault) error {
			return v.SetSiteRule(SiteRule{Origin: siteOf("a"), Profile: "a", Concepts: []string{emailKey.Name}})
		}},
		{"site rule moved, SiteRule", func(t *testing.T, db *sql.DB, old savedRow) {
			mustExec(t, db, "UPDATE sites SET id = 999 WHERE profile = ?", old.profile)
		}, func(v *Vault) error { _, _, err := v.SiteRule(siteOf("a")); return err }},
		{"site rule moved to the other profile, DeleteProfile", func(t *testing.T, db *sql.DB, old savedRow) {
			mustExec(t, db, "UPDATE sites SET profile = ? WHERE profile <> ?", old.profile, old.profile)
		}, func(v *Vault) error { return v.DeleteProfile("a") }},
		{"site rule moved away, DeleteProfile", func(t *testing.T, db *sql.DB, old savedRow) {
			mustExec(t, db, "UPDATE sites SET profile = 3 - profile")
		}, func(v *Vault) error { return v.DeleteProfile("a") }},
		{"site rule record swapped, TouchSiteRule", func(t *testing.T, db *sql.DB, old savedRow) {
			mustExec(t, db, "UPDATE sites SET rec = (SELECT rec FROM sites s2 WHERE s2.id <> sites.id)")
		}, func(v *Vault) error { return v.TouchSiteRule(siteOf("a")) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, kr := tamperFixture(t)
			old := saveRow(t, dir, rowOf(t, dir, kr, "a", emailKey, 0))
			v := unlocked(t, dir, kr)
			defer v.Close()
			if err := v.SetEntry("a", emailKey, manual("new@example.org")); err != nil {
				t.Fatal(err)
			}
			onFile(t, dir, func(db *sql.DB) { tt.attack(t, db, old) })
			if err := tt.read(v); !errors.Is(err, ErrTampered) {
				t.Fatalf("%s = %v, want ErrTampered", tt.name, err)
			}
		})
	}
}

// TestPassphraseSplice guards against the old passphrase opening new data:
// vault passwd rotates the data key, so the wrapped key of a backup spliced
// into today's file (with or without the backup's key check and manifest)
// opens nothing written since.
func TestPassphraseSplice(t *testing.T) {
	for _, names := range [][]string{
		{metaWrapPassphrase},
		{metaWrapPassphrase, metaCheck},
		{metaWrapPassphrase, metaCheck, metaManifest},
	} {
		t.Run(names[len(names)-1], func(t *testing.T) {
			dir, kr := tamperFixture(t)
			old := map[string][]byte{}
			onFile(t, dir, func(db *sql.DB) {
				for _, n := range names {
					var b []byte
					if err := db.QueryRow("SELECT value FROM meta WHERE name = ?", n).Scan(&b); err != nil {
						t.Fatal(err)
					}
					old[n] = b
				}
			})
			v := unlocked(t, dir, kr)
			if err := v.ChangePassphrase([]byte("a new passphrase")); err != nil {
				t.Fatal(err)
			}
			if err := v.SetEntry("a", emailKey, manual("after@example.org")); err != nil {
				t.Fatal(err)
			}
			v.Close()
			onFile(t, dir, func(db *sql.DB) {
				for n, b := range old {
					mustExec(t, db, "UPDATE meta SET value = ? WHERE name = ?", b, n)
				}
			})
			err := readAll(dir, nil)
			if !errors.Is(err, ErrTampered) {
				t.Fatalf("old passphrase on the spliced file = %v, want ErrTampered", err)
			}
		})
	}
}

// TestChangePassphraseRotates checks that vault passwd re-seals every
// record under a new key, keeps every value, and leaves the keyring and the
// new passphrase (not the old) able to unlock.
func TestChangePassphraseRotates(t *testing.T) {
	dir, kr := tamperFixture(t)
	recs := func() map[int64][]byte {
		out := map[int64][]byte{}
		onFile(t, dir, func(db *sql.DB) {
			rows, err := db.Query("SELECT id, rec FROM entries")
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			for rows.Next() {
				var id int64
				var rec []byte
				rows.Scan(&id, &rec)
				out[id] = rec
			}
		})
		return out
	}
	before := recs()
	v := unlocked(t, dir, kr)
	if err := v.ChangePassphrase([]byte("a new passphrase")); err != nil {
		t.Fatal(err)
	}
	v.Close()
	after := recs()
	for id, rec := range before {
		if string(after[id]) == string(rec) {
			t.Errorf("entry %d was not re-sealed by ChangePassphrase", id)
		}
	}
	v, err := Open(dir, testOptions(kr))
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if err := v.UnlockPassphrase([]byte("correct horse")); !errors.Is(err, ErrBadPassphrase) {
		t.Fatalf("old passphrase after passwd = %v, want ErrBadPassphrase", err)
	}
	if err := v.UnlockKeyring(); err != nil {
		t.Fatalf("keyring after passwd: %v", err)
	}
	if e, err := v.Entry("a", emailKey); err != nil || mustValue(t, e) != "a@example.org" {
		t.Fatalf("Entry after passwd = %v, %v", e, err)
	}
	v.Lock()
	if err := v.UnlockPassphrase([]byte("a new passphrase")); err != nil {
		t.Fatal(err)
	}
	if err := readEverything(v); err != nil {
		t.Fatal(err)
	}
}

// TestRekeyFreshIdentity checks that Rekey enrols a new keyring identity:
// the old one opens nothing any more.
func TestRekeyFreshIdentity(t *testing.T) {
	dir, kr := tamperFixture(t)
	v := unlocked(t, dir, kr)
	defer v.Close()
	account := keyringAccount(v.id)
	oldItem, err := kr.Get(KeyringService, account)
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Rekey([]byte("correct horse")); err != nil {
		t.Fatal(err)
	}
	if item, _ := kr.Get(KeyringService, account); item == oldItem {
		t.Fatal("Rekey kept the keyring identity")
	}
	v.Lock()
	if err := v.UnlockKeyring(); err != nil {
		t.Fatalf("UnlockKeyring with the new identity: %v", err)
	}
	v.Lock()
	kr.Set(KeyringService, account, oldItem)
	if err := v.UnlockKeyring(); !errors.Is(err, ErrKeyringItemMissing) {
		t.Fatalf("UnlockKeyring with the old identity = %v, want ErrKeyringItemMissing", err)
	}
}

// TestIDsNeverReused guards against a deleted row's id coming back for a
// new row, which would let the deleted row's older copies pass for it.
func TestIDsNeverReused(t *testing.T) {
	dir, kr := tamperFixture(t)
	v := unlocked(t, dir, kr)
	key := FieldKey("temp")
	maxID := func() (id int64) {
		v.db.QueryRow("SELECT MAX(id) FROM entries").Scan(&id)
		return id
	}
	if err := v.SetEntry("b", key, manual("1")); err != nil {
		t.Fatal(err)
	}
	first := maxID()
	if err := v.DeleteEntry("b", key); err != nil {
		t.Fatal(err)
	}
	v.Close()
	v = unlocked(t, dir, kr)
	defer v.Close()
	if err := v.SetEntry("b", key, manual("2")); err != nil {
		t.Fatal(err)
	}
	if got := maxID(); got <= first {
		t.Fatalf("new entry got id %d, want above the deleted %d", got, first)
	}
}

// TestWholeFileRollback replaces the vault file with an older copy of
// itself, consistent in every row. The keyring's write counter catches it,
// whichever way the vault is unlocked.
func TestWholeFileRollback(t *testing.T) {
	dir, kr := tamperFixture(t)
	backup, err := os.ReadFile(filepath.Join(dir, dbName))
	if err != nil {
		t.Fatal(err)
	}
	setEntry(t, dir, kr, "a", emailKey, "after-backup@example.org")
	if err := os.WriteFile(filepath.Join(dir, dbName), backup, 0o600); err != nil {
		t.Fatal(err)
	}
	v, err := Open(dir, testOptions(kr))
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if err := v.UnlockKeyring(); !errors.Is(err, ErrTampered) {
		t.Fatalf("UnlockKeyring on a rolled-back file = %v, want ErrTampered", err)
	}
	if err := v.UnlockPassphrase([]byte("correct horse")); !errors.Is(err, ErrTampered) {
		t.Fatalf("UnlockPassphrase on a rolled-back file = %v, want ErrTampered", err)
	}
	if err := v.UnlockKeyring(); !errors.Is(err, ErrRollback) {
		t.Fatalf("UnlockKeyring on a rolled-back file = %v, want ErrRollback", err)
	}
	if _, err := v.Profiles(); !errors.Is(err, ErrLocked) {
		t.Fatalf("Profiles after a refused unlock = %v, want ErrLocked", err)
	}

	v.Close()

	// Deleting the keyring wrap from the copy does not switch the check
	// off: the manifest says the keyring keeps the counter.
	onFile(t, dir, func(db *sql.DB) { mustExec(t, db, "DELETE FROM meta WHERE name = ?", metaWrapKeyring) })
	if err := readAll(dir, kr); !errors.Is(err, ErrRollback) {
		t.Fatalf("UnlockPassphrase on a rolled-back file without its keyring wrap = %v, want ErrRollback", err)
	}
	if err := os.WriteFile(filepath.Join(dir, dbName), backup, 0o600); err != nil {
		t.Fatal(err)
	}
	v, err = Open(dir, testOptions(kr))
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()

	// A backup restored on purpose: the person says so, and the vault
	// opens as it was, and stays accepted.
	v.AcceptOlderCopy()
	if err := v.UnlockKeyring(); err != nil {
		t.Fatalf("UnlockKeyring after AcceptOlderCopy: %v", err)
	}
	if e, err := v.Entry("a", emailKey); err != nil || mustValue(t, e) != "a@example.org" {
		t.Fatalf("Entry in the restored copy = %s, %v", e.Value, err)
	}
	v.Close()
	if err := readAll(dir, kr); err != nil {
		t.Fatalf("the accepted copy after reopening: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, dbName), backup, 0o600); err != nil {
		t.Fatal(err)
	}

	// What a vault without a keyring cannot notice (the package doc says
	// so): the same old file opens by passphrase alone, consistent and old.
	if err := readAll(dir, nil); err != nil {
		t.Fatalf("passphrase-only unlock of the older copy: %v", err)
	}
}

// TestProfileSummaries checks the counts, and that the summaries never
// open an entry: with every entry record unreadable they still answer,
// where Profiles refuses.
func TestProfileSummaries(t *testing.T) {
	dir, kr := tamperFixture(t)
	v := unlocked(t, dir, kr)
	defer v.Close()
	got, err := v.ProfileSummaries()
	if err != nil {
		t.Fatal(err)
	}
	want := []ProfileSummary{{ID: "a", Label: "Profile a", Entries: 2, Candidates: 1}, {ID: "b", Label: "Profile b", Entries: 2}}
	if len(got) != len(want) {
		t.Fatalf("ProfileSummaries() = %+v, want %+v", got, want)
	}
	for i := range want {
		g := got[i]
		g.Created, g.Updated = "", ""
		if g != want[i] {
			t.Errorf("ProfileSummaries()[%d] = %+v, want %+v", i, g, want[i])
		}
	}
	ps, err := v.Profiles()
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		if n := len(p.Concepts) + len(p.Fields); n != got[i].Entries {
			t.Errorf("profile %s: Profiles has %d entries, ProfileSummaries %d", p.ID, n, got[i].Entries)
		}
	}
	if _, err := v.db.Exec("UPDATE entries SET rec = zeroblob(length(rec))"); err != nil {
		t.Fatal(err)
	}
	if _, err := v.ProfileSummaries(); err != nil {
		t.Fatalf("ProfileSummaries opened an entry record: %v", err)
	}
	if _, err := v.Profiles(); !errors.Is(err, ErrTampered) {
		t.Fatalf("Profiles over unreadable entries = %v, want ErrTampered", err)
	}
}

// TestImportSurvivesManifest checks a large write (an import that creates
// profiles, learns values and candidates) keeps the manifest in step: the
// vault reopens clean.
func TestImportSurvivesManifest(t *testing.T) {
	dir, kr := tamperFixture(t)
	v := unlocked(t, dir, kr)
	up := profile.UserProfile{ID: "imp", Label: "Imported", Concepts: map[string]profile.Entry{}}
	for i := range 50 {
		up.Concepts["https://schema.org/c"+string(rune('a'+i%26))+string(rune('a'+i/26))] = manual("v")
	}
	if _, err := v.Import([]profile.UserProfile{up}); err != nil {
		t.Fatal(err)
	}
	if err := v.PromoteCandidate("a", emailKey, 0); err != nil {
		t.Fatal(err)
	}
	if err := v.DeleteProfile("b"); err != nil {
		t.Fatal(err)
	}
	if err := v.RenameProfile("a", "Renamed"); err != nil {
		t.Fatal(err)
	}
	v.Close()
	v = unlocked(t, dir, kr)
	defer v.Close()
	if e, err := v.Entry("a", emailKey); err != nil || mustValue(t, e) != "candidate@example.org" {
		t.Fatalf("Entry after promote and reopen = %v, %v", e, err)
	}
	if _, err := v.Profile("b"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("deleted profile = %v, want ErrNotFound", err)
	}
	if p, err := v.Profile("imp"); err != nil || len(p.Concepts) != 50 {
		t.Fatalf("imported profile: %d concepts, %v", len(p.Concepts), err)
	}
}

// TestChangePassphraseWithoutKeyring checks that passwd with no keyring
// at hand drops the keyring wrap rather than keep a wrap of the old key,
// and says so in Info.
func TestChangePassphraseWithoutKeyring(t *testing.T) {
	dir, kr := tamperFixture(t)
	v := unlocked(t, dir, nil)
	if err := v.ChangePassphrase([]byte("a new passphrase")); err != nil {
		t.Fatal(err)
	}
	if info, err := v.Info(); err != nil || info.HasKeyring || !info.HasPassphrase {
		t.Fatalf("Info() after passwd without a keyring = %+v, %v; want passphrase only", info, err)
	}
	v.Close()
	v, err := Open(dir, testOptions(kr))
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if err := v.UnlockKeyring(); !errors.Is(err, ErrKeyringItemMissing) {
		t.Fatalf("UnlockKeyring = %v, want ErrKeyringItemMissing", err)
	}
	if err := v.UnlockPassphrase([]byte("a new passphrase")); err != nil {
		t.Fatal(err)
	}
	if err := v.EnrollKeyring(); err != nil {
		t.Fatal(err)
	}
	v.Lock()
	if err := v.UnlockKeyring(); err != nil {
		t.Fatalf("UnlockKeyring after EnrollKeyring: %v", err)
	}
}
