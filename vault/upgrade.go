package vault

import (
	"bytes"
	"fmt"
)

// upgradeRecords brings a vault written before row versions existed (record
// format 1, no manifest) forward, in one transaction: every record is opened
// with its old associated data and sealed again with a version, the
// manifest is written, and the key check is re-sealed as format 2, which
// marks the vault as upgraded. A crash leaves the vault as it was, to be
// upgraded at the next unlock.
//
// A format 2 record, or a row with a version, in a vault without a manifest
// can only have been put there from an upgraded copy: ErrTampered.
func (v *Vault) upgradeRecords(k *keys, vaultID []byte, counter bool) (*manifest, error) {
	tx, err := v.db.Begin()
	if err != nil {
		return nil, sqlErr(err)
	}
	defer tx.Rollback()
	m := newManifest(vaultID, 0)
	d := newDelta(m, k)
	if counter {
		d.flags |= flagCounter
	}
	var rows []storedRow
	if err := scanRows(tx, func(r *storedRow) error {
		r.lookup, r.rec = bytes.Clone(r.lookup), bytes.Clone(r.rec)
		rows = append(rows, *r)
		return nil
	}); err != nil {
		return nil, err
	}
	var upd [numTables]string
	for t := range numTables {
		upd[t] = "UPDATE " + tableNames[t] + " SET ver = ?, rec = ? WHERE id = ?"
	}
	for i := range rows {
		r := &rows[i]
		at := place{table: tableNames[r.ref.tab], id: r.ref.id, parent: r.parent, rank: r.rank}
		if r.ver != 0 {
			return nil, fmt.Errorf("%s %d: %w: a versioned row in a vault never upgraded", at.table, at.id, ErrTampered)
		}
		pt, err := openFormat(k.seal, r.rec, at.legacyAD(), legacyRecordFormat)
		if err != nil {
			return nil, fmt.Errorf("%s %d: %w", at.table, at.id, err)
		}
		at.ver = d.nextVersion()
		r.ver = at.ver
		r.rec, err = sealRecord(k.seal, pt, at.ad())
		clear(pt)
		if err != nil {
			return nil, err
		}
		if _, err := tx.Exec(upd[r.ref.tab], int64(r.ver), r.rec, r.ref.id); err != nil {
			return nil, sqlErr(err)
		}
		d.hwm[r.ref.tab] = max(d.hwm[r.ref.tab], r.ref.id)
		if err := d.put(r); err != nil {
			return nil, err
		}
	}
	check, err := sealCheck(k)
	if err != nil {
		return nil, err
	}
	if err := putMeta(tx, metaCheck, check); err != nil {
		return nil, err
	}
	if err := d.write(tx, k); err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, sqlErr(err)
	}
	d.apply()
	return m, nil
}
