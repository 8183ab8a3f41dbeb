package vault

import (
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/tessera-app/tessera/profile"
)

// Entry records are encoded in a small binary layout rather than JSON:
// loading a 5,000-entry vault spent most of its time in encoding/json
// (measured by BenchmarkUnlockKeyringLoad), and entries are the only
// records there are thousands of.
//
// Layout: format byte, flags byte (bit 0 field key, bit 1 verified), the
// confidence as a big-endian float64, then nine length-prefixed (uvarint)
// strings: key name, value JSON, source type, form URL, field path, source,
// extension id, source timestamp, last used.
const entryFormat = 1

const (
	flagField    = 1 << 0
	flagVerified = 1 << 1
)

func encodeEntry(e entryRec) []byte {
	strs := [...]string{e.Name, string(e.Entry.Value), e.Entry.Source.Type, e.Entry.Source.FormURL,
		e.Entry.Source.FieldPath, e.Entry.Source.Source, e.Entry.Source.ExtensionID,
		e.Entry.Source.Timestamp, e.Entry.LastUsed}
	n := 10
	for _, s := range strs {
		n += binary.MaxVarintLen32 + len(s)
	}
	b := make([]byte, 0, n)
	var flags byte
	if e.Field {
		flags |= flagField
	}
	if e.Entry.Verified {
		flags |= flagVerified
	}
	b = append(b, entryFormat, flags)
	b = binary.BigEndian.AppendUint64(b, math.Float64bits(e.Entry.Confidence))
	for _, s := range strs {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

var errEntryEncoding = errors.New("bad entry encoding")

// decodeEntry reverses encodeEntry. It never reads past b and fails on
// trailing bytes, so a damaged record cannot decode into something else.
func decodeEntry(b []byte) (entryRec, error) {
	var e entryRec
	if len(b) < 10 || b[0] != entryFormat || b[1]&^(flagField|flagVerified) != 0 {
		return e, errEntryEncoding
	}
	e.Field = b[1]&flagField != 0
	e.Entry.Verified = b[1]&flagVerified != 0
	e.Entry.Confidence = math.Float64frombits(binary.BigEndian.Uint64(b[2:10]))
	b = b[10:]
	var strs [9]string
	for i := range strs {
		n, k := binary.Uvarint(b)
		// Only the shortest varint is accepted, so that every record has
		// exactly one encoding.
		if k <= 0 || k != uvarintLen(n) || n > uint64(len(b)-k) {
			return e, errEntryEncoding
		}
		strs[i] = string(b[k : k+int(n)])
		b = b[k+int(n):]
	}
	if len(b) != 0 || !json.Valid([]byte(strs[1])) {
		return e, errEntryEncoding
	}
	e.Name = strs[0]
	e.Entry.Value = json.RawMessage(strs[1])
	e.Entry.Source = profile.Source{Type: strs[2], FormURL: strs[3], FieldPath: strs[4], Source: strs[5],
		ExtensionID: strs[6], Timestamp: strs[7]}
	e.Entry.LastUsed = strs[8]
	return e, nil
}

func sealEntry(k *keys, e entryRec, at place) ([]byte, error) {
	pt := encodeEntry(e)
	defer clear(pt)
	return sealRecord(k.seal, pt, at.ad())
}

func openEntry(k *keys, at place, rec []byte) (entryRec, error) {
	pt, err := openRecord(k.seal, rec, at.ad())
	if err != nil {
		return entryRec{}, fmt.Errorf("entry %d: %w", at.id, err)
	}
	e, err := decodeEntry(pt)
	clear(pt)
	if err != nil {
		return e, fmt.Errorf("entry %d: %w: %w", at.id, ErrCorrupt, err)
	}
	return e, nil
}

func uvarintLen(n uint64) int {
	var buf [binary.MaxVarintLen64]byte
	return binary.PutUvarint(buf[:], n)
}

// scanEntry reads one row of SELECT id, profile, rank, ver, rec FROM
// entries: the row is checked against the manifest and its record opened.
func (o *op) scanEntry(rows *sql.Rows) (row, prow int64, e entryRec, err error) {
	var rank, ver int64
	var rec []byte
	if err = rows.Scan(&row, &prow, &rank, &ver, &rec); err != nil {
		return 0, 0, entryRec{}, sqlErr(err)
	}
	if err = o.check(rowRef{tabEntries, row}, uint64(ver), prow, rank); err != nil {
		return 0, 0, entryRec{}, err
	}
	e, err = openEntry(o.k, entryPlace(row, prow, rank, uint64(ver)), rec)
	return row, prow, e, err
}
