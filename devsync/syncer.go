package devsync

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"filippo.io/age"
	"github.com/tessera-app/tessera/vault"
)

// A Store is what a Syncer needs of the vault; *vault.Vault is one. The
// vault must be unlocked for every call.
type Store interface {
	SyncSnapshot() (vault.SyncSnapshot, error)
	ApplySync(token uint64, changes []vault.SyncChange, audit []vault.Release, state []byte) error
	PutSyncState(state []byte) error
	SyncState() ([]byte, error)
	CheckPassphrase(passphrase []byte) error
}

// Options configures a Syncer. The zero value is valid.
type Options struct {
	// Clock defaults to the system clock.
	Clock Clock
	// FS opens the sync folder; it defaults to DirFS.
	FS func(folder string) FS
	// WorkFactor is the scrypt work factor (log2 N) of a new group file;
	// zero means vault.DefaultScryptWorkFactor.
	WorkFactor int
	// CompactAfter is how many records this device's journal may hold
	// before it compacts; zero means 500.
	CompactAfter int
}

func (o *Options) fill() {
	if o.Clock == nil {
		o.Clock = systemClock{}
	}
	if o.FS == nil {
		o.FS = func(folder string) FS { return DirFS(folder) }
	}
	if o.WorkFactor == 0 {
		o.WorkFactor = vault.DefaultScryptWorkFactor
	}
	if o.CompactAfter == 0 {
		o.CompactAfter = 500
	}
}

// Errors of the Syncer.
var (
	// ErrNotEnabled is returned by Open when the vault has no sync set up.
	ErrNotEnabled = errors.New("sync is not set up for this vault")
	// ErrWaiting is returned by SyncNow when this device's own earlier
	// changes in the folder wait for other devices' files: nothing is
	// written to the vault until they arrive.
	ErrWaiting = errors.New("waiting for the sync tool to bring earlier changes")
)

// syncDoc is the sync state the vault keeps sealed.
type syncDoc struct {
	Folder string `json:"folder"`
	Name   string `json:"name"`
	Group  string `json:"group"`
	Key    string `json:"key"`
	// Recovery is the recovery identity, held by a device that joined
	// with the recovery passphrase or set it.
	Recovery string          `json:"recovery,omitempty"`
	Replica  json.RawMessage `json:"replica"`
}

// A Syncer keeps one vault in step with the other devices that share its
// sync folder. It is safe for concurrent use; SyncNow calls are
// serialized.
type Syncer struct {
	store Store
	opts  Options

	mu     sync.Mutex
	doc    syncDoc
	secret Secret
	fs     FS
	// rep matches the state last stored in the vault, or is nil and is
	// loaded from it at the next sync.
	rep      *Replica
	state    []byte
	lastSync time.Time
	lastErr  error
	status   Status
}

// Setup sets up sync of the unlocked vault through folder, under the
// device name shown on the other devices, and syncs once. When the folder
// already holds a group file (another device set it up), this device
// joins with passphrase: the recovery passphrase of the vault that set
// it up. Otherwise passphrase must be this vault's recovery passphrase: it
// wraps the group key in the folder's group file for the next device.
// Values already in this vault are merged with the folder's, never
// replaced.
func Setup(ctx context.Context, store Store, folder, name string, passphrase []byte, opts Options) (*Syncer, error) {
	opts.fill()
	fsys := opts.FS(folder)
	secret, err := ReadGroupFile(fsys, passphrase)
	if errors.Is(err, ErrNoGroup) {
		if err := store.CheckPassphrase(passphrase); err != nil {
			return nil, fmt.Errorf("set up sync: %w", err)
		}
		if secret, err = NewSecret(); err != nil {
			return nil, fmt.Errorf("set up sync: %w", err)
		}
		if err := WriteGroupFile(fsys, secret, passphrase, opts.WorkFactor); err != nil {
			return nil, fmt.Errorf("set up sync: %w", err)
		}
	} else if err != nil {
		return nil, fmt.Errorf("set up sync: %w", err)
	}
	return setup(store, fsys, folder, name, secret, opts)
}

