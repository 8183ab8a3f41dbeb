package vault

import (
	"bytes"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"filippo.io/age"
)

// ChangePassphrase sets or replaces the passphrase of the unlocked vault
// and rotates its data key: every record is sealed again under a new data
// key, in one transaction, so that the old passphrase wrap (in a backup, say)
// spliced into the file opens nothing written since, and a crash leaves
// either the old key and passphrase or the new ones. The keyring wrap is
// renewed for the same keyring identity; when the keyring cannot be read it
// is dropped, and the vault unlocks by passphrase until EnrollKeyring.
func (v *Vault) ChangePassphrase(passphrase []byte) error {
	return v.changePassphrase(false, nil, passphrase, nil)
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
	if v.counter == nil {
		// From now on the keyring keeps the write counter too; a counter
		// left from an earlier enrolment that is ahead of the file is
		// reported at the next unlock.
		if c, err := loadCounter(v.opts.Keyring, v.id, v.m.seq, false); err == nil {
			v.counter = c
		}
	}
	if v.counter != nil && v.m.flags&flagCounter == 0 {
		if err := v.markCounterLocked(k); err != nil {
			return fmt.Errorf("enroll keyring: %w", err)
		}
	}
	return nil
}

// markCounterLocked records in the manifest that the keyring keeps this
// vault's write counter.
func (v *Vault) markCounterLocked(k *keys) error {
	tx, err := v.db.Begin()
	if err != nil {
		return sqlErr(err)
	}
	defer tx.Rollback()
	d := newDelta(v.m, k)
	d.flags |= flagCounter
	if err := d.write(tx, k); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return sqlErr(err)
	}
	d.apply()
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
// cannot lock the person out). When the vault has a keyring wrap, a fresh
// keyring identity replaces the old one.
func (v *Vault) Rekey(passphrase []byte) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if _, err := v.keysLocked(); err != nil {
		return fmt.Errorf("rekey: %w", err)
	}
	_, err := getMeta(v.db, metaWrapPassphrase)
	hasPassphrase := err == nil
	if err != nil && !errors.Is(err, ErrNotFound) {
		return fmt.Errorf("rekey: %w", err)
	}
	if hasPassphrase {
		dk, err := v.unwrapPassphraseLocked(passphrase)
		if err != nil {
			return fmt.Errorf("rekey: %w", err)
		}
		clear(dk)
	} else {
		passphrase = nil
	}
	if err := v.rotateLocked(passphrase, true); err != nil {
		return fmt.Errorf("rekey: %w", err)
	}
	return nil
}

// rotateLocked replaces the data key of the unlocked vault. A non-empty
// passphrase is wrapped anew (an empty one leaves the vault without a
// passphrase wrap only if it had none). The keyring wrap goes to a fresh
// identity when freshIdentity is set, else to the current one.
//
// The keyring and the file cannot change in one transaction, so a fresh
// identity is stored beside the old one (both in the one keyring item)
// before the commit and alone after it: whenever the process dies, the
// keyring holds an identity that opens the file.
func (v *Vault) rotateLocked(passphrase []byte, freshIdentity bool) error {
	dk := make([]byte, keySize)
	defer clear(dk)
	if _, err := rand.Read(dk); err != nil {
		return err
	}
	meta := map[string][]byte{}
	var drop []string
	var err error
	if len(passphrase) > 0 {
		if meta[metaWrapPassphrase], err = v.passphraseWrap(dk, passphrase); err != nil {
			return err
		}
	} else {
		// A wrap of the old key must not outlive it.
		drop = append(drop, metaWrapPassphrase)
	}
	var newItem, oldItem string
	if curWrap, err := getMeta(v.db, metaWrapKeyring); err == nil {
		switch {
		case freshIdentity:
			if v.opts.Keyring == nil {
				return fmt.Errorf("%w: none configured", ErrKeyringUnavailable)
			}
			if oldItem, err = v.opts.Keyring.Get(KeyringService, keyringAccount(v.id)); err != nil {
				return keyringErrOf(err)
			}
			id, err := age.GenerateX25519Identity()
			if err != nil {
				return err
			}
			if meta[metaWrapKeyring], err = wrapKey(dk, id.Recipient()); err != nil {
				return err
			}
			newItem = id.String()
		case v.opts.Keyring == nil:
			drop = append(drop, metaWrapKeyring)
		default:
			r, err := v.keyringRecipient(curWrap)
			if err != nil {
				drop = append(drop, metaWrapKeyring)
				break
			}
			if meta[metaWrapKeyring], err = wrapKey(dk, r); err != nil {
				return err
			}
		}
	} else if !errors.Is(err, ErrNotFound) {
		return err
	}
	nk, err := deriveKeys(dk)
	if err != nil {
		return err
	}
	if meta[metaCheck], err = sealCheck(nk); err != nil {
		nk.wipe()
		return err
	}
	if newItem != "" {
		if err := v.opts.Keyring.Set(KeyringService, keyringAccount(v.id), newItem+"\n"+strings.TrimSpace(oldItem)+"\n"); err != nil {
			nk.wipe()
			return fmt.Errorf("store key in keyring: %w", keyringErrOf(err))
		}
	}
	m, err := v.resealAll(nk, meta, drop)
	if err != nil {
		nk.wipe()
		if newItem != "" {
			v.opts.Keyring.Set(KeyringService, keyringAccount(v.id), oldItem)
		}
		return err
	}
	if newItem != "" {
		// On failure the item keeps both identities, which still opens
		// the vault.
		v.opts.Keyring.Set(KeyringService, keyringAccount(v.id), newItem)
	}
	v.k.wipe()
	v.k, v.m = nk, m
	v.counter.advance(m.seq)
	// Move the commit out of the WAL so the old wraps and records are not
	// left readable there; secure_delete already zeroed the freed pages.
	v.db.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
	return nil
}

