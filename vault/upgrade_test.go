package vault

import (
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// The vault in testdata/v1 was written by the code before row versions
// and the manifest, the one in testdata/v2 by the code before site rules
// (see their READMEs). These tests open copies of them.

const fixturePass = "fixture passphrase"

// fixtureCopy copies testdata/v1 into a new vault directory and its
// keyring identity into a file keyring; it returns both directories.
func fixtureCopy(t *testing.T) (dir, krDir string) {
	t.Helper()
	return fixtureCopyOf(t, "v1")
}

// fixtureCopyOf copies the vault in testdata/<name> (v1: schema 1, v2:
// schema 2; see their READMEs) into a new vault directory and its keyring
// identity into a file keyring; it returns both directories.
func fixtureCopyOf(t *testing.T, name string) (dir, krDir string) {
	t.Helper()
	dir, krDir = t.TempDir(), t.TempDir()
	db, err := os.ReadFile(filepath.Join("testdata", name, dbName))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, dbName), db, 0o600); err != nil {
		t.Fatal(err)
	}
	v, err := Open(dir, testOptions(nil))
	if err != nil {
		t.Fatal(err)
	}
	id := v.id
	v.Close()
	secret, err := os.ReadFile(filepath.Join("testdata", name, "keyring-identity.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := (fileKeyring{krDir}).Set(KeyringService, keyringAccount(id), string(secret)); err != nil {
		t.Fatal(err)
	}
	return dir, krDir
}

// checkFixtureValues reads every value of the fixture through v.
func checkFixtureValues(t *testing.T, v *Vault) {
	t.Helper()
	want := map[string]map[Key]string{
		"home": {ConceptKey("https://schema.org/givenName"): "Ada", ConceptKey("https://schema.org/familyName"): "Lovelace", emailKey: "ada@example.org"},
		"work": {emailKey: "ada@work.example"},
	}
	for pid, entries := range want {
		p, err := v.Profile(pid)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Concepts)+len(p.Fields) != len(entries) {
			t.Errorf("profile %s has %d entries, want %d", pid, len(p.Concepts)+len(p.Fields), len(entries))
		}
		for key, val := range entries {
			e, err := v.Entry(pid, key)
			if err != nil || mustValue(t, e) != val {
				t.Errorf("Entry(%s, %s) = %s, %v; want %q", pid, key, e.Value, err, val)
			}
		}
	}
	if c, err := v.Candidates("home", emailKey); err != nil || len(c) != 1 || mustValue(t, c[0]) != "ada@old.example" {
		t.Errorf("Candidates(home, email) = %v, %v", c, err)
	}
	if _, err := v.Entry("home", FieldKey("billing.zip")); !errors.Is(err, ErrNotFound) {
		t.Errorf("deleted billing.zip = %v, want ErrNotFound", err)
	}
	if rs, err := v.Releases(); err != nil || len(rs) != 1 || rs[0].Origin != "https://shop.example" {
		t.Errorf("Releases() = %v, %v", rs, err)
	}
	if s, err := v.ProfileSummaries(); err != nil || len(s) != 2 || s[0].Entries != 3 || s[0].Candidates != 1 {
		t.Errorf("ProfileSummaries() = %+v, %v", s, err)
	}
}

// TestUpgradeV1 opens the schema-1 vault, which the first unlock brings
// forward (versions, manifest), and then attacks it as TestTamperedFile
// does: the upgraded vault detects what the old one could not.
func TestUpgradeV1(t *testing.T) {
	for _, how := range []string{"passphrase", "keyring"} {
		t.Run(how, func(t *testing.T) {
			dir, krDir := fixtureCopy(t)
			v, err := Open(dir, testOptions(fileKeyring{krDir}))
			if err != nil {
				t.Fatal(err)
			}
			defer v.Close()
			if how == "keyring" {
				err = v.UnlockKeyring()
			} else {
				err = v.UnlockPassphrase([]byte(fixturePass))
			}
			if err != nil {
				t.Fatalf("unlock the schema-1 vault: %v", err)
			}
			checkFixtureValues(t, v)
			var zero, format1 int
			for _, tbl := range tableNames {
				var n int
				v.db.QueryRow("SELECT COUNT(*) FROM " + tbl + " WHERE ver = 0").Scan(&n)
				zero += n
				v.db.QueryRow("SELECT COUNT(*) FROM " + tbl + " WHERE substr(rec, 1, 1) = x'01'").Scan(&n)
				format1 += n
			}
			if zero != 0 || format1 != 0 {
				t.Fatalf("after the upgrade: %d rows without a version, %d format-1 records", zero, format1)
			}
			v.Close()

			// The upgraded vault opens again (now verified against its
			// manifest) and new writes work.
			v, err = Open(dir, testOptions(fileKeyring{krDir}))
			if err != nil {
				t.Fatal(err)
			}
			if err := v.UnlockPassphrase([]byte(fixturePass)); err != nil {
				t.Fatal(err)
			}
			if err := v.SetEntry("work", emailKey, manual("ada@new.example")); err != nil {
				t.Fatal(err)
			}
			v.Close()
		})
	}
}

