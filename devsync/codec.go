package devsync

import (
	"bytes"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"golang.org/x/crypto/chacha20poly1305"
)

// A Secret is what every device of a vault holds to read and write the
// sync folder: the group id and the group key. It never appears in a plain
// file: the vault keeps it sealed, and the group file wraps it with the
// recovery passphrase.
type Secret struct {
	Group [16]byte
	Key   [32]byte
}

// NewSecret returns a new random group secret.
func NewSecret() (Secret, error) {
	var s Secret
	if _, err := rand.Read(s.Group[:]); err != nil {
		return s, err
	}
	_, err := rand.Read(s.Key[:])
	return s, err
}

// GroupID returns the group id in hex.
func (s Secret) GroupID() string { return hex.EncodeToString(s.Group[:]) }

// keys are the subkeys of a group key: one seals records, one names files.
type keys struct {
	group   [16]byte
	sealKey []byte
	name    []byte
}

func deriveGroupKeys(s Secret) (*keys, error) {
	k := &keys{group: s.Group}
	var err error
	if k.sealKey, err = hkdf.Key(sha256.New, s.Key[:], s.Group[:], "tessera sync seal v1", 32); err != nil {
		return nil, err
	}
	if k.name, err = hkdf.Key(sha256.New, s.Key[:], s.Group[:], "tessera sync names v1", 32); err != nil {
		return nil, err
	}
	return k, nil
}

// stem returns the file name stem of a device: a keyed hash of its id, so
// the folder does not name devices.
func (k *keys) stem(dev string) string {
	m := hmac.New(sha256.New, k.name)
	m.Write([]byte(dev))
	return hex.EncodeToString(m.Sum(nil)[:8])
}

// Sealed framing. A file is a sequence of frames: a 4-byte big-endian
// length, then that many bytes of sealed record (24-byte nonce, ciphertext
// with its 16-byte tag). The plaintext is a 4-byte length, the JSON
// payload, and zero padding to a multiple of padTo.
const (
	frameHeader = 4
	nonceSize   = chacha20poly1305.NonceSizeX
	sealOver    = nonceSize + chacha20poly1305.Overhead
	padTo       = 256
	// MaxRecordSize bounds one journal frame.
	MaxRecordSize = 4 << 20
	// MaxSnapshotSize bounds a snapshot frame.
	MaxSnapshotSize = 256 << 20
)

const (
	kindJournal  byte = 'j'
	kindSnapshot byte = 's'
)

func (k *keys) ad(kind byte) []byte {
	ad := append([]byte("tessera-sync/1\x00"), k.group[:]...)
	return append(ad, kind)
}

// seal frames payload as one record of kind.
func (k *keys) seal(kind byte, payload []byte) ([]byte, error) {
	n := 4 + len(payload)
	n += (padTo - n%padTo) % padTo
	pt := make([]byte, n)
	binary.BigEndian.PutUint32(pt, uint32(len(payload)))
	copy(pt[4:], payload)
	aead, err := chacha20poly1305.NewX(k.sealKey)
	if err != nil {
		return nil, err
	}
	out := make([]byte, frameHeader+nonceSize, frameHeader+sealOver+n)
	if _, err := rand.Read(out[frameHeader : frameHeader+nonceSize]); err != nil {
		return nil, err
	}
	out = aead.Seal(out, out[frameHeader:frameHeader+nonceSize], pt, k.ad(kind))
	binary.BigEndian.PutUint32(out, uint32(len(out)-frameHeader))
	return out, nil
}

// ErrDamaged is wrapped by errors about a frame that does not open: bytes
// not written by a device of this vault, or a partly written frame that
// the sync tool has not finished bringing.
var ErrDamaged = errors.New("sync file damaged or not yet complete")

// nextFrame opens the frame at the start of b. It returns the payload and
// the frame's size, or n == 0 when b holds only part of a frame (read
// again when more has arrived).
func (k *keys) nextFrame(kind byte, b []byte, limit int) (payload []byte, n int, err error) {
	if len(b) < frameHeader {
		return nil, 0, nil
	}
	l := int(binary.BigEndian.Uint32(b))
	if l > limit || l < sealOver+padTo {
		return nil, 0, fmt.Errorf("%w: frame of %d bytes", ErrDamaged, l)
	}
	if len(b) < frameHeader+l {
		return nil, 0, nil
	}
	aead, err := chacha20poly1305.NewX(k.sealKey)
	if err != nil {
		return nil, 0, err
	}
	sealed := b[frameHeader : frameHeader+l]
	pt, err := aead.Open(nil, sealed[:nonceSize], sealed[nonceSize:], k.ad(kind))
	if err != nil {
		return nil, 0, fmt.Errorf("%w: a frame does not open", ErrDamaged)
	}
	pl := int(binary.BigEndian.Uint32(pt))
	if pl > len(pt)-4 {
		return nil, 0, fmt.Errorf("%w: payload length", ErrDamaged)
	}
	return pt[4 : 4+pl], frameHeader + l, nil
}

