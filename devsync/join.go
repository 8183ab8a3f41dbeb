package devsync

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"

	"filippo.io/age"
	"github.com/tessera-app/tessera/vault"
)

// Joining by approval: a new device asks, a device already in approves,
// after the person has checked that both show the same six-digit code.
// The exchange runs through the folder, in plain files that hold no
// secret until the last, which holds the group secret encrypted to the
// new device's key:
//
//	join-ID.1  new device: its age recipient, and a commitment to a nonce
//	join-ID.2  member: its nonce
//	join-ID.3  new device: its nonce, opening the commitment
//	join-ID.4  member, once the person approved: the secret, to the recipient
//	join-ID.5  member, when the person declined: empty
//
// The code hashes the recipient and both nonces. Someone who can write
// the folder and puts their own request or answer in the middle must fix
// their nonce before seeing the other side's, so the codes the person
// compares differ but for a one in a million chance per attempt.

// ErrPending is returned while the other side of a join has not answered
// yet: try again after the sync tool has carried the files.
var ErrPending = errors.New("waiting for the other device")

// ErrCodeMismatch is returned by ApproveJoin when the code the person
// typed is not the request's.
var ErrCodeMismatch = errors.New("the code does not match this request")

// ErrDeclined is returned by JoinRequest.Code and Secret when the person
// declined the request on a device already in.
var ErrDeclined = errors.New("the request to join was declined on the other device")

// declined reports whether the request id was declined.
func declined(fsys FS, id string) bool {
	_, err := fsys.ReadFile(joinName(id, 5), 0)
	return err == nil
}

type joinReq struct {
	Recipient string `json:"recipient"`
	Commit    string `json:"commit"`
}

type joinNonce struct {
	Nonce string `json:"nonce"`
}

// joinAnswer is what an approving device gives the new one: the group id
// and root key and every epoch key it holds, not the recovery identity.
type joinAnswer struct {
	Group  []byte   `json:"group"`
	Key    []byte   `json:"key"`
	Epochs [][]byte `json:"epochs,omitempty"`
}

func joinName(id string, step int) string { return fmt.Sprintf("join-%s.%d", id, step) }

func validJoinID(id string) bool {
	_, err := hex.DecodeString(id)
	return len(id) == 16 && err == nil
}

// A JoinRequest is a new device's side of a join by approval.
type JoinRequest struct {
	fs    FS
	ID    string
	id    *age.X25519Identity
	nonce []byte
}

// RequestJoin writes a join request into the folder.
func RequestJoin(fsys FS) (*JoinRequest, error) {
	id, err := age.GenerateX25519Identity()
	if err != nil {
		return nil, err
	}
	j := &JoinRequest{fs: fsys, id: id, nonce: make([]byte, 32)}
	rid := make([]byte, 8)
	rand.Read(rid)
	rand.Read(j.nonce)
	j.ID = hex.EncodeToString(rid)
	c := sha256.Sum256(append([]byte(id.Recipient().String()+"\x00"), j.nonce...))
	b, _ := json.Marshal(joinReq{Recipient: id.Recipient().String(), Commit: hex.EncodeToString(c[:])})
	if err := fsys.WriteFile(joinName(j.ID, 1), b); err != nil {
		return nil, fmt.Errorf("request join: %w", err)
	}
	return j, nil
}

// Code returns the code to compare with the one the approving device
// shows, once a device answered (ErrPending before).
func (j *JoinRequest) Code() (string, error) {
	if declined(j.fs, j.ID) {
		return "", ErrDeclined
	}
	var a joinNonce
	if err := readJSON(j.fs, joinName(j.ID, 2), &a); err != nil {
		return "", err
	}
	theirs, err := hex.DecodeString(a.Nonce)
	if err != nil || len(theirs) != 32 {
		return "", fmt.Errorf("join: malformed answer")
	}
	if _, err := j.fs.ReadFile(joinName(j.ID, 3), 0); errors.Is(err, fs.ErrNotExist) {
		b, _ := json.Marshal(joinNonce{Nonce: hex.EncodeToString(j.nonce)})
		if err := j.fs.WriteFile(joinName(j.ID, 3), b); err != nil {
			return "", fmt.Errorf("join: %w", err)
		}
	}
	return joinCode(j.id.Recipient().String(), theirs, j.nonce), nil
}

