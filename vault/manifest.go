package vault

import (
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
)

// The manifest is what lets the vault notice rows changed outside Tessera.
// Every row carries a version, taken from a vault-wide sequence on each write
// of the row and named in its record's associated data, so a version is
// never reused and a record opens only at the version it was sealed for. The
// manifest, sealed in the meta table and rewritten in the same transaction
// as every write, keeps:
//
//   - the sequence, so versions only grow;
//   - per table, the number of rows and the highest id ever given out, so a
//     deleted row is noticed and an id is never reused;
//   - the XOR of one HMAC per row over its table, id, version, parent, rank,
//     lookup and sealed record, under a key derived from the data key;
//   - an HMAC of the sealed sync state (sync.go), zero when there is none.
//
// An XOR of keyed MACs can be updated in O(1) per written row (XOR out the
// old row's MAC, XOR in the new one) yet, without the key, no set of rows
// but the right one gives the right value (Bellare–Micciancio's XOR-MAC).
// Unlock reads every row once, recomputes the XOR and the counts, and keeps
// each row's version in memory; every later read checks the rows it reads
// against that, so a row replayed, deleted or moved while the vault is open
// is noticed too.

// Tables under the manifest.
const (
	tabProfiles = iota
	tabEntries
	tabAudit
	tabSites
	numTables
)

var tableNames = [numTables]string{"profiles", "entries", "audit", "sites"}

// manifestFormat is the first byte of a sealed manifest's plaintext. A
// format 1 manifest was written before the sites table existed and covers
// the first three tables; it is read as one with no site rows. A format 2
// manifest was written before it covered the sync state; the sync state
// found beside it is taken as it is. The next write replaces either with
// format 3.
const manifestFormat = 3

// manifestTables returns how many tables a manifest of the given format
// covers, or 0 for a format this package does not know.
func manifestTables(format byte) int {
	switch format {
	case 1:
		return tabSites
	case 2, manifestFormat:
		return numTables
	}
	return 0
}

// flagCounter marks a vault whose write counter the keyring keeps. It lives
// in the sealed manifest, not beside the wrapped keys, so that deleting the
// keyring wrap from an older copy of the file does not switch off the
// rollback check.
const flagCounter = 1 << 0

type rowRef struct {
	tab uint8
	id  int64
}

// rowState is what the manifest knows of one row.
type rowState struct {
	ver          uint64
	parent, rank int64
	lookup       [32]byte
	mac          [32]byte
}

// A countKey names a number of rows the manifest keeps, so that a read by
// lookup notices a row that is missing without scanning the table.
type countKey struct {
	kind   uint8
	parent int64
	lookup [32]byte
}

const (
	countProfile  = iota + 1 // profile rows with this lookup
	countKeyRows             // entry rows of one key in one profile
	countCurrents            // current (rank 0) entry rows of one profile
	countSite                // site rule rows with this lookup
	countSites               // site rule rows of one profile
)

// countKeys returns the counts a row is part of.
func (r rowRef) countKeys(s *rowState) (ks [2]countKey, n int) {
	switch r.tab {
	case tabProfiles:
		ks[0], n = countKey{kind: countProfile, lookup: s.lookup}, 1
	case tabEntries:
		ks[0], n = countKey{kind: countKeyRows, parent: s.parent, lookup: s.lookup}, 1
		if s.rank == 0 {
			ks[1], n = countKey{kind: countCurrents, parent: s.parent}, 2
		}
	case tabSites:
		ks[0], ks[1], n = countKey{kind: countSite, lookup: s.lookup}, countKey{kind: countSites, parent: s.parent}, 2
	}
	return ks, n
}

// manifestState is the part of the manifest that is sealed in the file.
type manifestState struct {
	vaultID []byte
	flags   byte
	seq     uint64
	hwm     [numTables]int64
	count   [numTables]int64
	acc     [32]byte
	// syncMAC is the HMAC of the sealed sync state (syncStateMAC), zero
	// when there is none.
	syncMAC [32]byte
	// format is the format the state was read in (0: made here).
	format byte
}