// keyringRecipient returns the recipient of the keyring identity that
// opens wrap.
func (v *Vault) keyringRecipient(wrap []byte) (age.Recipient, error) {
	ids, err := v.keyringIdentities()
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		x, ok := id.(*age.X25519Identity)
		if !ok {
			continue
		}
		if dk, err := unwrapKey(wrap, x); err == nil {
			clear(dk)
			return x.Recipient(), nil
		}
	}
	return nil, fmt.Errorf("%w: keyring key does not match this vault", ErrKeyringItemMissing)
}

// resealAll re-seals every row under nk with a new version, re-indexes the
// lookups, writes meta and a new manifest, all in one transaction, and
// returns the new manifest. Every row is checked against the current
// manifest first: a tampered vault is never re-sealed into a valid one.
func (v *Vault) resealAll(nk *keys, meta map[string][]byte, drop []string) (*manifest, error) {
	old := v.k
	tx, err := v.db.Begin()
	if err != nil {
		return nil, sqlErr(err)
	}
	defer tx.Rollback()
	cur := &op{q: tx, k: old, m: v.m}
	nm := newManifest(v.m.vaultID, len(v.m.rows))
	d := newDelta(nm, nk)
	d.seq, d.hwm, d.flags = v.m.seq, v.m.hwm, v.m.flags
	var rows []storedRow
	var counts [numTables]int64
	if err := scanRows(tx, func(r *storedRow) error {
		if err := cur.check(r.ref, r.ver, r.parent, r.rank); err != nil {
			return err
		}
		counts[r.ref.tab]++
		r.lookup, r.rec = bytes.Clone(r.lookup), bytes.Clone(r.rec)
		rows = append(rows, *r)
		return nil
	}); err != nil {
		return nil, err
	}
	if counts != v.m.count {
		return nil, fmt.Errorf("%w: rows were added or removed outside Tessera", ErrTampered)
	}
	// One prepared statement per table for thousands of rows: preparing per
	// row was most of the re-key time.
	var upd [numTables]*sql.Stmt
	for t, q := range [numTables]string{
		"UPDATE profiles SET lookup = ?, ver = ?, rec = ? WHERE id = ?",
		"UPDATE entries SET lookup = ?, ver = ?, rec = ? WHERE id = ?",
		"UPDATE audit SET ver = ?, rec = ? WHERE id = ?",
		"UPDATE sites SET lookup = ?, ver = ?, rec = ? WHERE id = ?",
	} {
		if upd[t], err = tx.Prepare(q); err != nil {
			return nil, sqlErr(err)
		}
		defer upd[t].Close()
	}
	profileIDs := map[int64]string{}
	if v.resealProgress != nil {
		v.resealProgress(0, len(rows))
	}
	for i := range rows {
		if v.resealProgress != nil && i > 0 {
			v.resealProgress(i, len(rows))
		}
		r := &rows[i]
		at := place{table: tableNames[r.ref.tab], id: r.ref.id, parent: r.parent, rank: r.rank, ver: r.ver}
		pt, err := openRecord(old.seal, r.rec, at.ad())
		if err != nil {
			return nil, fmt.Errorf("%s %d: %w", at.table, at.id, err)
		}
		var lookup []byte
		switch r.ref.tab {
		case tabProfiles:
			var p profileRec
			if err := json.Unmarshal(pt, &p); err != nil {
				return nil, fmt.Errorf("profile %d: %w: %w", at.id, ErrCorrupt, err)
			}
			profileIDs[r.ref.id] = p.ID
			lookup = nk.lookupKey("profile", p.ID)
		case tabEntries:
			e, err := decodeEntry(pt)
			if err != nil {
				return nil, fmt.Errorf("entry %d: %w: %w", at.id, ErrCorrupt, err)
			}
			pid, ok := profileIDs[r.parent]
			if !ok {
				return nil, fmt.Errorf("entry %d: %w: no profile %d", at.id, ErrTampered, r.parent)
			}
			lookup = entryLookup(nk, pid, e.key())
		case tabSites:
			var sr SiteRule
			if err := json.Unmarshal(pt, &sr); err != nil {
				return nil, fmt.Errorf("site rule %d: %w: %w", at.id, ErrCorrupt, err)
			}
			if pid, ok := profileIDs[r.parent]; !ok || pid != sr.Profile {
				return nil, fmt.Errorf("site rule %d: %w: not a rule of profile %d", at.id, ErrTampered, r.parent)
			}
			lookup = siteLookup(nk, sr.Origin)
		}
		at.ver = d.nextVersion()
		rec, err := sealRecord(nk.seal, pt, at.ad())
		clear(pt)
		if err != nil {
			return nil, err
		}
		args := []any{lookup, int64(at.ver), rec, r.ref.id}
		if r.ref.tab == tabAudit {
			args = args[1:]
		}
		if _, err := upd[r.ref.tab].Exec(args...); err != nil {
			return nil, sqlErr(err)
		}
		if err := d.put(&storedRow{ref: r.ref, ver: at.ver, parent: r.parent, rank: r.rank, lookup: lookup, rec: rec}); err != nil {
			return nil, err
		}
	}
	if v.resealProgress != nil {
		v.resealProgress(len(rows), len(rows))
	}
	for name, val := range meta {
		if err := putMeta(tx, name, val); err != nil {
			return nil, err
		}
	}
	if err := resealSyncState(tx, old, nk, v.m, d); err != nil {
		return nil, err
	}
	for _, name := range drop {
		if _, err := tx.Exec("DELETE FROM meta WHERE name = ?", name); err != nil {
			return nil, sqlErr(err)
		}
	}
	if err := d.write(tx, nk); err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, sqlErr(err)
	}
	d.apply()
	return nm, nil
}

// Destroy deletes the vault: its keyring item and every file in the
// directory that belongs to it. The Vault stays open and uninitialized, so
// Init can start over.
func (v *Vault) Destroy() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.db == nil && !v.missing {
		return fmt.Errorf("destroy vault: %w", ErrUninitialized)
	}
	v.forgetKeysLocked()
	if v.opts.Keyring != nil && v.id != "" {
		for _, account := range []string{keyringAccount(v.id), counterAccount(v.id)} {
			err := v.opts.Keyring.Delete(KeyringService, account)
			if err != nil && !errors.Is(err, ErrKeyringItemMissing) {
				return fmt.Errorf("destroy vault: delete keyring item: %w", keyringErrOf(err))
			}
		}
	}
	if v.db != nil {
		if err := v.db.Close(); err != nil {
			return fmt.Errorf("destroy vault: %w", err)
		}
		v.db = nil
	}
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		if err := os.Remove(v.dbPath() + suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("destroy vault: %w", err)
		}
	}
	if err := os.Remove(filepath.Join(v.dir, markerName)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("destroy vault: %w", err)
	}
	v.missing, v.id = false, ""
	return nil
}
