package devsync

import (
	"bytes"
	"crypto/ed25519"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"filippo.io/age"
	"golang.org/x/crypto/chacha20poly1305"
)

// A Secret is what a device needs to become a member of a vault's sync
// group: the group id and root key (which name the files and give the
// first epoch key), the later epoch keys it was handed, and, for a holder
// of the recovery passphrase only, the recovery identity that opens every
// epoch key sealed to it. It never appears in a plain file: the vault
// keeps it sealed, and the group file wraps it with the recovery
// passphrase.
type Secret struct {
	Group [16]byte
	Key   [32]byte
	// Epochs are epoch keys beyond the first, as handed over by an
	// approving device.
	Epochs [][32]byte
	// Recovery is the recovery identity (an age X25519 identity), or "".
	Recovery string
}

// NewSecret returns a new random group secret with a new recovery
// identity.
func NewSecret() (Secret, error) {
	var s Secret
	if _, err := rand.Read(s.Group[:]); err != nil {
		return s, err
	}
	if _, err := rand.Read(s.Key[:]); err != nil {
		return s, err
	}
	id, err := age.GenerateX25519Identity()
	if err != nil {
		return s, err
	}
	s.Recovery = id.String()
	return s, nil
}

// GroupID returns the group id in hex.
func (s Secret) GroupID() string { return hex.EncodeToString(s.Group[:]) }

// keys are what a device derives from the group secret and the epoch keys
// it holds: one key names files, one seals frames per epoch.
type keys struct {
	group [16]byte
	name  []byte
	// first is the id of the first epoch key, derived from the root key.
	first string
	// epochs maps a key id to the epoch key and its sealing subkey.
	epochs map[string]*epochKey
}

type epochKey struct {
	raw  [32]byte
	seal []byte
}

func deriveGroupKeys(s Secret) (*keys, error) {
	k := &keys{group: s.Group, epochs: map[string]*epochKey{}}
	var err error
	if k.name, err = hkdf.Key(sha256.New, s.Key[:], s.Group[:], "tessera sync names v2", 32); err != nil {
		return nil, err
	}
	first, err := hkdf.Key(sha256.New, s.Key[:], s.Group[:], "tessera sync epoch 1", 32)
	if err != nil {
		return nil, err
	}
	if k.first, err = k.add([32]byte(first)); err != nil {
		return nil, err
	}
	for _, e := range s.Epochs {
		if _, err := k.add(e); err != nil {
			return nil, err
		}
	}
	return k, nil
}

// keyID names an epoch key in frame headers: a keyed hash, so the header
// says which key without giving it away.
func keyID(key [32]byte) string {
	m := hmac.New(sha256.New, key[:])
	m.Write([]byte("tessera sync key id"))
	return hex.EncodeToString(m.Sum(nil)[:keyIDSize])
}

// add makes an epoch key usable and returns its id.
func (k *keys) add(key [32]byte) (string, error) {
	id := keyID(key)
	if k.epochs[id] != nil {
		return id, nil
	}
	seal, err := hkdf.Key(sha256.New, key[:], k.group[:], "tessera sync seal v2", 32)
	if err != nil {
		return "", err
	}
	k.epochs[id] = &epochKey{raw: key, seal: seal}
	return id, nil
}

// stem returns the file name stem of a device: a keyed hash of its id, so
// the folder does not name devices.
func (k *keys) stem(dev string) string {
	m := hmac.New(sha256.New, k.name)
	m.Write([]byte(dev))
	return hex.EncodeToString(m.Sum(nil)[:8])
}

// Sealed framing. A file is a sequence of frames: a 4-byte big-endian
// length, then that many bytes: the 8-byte id of the epoch key that
// seals it, a 24-byte nonce, and the ciphertext with its 16-byte tag.
// The plaintext is a 4-byte length, the JSON payload, the writer's
// 64-byte ed25519 signature, and zero padding to a multiple of padTo.
const (
	frameHeader = 4
	keyIDSize   = 8
	nonceSize   = chacha20poly1305.NonceSizeX
	sealOver    = keyIDSize + nonceSize + chacha20poly1305.Overhead
	padTo       = 256
	// MaxRecordSize bounds one journal frame.
	MaxRecordSize = 4 << 20
	// MaxSnapshotSize bounds a snapshot frame.
	MaxSnapshotSize = 256 << 20
	// MaxRosterEntrySize bounds one roster frame.
	MaxRosterEntrySize = 1 << 20
)

const (
	kindJournal  byte = 'j'
	kindSnapshot byte = 's'
	kindRoster   byte = 'r'
)