func TestUpgradedV1DetectsTampering(t *testing.T) {
	fixtureRow := func(t *testing.T) savedRow {
		// An entry row as the fixture (schema 1) holds it: an older copy
		// of a row of the upgraded vault.
		var r savedRow
		onFile(t, filepath.Join("testdata", "v1"), func(db *sql.DB) {
			if err := db.QueryRow("SELECT id, profile, rank, 0, lookup, rec FROM entries ORDER BY id LIMIT 1").
				Scan(&r.id, &r.profile, &r.rank, &r.ver, &r.lookup, &r.rec); err != nil {
				t.Fatal(err)
			}
		})
		return r
	}
	tests := []struct {
		name   string
		attack func(t *testing.T, db *sql.DB)
	}{
		{"schema-1 row written back", func(t *testing.T, db *sql.DB) { fixtureRow(t).writeBack(t, db) }},
		{"schema-1 row under today's version", func(t *testing.T, db *sql.DB) {
			r := fixtureRow(t)
			mustExec(t, db, "UPDATE entries SET rec = ? WHERE id = ?", r.rec, r.id)
		}},
		{"row deleted", func(t *testing.T, db *sql.DB) {
			mustExec(t, db, "DELETE FROM entries WHERE id = (SELECT MAX(id) FROM entries)")
		}},
		{"row moved", func(t *testing.T, db *sql.DB) {
			mustExec(t, db, "UPDATE entries SET id = 77 WHERE id = (SELECT MIN(id) FROM entries)")
		}},
		{"schema-1 key check written back", func(t *testing.T, db *sql.DB) {
			var check []byte
			onFile(t, filepath.Join("testdata", "v1"), func(fdb *sql.DB) {
				fdb.QueryRow("SELECT value FROM meta WHERE name = ?", metaCheck).Scan(&check)
			})
			mustExec(t, db, "UPDATE meta SET value = ? WHERE name = ?", check, metaCheck)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, _ := fixtureCopy(t)
			v, err := Open(dir, testOptions(nil))
			if err != nil {
				t.Fatal(err)
			}
			if err := v.UnlockPassphrase([]byte(fixturePass)); err != nil {
				t.Fatal(err)
			}
			v.Close()
			onFile(t, dir, func(db *sql.DB) { tt.attack(t, db) })
			v, err = Open(dir, testOptions(nil))
			if err != nil {
				t.Fatal(err)
			}
			defer v.Close()
			err = v.UnlockPassphrase([]byte(fixturePass))
			if err == nil {
				_, err = v.Profiles()
			}
			if !errors.Is(err, ErrTampered) {
				t.Fatalf("after %s: %v, want ErrTampered", tt.name, err)
			}
		})
	}
}

// TestUpgradeRollback restores the schema-1 file after the upgrade: with
// the keyring counter it is an older copy, not a vault to upgrade again.
func TestUpgradeRollback(t *testing.T) {
	dir, krDir := fixtureCopy(t)
	kr := fileKeyring{krDir}
	v, err := Open(dir, testOptions(kr))
	if err != nil {
		t.Fatal(err)
	}
	if err := v.UnlockKeyring(); err != nil {
		t.Fatal(err)
	}
	if err := v.SetEntry("work", emailKey, manual("ada@new.example")); err != nil {
		t.Fatal(err)
	}
	v.Close()
	db, _ := os.ReadFile(filepath.Join("testdata", "v1", dbName))
	if err := os.WriteFile(filepath.Join(dir, dbName), db, 0o600); err != nil {
		t.Fatal(err)
	}
	v, err = Open(dir, testOptions(kr))
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if err := v.UnlockKeyring(); !errors.Is(err, ErrTampered) {
		t.Fatalf("UnlockKeyring on the schema-1 copy after the upgrade = %v, want ErrTampered", err)
	}
}