// A manifest is the verified state of an unlocked vault.
type manifest struct {
	manifestState
	rows   map[rowRef]rowState
	counts map[countKey]int
}

// newManifest returns an empty manifest with room for rows rows.
func newManifest(vaultID []byte, rows int) *manifest {
	return &manifest{manifestState: manifestState{vaultID: vaultID}, rows: make(map[rowRef]rowState, rows), counts: make(map[countKey]int, rows)}
}

func (m *manifest) add(ref rowRef, s rowState) {
	m.rows[ref] = s
	ks, n := ref.countKeys(&s)
	for _, c := range ks[:n] {
		m.counts[c]++
	}
	m.count[ref.tab]++
	xorInto(&m.acc, &s.mac)
}

func xorInto(acc, mac *[32]byte) {
	for i := range acc {
		acc[i] ^= mac[i]
	}
}

func (st *manifestState) encode() []byte {
	b := make([]byte, 0, 128)
	b = append(b, manifestFormat, byte(len(st.vaultID)))
	b = append(b, st.vaultID...)
	b = append(b, st.flags)
	b = binary.BigEndian.AppendUint64(b, st.seq)
	for t := range numTables {
		b = binary.BigEndian.AppendUint64(b, uint64(st.hwm[t]))
		b = binary.BigEndian.AppendUint64(b, uint64(st.count[t]))
	}
	b = append(b, st.acc[:]...)
	return append(b, st.syncMAC[:]...)
}

func decodeManifest(b []byte) (manifestState, error) {
	var st manifestState
	if len(b) < 2 {
		return st, errors.New("bad manifest encoding")
	}
	tables := manifestTables(b[0])
	n := 2 + int(b[1]) + 1 + 8 + 16*tables + 32
	if b[0] >= 3 {
		n += 32
	}
	if tables == 0 || len(b) != n {
		return st, errors.New("bad manifest encoding")
	}
	st.format = b[0]
	st.vaultID = append([]byte(nil), b[2:2+int(b[1])]...)
	b = b[2+int(b[1]):]
	st.flags, b = b[0], b[1:]
	st.seq = binary.BigEndian.Uint64(b)
	b = b[8:]
	for t := range tables {
		st.hwm[t] = int64(binary.BigEndian.Uint64(b))
		st.count[t] = int64(binary.BigEndian.Uint64(b[8:]))
		b = b[16:]
	}
	copy(st.acc[:], b)
	if st.format >= 3 {
		copy(st.syncMAC[:], b[32:])
	}
	return st, nil
}

var manifestPlace = place{table: "manifest"}

func sealManifest(k *keys, st *manifestState) ([]byte, error) {
	return sealRecord(k.seal, st.encode(), manifestPlace.ad())
}

func openManifest(k *keys, rec []byte) (manifestState, error) {
	pt, err := openRecord(k.seal, rec, manifestPlace.ad())
	if err != nil {
		return manifestState{}, fmt.Errorf("manifest: %w", err)
	}
	st, err := decodeManifest(pt)
	if err != nil {
		return st, fmt.Errorf("manifest: %w: %w", ErrTampered, err)
	}
	return st, nil
}

// A storedRow is one row as the file holds it.
type storedRow struct {
	ref          rowRef
	ver          uint64
	parent, rank int64
	lookup, rec  []byte
}

var scanQueries = [numTables]string{
	"SELECT id, ver, 0, 0, lookup, rec FROM profiles",
	"SELECT id, ver, profile, rank, lookup, rec FROM entries",
	"SELECT id, ver, 0, 0, x'', rec FROM audit",
	"SELECT id, ver, profile, 0, lookup, rec FROM sites",
}

// scanRows calls f for every row of every table under the manifest. The
// row's lookup and record are valid only during the call.
func scanRows(q dbq, f func(r *storedRow) error) error {
	for t := range uint8(numTables) {
		if err := scanTable(q, t, f); err != nil {
			return err
		}
	}
	return nil
}