func (k *keys) ad(kind byte, id []byte) []byte {
	ad := append([]byte("tessera-sync/2\x00"), k.group[:]...)
	ad = append(ad, kind)
	return append(ad, id...)
}

// sigMessage is what a frame's signature covers: the group, the kind of
// file, the epoch key and the payload, so a signed payload cannot be
// replayed in another group, file kind or epoch.
func (k *keys) sigMessage(kind byte, id string, payload []byte) []byte {
	m := append([]byte("tessera-sync/2 signed\x00"), k.group[:]...)
	m = append(m, kind)
	m = append(m, id...)
	return append(m, payload...)
}

// seal frames payload as one frame of kind under epoch key id, signed
// with sign.
func (k *keys) seal(kind byte, id string, sign ed25519.PrivateKey, payload []byte) ([]byte, error) {
	ek := k.epochs[id]
	if ek == nil {
		return nil, fmt.Errorf("seal: no epoch key %s", id)
	}
	return k.sealSigned(kind, id, payload, ed25519.Sign(sign, k.sigMessage(kind, id, payload)))
}

// sealSigned frames payload and its signature sig under epoch key id.
func (k *keys) sealSigned(kind byte, id string, payload, sig []byte) ([]byte, error) {
	ek := k.epochs[id]
	if ek == nil {
		return nil, fmt.Errorf("seal: no epoch key %s", id)
	}
	rawID, _ := hex.DecodeString(id)
	n := 4 + len(payload) + ed25519.SignatureSize
	n += (padTo - n%padTo) % padTo
	pt := make([]byte, n)
	binary.BigEndian.PutUint32(pt, uint32(len(payload)))
	copy(pt[4:], payload)
	copy(pt[4+len(payload):], sig)
	aead, err := chacha20poly1305.NewX(ek.seal)
	if err != nil {
		return nil, err
	}
	out := make([]byte, frameHeader+keyIDSize+nonceSize, frameHeader+sealOver+n)
	copy(out[frameHeader:], rawID)
	if _, err := rand.Read(out[frameHeader+keyIDSize : frameHeader+keyIDSize+nonceSize]); err != nil {
		return nil, err
	}
	out = aead.Seal(out, out[frameHeader+keyIDSize:frameHeader+keyIDSize+nonceSize], pt, k.ad(kind, rawID))
	binary.BigEndian.PutUint32(out, uint32(len(out)-frameHeader))
	clear(pt)
	return out, nil
}

// ErrDamaged is wrapped by errors about a frame that does not open: bytes
// not written by a device of this vault, or a partly written frame that
// the sync tool has not finished bringing.
var ErrDamaged = errors.New("sync file damaged or not yet complete")

// errNoKey is wrapped by errors about a frame sealed under an epoch key
// this device does not hold: one it has not learned yet, or one it is
// not given (it was removed).
var errNoKey = errors.New("sealed under an epoch key this device does not hold")

// A frame is one opened frame: the epoch key it was sealed under, its
// payload and the writer's signature over it.
type frame struct {
	keyID   string
	payload []byte
	sig     []byte
}

// verify reports whether pub signed the frame.
func (k *keys) verify(kind byte, f frame, pub ed25519.PublicKey) bool {
	return len(pub) == ed25519.PublicKeySize && ed25519.Verify(pub, k.sigMessage(kind, f.keyID, f.payload), f.sig)
}

// nextFrame opens the frame at the start of b. It returns the frame and
// its size, or n == 0 when b holds only part of a frame (read again when
// more has arrived). A frame under an unknown key returns an error
// wrapping errNoKey, and its size.
func (k *keys) nextFrame(kind byte, b []byte, limit int) (f frame, n int, err error) {
	if len(b) < frameHeader {
		return f, 0, nil
	}
	l := int(binary.BigEndian.Uint32(b))
	if l > limit || l < sealOver+padTo {
		return f, 0, fmt.Errorf("%w: frame of %d bytes", ErrDamaged, l)
	}
	if len(b) < frameHeader+l {
		return f, 0, nil
	}
	sealed := b[frameHeader : frameHeader+l]
	rawID := sealed[:keyIDSize]
	f.keyID = hex.EncodeToString(rawID)
	ek := k.epochs[f.keyID]
	if ek == nil {
		return f, frameHeader + l, fmt.Errorf("%w (key %s)", errNoKey, f.keyID)
	}
	aead, err := chacha20poly1305.NewX(ek.seal)
	if err != nil {
		return f, 0, err
	}
	pt, err := aead.Open(nil, sealed[keyIDSize:keyIDSize+nonceSize], sealed[keyIDSize+nonceSize:], k.ad(kind, rawID))
	if err != nil {
		return f, 0, fmt.Errorf("%w: a frame does not open", ErrDamaged)
	}
	pl := int(binary.BigEndian.Uint32(pt))
	if pl > len(pt)-4-ed25519.SignatureSize {
		return f, 0, fmt.Errorf("%w: payload length", ErrDamaged)
	}
	f.payload, f.sig = pt[4:4+pl], pt[4+pl:4+pl+ed25519.SignatureSize]
	return f, frameHeader + l, nil
}

