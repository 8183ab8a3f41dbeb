package app

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/tessera-app/tessera/nativemsg"
)

// Pairing each extension install with the person's approval (PROTOCOL.md
// §2.1, "Pairing"). The extension keeps an ECDSA P-256 key pair it made
// with WebCrypto, its private half not extractable. Every browser session
// gets a fresh random challenge in session.hello and proves the key by
// signing it (pair.prove); a key the app does not know is NOT_PAIRED, and
// the extension may ask to be paired (pair.request): the app shows the
// verified browser and a six-digit code computed from the challenge and the
// key, which the popup shows too; the person approves or declines. Until a
// session has proven a paired key it may say hello and pair, nothing else.

// ConfirmPair is the kind of the dialog that pairs an extension install.
const ConfirmPair = "pair"

// Pairing methods: the only ones an unpaired browser session may call.
const (
	PairProveMethod   = "pair.prove"
	PairRequestMethod = "pair.request"
)

// pairSignContext and pairCodeContext separate what is signed and what is
// hashed for the code from any other use of the key or challenge.
const (
	pairSignContext = "tessera pair v1"
	pairCodeContext = "tessera pair code v1"
)

// challengeSize is the size of a session's random challenge.
const challengeSize = 32

// pairedFile is the name of the paired-installs store in the data directory.
const pairedFile = "paired-browsers.json"

// maxPaired bounds the store: installs beyond it must be unpaired first.
const maxPaired = 64

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

// pairStore holds the paired installs. It is read from the data directory
// once, when the app starts, and afterwards the app's memory is what
// counts: a file written behind the app's back while it runs changes
// nothing and is overwritten at the next change (SECURITY.md, "Pairing").
type pairStore struct {
	mu   sync.Mutex
	path string // "" keeps the store in memory only
	list []PairedBrowser
}

// loadPairStore reads the store in home ("" for memory only). A missing
// file is an empty store; an unreadable one is an error, logged by the
// caller, and the store starts empty (nothing is paired that the person
// did not pair).
func loadPairStore(home string) (*pairStore, error) {
	s := &pairStore{}
	if home == "" {
		return s, nil
	}
	s.path = filepath.Join(home, pairedFile)
	list, err := readStateList[PairedBrowser](s.path, "paired browsers")
	if err != nil {
		return s, err
	}
	for _, p := range list {
		if _, err := parsePairKey(p.Key); err == nil && p.ID == keyID(p.Key) && len(s.list) < maxPaired {
			s.list = append(s.list, p)
		}
	}
	return s, nil
}

// find returns the paired install with key, if any.
func (s *pairStore) find(key []byte) (PairedBrowser, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := keyID(key)
	for _, p := range s.list {
		if p.ID == id && string(p.Key) == string(key) {
			return p, true
		}
	}
	return PairedBrowser{}, false
}

// used notes that a session proved id now.
func (s *pairStore) used(id string, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.list {
		if s.list[i].ID == id {
			s.list[i].LastUsed = now
		}
	}
}

// add stores p (replacing an entry with the same key) and saves.
func (s *pairStore) add(p PairedBrowser) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	list := slices.DeleteFunc(slices.Clone(s.list), func(q PairedBrowser) bool { return q.ID == p.ID })
	if len(list) >= maxPaired {
		return fmt.Errorf("%d browsers are paired already: unpair one in Settings first", maxPaired)
	}
	list = append(list, p)
	if err := s.save(list); err != nil {
		return err
	}
	s.list = list
	return nil
}

// remove drops the install id and saves; it reports whether it was there.
func (s *pairStore) remove(id string) (bool, error) {
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

func (s *pairStore) all() []PairedBrowser {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.list)
}

func (s *pairStore) save(list []PairedBrowser) error {
	return writeStateList(s.path, "paired browsers", list)
}

// keyID is a key's fingerprint.
func keyID(key []byte) string {
	h := sha256.Sum256(key)
	return hex.EncodeToString(h[:8])
}

