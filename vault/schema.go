package vault

import (
	"database/sql"
	"errors"
	"fmt"
)

// Names of the meta rows. Meta values are not profile data: the vault id,
// the two wrapped copies of the data key, the sealed key check and the
// sealed manifest (manifest.go).
const (
	metaVaultID        = "vault_id"
	metaWrapKeyring    = "wrap_keyring"
	metaWrapPassphrase = "wrap_passphrase"
	metaCheck          = "check"
	metaManifest       = "manifest"
)

// migrations are applied in order at open; migration i brings the schema
// to user_version i+1. Append only: a released migration never changes.
var migrations = []string{
	`CREATE TABLE meta (name TEXT PRIMARY KEY, value BLOB NOT NULL) STRICT;
	CREATE TABLE profiles (
		id INTEGER PRIMARY KEY,
		lookup BLOB NOT NULL UNIQUE,
		rec BLOB NOT NULL
	) STRICT;
	CREATE TABLE entries (
		id INTEGER PRIMARY KEY,
		profile INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
		lookup BLOB NOT NULL,
		rank INTEGER NOT NULL,
		rec BLOB NOT NULL,
		UNIQUE (profile, lookup, rank)
	) STRICT;
	CREATE TABLE audit (id INTEGER PRIMARY KEY, rec BLOB NOT NULL) STRICT;`,
	// Row versions. Zero marks a row sealed before versions existed; the
	// first unlock re-seals every such row and writes the manifest.
	`ALTER TABLE profiles ADD COLUMN ver INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE entries ADD COLUMN ver INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE audit ADD COLUMN ver INTEGER NOT NULL DEFAULT 0;`,
	// Site rules (sites.go): one row per origin, indexed by a keyed hash
	// of the origin and tied to the profile row it fills from.
	`CREATE TABLE sites (
		id INTEGER PRIMARY KEY,
		profile INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
		lookup BLOB NOT NULL UNIQUE,
		ver INTEGER NOT NULL DEFAULT 0,
		rec BLOB NOT NULL
	) STRICT;
	CREATE INDEX sites_profile ON sites (profile);`,
}

// migrate brings the schema up to date in one transaction, and refuses a
// file written by a newer tessera rather than guess at its layout.
func migrate(db *sql.DB) error {
	var version int
	if err := db.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		return fmt.Errorf("read schema version: %w", sqlErr(err))
	}
	if version > len(migrations) {
		return fmt.Errorf("schema version %d is newer than this tessera supports (%d)", version, len(migrations))
	}
	if version == len(migrations) {
		return nil
	}
	tx, err := db.Begin()
	if err != nil {
		return fmt.Errorf("migrate schema: %w", sqlErr(err))
	}
	defer tx.Rollback()
	for i := version; i < len(migrations); i++ {
		if _, err := tx.Exec(migrations[i]); err != nil {
			return fmt.Errorf("migrate schema to version %d: %w", i+1, sqlErr(err))
		}
	}
	if _, err := tx.Exec(fmt.Sprintf("PRAGMA user_version = %d", len(migrations))); err != nil {
		return fmt.Errorf("migrate schema: %w", sqlErr(err))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("migrate schema: %w", sqlErr(err))
	}
	return nil
}

type queryer interface {
	QueryRow(query string, args ...any) *sql.Row
}

// getMeta reads a meta row; a missing vault id means the file is some other
// SQLite database (or a vault emptied by damage), never a fresh vault.
func getMeta(q queryer, name string) ([]byte, error) {
	var val []byte
	err := q.QueryRow("SELECT value FROM meta WHERE name = ?", name).Scan(&val)
	if errors.Is(err, sql.ErrNoRows) {
		if name == metaVaultID || name == metaCheck {
			return nil, fmt.Errorf("%w: no %s in vault file", ErrCorrupt, name)
		}
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, sqlErr(err))
	}
	return val, nil
}

func putMeta(tx *sql.Tx, name string, val []byte) error {
	if _, err := tx.Exec("INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value", name, val); err != nil {
		return fmt.Errorf("write %s: %w", name, sqlErr(err))
	}
	return nil
}
