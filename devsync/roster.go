package devsync

import (
	"bytes"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"filippo.io/age"
)

// Membership. Every device has two keys of its own, kept sealed in its
// vault: an ed25519 key that signs every frame it writes, and an age
// X25519 identity that epoch keys are sealed to. Each device also keeps
// a roster file (STEM.tsr) of signed entries, each naming the epoch it
// was made in (In):
//
//   - join: the device's public keys, with a proof (a MAC under the key of
//     epoch In) that it holds that key, which only a member or a holder
//     of the recovery passphrase does;
//   - rotate: a member removes devices (naming how much of each it had
//     read) and starts a new epoch, whose key it seals to each remaining
//     member's identity and to the recovery identity, and to nobody else.
//
// Roster frames are sealed under the first epoch key, which every device
// that ever joined holds, so that every device reads the same entries and
// evaluates them the same way (evalRoster): all agree on who is a member,
// what was removed and which key is current. A removed device can still
// read the roster: device ids, public keys, how much of each removed
// device counts, and epoch keys sealed to others, which it cannot open.

// identity is a device's own keys.
type identity struct {
	sign ed25519.PrivateKey
	age  *age.X25519Identity
}

func newIdentity() (*identity, error) {
	_, sk, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	id, err := age.GenerateX25519Identity()
	if err != nil {
		return nil, err
	}
	return &identity{sign: sk, age: id}, nil
}

type identityDoc struct {
	Sign []byte `json:"sign"`
	Age  string `json:"age"`
}

func (i *identity) doc() identityDoc {
	return identityDoc{Sign: i.sign.Seed(), Age: i.age.String()}
}

func (d identityDoc) identity() (*identity, error) {
	if len(d.Sign) != ed25519.SeedSize {
		return nil, errors.New("device signing key: malformed")
	}
	id, err := age.ParseX25519Identity(d.Age)
	if err != nil {
		return nil, fmt.Errorf("device identity: %w", err)
	}
	return &identity{sign: ed25519.NewKeyFromSeed(d.Sign), age: id}, nil
}

func (i *identity) pub() ed25519.PublicKey { return i.sign.Public().(ed25519.PublicKey) }

// Kinds of roster entry.
const (
	entryJoin   = "join"
	entryRotate = "rotate"
)

// recoveryKey is the key, in a rotate entry's Keys, of the new epoch key
// sealed to the recovery identity.
const recoveryKey = "recovery"

// Limits on a roster entry.
const (
	maxRosterDevices = 1000
	maxSealedKey     = 1024
)

// A Removal names a device removed from the group and how much of it the
// remover had read: its journal records up to Journal and its roster
// entries up to Roster count; what it wrote after is ignored.
type Removal struct {
	Dev     string `json:"dev"`
	Journal uint64 `json:"journal"`
	Roster  uint64 `json:"roster"`
}

// A rosterEntry is one signed change of the membership.
type rosterEntry struct {
	Dev  string `json:"dev"`
	Seq  uint64 `json:"seq"`
	HLC  HLC    `json:"hlc"`
	Kind string `json:"kind"`
	// In is the key id of the epoch the entry was made in.
	In string `json:"in"`
	// Join: the device's signing key and age recipient, and the proof
	// that it holds epoch In's key; the first joiner also names the
	// recovery recipient.
	Pub       []byte `json:"pub,omitempty"`
	Recipient string `json:"recipient,omitempty"`
	Proof     []byte `json:"proof,omitempty"`
	Recovery  string `json:"recovery,omitempty"`
	// Rotate: the new epoch's number and key id, the devices removed, and
	// the new key sealed to each remaining member (by device id) and to
	// the recovery identity (recoveryKey).
	Epoch   uint64            `json:"epoch,omitempty"`
	KeyID   string            `json:"keyId,omitempty"`
	Removed []Removal         `json:"removed,omitempty"`
	Keys    map[string][]byte `json:"keys,omitempty"`
}

func (e *rosterEntry) check() error {
	if !validDeviceID(e.Dev) || e.Seq == 0 || len(e.In) != 2*keyIDSize {
		return fmt.Errorf("%w: roster entry: bad device, sequence or epoch", ErrMalformed)
	}
	if len(e.Recipient) > 200 || len(e.Recovery) > 200 {
		return fmt.Errorf("%w: roster entry: recipient too long", ErrMalformed)
	}
	switch e.Kind {
	case entryJoin:
		if len(e.Pub) != ed25519.PublicKeySize || !strings.HasPrefix(e.Recipient, "age1") || len(e.Proof) != sha256.Size {
			return fmt.Errorf("%w: join without keys", ErrMalformed)
		}
	case entryRotate:
		if e.Epoch < 2 || len(e.KeyID) != 2*keyIDSize || len(e.Keys) > maxRosterDevices+1 || len(e.Removed) > maxRosterDevices {
			return fmt.Errorf("%w: rotate entry", ErrMalformed)
		}
		for d, b := range e.Keys {
			if d != recoveryKey && !validDeviceID(d) || len(b) > maxSealedKey {
				return fmt.Errorf("%w: rotate entry keys", ErrMalformed)
			}
		}
		for _, r := range e.Removed {
			if !validDeviceID(r.Dev) {
				return fmt.Errorf("%w: rotate entry removals", ErrMalformed)
			}
		}
	default:
		return fmt.Errorf("%w: roster entry kind %.20q", ErrMalformed, e.Kind)
	}
	return nil
}