// parsePairKey checks a raw uncompressed P-256 public key.
func parsePairKey(raw []byte) (*ecdsa.PublicKey, error) {
	return ecdsa.ParseUncompressedPublicKey(elliptic.P256(), raw)
}

// pairMessage is what the extension signs to prove its key in session sid
// with its challenge.
func pairMessage(challenge []byte, sid string) []byte {
	m := append([]byte(pairSignContext), 0)
	m = append(m, challenge...)
	m = append(m, 0)
	return append(m, sid...)
}

// verifyPairSignature reports whether sig (IEEE P1363: r then s, 32 bytes
// each, as WebCrypto signs) is key's ECDSA-SHA-256 signature of msg.
func verifyPairSignature(key *ecdsa.PublicKey, msg, sig []byte) bool {
	if len(sig) != 64 {
		return false
	}
	h := sha256.Sum256(msg)
	r, s := new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])
	return ecdsa.Verify(key, h[:], r, s)
}

// PairCode is the six-digit code both the app and the popup show for key
// asking to pair in the session with challenge: derived from both, so a key
// swapped on the way shows another code.
func PairCode(challenge, key []byte) string {
	h := sha256.New()
	h.Write([]byte(pairCodeContext))
	h.Write([]byte{0})
	h.Write(challenge)
	h.Write(key)
	n := binary.BigEndian.Uint32(h.Sum(nil)) % 1_000_000
	return fmt.Sprintf("%03d %03d", n/1000, n%1000)
}

// newChallenge returns a fresh random challenge.
func newChallenge() []byte {
	b := make([]byte, challengeSize)
	rand.Read(b)
	return b
}

// PairParams are the params of pair.prove and pair.request: the install's
// public key and its signature of the session's challenge, base64.
type PairParams struct {
	Key       string `json:"key"`
	Signature string `json:"signature"`
}

// PairResult is the result of pair.prove and pair.request.
type PairResult struct {
	Paired bool `json:"paired"`
	// ID is the key's fingerprint.
	ID string `json:"id"`
}

// checkProof decodes params and checks the signature against s's
// challenge. It returns the raw key.
func checkProof(s *session, method string, params json.RawMessage) ([]byte, *nativemsg.Error) {
	var p PairParams
	if err := strictUnmarshal(params, &p); err != nil {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "%s: %v", method, err)
	}
	raw, err1 := base64.StdEncoding.DecodeString(p.Key)
	sig, err2 := base64.StdEncoding.DecodeString(p.Signature)
	if err1 != nil || err2 != nil {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "%s: key and signature must be base64", method)
	}
	key, err := parsePairKey(raw)
	if err != nil {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "%s: not a P-256 public key", method)
	}
	if len(s.challenge) == 0 || !verifyPairSignature(key, pairMessage(s.challenge, s.id), sig) {
		return nil, notPaired(method, "the signature does not prove the key for this session", "")
	}
	return raw, nil
}

func notPaired(method, why, reason string) *nativemsg.Error {
	e := nativemsg.NewError(nativemsg.CodeNotPaired, "%s: %s", method, why)
	e.Data.Reason = reason
	return e
}

// pairable reports whether s is a browser session that may pair at all: a
// verified browser through Tessera's host.
func pairable(s *session, method string) *nativemsg.Error {
	if s.client.Kind != KindBrowser {
		return nativemsg.NewError(nativemsg.CodeUnsupported, "%s: only browsers pair", method)
	}
	return nil
}

// pairProve answers pair.prove: a key the person paired, proven for this
// session's challenge, makes the session paired.
func pairProve(ctx context.Context, a *App, s *session, params json.RawMessage) (any, *nativemsg.Error) {
	if e := pairable(s, PairProveMethod); e != nil {
		return nil, e
	}
	raw, e := checkProof(s, PairProveMethod, params)
	if e != nil {
		return nil, e
	}
	p, ok := a.pairs.find(raw)
	if !ok || p.Origin != s.origin {
		return nil, notPaired(PairProveMethod, "this browser is not paired with Tessera: pair it from the extension's popup", "unknown")
	}
	a.markPaired(s, p.ID)
	return PairResult{Paired: true, ID: p.ID}, nil
}