// setup starts syncing store as a new device of the group of secret.
func setup(store Store, fsys FS, folder, name string, secret Secret, opts Options) (*Syncer, error) {
	rep, err := NewReplica(NewDeviceID(), secret, opts.Clock)
	if err != nil {
		return nil, err
	}
	s := &Syncer{store: store, opts: opts, fs: fsys, secret: Secret{Group: secret.Group, Key: secret.Key, Recovery: secret.Recovery}, rep: rep,
		doc: syncDoc{Folder: folder, Name: name, Group: hex.EncodeToString(secret.Group[:]), Key: hex.EncodeToString(secret.Key[:]), Recovery: secret.Recovery}}
	if _, err := s.syncNow(func(e *Editor) { e.AddDevice(name) }, nil); err != nil {
		return nil, fmt.Errorf("set up sync: %w", err)
	}
	return s, nil
}

// Open returns the Syncer of an unlocked vault where sync was set up, or
// an error wrapping ErrNotEnabled.
func Open(store Store, opts Options) (*Syncer, error) {
	opts.fill()
	st, err := store.SyncState()
	if errors.Is(err, vault.ErrNotFound) || err == nil && st == nil {
		return nil, ErrNotEnabled
	}
	if err != nil {
		return nil, fmt.Errorf("open sync: %w", err)
	}
	s := &Syncer{store: store, opts: opts}
	if err := s.loadDoc(st); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Syncer) loadDoc(st []byte) error {
	var d syncDoc
	if err := json.Unmarshal(st, &d); err != nil {
		return fmt.Errorf("open sync: %w", err)
	}
	g, err1 := hex.DecodeString(d.Group)
	k, err2 := hex.DecodeString(d.Key)
	if err1 != nil || err2 != nil || len(g) != 16 || len(k) != 32 {
		return errors.New("open sync: malformed sync state")
	}
	copy(s.secret.Group[:], g)
	copy(s.secret.Key[:], k)
	s.secret.Recovery = d.Recovery
	rep, err := LoadReplica(d.Replica, s.secret, s.opts.Clock)
	if err != nil {
		return err
	}
	if s.fs == nil || d.Folder != s.doc.Folder {
		s.fs = s.opts.FS(d.Folder)
	}
	s.doc, s.rep, s.state = d, rep, st
	return nil
}

// A Result says what one SyncNow did.
type Result struct {
	// Sent counts the changes of this vault written to the folder.
	Sent int `json:"sent"`
	// Received counts the profiles written to the vault from the folder.
	Received int `json:"received"`
}

// SyncNow writes this vault's changes to the folder, reads the other
// devices' and writes the merge into the vault in one transaction. The
// app calls it on a timer (Run) and when the person asks.
func (s *Syncer) SyncNow(ctx context.Context) (Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.syncNow(nil, nil)
}

// syncNow syncs once, adding the changes extra makes to this device's
// record and, before writing, doing act to the replica.
func (s *Syncer) syncNow(extra func(e *Editor), act func(r *Replica) error) (Result, error) {
	var res Result
	var err error
	for range 3 {
		res, err = s.syncOnce(extra, act)
		if !errors.Is(err, vault.ErrSyncRace) {
			break
		}
	}
	s.lastSync, s.lastErr = s.opts.Clock.Now(), err
	if s.rep != nil {
		s.status = s.rep.Status()
	}
	return res, err
}

