package vault

import (
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"strings"

	"filippo.io/age"
)

// ChangePassphrase sets or replaces the passphrase wrap of the unlocked
// vault's data key. The data key does not change; use Rekey for that.
func (v *Vault) ChangePassphrase(passphrase []byte) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	k, err := v.keysLocked()
	if err != nil {
		return fmt.Errorf("change passphrase: %w", err)
	}
	if len(passphrase) == 0 {
		return errors.New("change passphrase: passphrase is empty")
	}
	wrap, err := v.passphraseWrap(k.data, passphrase)
	if err != nil {
		return fmt.Errorf("change passphrase: %w", err)
	}
	if err := v.putMetaTx(map[string][]byte{metaWrapPassphrase: wrap}); err != nil {
		return fmt.Errorf("change passphrase: %w", err)
	}
	return nil
}

// EnrollKeyring stores a new keyring identity for the unlocked vault and
// wraps the data key to it, replacing any earlier keyring wrap. It is how a
// vault unlocked by passphrase regains unlock-without-typing.
func (v *Vault) EnrollKeyring() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	k, err := v.keysLocked()
	if err != nil {
		return fmt.Errorf("enroll keyring: %w", err)
	}
	if v.opts.Keyring == nil {
		return fmt.Errorf("enroll keyring: %w: none configured", ErrKeyringUnavailable)
	}
	id, err := age.GenerateX25519Identity()
	if err != nil {
		return fmt.Errorf("enroll keyring: %w", err)
	}
	wrap, err := wrapKey(k.data, id.Recipient())
	if err != nil {
		return fmt.Errorf("enroll keyring: %w", err)
	}
	old, err := getMeta(v.db, metaWrapKeyring)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return fmt.Errorf("enroll keyring: %w", err)
	}
	if err := v.putMetaTx(map[string][]byte{metaWrapKeyring: wrap}); err != nil {
		return fmt.Errorf("enroll keyring: %w", err)
	}
	if err := v.opts.Keyring.Set(KeyringService, keyringAccount(v.id), id.String()); err != nil {
		// Put back the wrap the keyring may still hold the key for.
		if old != nil {
			v.putMetaTx(map[string][]byte{metaWrapKeyring: old})
		} else {
			v.db.Exec("DELETE FROM meta WHERE name = ?", metaWrapKeyring)
		}
		return fmt.Errorf("enroll keyring: %w", keyringErrOf(err))
	}
	return nil
}

func (v *Vault) putMetaTx(vals map[string][]byte) error {
	tx, err := v.db.Begin()
	if err != nil {
		return sqlErr(err)
	}
	defer tx.Rollback()
	for name, val := range vals {
		if err := putMeta(tx, name, val); err != nil {
			return err
		}
	}
	return sqlErr(tx.Commit())
}

// Rekey replaces the data key: every record is re-sealed and re-indexed
// under a new key and both wraps are renewed, all in one transaction, so a
// crash leaves either the old key or the new one, never a mix. When the
// vault has a passphrase, passphrase must be it (it is checked, so a typo
// cannot lock the person out); the keyring identity is kept and the new key
// is wrapped to it.
func (v *Vault) Rekey(passphrase []byte) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	old, err := v.keysLocked()
	if err != nil {
		return fmt.Errorf("rekey: %w", err)
	}
	meta := map[string][]byte{}
	_, err = getMeta(v.db, metaWrapPassphrase)
	hasPassphrase := err == nil
	if err != nil && !errors.Is(err, ErrNotFound) {
		return fmt.Errorf("rekey: %w", err)
	}
	if hasPassphrase {
		if _, err := v.unwrapPassphraseLocked(passphrase); err != nil {
			return fmt.Errorf("rekey: %w", err)
		}
	}
	var recipient age.Recipient
	if _, err := getMeta(v.db, metaWrapKeyring); err == nil {
		if v.opts.Keyring == nil {
			return fmt.Errorf("rekey: %w: none configured", ErrKeyringUnavailable)
		}
		secret, err := v.opts.Keyring.Get(KeyringService, keyringAccount(v.id))
		if err != nil {
			return fmt.Errorf("rekey: %w", keyringErrOf(err))
		}
		id, err := age.ParseX25519Identity(strings.TrimSpace(secret))
		if err != nil {
			return fmt.Errorf("rekey: %w: keyring item is not an age identity", ErrKeyringItemMissing)
		}
		recipient = id.Recipient()
	}
	dk := make([]byte, keySize)
	if _, err := rand.Read(dk); err != nil {
		return fmt.Errorf("rekey: %w", err)
	}
	nk, err := deriveKeys(dk)
	if err != nil {
		return fmt.Errorf("rekey: %w", err)
	}
	if recipient != nil {
		if meta[metaWrapKeyring], err = wrapKey(dk, recipient); err != nil {
			return fmt.Errorf("rekey: %w", err)
		}
	}
	if hasPassphrase {
		if meta[metaWrapPassphrase], err = v.passphraseWrap(dk, passphrase); err != nil {
			return fmt.Errorf("rekey: %w", err)
		}
	}
	if meta[metaCheck], err = sealCheck(nk); err != nil {
		return fmt.Errorf("rekey: %w", err)
	}
	if err := v.resealAll(old, nk, meta); err != nil {
		nk.wipe()
		return fmt.Errorf("rekey: %w", err)
	}
	old.wipe()
	v.k = nk
	// Move the commit out of the WAL so the old wraps and records are not
	// left readable there; secure_delete already zeroed the freed pages.
	v.db.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
	return nil
}