// A Parsed journal is what ParseJournal read of a file.
type Parsed struct {
	Records []*Record
	// Complete is how many bytes of the input are whole records read or
	// skipped; the rest is a record still arriving, or one that waits
	// (Err is set then).
	Complete int
	// Forged counts frames skipped because they do not carry the
	// signature of the device they name.
	Forged int
	// Err, when set, says why reading stopped before the end.
	Err error
}

// errUnknownDevice is wrapped by errors about a record of a device this
// device does not know as a member of the group (yet: its roster entry
// may not have arrived).
var errUnknownDevice = errors.New("written by a device not known as a member")

// A pubFunc returns the signing key of a device known as a member, or
// removed from the group, and nil for any other.
type pubFunc func(dev string) ed25519.PublicKey

// ParseJournal reads the records of a journal file. It never fails as a
// whole: it returns every whole, authentic record before the first frame
// that is incomplete, does not open, does not make sense, is sealed
// under an epoch key it does not hold or names a device pubOf does not
// know. A frame that opens but does not carry the signature of the device
// it names is skipped and counted as forged.
func (k *keys) ParseJournal(b []byte, pubOf pubFunc) Parsed {
	var p Parsed
	for p.Complete < len(b) {
		f, n, err := k.nextFrame(kindJournal, b[p.Complete:], MaxRecordSize)
		if err != nil {
			p.Err = err
			return p
		}
		if n == 0 {
			return p
		}
		r, err := decodeRecord(f.payload)
		if err != nil {
			p.Err = err
			return p
		}
		pub := pubOf(r.Dev)
		if pub == nil {
			p.Err = fmt.Errorf("%w: %s", errUnknownDevice, r.Dev)
			return p
		}
		p.Complete += n
		if !k.verify(kindJournal, f, pub) {
			p.Forged++
			continue
		}
		p.Records = append(p.Records, r)
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

func (k *keys) sealRecord(id string, sign ed25519.PrivateKey, r *Record) ([]byte, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	if len(b) > MaxRecordSize-sealOver-padTo-ed25519.SignatureSize {
		return nil, fmt.Errorf("sync record of %d bytes: too large", len(b))
	}
	return k.seal(kindJournal, id, sign, b)
}

// snapshotDoc is a snapshot's payload: the writer, its journal epoch, and
// its whole state.
type snapshotDoc struct {
	Dev   string `json:"dev"`
	Epoch uint64 `json:"epoch"`
	State *State `json:"state"`
}

func (k *keys) sealSnapshot(id string, sign ed25519.PrivateKey, d *snapshotDoc) ([]byte, error) {
	b, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	if len(b) > MaxSnapshotSize-sealOver-padTo-ed25519.SignatureSize {
		return nil, fmt.Errorf("snapshot of %d bytes: too large", len(b))
	}
	return k.seal(kindSnapshot, id, sign, b)
}

// parseSnapshot opens a snapshot file: nil when it is not whole yet, an
// error wrapping errNoKey or errUnknownDevice when it has to wait, and
// ErrDamaged when its signature is not its writer's.
func (k *keys) parseSnapshot(b []byte, pubOf pubFunc) (*snapshotDoc, error) {
	f, n, err := k.nextFrame(kindSnapshot, b, MaxSnapshotSize)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, nil
	}
	var d snapshotDoc
	if err := json.Unmarshal(f.payload, &d); err != nil {
		return nil, fmt.Errorf("%w: snapshot: %w", ErrMalformed, err)
	}
	if !validDeviceID(d.Dev) || d.State == nil {
		return nil, fmt.Errorf("%w: snapshot without device or state", ErrMalformed)
	}
	pub := pubOf(d.Dev)
	if pub == nil {
		return nil, fmt.Errorf("%w: %s", errUnknownDevice, d.Dev)
	}
	if !k.verify(kindSnapshot, f, pub) {
		return nil, fmt.Errorf("%w: a snapshot does not carry the signature of device %s", ErrDamaged, d.Dev)
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

// learned returns the epoch keys beyond the first, in a stable order.
func (k *keys) learned() [][32]byte {
	var out [][32]byte
	for _, id := range slices.Sorted(maps.Keys(k.epochs)) {
		if id != k.first {
			out = append(out, k.epochs[id].raw)
		}
	}
	return out
}