// A signedEntry is an opened roster frame: the entry, the epoch key it
// was sealed under, and its author's signature over the payload.
type signedEntry struct {
	E       rosterEntry `json:"-"`
	KeyID   string      `json:"k"`
	Payload []byte      `json:"p"`
	Sig     []byte      `json:"s"`
}

func (s *signedEntry) id() string { return fmt.Sprintf("%s.%d", s.E.Dev, s.E.Seq) }

func (s *signedEntry) frame() frame { return frame{keyID: s.KeyID, payload: s.Payload, sig: s.Sig} }

func decodeEntry(payload []byte) (rosterEntry, error) {
	var e rosterEntry
	if err := json.Unmarshal(payload, &e); err != nil {
		return e, fmt.Errorf("%w: roster entry: %w", ErrMalformed, err)
	}
	return e, e.check()
}

// parseRoster reads a roster file: its entries, how many bytes are whole
// frames, and why it stopped early, if it did.
func (k *keys) parseRoster(b []byte) (out []*signedEntry, complete int, err error) {
	for complete < len(b) {
		f, n, err := k.nextFrame(kindRoster, b[complete:], MaxRosterEntrySize)
		if err == nil && n > 0 && f.keyID != k.first {
			err = fmt.Errorf("%w: roster frame under another key than the first", ErrDamaged)
		}
		if err != nil {
			return out, complete, err
		}
		if n == 0 {
			break
		}
		e, err := decodeEntry(f.payload)
		if err != nil {
			return out, complete, err
		}
		out = append(out, &signedEntry{E: e, KeyID: f.keyID, Payload: bytes.Clone(f.payload), Sig: bytes.Clone(f.sig)})
		complete += n
	}
	return out, complete, nil
}

// sealEntry signs e and seals it under the first epoch key.
func (k *keys) sealEntry(sign ed25519.PrivateKey, e *rosterEntry) (*signedEntry, []byte, error) {
	b, err := json.Marshal(e)
	if err != nil {
		return nil, nil, err
	}
	fr, err := k.seal(kindRoster, k.first, sign, b)
	if err != nil {
		return nil, nil, err
	}
	sig := ed25519.Sign(sign, k.sigMessage(kindRoster, k.first, b))
	return &signedEntry{E: *e, KeyID: k.first, Payload: b, Sig: sig}, fr, nil
}

// joinProof is what a join entry carries to show its device holds the
// key of the epoch it joins.
func (k *keys) joinProof(in string, e *rosterEntry) []byte {
	ek := k.epochs[in]
	if ek == nil {
		return nil
	}
	m := hmac.New(sha256.New, ek.raw[:])
	m.Write([]byte("tessera sync join\x00" + e.Dev + "\x00" + e.Recipient + "\x00"))
	m.Write(k.group[:])
	m.Write(e.Pub)
	return m.Sum(nil)
}

// resealEntry seals an entry again as its author signed it.
func (k *keys) resealEntry(se *signedEntry) ([]byte, error) {
	return k.sealSigned(kindRoster, k.first, se.Payload, se.Sig)
}

// A member is a device of the current epoch.
type member struct {
	pub       ed25519.PublicKey
	recipient string
}

// A roster is the membership as the entries read so far give it.
type roster struct {
	// epoch is the current epoch's number, cur its key id.
	epoch uint64
	cur   string
	// members are the devices of the current epoch.
	members map[string]member
	// known holds the signing key of every device that ever joined, so
	// that what a device wrote before it was removed can still be read.
	known map[string]ed25519.PublicKey
	// removed are the devices removed, with the least of what their
	// removers had read of them.
	removed map[string]Removal
	// recovery is the recovery recipient the next epoch key is sealed to.
	recovery string
	// rotations are the valid rotate entries, in order.
	rotations []*rosterEntry
	// by says which device removed each removed device.
	by map[string]string
	// hlc is the highest HLC of an entry that counts: a device's next
	// entry must sort after every entry it has read.
	hlc HLC
}

// isMember reports whether dev is a member of the current epoch.
func (r *roster) isMember(dev string) bool {
	_, ok := r.members[dev]
	return ok
}

// out reports whether dev joined once but is not a member now: it was
// removed, or it joined in an epoch that ended without it.
func (r *roster) out(dev string) bool {
	_, known := r.known[dev]
	return known && !r.isMember(dev)
}

