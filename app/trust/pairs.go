package trust

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/big"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/tessera-app/tessera/internal/safefile"
)

// pairSignContext and pairCodeContext separate what is signed and what is
// hashed for the code from any other use of the key or challenge.
const (
	pairSignContext = "tessera pair v1"
	pairCodeContext = "tessera pair code v1"
)

// ChallengeSize is the size of a session's random challenge.
const ChallengeSize = 32

// PairedFile is the name of the paired-installs store in the data directory.
const PairedFile = "paired-browsers.json"

// MaxPaired bounds the store: installs beyond it must be unpaired first.
const MaxPaired = 64

// A PairedBrowser is one extension install the person paired.
type PairedBrowser struct {
	// ID is the key's fingerprint: the first 16 hex digits of SHA-256 of
	// the raw public key.
	ID string `json:"id"`
	// Key is the raw (uncompressed, 65 bytes) P-256 public key.
	Key []byte `json:"key"`
	// Origin is the extension origin the verified host named.
	Origin string `json:"origin"`
	// Browser is the verified browser family, Exe its executable, and Name
	// what the extension called itself, at pairing.
	Browser string    `json:"browser"`
	Exe     string    `json:"exe,omitempty"`
	Name    string    `json:"name,omitempty"`
	Paired  time.Time `json:"paired"`
	// LastUsed is when a session last proved the key (this run of the
	// app only; zero until then).
	LastUsed time.Time `json:"lastUsed,omitzero"`
}

// Pairs holds the paired installs. It is read from the data directory
// once, when the app starts, and afterwards the app's memory is what
// counts: a file written behind the app's back while it runs changes
// nothing and is overwritten at the next change (SECURITY.md, "Pairing").
type Pairs struct {
	mu   sync.Mutex
	path string // "" keeps the store in memory only
	list []PairedBrowser
}

// LoadPairs reads the store in home ("" for memory only). A missing
// file is an empty store; an unreadable one is an error, logged by the
// caller, and the store starts empty (nothing is paired that the person
// did not pair).
func LoadPairs(home string) (*Pairs, error) {
	s := &Pairs{}
	if home == "" {
		return s, nil
	}
	s.path = filepath.Join(home, PairedFile)
	list, err := safefile.ReadList[PairedBrowser](s.path, "paired browsers")
	if err != nil {
		return s, err
	}
	for _, p := range list {
		if _, err := ParseKey(p.Key); err == nil && p.ID == KeyID(p.Key) && len(s.list) < MaxPaired {
			s.list = append(s.list, p)
		}
	}
	return s, nil
}

// Find returns the paired install with key, if any.
func (s *Pairs) Find(key []byte) (PairedBrowser, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := KeyID(key)
	for _, p := range s.list {
		if p.ID == id && string(p.Key) == string(key) {
			return p, true
		}
	}
	return PairedBrowser{}, false
}

// Used notes that a session proved id now.
func (s *Pairs) Used(id string, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.list {
		if s.list[i].ID == id {
			s.list[i].LastUsed = now
		}
	}
}

// Add stores p (replacing an entry with the same key) and saves.
func (s *Pairs) Add(p PairedBrowser) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	list := slices.DeleteFunc(slices.Clone(s.list), func(q PairedBrowser) bool { return q.ID == p.ID })
	if len(list) >= MaxPaired {
		return fmt.Errorf("%d browsers are paired already: unpair one in Settings first", MaxPaired)
	}
	list = append(list, p)
	if err := s.save(list); err != nil {
		return err
	}
	s.list = list
	return nil
}

// Remove drops the install id and saves; it reports whether it was there.
func (s *Pairs) Remove(id string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	list := slices.DeleteFunc(slices.Clone(s.list), func(q PairedBrowser) bool { return q.ID == id })
	if len(list) == len(s.list) {
		return false, nil
	}
	if err := s.save(list); err != nil {
		return false, err
	}
	s.list = list
	return true, nil
}

// All returns the paired installs.
func (s *Pairs) All() []PairedBrowser {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.list)
}

func (s *Pairs) save(list []PairedBrowser) error {
	return safefile.WriteList(s.path, "paired browsers", list)
}

// KeyID is a key's fingerprint.
func KeyID(key []byte) string {
	h := sha256.Sum256(key)
	return hex.EncodeToString(h[:8])
}

// ParseKey checks a raw uncompressed P-256 public key.
func ParseKey(raw []byte) (*ecdsa.PublicKey, error) {
	return ecdsa.ParseUncompressedPublicKey(elliptic.P256(), raw)
}

// SignedMessage is what the extension signs to prove its key in session sid
// with its challenge.
func SignedMessage(challenge []byte, sid string) []byte {
	m := append([]byte(pairSignContext), 0)
	m = append(m, challenge...)
	m = append(m, 0)
	return append(m, sid...)
}

// VerifySignature reports whether sig (IEEE P1363: r then s, 32 bytes
// each, as WebCrypto signs) is key's ECDSA-SHA-256 signature of msg.
func VerifySignature(key *ecdsa.PublicKey, msg, sig []byte) bool {
	if len(sig) != 64 {
		return false
	}
	h := sha256.Sum256(msg)
	r, s := new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])
	return ecdsa.Verify(key, h[:], r, s)
}

// Code is the six-digit code both the app and the popup show for key
// asking to pair in the session with challenge: derived from both, so a key
// swapped on the way shows another code.
func Code(challenge, key []byte) string {
	h := sha256.New()
	h.Write([]byte(pairCodeContext))
	h.Write([]byte{0})
	h.Write(challenge)
	h.Write(key)
	n := binary.BigEndian.Uint32(h.Sum(nil)) % 1_000_000
	return fmt.Sprintf("%03d %03d", n/1000, n%1000)
}

// NewChallenge returns a fresh random challenge.
func NewChallenge() []byte {
	b := make([]byte, ChallengeSize)
	rand.Read(b)
	return b
}