// Secret returns the group secret once a device approved the request
// (ErrPending before), and removes the request's files.
func (j *JoinRequest) Secret() (Secret, error) {
	var s Secret
	if declined(j.fs, j.ID) {
		return s, ErrDeclined
	}
	b, err := j.fs.ReadFile(joinName(j.ID, 4), 0)
	if errors.Is(err, fs.ErrNotExist) {
		return s, ErrPending
	}
	if err != nil {
		return s, err
	}
	r, err := age.Decrypt(bytes.NewReader(b), j.id)
	if err != nil {
		// Not yet whole, or not for us.
		return s, ErrPending
	}
	pt, err := io.ReadAll(io.LimitReader(r, 64<<10))
	if err != nil {
		return s, ErrPending
	}
	defer clear(pt)
	var a joinAnswer
	if err := json.Unmarshal(pt, &a); err != nil || len(a.Group) != len(s.Group) || len(a.Key) != len(s.Key) {
		return s, ErrPending
	}
	copy(s.Group[:], a.Group)
	copy(s.Key[:], a.Key)
	j.Cancel()
	for _, e := range a.Epochs {
		if len(e) != 32 {
			return s, ErrPending
		}
		s.Epochs = append(s.Epochs, [32]byte(e))
	}
	return s, nil
}

// Cancel removes the request's files from the folder.
func (j *JoinRequest) Cancel() {
	for step := 1; step <= 5; step++ {
		j.fs.Remove(joinName(j.ID, step))
	}
}

func joinCode(recipient string, member, joiner []byte) string {
	h := sha256.New()
	h.Write([]byte("tessera join code v1\x00" + recipient + "\x00"))
	h.Write(member)
	h.Write(joiner)
	return fmt.Sprintf("%06d", binary.BigEndian.Uint64(h.Sum(nil))%1000000)
}

func readJSON(fsys FS, name string, v any) error {
	b, err := fsys.ReadFile(name, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return ErrPending
	}
	if err != nil {
		return err
	}
	if len(b) > 4096 {
		return fmt.Errorf("join: %s too large", name)
	}
	if err := json.Unmarshal(b, v); err != nil {
		// Perhaps not yet whole.
		return ErrPending
	}
	return nil
}

// A PendingJoin is a request to join seen by a device already in. Code is
// empty until the new device has opened its commitment.
type PendingJoin struct {
	ID   string `json:"id"`
	Code string `json:"code,omitempty"`
}

// PendingJoins answers the join requests in the folder and returns them,
// with their codes once known. The person approves one (ApproveJoin) only
// after checking the new device shows the same code.
func (s *Syncer) PendingJoins() ([]PendingJoin, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.loadedLocked(); err != nil {
		return nil, err
	}
	list, err := s.fs.List()
	if err != nil {
		return nil, err
	}
	var out []PendingJoin
	for _, fi := range list {
		id, ok := strings.CutPrefix(fi.Name, "join-")
		if !ok || !strings.HasSuffix(id, ".1") || !validJoinID(strings.TrimSuffix(id, ".1")) {
			continue
		}
		id = strings.TrimSuffix(id, ".1")
		if declined(s.fs, id) {
			continue
		}
		p := PendingJoin{ID: id}
		if code, err := s.joinCodeLocked(id); err == nil {
			p.Code = code
		} else if !errors.Is(err, ErrPending) {
			continue
		}
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b PendingJoin) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}

