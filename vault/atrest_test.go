package vault

import (
	"bytes"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tessera-app/tessera/profile"
)

// TestNoPlaintextAtRest fills a vault with distinctive values, labels,
// concept keys, field paths, sources, audit details and a site rule, and scans every
// byte under the directory (db, WAL, shm, lock, anything) for them, both
// while the vault is open with a live WAL and after it is closed.
func TestNoPlaintextAtRest(t *testing.T) {
	dir := t.TempDir()
	v := newTestVault(t, dir, newFakeKeyring())
	secrets := []string{
		"Zyxwquartz Label", "zyxw-value-given", "zyxw.value@example.org", "+33199887766",
		"https://schema.org/zyxwConcept", "zyxwfield.path.42", "https://zyxw-form.example/form",
		"https://zyxw-origin.example", "zyxw-frame-name", "zyxw-extension-id", "zyxw-profile-id",
	}
	if _, err := v.CreateProfile("zyxw-profile-id", "Zyxwquartz Label"); err != nil {
		t.Fatal(err)
	}
	src := profile.Source{Type: "form-fill", FormURL: "https://zyxw-form.example/form", FieldPath: "zyxwfield.path.42", ExtensionID: "zyxw-extension-id"}
	if _, err := v.Learn("zyxw-profile-id", []Observation{
		{Concept: "https://schema.org/givenName", Value: str("zyxw-value-given"), Source: src},
		{Concept: "https://schema.org/zyxwConcept", Value: str("zyxw.value@example.org"), Source: src},
		{FieldPath: "zyxwfield.path.42", Value: str("+33199887766"), Source: src},
		{Concept: "https://schema.org/givenName", Value: str("zyxw-candidate")},
	}); err != nil {
		t.Fatal(err)
	}
	if err := v.RecordRelease(Release{Origin: "https://zyxw-origin.example", Frame: "zyxw-frame-name",
		Concepts: []string{"https://schema.org/zyxwConcept"}, ProfileID: "zyxw-profile-id"}); err != nil {
		t.Fatal(err)
	}
	secrets = append(secrets, "zyxw-candidate")
	if err := v.SetSiteRule(SiteRule{Origin: "https://zyxw-rule.example", Site: "zyxw-rule-site.example",
		Profile: "zyxw-profile-id", Concepts: []string{"https://schema.org/zyxwRuleConcept"}}); err != nil {
		t.Fatal(err)
	}
	secrets = append(secrets, "https://zyxw-rule.example", "zyxw-rule-site.example", "https://schema.org/zyxwRuleConcept")

	scan := func(when string) {
		t.Helper()
		n := 0
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			n++
			for _, s := range secrets {
				for _, form := range [][]byte{[]byte(s), []byte(strings.ToLower(s)), []byte(hex.EncodeToString([]byte(s)))} {
					if bytes.Contains(data, form) {
						t.Errorf("%s: %s contains %q", when, filepath.Base(path), form)
					}
				}
			}
			return nil
		})
		if n == 0 {
			t.Fatalf("%s: scanned no files", when)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, dbName+"-wal")); err != nil {
		t.Fatalf("expected a live WAL while open: %v", err)
	}
	scan("open")
	if err := v.Rekey([]byte("correct horse")); err != nil {
		t.Fatal(err)
	}
	scan("after rekey")
	v.Close()
	scan("closed")
}