// pairRequest answers pair.request: the person is asked in the app, with
// the verified browser named and the code shown; approved, the key is
// stored and the session paired.
func pairRequest(ctx context.Context, a *App, s *session, params json.RawMessage) (any, *nativemsg.Error) {
	if e := pairable(s, PairRequestMethod); e != nil {
		return nil, e
	}
	raw, e := checkProof(s, PairRequestMethod, params)
	if e != nil {
		return nil, e
	}
	id := keyID(raw)
	if p, ok := a.pairs.find(raw); ok && p.Origin == s.origin {
		a.markPaired(s, p.ID)
		return PairResult{Paired: true, ID: p.ID}, nil
	}
	if !s.pairAsking.CompareAndSwap(false, true) {
		return nil, nativemsg.NewError(nativemsg.CodeBusy, "%s: a pairing request of this session is waiting already", PairRequestMethod)
	}
	defer s.pairAsking.Store(false)
	info := PairInfo{Code: PairCode(s.challenge, raw), Browser: s.client.Browser, Fingerprint: id}
	if s.peer.Parent != nil {
		info.Exe = s.peer.Parent.Exe
	}
	c := Confirmation{
		Kind: ConfirmPair, Site: browserWords(s.client.Browser), Origin: s.origin, Client: clientInfo(s), Pair: &info,
		ApproveDelayMs: int(DefaultApproveDelay / time.Millisecond),
	}
	d := a.ask(ctx, c, nil)
	if !d.Approve {
		return nil, notPaired(PairRequestMethod, "pairing was declined ("+d.Reason+")", d.Reason)
	}
	p := PairedBrowser{ID: id, Key: raw, Origin: s.origin, Browser: s.client.Browser, Exe: info.Exe, Name: s.client.Name, Paired: a.cfg.Now()}
	if err := a.pairs.add(p); err != nil {
		return nil, nativemsg.NewError(nativemsg.CodeInternal, "%s: %v", PairRequestMethod, err)
	}
	a.markPaired(s, id)
	a.changed()
	return PairResult{Paired: true, ID: id}, nil
}

// browserWords names a verified browser family for the dialog's headline.
func browserWords(family string) string {
	if family == "" {
		return "a browser"
	}
	return family
}

// markPaired makes s a paired session of install id.
func (a *App) markPaired(s *session, id string) {
	a.pairs.used(id, a.cfg.Now())
	a.mu.Lock()
	s.pairID = id
	s.paired.Store(true)
	if c, ok := a.clients[s.id]; ok {
		c.Paired = true
		a.clients[s.id] = c
	}
	a.mu.Unlock()
	a.changed()
}

// needsPairing reports whether s must prove a paired key before method.
func needsPairing(s *session, method string) bool {
	if s.client.Kind != KindBrowser || s.paired.Load() {
		return false
	}
	return method != PairProveMethod && method != PairRequestMethod
}

// PairedBrowsers lists the paired extension installs, for Settings.
func (u *UI) PairedBrowsers() ([]PairedBrowser, error) {
	list := u.app.pairs.all()
	for i := range list {
		list[i].Key = nil
	}
	return list, nil
}

// UnpairBrowser forgets the paired install id: its sessions lose their
// connection at once and must be paired again.
func (u *UI) UnpairBrowser(id string) ([]PairedBrowser, error) {
	if err := u.app.Unpair(id); err != nil {
		return nil, err
	}
	return u.PairedBrowsers()
}

// Unpair forgets the paired install id and closes its sessions.
func (a *App) Unpair(id string) error {
	ok, err := a.pairs.remove(id)
	if err != nil {
		return plainErr("unpair", err)
	}
	if !ok {
		return fmt.Errorf("unpair: no paired browser %q", id)
	}
	a.mu.Lock()
	var drop []*session
	for s := range a.sessions {
		if s.pairID == id {
			s.paired.Store(false)
			drop = append(drop, s)
		}
	}
	a.mu.Unlock()
	for _, s := range drop {
		s.conn.Close()
	}
	a.changed()
	return nil
}