func scanTable(q dbq, t uint8, f func(r *storedRow) error) error {
	rows, err := q.Query(scanQueries[t])
	if err != nil {
		return sqlErr(err)
	}
	defer rows.Close()
	for rows.Next() {
		r := storedRow{ref: rowRef{tab: t}}
		var ver int64
		// RawBytes: unlock reads every record of the vault, and copying
		// each was a third of the check's time.
		var lookup, rec sql.RawBytes
		if err := rows.Scan(&r.ref.id, &ver, &r.parent, &r.rank, &lookup, &rec); err != nil {
			return sqlErr(err)
		}
		r.ver, r.lookup, r.rec = uint64(ver), lookup, rec
		if err := f(&r); err != nil {
			return err
		}
	}
	return sqlErr(rows.Err())
}

// rowMACer computes the per-row MACs the manifest XORs together. Its
// buffers are reused across rows: unlock computes thousands.
type rowMACer struct {
	h   hash.Hash
	hdr [1 + 8*4 + 4]byte
	sum []byte
}

func newRowMACer(k *keys) *rowMACer {
	return &rowMACer{h: hmac.New(sha256.New, k.mac), sum: make([]byte, 0, sha256.Size)}
}

func (m *rowMACer) state(r *storedRow) (rowState, error) {
	s := rowState{ver: r.ver, parent: r.parent, rank: r.rank}
	switch {
	case r.ref.tab != tabAudit && len(r.lookup) != len(s.lookup):
		return s, fmt.Errorf("%s %d: %w: lookup of %d bytes", tableNames[r.ref.tab], r.ref.id, ErrTampered, len(r.lookup))
	case r.ref.tab != tabAudit:
		copy(s.lookup[:], r.lookup)
	}
	hdr := m.hdr[:]
	hdr[0] = r.ref.tab
	binary.BigEndian.PutUint64(hdr[1:], uint64(r.ref.id))
	binary.BigEndian.PutUint64(hdr[9:], r.ver)
	binary.BigEndian.PutUint64(hdr[17:], uint64(r.parent))
	binary.BigEndian.PutUint64(hdr[25:], uint64(r.rank))
	binary.BigEndian.PutUint32(hdr[33:], uint32(len(r.rec)))
	m.h.Reset()
	m.h.Write(hdr)
	m.h.Write(r.rec)
	m.h.Write(r.lookup)
	m.sum = m.h.Sum(m.sum[:0])
	copy(s.mac[:], m.sum)
	return s, nil
}