func TestCorruptFile(t *testing.T) {
	build := func(t *testing.T) string {
		dir := t.TempDir()
		v := newTestVault(t, dir, nil)
		if _, err := v.CreateProfile("me", "Me"); err != nil {
			t.Fatal(err)
		}
		for i := range 200 {
			if err := v.SetEntry("me", FieldKey(strings.Repeat("f", i+1)), manual(strings.Repeat("v", 300))); err != nil {
				t.Fatal(err)
			}
		}
		v.Close()
		return filepath.Join(dir, dbName)
	}
	tests := []struct {
		name    string
		damage  func(path string) error
		wantErr error
	}{
		{"empty", func(p string) error { return os.Truncate(p, 0) }, ErrCorrupt},
		{"truncated to half", func(p string) error {
			fi, _ := os.Stat(p)
			return os.Truncate(p, fi.Size()/2)
		}, ErrCorrupt},
		{"header overwritten", func(p string) error { return overwrite(p, 0, bytes.Repeat([]byte{0xAA}, 100)) }, ErrCorrupt},
		{"page garbage", func(p string) error { return overwrite(p, 8192, bytes.Repeat([]byte{0x55}, 4096)) }, ErrCorrupt},
		// A damaged record inside an intact page passes SQLite's checks;
		// the AEAD must still refuse it rather than load around it.
		{"sealed record damaged", func(p string) error {
			db, err := sql.Open("sqlite", p)
			if err != nil {
				return err
			}
			defer db.Close()
			_, err = db.Exec("UPDATE entries SET rec = CAST(substr(rec, 1, 40) || CASE WHEN substr(rec, 41, 1) = x'00' THEN x'01' ELSE x'00' END || substr(rec, 42) AS BLOB) WHERE id = 100")
			return err
		}, ErrCorrupt},
		{"removed", os.Remove, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := build(t)
			if err := tt.damage(path); err != nil {
				t.Fatal(err)
			}
			v, err := Open(filepath.Dir(path), testOptions(nil))
			if err == nil {
				defer v.Close()
				err = v.UnlockPassphrase([]byte("correct horse"))
			}
			if err == nil {
				_, err = v.Profiles()
			}
			if tt.wantErr == nil {
				// A removed file is not a new vault: the person is told it
				// is missing (issue 18: never silently start afresh).
				if !errors.Is(err, ErrUninitialized) || !errors.Is(err, ErrMissing) {
					t.Fatalf("open after removal = %v, want ErrUninitialized and ErrMissing", err)
				}
				if err := v.Init(InitOptions{Passphrase: []byte("new")}); !errors.Is(err, ErrMissing) {
					t.Fatalf("Init where the vault file vanished = %v, want ErrMissing", err)
				}
				if err := v.Init(InitOptions{Passphrase: []byte("new"), ReplaceMissing: true}); err != nil {
					t.Fatalf("Init with ReplaceMissing: %v", err)
				}
				v.Close()
				v, err = Open(filepath.Dir(path), testOptions(nil))
				if err != nil {
					t.Fatal(err)
				}
				if err := v.UnlockPassphrase([]byte("new")); err != nil {
					t.Fatalf("the replacing vault: %v", err)
				}
				if err := v.Destroy(); err != nil {
					t.Fatal(err)
				}
				v.Close()
				if err := os.Remove(path); !errors.Is(err, os.ErrNotExist) {
					t.Fatalf("vault file after Destroy: %v", err)
				}
				// Destroy also clears a vanished vault.
				v = newTestVault(t, filepath.Dir(path), nil)
				v.Close()
				os.Remove(path)
				v, err = Open(filepath.Dir(path), testOptions(nil))
				if err != nil {
					t.Fatal(err)
				}
				defer v.Close()
				if err := v.Destroy(); err != nil {
					t.Fatalf("Destroy of a vanished vault: %v", err)
				}
				if err := v.Init(InitOptions{Passphrase: []byte("new")}); err != nil {
					t.Fatalf("Init after Destroy: %v", err)
				}
				return
			}
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("open %s vault = %v, want %v", tt.name, err, tt.wantErr)
			}
		})
	}
}

func overwrite(path string, off int64, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.WriteAt(b, off)
	return err
}

// flip inverts every bit of the byte at off in the file at path: damage
// whatever the byte held (writing a fixed value left a random salt byte
// that already held it undamaged, one run in 256).
func flip(path string, off int64) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	b := make([]byte, 1)
	if _, err := f.ReadAt(b, off); err != nil {
		return err
	}
	b[0] ^= 0xFF
	_, err = f.WriteAt(b, off)
	return err
}

// TestForeignSQLite guards against treating some other SQLite database in
// the data directory as an empty vault.
func TestForeignSQLite(t *testing.T) {
	dir := t.TempDir()
	v := newTestVault(t, dir, nil)
	if _, err := v.db.Exec("DELETE FROM meta"); err != nil {
		t.Fatal(err)
	}
	v.Close()
	if _, err := Open(dir, testOptions(nil)); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Open(vault without meta) = %v, want ErrCorrupt", err)
	}
}

// TestDiskFull fills the database up to SQLite's page limit, the same
// SQLITE_FULL a full disk gives, and checks the failed write left nothing
// half-done and the vault usable.
func TestDiskFull(t *testing.T) {
	dir := t.TempDir()
	v := newTestVault(t, dir, nil)
	if _, err := v.CreateProfile("me", "Me"); err != nil {
		t.Fatal(err)
	}
	var pages int
	if err := v.db.QueryRow("PRAGMA page_count").Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if _, err := v.db.Exec(fmt.Sprintf("PRAGMA max_page_count = %d", pages+20)); err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("x", 30000)
	var stored int
	var err error
	for i := range 100 {
		err = v.SetEntry("me", FieldKey("f"+strings.Repeat("i", i)), manual(big))
		if err != nil {
			break
		}
		stored++
	}
	if !errors.Is(err, ErrStorageFull) {
		t.Fatalf("SetEntry on a full database = %v, want ErrStorageFull", err)
	}
	if _, err := v.Import([]profile.UserProfile{{ID: "other", Label: "Other", Concepts: map[string]profile.Entry{"https://schema.org/x": manual(big)}}}); !errors.Is(err, ErrStorageFull) {
		t.Fatalf("Import on a full database = %v, want ErrStorageFull", err)
	}
	p, err := v.Profile("me")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Fields) != stored {
		t.Fatalf("after disk full: %d fields, want the %d committed", len(p.Fields), stored)
	}
	if _, err := v.Profile("other"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("failed Import left a profile behind: %v", err)
	}
	if err := v.DeleteEntry("me", FieldKey("f")); err != nil {
		t.Fatalf("DeleteEntry on a full database: %v", err)
	}
}