// A Parsed journal is what ParseJournal read of a file.
type Parsed struct {
	Records []*Record
	// Complete is how many bytes of the input are whole records; the rest
	// is a record still arriving (or damage, when Err is set).
	Complete int
	// Err, when set, says why reading stopped before the end.
	Err error
}

// ParseJournal reads the records of a journal file. It never fails as a
// whole: it returns every whole, authentic record before the first frame
// that is incomplete, does not open, or does not make sense.
func (k *keys) ParseJournal(b []byte) Parsed {
	var p Parsed
	for p.Complete < len(b) {
		payload, n, err := k.nextFrame(kindJournal, b[p.Complete:], MaxRecordSize)
		if err != nil {
			p.Err = err
			return p
		}
		if n == 0 {
			return p
		}
		r, err := decodeRecord(payload)
		if err != nil {
			p.Err = err
			return p
		}
		p.Records = append(p.Records, r)
		p.Complete += n
	}
	return p
}

func decodeRecord(payload []byte) (*Record, error) {
	var r Record
	dec := json.NewDecoder(bytes.NewReader(payload))
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	if err := r.check(); err != nil {
		return nil, err
	}
	return &r, nil
}

func (k *keys) sealRecord(r *Record) ([]byte, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	if len(b) > MaxRecordSize-sealOver-padTo {
		return nil, fmt.Errorf("sync record of %d bytes: too large", len(b))
	}
	return k.seal(kindJournal, b)
}

// snapshotDoc is a snapshot's payload: the writer, its journal epoch, and
// its whole state.
type snapshotDoc struct {
	Dev   string `json:"dev"`
	Epoch uint64 `json:"epoch"`
	State *State `json:"state"`
}

func (k *keys) sealSnapshot(d *snapshotDoc) ([]byte, error) {
	b, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	if len(b) > MaxSnapshotSize-sealOver-padTo {
		return nil, fmt.Errorf("snapshot of %d bytes: too large", len(b))
	}
	return k.seal(kindSnapshot, b)
}

func (k *keys) parseSnapshot(b []byte) (*snapshotDoc, error) {
	payload, n, err := k.nextFrame(kindSnapshot, b, MaxSnapshotSize)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, nil
	}
	var d snapshotDoc
	if err := json.Unmarshal(payload, &d); err != nil {
		return nil, fmt.Errorf("%w: snapshot: %w", ErrMalformed, err)
	}
	if !validDeviceID(d.Dev) || d.State == nil {
		return nil, fmt.Errorf("%w: snapshot without device or state", ErrMalformed)
	}
	d.State.fill()
	return &d, nil
}

// fill makes the maps of a decoded state non-nil.
func (s *State) fill() {
	if s.VV == nil {
		s.VV = map[string]uint64{}
	}
	if s.Profiles == nil {
		s.Profiles = map[string]*profState{}
	}
	if s.Devices == nil {
		s.Devices = map[string]*deviceState{}
	}
	if s.Last == nil {
		s.Last = map[string]HLC{}
	}
	for id, p := range s.Profiles {
		if p == nil {
			delete(s.Profiles, id)
			continue
		}
		if p.Present == nil {
			p.Present = map[Dot]HLC{}
		}
		if p.Labels == nil {
			p.Labels = map[Dot]labelEl{}
		}
		if p.Keys == nil {
			p.Keys = map[string]*kst{}
		}
		for k, ks := range p.Keys {
			if ks == nil {
				delete(p.Keys, k)
				continue
			}
			if ks.Values == nil {
				ks.Values = map[Dot]valueEl{}
			}
			if ks.Prefs == nil {
				ks.Prefs = map[Dot]prefEl{}
			}
		}
	}
	for d, ds := range s.Devices {
		if ds == nil {
			delete(s.Devices, d)
		}
	}
}