// joinCodeLocked answers request id if not yet answered, and returns its
// code once the new device has revealed its nonce.
func (s *Syncer) joinCodeLocked(id string) (string, error) {
	var req joinReq
	if err := readJSON(s.fs, joinName(id, 1), &req); err != nil {
		return "", err
	}
	var mine joinNonce
	err := readJSON(s.fs, joinName(id, 2), &mine)
	if errors.Is(err, ErrPending) {
		n := make([]byte, 32)
		rand.Read(n)
		mine.Nonce = hex.EncodeToString(n)
		b, _ := json.Marshal(mine)
		if err := s.fs.WriteFile(joinName(id, 2), b); err != nil {
			return "", err
		}
	} else if err != nil {
		return "", err
	}
	var theirs joinNonce
	if err := readJSON(s.fs, joinName(id, 3), &theirs); err != nil {
		return "", err
	}
	mn, err1 := hex.DecodeString(mine.Nonce)
	tn, err2 := hex.DecodeString(theirs.Nonce)
	if err1 != nil || err2 != nil || len(tn) != 32 {
		return "", fmt.Errorf("join %s: malformed", id)
	}
	c := sha256.Sum256(append([]byte(req.Recipient+"\x00"), tn...))
	if hex.EncodeToString(c[:]) != req.Commit {
		return "", fmt.Errorf("join %s: the request's nonce does not open its commitment", id)
	}
	return joinCode(req.Recipient, mn, tn), nil
}

// ApproveJoin gives the group secret to the device that made request id,
// encrypted to its key, after the person checked that it shows code.
func (s *Syncer) ApproveJoin(id, code string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.loadedLocked(); err != nil {
		return err
	}
	if !validJoinID(id) {
		return fmt.Errorf("approve join: %w", ErrCodeMismatch)
	}
	want, err := s.joinCodeLocked(id)
	if err != nil {
		return fmt.Errorf("approve join: %w", err)
	}
	if subtle.ConstantTimeCompare([]byte(want), []byte(code)) != 1 {
		return fmt.Errorf("approve join: %w", ErrCodeMismatch)
	}
	var req joinReq
	if err := readJSON(s.fs, joinName(id, 1), &req); err != nil {
		return err
	}
	r, err := age.ParseX25519Recipient(req.Recipient)
	if err != nil {
		return fmt.Errorf("approve join: %w", err)
	}
	a := joinAnswer{Group: s.secret.Group[:], Key: s.secret.Key[:]}
	for _, e := range s.rep.k.learned() {
		a.Epochs = append(a.Epochs, e[:])
	}
	pt, _ := json.Marshal(a)
	defer clear(pt)
	var buf bytes.Buffer
	w, err := age.Encrypt(&buf, r)
	if err != nil {
		return err
	}
	w.Write(pt)
	if err := w.Close(); err != nil {
		return err
	}
	return s.fs.WriteFile(joinName(id, 4), buf.Bytes())
}

// DeclineJoin refuses request id: the new device learns it was declined
// (ErrDeclined) and the request no longer shows.
func (s *Syncer) DeclineJoin(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.loadedLocked(); err != nil {
		return err
	}
	if !validJoinID(id) {
		return fmt.Errorf("decline join: no request %q", id)
	}
	if err := s.fs.WriteFile(joinName(id, 5), nil); err != nil {
		return fmt.Errorf("decline join: %w", err)
	}
	return nil
}

// SetupWithSecret sets up sync of the vault through folder with a group
// secret obtained by an approved join (JoinRequest.Secret), and syncs
// once.
func SetupWithSecret(ctx context.Context, store Store, folder, name string, secret Secret, opts Options) (*Syncer, error) {
	opts.fill()
	return setup(store, opts.FS(folder), folder, name, secret, opts)
}

// loadedLocked makes sure the Syncer holds its group secret (it forgot it
// at Close).
func (s *Syncer) loadedLocked() error {
	if s.state != nil && s.fs != nil {
		if s.rep == nil {
			return s.loadDoc(s.state)
		}
		return nil
	}
	st, err := s.store.SyncState()
	if errors.Is(err, vault.ErrNotFound) {
		return ErrNotEnabled
	}
	if err != nil {
		return err
	}
	return s.loadDoc(st)
}