// crashCopy copies the files of the open vault in dir to a new directory:
// what a process killed at this moment leaves behind, with the commits since
// the last checkpoint only in the write-ahead log.
func crashCopy(t *testing.T, dir string) string {
	t.Helper()
	dst := t.TempDir()
	for _, name := range []string{dbName, dbName + "-wal"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// TestDamagedWAL guards against a damaged write-ahead log opening as an
// empty vault: SQLite ignores a log whose header is bad, and with it every
// profile written since the last checkpoint.
func TestDamagedWAL(t *testing.T) {
	dir := t.TempDir()
	v := newTestVault(t, dir, nil)
	if _, err := v.CreateProfile("me", "Me"); err != nil {
		t.Fatal(err)
	}
	if err := v.SetEntry("me", ConceptKey("https://schema.org/email"), manual("wal@example.org")); err != nil {
		t.Fatal(err)
	}
	profiles := func(dir string) ([]profile.UserProfile, error) {
		v, err := Open(dir, testOptions(nil))
		if err != nil {
			return nil, err
		}
		defer v.Close()
		if err := v.UnlockPassphrase([]byte("correct horse")); err != nil {
			return nil, err
		}
		return v.Profiles()
	}

	// The premise: the profile lives only in the log, so a log SQLite
	// ignores would lose it without a word.
	intact := crashCopy(t, dir)
	if ps, err := profiles(intact); err != nil || len(ps) != 1 {
		t.Fatalf("crash copy with its log: %d profiles, %v; want 1", len(ps), err)
	}
	noLog := crashCopy(t, dir)
	os.Remove(filepath.Join(noLog, dbName+"-wal"))
	if ps, err := profiles(noLog); err != nil || len(ps) != 0 {
		t.Fatalf("crash copy without its log: %d profiles, %v; want 0 (test premise)", len(ps), err)
	}

	tests := []struct {
		name   string
		damage func(path string) error
	}{
		{"header overwritten", func(p string) error { return overwrite(p, 0, bytes.Repeat([]byte{0xAA}, 32)) }},
		{"salt flipped", func(p string) error { return flip(p, 17) }},
		{"truncated inside the header", func(p string) error { return os.Truncate(p, 20) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := crashCopy(t, dir)
			if err := tt.damage(filepath.Join(c, dbName+"-wal")); err != nil {
				t.Fatal(err)
			}
			ps, err := profiles(c)
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("open with %s log = %d profiles, %v; want ErrCorrupt", tt.name, len(ps), err)
			}
		})
	}
}

// TestDamagedKeyWrap checks that a damaged passphrase wrap reads as damage,
// not as a wrong passphrase, and that the keyring wrap still opens
// everything.
func TestDamagedKeyWrap(t *testing.T) {
	dir, kr := t.TempDir(), newFakeKeyring()
	v := newTestVault(t, dir, kr)
	if _, err := v.CreateProfile("me", "Me"); err != nil {
		t.Fatal(err)
	}
	wrap, err := getMeta(v.db, metaWrapPassphrase)
	if err != nil {
		t.Fatal(err)
	}
	// The header MAC is the last header line, "--- " and base64; change
	// one of its characters.
	i := bytes.Index(wrap, []byte("\n--- ")) + 8
	wrap[i] ^= 0x01
	if _, err := v.db.Exec("UPDATE meta SET value = ? WHERE name = ?", wrap, metaWrapPassphrase); err != nil {
		t.Fatal(err)
	}
	v.Lock()
	if err := v.UnlockPassphrase([]byte("correct horse")); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("UnlockPassphrase with a damaged wrap = %v, want ErrCorrupt", err)
	}
	if err := v.UnlockKeyring(); err != nil {
		t.Fatalf("UnlockKeyring beside a damaged passphrase wrap: %v", err)
	}
	if _, err := v.Profile("me"); err != nil {
		t.Fatal(err)
	}
}