func entryLess(a, b *signedEntry) int {
	switch {
	case a.E.HLC != b.E.HLC:
		return cmpU(uint64(a.E.HLC), uint64(b.E.HLC))
	case a.E.Dev != b.E.Dev:
		return strings.Compare(a.E.Dev, b.E.Dev)
	case a.E.Seq != b.E.Seq:
		return cmpU(a.E.Seq, b.E.Seq)
	}
	return bytes.Compare(a.Sig, b.Sig)
}

func cmpU(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// evalRoster computes the membership from a set of entries. It is a
// function of the set alone, whatever order the entries arrived in:
//
//   - entries are taken in HLC order (a device that read an entry writes
//     later ones with a larger HLC), and only those made in the epoch
//     current at that point count: an entry of an earlier epoch that
//     arrives late (a join concurrent with a removal, or one a removed
//     device backdates) has no effect;
//   - a join makes its device a member of the current epoch; a device id
//     keeps the signing key it first joined with, and a removed device
//     cannot join again under the same id;
//   - a rotate by a member starts the next epoch, whose members are the
//     devices it sealed the new key to, less those it removes;
//   - entries of a removed device after what its remover had read of its
//     roster are ignored, even when their HLC puts them earlier: the
//     evaluation runs again without them until nothing changes.
func (k *keys) evalRoster(all []*signedEntry) *roster {
	list := slices.Clone(all)
	slices.SortFunc(list, entryLess)
	excluded := map[*signedEntry]bool{}
	for {
		ro := &roster{epoch: 1, cur: k.first, members: map[string]member{}, known: map[string]ed25519.PublicKey{},
			removed: map[string]Removal{}, by: map[string]string{}}
		took := map[string]bool{}
		var applied []*signedEntry
		for _, se := range list {
			e := &se.E
			if excluded[se] || took[se.id()] || e.In != ro.cur {
				continue
			}
			switch e.Kind {
			case entryJoin:
				if _, gone := ro.removed[e.Dev]; gone {
					continue
				}
				pub := ed25519.PublicKey(e.Pub)
				if old, ok := ro.known[e.Dev]; ok && !old.Equal(pub) || !k.verify(kindRoster, se.frame(), pub) {
					continue
				}
				if proof := k.joinProof(e.In, e); proof == nil || !hmac.Equal(proof, e.Proof) {
					// Not proven, or not provable here: this device does
					// not hold the key of that epoch (it is not a member).
					continue
				}
				ro.members[e.Dev] = member{pub: pub, recipient: e.Recipient}
				ro.known[e.Dev] = pub
				if ro.recovery == "" {
					ro.recovery = e.Recovery
				}
			case entryRotate:
				m, ok := ro.members[e.Dev]
				if !ok || e.Epoch != ro.epoch+1 || !k.verify(kindRoster, se.frame(), m.pub) {
					continue
				}
				for _, rm := range e.Removed {
					if _, ok := ro.known[rm.Dev]; !ok {
						continue
					}
					if old, ok := ro.removed[rm.Dev]; ok {
						rm.Journal, rm.Roster = min(rm.Journal, old.Journal), min(rm.Roster, old.Roster)
					} else {
						ro.by[rm.Dev] = e.Dev
					}
					ro.removed[rm.Dev] = rm
				}
				next := map[string]member{}
				for d := range e.Keys {
					if m, ok := ro.members[d]; ok {
						if _, gone := ro.removed[d]; !gone {
							next[d] = m
						}
					}
				}
				ro.members, ro.epoch, ro.cur = next, e.Epoch, e.KeyID
				if e.Recovery != "" {
					ro.recovery = e.Recovery
				}
				ro.rotations = append(ro.rotations, e)
			default:
				continue
			}
			took[se.id()] = true
			applied = append(applied, se)
			ro.hlc = max(ro.hlc, e.HLC)
		}
		changed := false
		for _, se := range applied {
			if rm, ok := ro.removed[se.E.Dev]; ok && se.E.Seq > rm.Roster {
				excluded[se] = true
				changed = true
			}
		}
		if !changed {
			return ro
		}
	}
}

// openEpochKey opens the new key a rotate entry sealed to one of ids.
func openEpochKey(e *rosterEntry, ids map[string]age.Identity) ([32]byte, bool) {
	var key [32]byte
	for _, name := range slices.Sorted(maps.Keys(ids)) {
		b, ok := e.Keys[name]
		if !ok {
			continue
		}
		r, err := age.Decrypt(bytes.NewReader(b), ids[name])
		if err != nil {
			continue
		}
		pt, err := io.ReadAll(io.LimitReader(r, 64))
		if err != nil || len(pt) != 32 {
			continue
		}
		copy(key[:], pt)
		clear(pt)
		if keyID(key) == e.KeyID {
			return key, true
		}
	}
	return key, false
}

// sealEpochKey seals key to an age recipient.
func sealEpochKey(key [32]byte, recipient string) ([]byte, error) {
	r, err := age.ParseX25519Recipient(recipient)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	w, err := age.Encrypt(&buf, r)
	if err != nil {
		return nil, err
	}
	w.Write(key[:])
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