func (v *Vault) resealAll(old, nk *keys, meta map[string][]byte) error {
	tx, err := v.db.Begin()
	if err != nil {
		return sqlErr(err)
	}
	defer tx.Rollback()
	profileIDs := map[int64]string{}
	type row struct {
		id, parent, rank int64
		rec              []byte
	}
	readAll := func(q string) ([]row, error) {
		rows, err := tx.Query(q)
		if err != nil {
			return nil, sqlErr(err)
		}
		defer rows.Close()
		var out []row
		for rows.Next() {
			var r row
			if err := rows.Scan(&r.id, &r.parent, &r.rank, &r.rec); err != nil {
				return nil, sqlErr(err)
			}
			out = append(out, r)
		}
		return out, sqlErr(rows.Err())
	}
	profs, err := readAll("SELECT id, 0, 0, rec FROM profiles")
	if err != nil {
		return err
	}
	for _, r := range profs {
		p, err := openProfile(old, r.id, r.rec)
		if err != nil {
			return err
		}
		profileIDs[r.id] = p.ID
		rec, err := sealJSON(nk, p, "profiles", r.id)
		if err != nil {
			return err
		}
		if _, err := tx.Exec("UPDATE profiles SET lookup = ?, rec = ? WHERE id = ?", nk.lookupKey("profile", p.ID), rec, r.id); err != nil {
			return sqlErr(err)
		}
	}
	ents, err := readAll("SELECT id, profile, rank, rec FROM entries")
	if err != nil {
		return err
	}
	// One prepared statement for thousands of rows: preparing per row was
	// most of the re-key time.
	upd, err := tx.Prepare("UPDATE entries SET lookup = ?, rec = ? WHERE id = ?")
	if err != nil {
		return sqlErr(err)
	}
	defer upd.Close()
	for _, r := range ents {
		e, err := openEntry(old, r.id, r.parent, r.rank, r.rec)
		if err != nil {
			return err
		}
		rec, err := sealEntry(nk, e, r.id, r.parent, r.rank)
		if err != nil {
			return err
		}
		if _, err := upd.Exec(entryLookup(nk, profileIDs[r.parent], e.key()), rec, r.id); err != nil {
			return sqlErr(err)
		}
	}
	auds, err := readAll("SELECT id, 0, 0, rec FROM audit")
	if err != nil {
		return err
	}
	for _, r := range auds {
		pt, err := openRecord(old.seal, r.rec, recordAD("audit", r.id))
		if err != nil {
			return err
		}
		rec, err := sealRecord(nk.seal, pt, recordAD("audit", r.id))
		if err != nil {
			return err
		}
		if _, err := tx.Exec("UPDATE audit SET rec = ? WHERE id = ?", rec, r.id); err != nil {
			return sqlErr(err)
		}
	}
	for name, val := range meta {
		if err := putMeta(tx, name, val); err != nil {
			return err
		}
	}
	return sqlErr(tx.Commit())
}

// Destroy deletes the vault: its keyring item and every file in the
// directory that belongs to it. The Vault stays open and uninitialized, so
// Init can start over.
func (v *Vault) Destroy() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.db == nil {
		return fmt.Errorf("destroy vault: %w", ErrUninitialized)
	}
	if v.opts.Keyring != nil {
		err := v.opts.Keyring.Delete(KeyringService, keyringAccount(v.id))
		if err != nil && !errors.Is(err, ErrKeyringItemMissing) {
			return fmt.Errorf("destroy vault: delete keyring item: %w", keyringErrOf(err))
		}
	}
	if v.k != nil {
		v.k.wipe()
		v.k = nil
	}
	if err := v.db.Close(); err != nil {
		return fmt.Errorf("destroy vault: %w", err)
	}
	v.db = nil
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		if err := os.Remove(v.dbPath() + suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("destroy vault: %w", err)
		}
	}
	return nil
}
