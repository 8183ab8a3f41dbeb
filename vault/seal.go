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

// Sealed record layout: version byte, 24-byte XChaCha20 nonce, ciphertext
// with its 16-byte Poly1305 tag.
const (
	recordVersion = 1
	nonceSize     = chacha20poly1305.NonceSizeX
	// MaxRecordSize bounds one sealed record; a larger blob is refused before
	// any decryption work.
	MaxRecordSize  = 1 << 20
	recordOverhead = 1 + nonceSize + chacha20poly1305.Overhead
)

// keys are the subkeys derived from one data key. Deriving instead of reusing
// the data key keeps the AEAD and the lookup HMAC independent.
type keys struct {
	data   []byte
	seal   []byte
	lookup []byte
}

func deriveKeys(dataKey []byte) (*keys, error) {
	seal, err := hkdf.Key(sha256.New, dataKey, nil, "tessera vault seal v1", chacha20poly1305.KeySize)
	if err != nil {
		return nil, fmt.Errorf("derive seal key: %w", err)
	}
	lookup, err := hkdf.Key(sha256.New, dataKey, nil, "tessera vault lookup v1", 32)
	if err != nil {
		return nil, fmt.Errorf("derive lookup key: %w", err)
	}
	return &keys{data: dataKey, seal: seal, lookup: lookup}, nil
}

// wipe overwrites the key material so a locked vault keeps no key in the
// memory this package controls.
func (k *keys) wipe() {
	for _, b := range [][]byte{k.data, k.seal, k.lookup} {
		clear(b)
	}
}

// recordAD is the associated data binding a record to its place: the table
// name and the ids (row, parent row, rank) that locate it.
func recordAD(table string, ids ...int64) []byte {
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
	out[0] = recordVersion
	if _, err := rand.Read(out[1:]); err != nil {
		return nil, fmt.Errorf("seal record: %w", err)
	}
	return aead.Seal(out, out[1:1+nonceSize], plaintext, ad), nil
}

// openRecord authenticates and decrypts a sealed record. Any failure wraps
// ErrCorrupt: a record that does not open under the right key and place was
// damaged or moved.
func openRecord(key, record, ad []byte) ([]byte, error) {
	switch {
	case len(record) > MaxRecordSize:
		return nil, fmt.Errorf("open record: %w: %d bytes", ErrCorrupt, len(record))
	case len(record) < recordOverhead:
		return nil, fmt.Errorf("open record: %w: %d bytes is too short", ErrCorrupt, len(record))
	case record[0] != recordVersion:
		return nil, fmt.Errorf("open record: %w: unknown version %d", ErrCorrupt, record[0])
	}
	aead, err := chacha20poly1305.NewX(key)
	if err != nil {
		return nil, fmt.Errorf("open record: %w", err)
	}
	pt, err := aead.Open(nil, record[1:1+nonceSize], record[1+nonceSize:], ad)
	if err != nil {
		return nil, fmt.Errorf("open record: %w: authentication failed", ErrCorrupt)
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