// verifyManifest reads every row of the file and checks it against the
// sealed manifest. It returns the verified manifest, or an error wrapping
// ErrTampered.
func verifyManifest(q dbq, k *keys, vaultID []byte) (*manifest, error) {
	rec, err := getMeta(q, metaManifest)
	if errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("%w: the manifest is missing", ErrTampered)
	}
	if err != nil {
		return nil, err
	}
	want, err := openManifest(k, rec)
	if err != nil {
		return nil, err
	}
	if !hmac.Equal(want.vaultID, vaultID) {
		return nil, fmt.Errorf("%w: the manifest belongs to another vault", ErrTampered)
	}
	total := int64(0)
	for _, n := range want.count {
		total += max(n, 0)
	}
	m := newManifest(vaultID, int(min(total, 1<<20)))
	m.seq, m.hwm, m.flags = want.seq, want.hwm, want.flags
	mac := newRowMACer(k)
	err = scanRows(q, func(r *storedRow) error {
		switch {
		case r.ver == 0 || r.ver > want.seq:
			return fmt.Errorf("%s %d: %w: version %d outside the manifest's %d", tableNames[r.ref.tab], r.ref.id, ErrTampered, r.ver, want.seq)
		case r.ref.id <= 0 || r.ref.id > want.hwm[r.ref.tab]:
			return fmt.Errorf("%s %d: %w: id never given out", tableNames[r.ref.tab], r.ref.id, ErrTampered)
		}
		s, err := mac.state(r)
		if err != nil {
			return err
		}
		m.add(r.ref, s)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for t := range numTables {
		if m.count[t] != want.count[t] {
			return nil, fmt.Errorf("%w: %d %s rows where Tessera wrote %d", ErrTampered, m.count[t], tableNames[t], want.count[t])
		}
	}
	if m.acc != want.acc {
		return nil, fmt.Errorf("%w: rows differ from what Tessera wrote (an older copy of a row, or a row moved)", ErrTampered)
	}
	if m.syncMAC, err = storedSyncMAC(q, k); err != nil {
		return nil, err
	}
	if want.format >= 3 && m.syncMAC != want.syncMAC {
		return nil, fmt.Errorf("%w: %w", ErrTampered, errSyncStateChanged)
	}
	return m, nil
}

// A delta is a write transaction's view of the manifest: the committed
// manifest plus the transaction's changes, applied only once it commits.
type delta struct {
	base *manifest
	manifestState
	rows   map[rowRef]*rowState // nil: deleted
	counts map[countKey]int     // changes to base.counts
	mac    *rowMACer
}

func newDelta(m *manifest, k *keys) *delta {
	return &delta{base: m, manifestState: m.manifestState, rows: map[rowRef]*rowState{}, counts: map[countKey]int{}, mac: newRowMACer(k)}
}

func (d *delta) row(ref rowRef) (rowState, bool) {
	if s, ok := d.rows[ref]; ok {
		if s == nil {
			return rowState{}, false
		}
		return *s, true
	}
	s, ok := d.base.rows[ref]
	return s, ok
}

func (d *delta) countOf(c countKey) int { return d.base.counts[c] + d.counts[c] }

// nextVersion returns the version of a record about to be written.
func (d *delta) nextVersion() uint64 {
	d.seq++
	return d.seq
}

// nextID returns a new row id of a table, never one given out before.
func (d *delta) nextID(t uint8) int64 {
	d.hwm[t]++
	return d.hwm[t]
}

// put records that the row now holds r.
func (d *delta) put(r *storedRow) error {
	s, err := d.mac.state(r)
	if err != nil {
		return err
	}
	if old, ok := d.row(r.ref); ok {
		d.drop(r.ref, &old)
	} else {
		d.count[r.ref.tab]++
	}
	ks, n := r.ref.countKeys(&s)
	for _, c := range ks[:n] {
		d.counts[c]++
	}
	xorInto(&d.acc, &s.mac)
	d.rows[r.ref] = &s
	return nil
}

func (d *delta) drop(ref rowRef, old *rowState) {
	ks, n := ref.countKeys(old)
	for _, c := range ks[:n] {
		d.counts[c]--
	}
	xorInto(&d.acc, &old.mac)
}

// remove records that the row was deleted.
func (d *delta) remove(ref rowRef) error {
	old, ok := d.row(ref)
	if !ok {
		return fmt.Errorf("%s %d: %w: row unknown to the manifest", tableNames[ref.tab], ref.id, ErrTampered)
	}
	d.drop(ref, &old)
	d.count[ref.tab]--
	d.rows[ref] = nil
	return nil
}

// write seals the changed manifest into the transaction.
func (d *delta) write(tx *sql.Tx, k *keys) error {
	rec, err := sealManifest(k, &d.manifestState)
	if err != nil {
		return err
	}
	return putMeta(tx, metaManifest, rec)
}

// apply makes the committed changes part of the manifest.
func (d *delta) apply() {
	m := d.base
	for c, n := range d.counts {
		if n != 0 {
			if m.counts[c] += n; m.counts[c] == 0 {
				delete(m.counts, c)
			}
		}
	}
	for ref, s := range d.rows {
		if s == nil {
			delete(m.rows, ref)
		} else {
			m.rows[ref] = *s
		}
	}
	m.manifestState = d.manifestState
}

// checkRow returns an error wrapping ErrTampered unless the row read is the
// one the manifest knows at that id.
func checkRow(want rowState, known bool, r rowRef, ver uint64, parent, rank int64) error {
	if !known {
		return fmt.Errorf("%s %d: %w: row unknown to the manifest", tableNames[r.tab], r.id, ErrTampered)
	}
	if want.ver != ver || want.parent != parent || want.rank != rank {
		return fmt.Errorf("%s %d: %w: version %d where Tessera wrote %d", tableNames[r.tab], r.id, ErrTampered, ver, want.ver)
	}
	return nil
}