func (s *Syncer) syncOnce(extra func(e *Editor), act func(r *Replica) error) (res Result, err error) {
	snap, err := s.store.SyncSnapshot()
	if err != nil {
		return res, err
	}
	defer func() {
		if err != nil {
			// What the replica read or wrote is not in the vault: start
			// again from what is, after noting what it saw.
			if s.rep != nil {
				s.status = s.rep.Status()
			}
			s.rep = nil
		}
	}()
	if s.rep == nil {
		if snap.State == nil {
			return res, ErrNotEnabled
		}
		if err := s.loadDoc(snap.State); err != nil {
			return res, err
		}
	}
	r := s.rep
	base := r.st.clone()
	before := base.View()
	if err := r.Read(s.fs); err != nil {
		return res, err
	}
	n := len(r.outbox)
	epoch, rseq := r.epoch, r.rseq
	err = r.editFrom(base, func(e *Editor) {
		diffLocal(e, snap.Profiles, before)
		if extra != nil {
			extra(e)
		}
	})
	if errors.Is(err, ErrBehind) {
		return res, ErrWaiting
	}
	if err != nil {
		return res, err
	}
	if len(r.outbox) > n {
		res.Sent = len(r.outbox[len(r.outbox)-1].Ops)
	}
	if act != nil {
		if err := act(r); err != nil {
			return res, err
		}
	}
	if _, err := r.Repair(s.fs); err != nil {
		return res, err
	}
	if r.journalRecords() >= s.opts.CompactAfter {
		err = r.Compact(s.fs)
	} else {
		err = r.Flush(s.fs)
	}
	if err != nil {
		return res, err
	}
	changes := vaultChanges(snap.Profiles, r.View())
	res.Received = len(changes)
	if len(changes) == 0 && res.Sent == 0 && r.epoch == epoch && r.rseq == rseq && maps.Equal(base.VV, r.st.VV) && len(r.touched) == 0 {
		// Nothing new either way: the stored state still holds.
		return res, nil
	}
	repB, err := r.MarshalBinary()
	if err != nil {
		return res, err
	}
	s.doc.Replica = repB
	st, err := json.Marshal(s.doc)
	if err != nil {
		return res, err
	}
	if err := s.store.ApplySync(snap.Token, changes, s.audit(r.takeTouched()), st); err != nil {
		return res, err
	}
	s.state = st
	return res, nil
}

// audit returns one record per device and profile that other devices'
// changes touched: which keys, never a value.
func (s *Syncer) audit(t map[string]map[string]map[string]bool) []vault.Release {
	var out []vault.Release
	for _, dev := range slices.Sorted(maps.Keys(t)) {
		client := "device " + dev
		if d := s.rep.st.Devices[dev]; d != nil && d.Name != "" {
			client = fmt.Sprintf("device %q (%s)", d.Name, dev)
		}
		for _, pid := range slices.Sorted(maps.Keys(t[dev])) {
			out = append(out, vault.Release{Client: client, ProfileID: pid, Concepts: slices.Sorted(maps.Keys(t[dev][pid])), Reason: "synced"})
		}
	}
	return out
}

// Run syncs every interval until ctx is done, and returns ctx.Err(). The
// folder is polled: no file-system notification is needed.
func (s *Syncer) Run(ctx context.Context, every time.Duration) error {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		s.SyncNow(ctx)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}

// RemoveDevice removes a device from the group (Replica.RemoveDevice):
// a new epoch key that it cannot open, and what it writes after what this
// device has read of it ignored by every device. A removed device that
// knows the recovery passphrase can still open the new key through the
// folder's group file: change the passphrase (SetPassphrase) to end that.
func (s *Syncer) RemoveDevice(ctx context.Context, dev string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, err := s.syncNow(nil, func(r *Replica) error { return r.RemoveDevice(dev) })
	return err
}

// Close forgets what the Syncer holds in memory (the group key and the
// merged state, which holds every value): call it when the vault locks,
// and Open again after the next unlock.
func (s *Syncer) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.secret.Key[:])
	clear(s.state)
	s.rep, s.state, s.doc.Key, s.doc.Replica = nil, nil, "", nil
}

// Disable stops syncing this vault: it leaves the group (Replica.Leave),
// when the folder can be written, and forgets the group key and what it
// read. Its files stay in the folder for the devices that have not read
// them; Setup starts again as a new device.
func (s *Syncer) Disable() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	// Best effort: a folder out of reach must not keep sync on.
	s.syncNow(nil, func(r *Replica) error { return r.Leave() })
	if err := s.store.PutSyncState(nil); err != nil {
		return err
	}
	s.rep, s.state = nil, nil
	return nil
}

