package vault

import (
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	"golang.org/x/crypto/chacha20poly1305"
)

// Sealed record layout: format byte, 24-byte XChaCha20 nonce, ciphertext
// with its 16-byte Poly1305 tag. Format 1 records (written before tamper
// detection) are read only by the migration that re-seals them as format 2,
// whose associated data also names the record's version.
const (
	legacyRecordFormat = 1
	recordFormat       = 2
	nonceSize          = chacha20poly1305.NonceSizeX
	// MaxRecordSize bounds one sealed record; a larger blob is refused before
	// any decryption work.
	MaxRecordSize  = 1 << 20
	recordOverhead = 1 + nonceSize + chacha20poly1305.Overhead
)

// keys are the subkeys derived from one data key. Deriving instead of reusing
// the data key keeps the AEAD, the lookup HMAC and the manifest MAC
// independent. All four live in one buffer that is locked in memory where the
// platform allows (never swapped out) and zeroed by wipe.
type keys struct {
	mem    keyMem
	data   []byte
	seal   []byte
	lookup []byte
	mac    []byte
}

// deriveKeys copies dataKey into locked memory and derives its subkeys
// there; the caller zeroes its own copy.
func deriveKeys(dataKey []byte) (*keys, error) {
	k := &keys{mem: allocKeyMem(4 * keySize)}
	b := k.mem.bytes()
	k.data, k.seal, k.lookup, k.mac = b[0:keySize:keySize], b[keySize:2*keySize:2*keySize], b[2*keySize:3*keySize:3*keySize], b[3*keySize:]
	copy(k.data, dataKey)
	for _, d := range []struct {
		dst  []byte
		info string
	}{{k.seal, "tessera vault seal v1"}, {k.lookup, "tessera vault lookup v1"}, {k.mac, "tessera vault manifest v1"}} {
		sub, err := hkdf.Key(sha256.New, k.data, nil, d.info, keySize)
		if err != nil {
			k.wipe()
			return nil, fmt.Errorf("derive keys: %w", err)
		}
		copy(d.dst, sub)
		clear(sub)
	}
	return k, nil
}

// wipe zeroes the key material and releases its locked memory, so a locked
// vault keeps no key in the memory this package controls.
func (k *keys) wipe() {
	k.mem.free()
	k.data, k.seal, k.lookup, k.mac = nil, nil, nil, nil
}

// A place is where a record belongs: its table, row id, parent row and rank
// (entries only) and version. The associated data of a sealed record names
// all of them, so a record opens only in the row, and at the version, it was
// written for.
type place struct {
	table        string
	id           int64
	parent, rank int64
	ver          uint64
}

func profilePlace(id int64, ver uint64) place { return place{table: "profiles", id: id, ver: ver} }

func entryPlace(id, parent, rank int64, ver uint64) place {
	return place{table: "entries", id: id, parent: parent, rank: rank, ver: ver}
}

func auditPlace(id int64, ver uint64) place { return place{table: "audit", id: id, ver: ver} }

func sitePlace(id, parent int64, ver uint64) place {
	return place{table: "sites", id: id, parent: parent, ver: ver}
}

// ad returns the associated data of a format 2 record.
func (p place) ad() []byte {
	ad := make([]byte, 0, 64+len(p.table))
	ad = append(ad, "tessera-vault/2\x00"...)
	ad = append(ad, p.table...)
	ad = append(ad, 0)
	ad = binary.BigEndian.AppendUint64(ad, uint64(p.id))
	switch p.table {
	case "entries":
		ad = binary.BigEndian.AppendUint64(ad, uint64(p.parent))
		ad = binary.BigEndian.AppendUint64(ad, uint64(p.rank))
	case "sites":
		ad = binary.BigEndian.AppendUint64(ad, uint64(p.parent))
	}
	return binary.BigEndian.AppendUint64(ad, p.ver)
}

// legacyAD returns the associated data format 1 records were sealed with:
// the place without its version.
func (p place) legacyAD() []byte {
	if p.table == "entries" {
		return recordADv1(p.table, p.id, p.parent, p.rank)
	}
	return recordADv1(p.table, p.id)
}

func recordADv1(table string, ids ...int64) []byte {
	ad := make([]byte, 0, 32+len(table)+8*len(ids))
	ad = append(ad, "tessera-vault/1\x00"...)
	ad = append(ad, table...)
	ad = append(ad, 0)
	for _, id := range ids {
		ad = binary.BigEndian.AppendUint64(ad, uint64(id))
	}
	return ad
}

func sealRecord(key, plaintext, ad []byte) ([]byte, error) {
	if len(plaintext) > MaxRecordSize-recordOverhead {
		return nil, fmt.Errorf("seal record: %w: %d bytes", ErrTooLarge, len(plaintext))
	}
	aead, err := chacha20poly1305.NewX(key)
	if err != nil {
		return nil, fmt.Errorf("seal record: %w", err)
	}
	out := make([]byte, 1+nonceSize, recordOverhead+len(plaintext))
	out[0] = recordFormat
	if _, err := rand.Read(out[1:]); err != nil {
		return nil, fmt.Errorf("seal record: %w", err)
	}
	return aead.Seal(out, out[1:1+nonceSize], plaintext, ad), nil
}

// openRecord authenticates and decrypts a format 2 record. Any failure wraps
// ErrTampered: a record that does not open under the right key, place and
// version was changed, replaced or moved outside Tessera.
func openRecord(key, record, ad []byte) ([]byte, error) {
	return openFormat(key, record, ad, recordFormat)
}

func openFormat(key, record, ad []byte, format byte) ([]byte, error) {
	switch {
	case len(record) > MaxRecordSize:
		return nil, fmt.Errorf("open record: %w: %d bytes", ErrTampered, len(record))
	case len(record) < recordOverhead:
		return nil, fmt.Errorf("open record: %w: %d bytes is too short", ErrTampered, len(record))
	case record[0] != format:
		return nil, fmt.Errorf("open record: %w: format %d where %d belongs", ErrTampered, record[0], format)
	}
	aead, err := chacha20poly1305.NewX(key)
	if err != nil {
		return nil, fmt.Errorf("open record: %w", err)
	}
	pt, err := aead.Open(nil, record[1:1+nonceSize], record[1+nonceSize:], ad)
	if err != nil {
		return nil, fmt.Errorf("open record: %w: authentication failed", ErrTampered)
	}
	return pt, nil
}

// lookupKey returns the keyed hash under which a name (profile id, concept
// IRI, field path) is indexed, so equal names find each other without the
// name being stored.
func (k *keys) lookupKey(parts ...string) []byte {
	m := hmac.New(sha256.New, k.lookup)
	for _, p := range parts {
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], uint32(len(p)))
		m.Write(n[:])
		m.Write([]byte(p))
	}
	return m.Sum(nil)
}