// SetPassphrase puts a new recovery identity in the folder's group file,
// wrapped under a new recovery passphrase (after the person changed it),
// for devices that join later, and starts a new epoch whose key is sealed
// to it and not to the old one: whoever knew the old passphrase cannot
// open what is written from now on.
func (s *Syncer) SetPassphrase(passphrase []byte) error {
	if err := s.store.CheckPassphrase(passphrase); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.loadedLocked(); err != nil {
		return err
	}
	id, err := age.GenerateX25519Identity()
	if err != nil {
		return err
	}
	g := Secret{Group: s.secret.Group, Key: s.secret.Key, Recovery: id.String(), Epochs: s.rep.k.learned()}
	if err := WriteGroupFile(s.fs, g, passphrase, s.opts.WorkFactor); err != nil {
		return err
	}
	_, err = s.syncNow(nil, func(r *Replica) error {
		s.doc.Recovery, s.secret.Recovery = g.Recovery, g.Recovery
		r.recovery = id
		return r.SetRecovery(id.Recipient().String())
	})
	return err
}

// Refresh reads the folder to update Status without writing anything,
// to the folder or to the vault.
func (s *Syncer) Refresh() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rep == nil {
		if s.state == nil {
			return ErrNotEnabled
		}
		if err := s.loadDoc(s.state); err != nil {
			return err
		}
	}
	err := s.rep.Read(s.fs)
	s.status = s.rep.Status()
	// What was read is not in the vault yet: the next sync reads it again.
	s.rep = nil
	return err
}

// A SyncStatus is the state of sync as the window shows it.
type SyncStatus struct {
	Folder string `json:"folder"`
	Name   string `json:"name"`
	// LastSync is when SyncNow last ran; LastError what went wrong then,
	// in words.
	LastSync  time.Time `json:"lastSync,omitzero"`
	LastError string    `json:"lastError,omitempty"`
	Status
	Conflicts []Conflict `json:"conflicts,omitempty"`
}

// A Conflict is a detail that devices changed at once: the vault shows
// one value as current and the others as candidates until the person
// settles it in the editor (vault.PromoteCandidate, or removing values).
type Conflict struct {
	Profile string   `json:"profile"`
	Key     string   `json:"key"`
	Values  int      `json:"values"`
	Devices []string `json:"devices"`
}

// Status reports the folder's state as of the last sync: what was read
// from each device, and any problem in words.
func (s *Syncer) Status() SyncStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := SyncStatus{Folder: s.doc.Folder, Name: s.doc.Name, LastSync: s.lastSync, Status: s.status}
	if s.lastErr != nil {
		out.LastError = s.lastErr.Error()
	}
	if s.rep != nil {
		out.Conflicts = conflicts(s.rep.View())
		if out.Devices == nil {
			out.Status = s.rep.Status()
		}
	} else if s.state != nil && s.loadDoc(s.state) == nil {
		out.Conflicts = conflicts(s.rep.View())
		s.rep = nil
	}
	return out
}

// conflicts lists the details with more than one value not kept as a
// candidate on purpose (concurrent writes) where the person has not
// chosen one since.
func conflicts(v View) []Conflict {
	var out []Conflict
	for _, p := range v.Profiles {
		for _, k := range p.Keys {
			if strings.HasPrefix(k.Key, sitePrefix) {
				continue
			}
			n := 0
			devs := map[string]bool{}
			for _, val := range k.Values {
				if !val.Candidate {
					n++
					devs[val.Dev] = true
				}
			}
			if n > 1 && !k.Values[0].Chosen {
				out = append(out, Conflict{Profile: p.ID, Key: k.Key, Values: n, Devices: slices.Sorted(maps.Keys(devs))})
			}
		}
	}
	return out
}
