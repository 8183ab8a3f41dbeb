package devsync

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"filippo.io/age"
)

// NewDeviceID returns a new random device id.
func NewDeviceID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// A Replica is one device's side of the sync folder: its merged State, the
// records it has written but not yet put in the folder, and what it has
// read of every file. It is not safe for concurrent use.
type Replica struct {
	dev   string
	k     *keys
	clock Clock
	st    *State
	hlc   HLC
	epoch uint64
	// outbox holds records applied here but not yet in the folder.
	outbox []*Record

	// wname, wsize and wtail are the journal last written, its size and
	// its last bytes then, so that the next Flush need not read it.
	wname string
	wsize int64
	wtail []byte
	// flushed are the sequences written since the last Read.
	flushed []uint64

	// touched is what records of other devices changed since
	// takeTouched: device -> profile -> keys.
	touched map[string]map[string]map[string]bool

	files    map[string]*cursor
	pending  map[string]map[uint64]*Record
	problems []string

	// ident is this device's own keys; recovery the recovery identity,
	// held only when this device knows the recovery passphrase.
	ident    *identity
	recovery *age.X25519Identity
	// entries are every roster entry opened so far (kept, so a roster
	// file restored from an older copy forgets nothing); ros is their
	// evaluation; rseq the last entry this device wrote.
	entries []*signedEntry
	ros     *roster
	rseq    uint64
	// rosterDirty reports that this device's roster file lacks some of
	// its entries.
	rosterDirty bool
	// want are the removals this device made, rotate again until they
	// hold (a rotation concurrent with another one has no effect);
	// wantRecovery the recovery recipient it set.
	want         map[string]Removal
	wantRecovery string
	// wkey is the epoch key of this device's current journal.
	wkey string
	// snapOut is what this device's last snapshot holds of the devices
	// that are no longer members.
	snapOut map[string]uint64
}

// cursor is what the replica has read of one file.
type cursor struct {
	size int64
	off  int
	// tail holds the last bytes before off (the tag of the last record
	// read, unique to it): a file rewritten rather than appended to
	// (restored from a backup, say) is noticed and read again whole.
	tail []byte
	// ownMax is the highest sequence of this device the file holds, own
	// the sequences of its records from this device.
	ownMax uint64
	own    []uint64
	// snapVV is the version vector of a snapshot file.
	snapVV map[string]uint64
	// problem says what is wrong with the file, if anything.
	problem string
}

// ErrBehind is returned by Edit while the folder holds records of this
// device that it has not applied yet (they wait for records of other
// devices): a new record would reuse their sequence numbers.
var ErrBehind = errors.New("this device's own earlier changes are still waiting to be read back")

// ErrRemoved is returned by Flush, and so by Sync and SyncNow, when this
// device is not a member of the sync group: it was removed, or it joined
// at the moment another device was removed and was left out of the new
// epoch. Its changes stay in its vault; set sync up again to rejoin.
var ErrRemoved = errors.New("this device is no longer a member of the sync group")

// NewReplica returns the replica of a device that has read nothing yet,
// with new keys of its own. It joins the group at its first Flush.
func NewReplica(dev string, s Secret, clock Clock) (*Replica, error) {
	if !validDeviceID(dev) {
		return nil, fmt.Errorf("device id %q: want 16 hex digits", dev)
	}
	k, err := deriveGroupKeys(s)
	if err != nil {
		return nil, err
	}
	if clock == nil {
		clock = systemClock{}
	}
	r := &Replica{dev: dev, k: k, clock: clock, st: NewState(), epoch: 1,
		files: map[string]*cursor{}, pending: map[string]map[uint64]*Record{}, want: map[string]Removal{}}
	if s.Recovery != "" {
		if r.recovery, err = age.ParseX25519Identity(s.Recovery); err != nil {
			return nil, fmt.Errorf("recovery identity: %w", err)
		}
	}
	if r.ident, err = newIdentity(); err != nil {
		return nil, err
	}
	r.ros = k.evalRoster(nil)
	return r, nil
}

// replicaDoc is what MarshalBinary saves.
type replicaDoc struct {
	Dev      string             `json:"dev"`
	HLC      HLC                `json:"hlc"`
	Epoch    uint64             `json:"epoch"`
	State    *State             `json:"state"`
	Outbox   []*Record          `json:"outbox,omitempty"`
	Identity identityDoc        `json:"identity"`
	Keys     [][32]byte         `json:"keys,omitempty"`
	Entries  []*signedEntry     `json:"entries,omitempty"`
	RSeq     uint64             `json:"rseq,omitempty"`
	Want     map[string]Removal `json:"want,omitempty"`
	Recovery string             `json:"wantRecovery,omitempty"`
	WKey     string             `json:"wkey,omitempty"`
	SnapOut  map[string]uint64  `json:"snapOut,omitempty"`
}

// MarshalBinary returns what LoadReplica needs to carry on: the state, the
// clock, the unwritten records, the device's keys and the roster. It holds
// profile values and private keys: keep it sealed (the vault does).
func (r *Replica) MarshalBinary() ([]byte, error) {
	return json.Marshal(replicaDoc{Dev: r.dev, HLC: r.hlc, Epoch: r.epoch, State: r.st, Outbox: r.outbox,
		Identity: r.ident.doc(), Keys: r.k.learned(), Entries: r.entries, RSeq: r.rseq, Want: r.want,
		Recovery: r.wantRecovery, WKey: r.wkey, SnapOut: r.snapOut})
}

// LoadReplica restores a replica saved by MarshalBinary.
func LoadReplica(b []byte, s Secret, clock Clock) (*Replica, error) {
	var d replicaDoc
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, fmt.Errorf("load sync state: %w", err)
	}
	r, err := NewReplica(d.Dev, s, clock)
	if err != nil {
		return nil, fmt.Errorf("load sync state: %w", err)
	}
	if len(d.Identity.Sign) == 0 {
		// Saved by a development build from before devices had keys.
		return nil, fmt.Errorf("load sync state: %w", ErrOldFolder)
	}
	if r.ident, err = d.Identity.identity(); err != nil {
		return nil, fmt.Errorf("load sync state: %w", err)
	}
	for _, key := range d.Keys {
		if _, err := r.k.add(key); err != nil {
			return nil, err
		}
	}
	for _, se := range d.Entries {
		if se.E, err = decodeEntry(se.Payload); err != nil {
			return nil, fmt.Errorf("load sync state: %w", err)
		}
	}
	if d.State != nil {
		d.State.fill()
		r.st = d.State
	}
	r.hlc, r.epoch, r.outbox = d.HLC, max(d.Epoch, 1), d.Outbox
	r.entries, r.rseq, r.wantRecovery, r.wkey, r.snapOut = d.Entries, d.RSeq, d.Recovery, d.WKey, d.SnapOut
	if d.Want != nil {
		r.want = d.Want
	}
	r.evalRoster()
	return r, nil
}

// Device returns the device id.
func (r *Replica) Device() string { return r.dev }

// State returns the merged state. It is the replica's own: do not modify.
func (r *Replica) State() *State { return r.st }

// View returns the merged view.
func (r *Replica) View() View { return r.st.View() }

func (r *Replica) nextHLC() HLC {
	r.hlc = tick(max(r.hlc, r.st.MaxHLC, r.ros.hlc), r.clock.Now())
	return r.hlc
}

func (r *Replica) journalName() string {
	return r.k.stem(r.dev) + "." + strconv.FormatUint(r.epoch, 10) + ".tsj"
}

func (r *Replica) snapshotName() string {
	return r.k.stem(r.dev) + "." + strconv.FormatUint(r.epoch, 10) + ".tss"
}

// An Editor adds changes to one record. Each change is applied to the
// replica's state as it is made, so later changes of the same edit see it.
type Editor struct {
	r   *Replica
	rec *Record
	// base, when set, is the state whose elements the edit's removals
	// name: what the person saw, which may be less than the replica holds.
	base *State
}

// seen returns the state whose elements this edit has seen.
func (e *Editor) seen() *State {
	if e.base != nil {
		return e.base
	}
	return e.r.st
}

func (e *Editor) add(o Op) Dot {
	o.HLC = e.r.nextHLC()
	d := Dot{Dev: e.r.dev, Seq: e.rec.Seq, Idx: uint32(len(e.rec.Ops))}
	e.rec.Ops = append(e.rec.Ops, o)
	e.r.st.applyOp(d, &e.rec.Ops[len(e.rec.Ops)-1])
	e.r.st.MaxHLC = max(e.r.st.MaxHLC, o.HLC)
	e.r.st.Last[e.r.dev] = max(e.r.st.Last[e.r.dev], o.HLC)
	return d
}

// CreateProfile marks a profile as existing and names it.
func (e *Editor) CreateProfile(id, label string) {
	e.add(Op{Kind: OpPresent, Profile: id})
	e.Rename(id, label)
}

// Rename gives a profile a new label, replacing the labels this device
// has seen.
func (e *Editor) Rename(id, label string) {
	var seen []Dot
	if p := e.seen().Profiles[id]; p != nil {
		seen = slices.Collect(maps.Keys(p.Labels))
	}
	e.add(Op{Kind: OpLabel, Profile: id, Label: label, Replaces: sortDots(seen)})
}

// DeleteProfile removes everything of the profile this device has seen.
// What another device adds to it meanwhile brings it back.
func (e *Editor) DeleteProfile(id string) {
	p := e.seen().Profiles[id]
	if p == nil {
		return
	}
	var seen []Dot
	seen = append(seen, slices.Collect(maps.Keys(p.Present))...)
	seen = append(seen, slices.Collect(maps.Keys(p.Labels))...)
	for _, ks := range p.Keys {
		seen = append(seen, slices.Collect(maps.Keys(ks.Values))...)
		seen = append(seen, slices.Collect(maps.Keys(ks.Prefs))...)
	}
	e.add(Op{Kind: OpRemove, Profile: id, Replaces: sortDots(seen)})
}

// Put adds a value of a detail and removes the values (and their
// preferences) under replaces. With candidate it is kept beside the
// current value; otherwise, being the newest, it becomes the preferred one.
func (e *Editor) Put(id, key string, value, meta json.RawMessage, candidate bool, replaces []Dot) Dot {
	return e.add(Op{Kind: OpValue, Profile: id, Key: key, Value: value, Meta: meta, Candidate: candidate,
		Replaces: e.withPrefs(id, key, replaces)})
}

// Set makes value the detail's current value, replacing the value that
// was current here (as an edit by the person does).
func (e *Editor) Set(id, key string, value, meta json.RawMessage) Dot {
	var cur []Dot
	if vals := e.seen().values(id, key); len(vals) > 0 {
		cur = vals[0].Dots
	}
	return e.Put(id, key, value, meta, false, cur)
}

// Remove removes the values under dots (and preferences of them).
func (e *Editor) Remove(id, key string, dots []Dot) {
	if len(dots) == 0 {
		return
	}
	e.add(Op{Kind: OpRemove, Profile: id, Key: key, Replaces: e.withPrefs(id, key, dots)})
}

// Prefer makes the value under target the preferred one, replacing the
// preferences this device has seen for the detail.
func (e *Editor) Prefer(id, key string, target Dot) {
	var seen []Dot
	if p := e.seen().Profiles[id]; p != nil && p.Keys[key] != nil {
		seen = slices.Collect(maps.Keys(p.Keys[key].Prefs))
	}
	e.add(Op{Kind: OpPrefer, Profile: id, Key: key, Target: &target, Replaces: sortDots(seen)})
}

// AddDevice records this device's name among the vault's devices.
func (e *Editor) AddDevice(name string) { e.add(Op{Kind: OpDevice, Label: name}) }

// withPrefs adds to dots the preferences of those values.
func (e *Editor) withPrefs(id, key string, dots []Dot) []Dot {
	out := slices.Clone(dots)
	if p := e.seen().Profiles[id]; p != nil && p.Keys[key] != nil {
		set := map[Dot]bool{}
		for _, d := range dots {
			set[d] = true
		}
		for pd, pe := range p.Keys[key].Prefs {
			if set[pe.Target] {
				out = append(out, pd)
			}
		}
	}
	return sortDots(out)
}

func sortDots(d []Dot) []Dot {
	slices.SortFunc(d, func(a, b Dot) int {
		if a.less(b) {
			return -1
		}
		if b.less(a) {
			return 1
		}
		return 0
	})
	return d
}

func (r *Replica) values(id, key string) []ValueView { return r.st.values(id, key) }

func (s *State) values(id, key string) []ValueView {
	p := s.Profiles[id]
	if p == nil || p.Keys[key] == nil {
		return nil
	}
	return p.Keys[key].view()
}

// Edit makes one record of the changes f makes, which are applied here as
// f makes them. The record goes into the folder at the next Flush or Sync.
func (r *Replica) Edit(f func(e *Editor)) error { return r.editFrom(nil, f) }

// editFrom is Edit with removals naming only the elements of base.
func (r *Replica) editFrom(base *State, f func(e *Editor)) error {
	if r.ownMax() > r.st.VV[r.dev] {
		return ErrBehind
	}
	rec := &Record{Dev: r.dev, Seq: r.st.VV[r.dev] + 1, Deps: map[string]uint64{}}
	for d, n := range r.st.VV {
		if d != r.dev && n > 0 {
			rec.Deps[d] = n
		}
	}
	f(&Editor{r: r, rec: rec, base: base})
	if len(rec.Ops) == 0 {
		return nil
	}
	r.st.VV[r.dev] = rec.Seq
	r.outbox = append(r.outbox, rec)
	return nil
}

func (r *Replica) ownMax() uint64 {
	var n uint64
	for _, c := range r.files {
		n = max(n, c.ownMax)
	}
	return n
}

// Flush appends the records not yet in the folder to this device's
// journal, after cutting off a partly written record a crash may have
// left at its end. It first writes this device's roster entries: its
// join, when it is not a member yet, and a new rotation when one it made
// lost to a concurrent one. When the epoch key changed since the journal
// was started, it writes a snapshot under the new key instead.
func (r *Replica) Flush(fsys FS) error {
	joinErr := r.join()
	if joinErr == nil {
		if err := r.heal(); err != nil {
			return err
		}
	}
	if err := r.flushRoster(fsys); err != nil {
		return err
	}
	if joinErr != nil {
		return joinErr
	}
	if !r.ros.isMember(r.dev) || r.k.epochs[r.ros.cur] == nil {
		// Its own rotation showed it was removed meanwhile.
		return ErrRemoved
	}
	if r.wkey != "" && r.wkey != r.ros.cur || r.outGrew() {
		// Everything this device wrote, the outbox included, is in its
		// state: a snapshot under the current key carries it all, and
		// with it what it read of removed devices, which some of the
		// other members may not be able to read (their files are sealed
		// under a key those were not given, or no longer whole).
		return r.compact(fsys)
	}
	if len(r.outbox) == 0 {
		return nil
	}
	name := r.journalName()
	at := 0
	if name == r.wname && r.wsize >= int64(len(r.wtail)) {
		// The common case: the file is as this replica left it.
		if b, err := fsys.ReadFile(name, r.wsize-int64(len(r.wtail))); err == nil && bytes.Equal(b, r.wtail) {
			at = int(r.wsize)
		}
	}
	if at == 0 {
		if b, err := fsys.ReadFile(name, 0); err == nil {
			at = r.k.ParseJournal(b, r.pubOf).Complete
		}
	}
	var buf []byte
	for _, rec := range r.outbox {
		f, err := r.k.sealRecord(r.ros.cur, r.ident.sign, rec)
		if err != nil {
			return fmt.Errorf("flush: %w", err)
		}
		buf = append(buf, f...)
	}
	if err := fsys.WriteAt(name, buf, int64(at)); err != nil {
		r.wname = ""
		return fmt.Errorf("flush: write %s: %w", name, err)
	}
	r.wname, r.wsize, r.wtail, r.wkey = name, int64(at+len(buf)), bytes.Clone(buf[len(buf)-16:]), r.ros.cur
	for _, rec := range r.outbox {
		r.flushed = append(r.flushed, rec.Seq)
	}
	r.outbox = nil
	return nil
}

// Sync puts this device's new records in the folder and reads what the
// other devices wrote.
func (r *Replica) Sync(fsys FS) error {
	if err := r.Flush(fsys); err != nil {
		return err
	}
	return r.Read(fsys)
}

// Read reads every sync file of the folder and applies, in causal order,
// what is new and complete. Files or records that are damaged or not yet
// complete are reported by Status and read again next time.
func (r *Replica) Read(fsys FS) error {
	list, err := fsys.List()
	if err != nil {
		return err
	}
	r.problems, r.flushed = nil, nil
	r.readRosters(fsys, list)
	seen := map[string]bool{}
	var snaps []*snapshotDoc
	forged := 0
	for _, fi := range list {
		kind := syncFileKind(fi.Name)
		if kind == 0 || kind == kindRoster {
			continue
		}
		seen[fi.Name] = true
		c := r.files[fi.Name]
		if c != nil && c.size == fi.Size {
			continue
		}
		if c == nil || fi.Size < c.size || kind == kindSnapshot {
			c = &cursor{}
			r.files[fi.Name] = c
		}
		from := 0
		if kind == kindJournal && c.off > 0 && fi.Size >= int64(c.off) {
			from = c.off - len(c.tail)
		}
		b, err := fsys.ReadFile(fi.Name, int64(from))
		if err != nil {
			r.problems = append(r.problems, fmt.Sprintf("cannot read %s: %v", fi.Name, err))
			delete(r.files, fi.Name)
			continue
		}
		c.size = int64(from + len(b))
		if kind == kindSnapshot {
			d, err := r.k.parseSnapshot(b, r.pubOf)
			if err != nil {
				c.problem = r.fileProblem(fi.Name, err)
				if errors.Is(err, errNoKey) || errors.Is(err, errUnknownDevice) {
					// Read it again once the roster says more.
					c.size = -1
				}
				continue
			}
			if d == nil {
				c.size = -1
				continue
			}
			c.snapVV = d.State.VV
			c.ownMax = d.State.VV[r.dev]
			snaps = append(snaps, d)
			continue
		}
		if from > 0 {
			if len(b) < len(c.tail) || !bytes.Equal(b[:len(c.tail)], c.tail) {
				// Rewritten: read it all again.
				*c = cursor{}
				if b, err = fsys.ReadFile(fi.Name, 0); err != nil {
					delete(r.files, fi.Name)
					continue
				}
				c.size, from = int64(len(b)), 0
			} else {
				b = b[len(c.tail):]
				from = c.off
			}
		}
		p := r.k.ParseJournal(b, r.pubOf)
		c.off = from + p.Complete
		if p.Complete > 0 {
			c.tail = bytes.Clone(b[p.Complete-min(p.Complete, 16) : p.Complete])
		}
		c.problem = ""
		forged += p.Forged
		if p.Err != nil {
			c.problem = r.fileProblem(fi.Name, fmt.Errorf("stopped at byte %d: %w", c.off, p.Err))
			// Read it again from the same place once it changes, or, when
			// it waits for a key or a member, at every read.
			c.size = int64(c.off)
			if errors.Is(p.Err, errNoKey) || errors.Is(p.Err, errUnknownDevice) {
				c.size = -1
			}
		}
		for _, rec := range p.Records {
			if rec.Dev == r.dev {
				c.ownMax = max(c.ownMax, rec.Seq)
				c.own = append(c.own, rec.Seq)
			}
			r.queue(rec)
		}
	}
	for name := range r.files {
		if !seen[name] {
			delete(r.files, name)
		}
	}
	if forged > 0 {
		r.problems = append(r.problems, fmt.Sprintf("%d records do not carry the signature of the device they name: ignored", forged))
	}
	r.cutoffs()
	for _, d := range snaps {
		if !r.ros.isMember(d.Dev) {
			// Only a member's snapshot is trusted with other devices'
			// changes: a removed device could write one after its removal.
			continue
		}
		if newer(d.State.VV, r.st.VV) {
			r.st.join(d.State, func(pid, key string) { r.touchKey(d.Dev, pid, key) })
		}
	}
	r.deliver()
	return nil
}

// newer reports whether a has read something b has not.
func newer(a, b map[string]uint64) bool {
	for d, n := range a {
		if n > b[d] {
			return true
		}
	}
	return false
}

func (r *Replica) queue(rec *Record) {
	if rec.Seq <= r.st.VV[rec.Dev] {
		return
	}
	m := r.pending[rec.Dev]
	if m == nil {
		m = map[uint64]*Record{}
		r.pending[rec.Dev] = m
	}
	if _, ok := m[rec.Seq]; !ok {
		m[rec.Seq] = rec
	}
}

// deliver applies pending records whose turn has come until none has.
// Records of a removed device beyond its cutoff stay pending: the cutoff
// rises when a member's record shows it had read them.
func (r *Replica) deliver() {
	for dev, m := range r.pending {
		for seq := range m {
			if seq <= r.st.VV[dev] {
				delete(m, seq)
			}
		}
	}
	for progress := true; progress; {
		progress = false
		for _, dev := range slices.Sorted(maps.Keys(r.pending)) {
			m := r.pending[dev]
			for {
				rec := m[r.st.VV[dev]+1]
				if rec == nil || r.st.dropped(dev, rec.Seq) || !r.st.ready(rec) {
					break
				}
				delete(m, rec.Seq)
				r.st.apply(rec)
				r.touch(rec)
				progress = true
			}
			if len(m) == 0 {
				delete(r.pending, dev)
			}
		}
	}
}

func (r *Replica) touch(rec *Record) {
	for _, o := range rec.Ops {
		if o.Profile != "" {
			r.touchKey(rec.Dev, o.Profile, o.Key)
		}
	}
}

// touchKey notes that a change of device dev (a record, or a snapshot it
// wrote) reached key of profile pid ("" for the profile itself).
func (r *Replica) touchKey(dev, pid, key string) {
	if dev == r.dev {
		return
	}
	if r.touched == nil {
		r.touched = map[string]map[string]map[string]bool{}
	}
	ps := r.touched[dev]
	if ps == nil {
		ps = map[string]map[string]bool{}
		r.touched[dev] = ps
	}
	if ps[pid] == nil {
		ps[pid] = map[string]bool{}
	}
	if key != "" {
		ps[pid][key] = true
	}
}

// takeTouched returns and forgets what records of other devices changed:
// device -> profile -> keys.
func (r *Replica) takeTouched() map[string]map[string]map[string]bool {
	t := r.touched
	r.touched = nil
	return t
}

// journalRecords returns how many records the current journal holds, as
// last read.
func (r *Replica) journalRecords() int {
	if c := r.files[r.journalName()]; c != nil {
		return len(c.own)
	}
	return 0
}

// Compact writes a snapshot of this device's whole state and starts a new
// journal, then removes this device's older files. Devices that had not
// read all of the old journal read the snapshot instead.
func (r *Replica) Compact(fsys FS) error {
	if err := r.Flush(fsys); err != nil {
		return err
	}
	return r.compact(fsys)
}

// compact writes the snapshot and removes the older files; what the
// outbox holds is in the snapshot.
func (r *Replica) compact(fsys FS) error {
	old := r.epoch
	r.epoch++
	b, err := r.k.sealSnapshot(r.ros.cur, r.ident.sign, &snapshotDoc{Dev: r.dev, Epoch: r.epoch, State: r.st})
	if err != nil {
		r.epoch = old
		return fmt.Errorf("compact: %w", err)
	}
	if err := fsys.WriteFile(r.snapshotName(), b); err != nil {
		r.epoch = old
		return fmt.Errorf("compact: %w", err)
	}
	for _, rec := range r.outbox {
		r.flushed = append(r.flushed, rec.Seq)
	}
	r.outbox, r.wkey, r.wname = nil, r.ros.cur, ""
	r.snapOut = map[string]uint64{}
	for dev := range r.ros.known {
		if r.ros.out(dev) {
			r.snapOut[dev] = r.st.VV[dev]
		}
	}
	list, err := fsys.List()
	if err != nil {
		return fmt.Errorf("compact: %w", err)
	}
	stem := r.k.stem(r.dev) + "."
	keep := map[string]bool{r.snapshotName(): true, r.journalName(): true, r.rosterName(): true}
	for _, fi := range list {
		if strings.HasPrefix(fi.Name, stem) && syncFileKind(fi.Name) != 0 && !keep[fi.Name] {
			if err := fsys.Remove(fi.Name); err != nil {
				return fmt.Errorf("compact: %w", err)
			}
		}
	}
	return nil
}

// Repair writes a snapshot when the folder no longer holds everything
// this device wrote (it was restored from an older copy, or files were
// lost), so the other devices can still read it all. It reports whether it
// wrote one.
func (r *Replica) Repair(fsys FS) (bool, error) {
	if !r.folderBehind() {
		return false, nil
	}
	return true, r.Compact(fsys)
}

// ownCovered returns the highest n such that the folder holds everything
// this device wrote up to n: in a whole snapshot of its own, then in
// journal records from the one after.
func (r *Replica) ownCovered() uint64 {
	var n uint64
	have := map[uint64]bool{}
	stem := r.k.stem(r.dev) + "."
	for name, c := range r.files {
		if !isOwnName(name, stem) {
			// Only files this device writes count: a copy a sync tool
			// made may go at any time.
			continue
		}
		if c.snapVV != nil {
			n = max(n, c.snapVV[r.dev])
		}
		for _, s := range c.own {
			have[s] = true
		}
	}
	for _, s := range r.flushed {
		have[s] = true
	}
	for have[n+1] {
		n++
	}
	return n
}

// isOwnName reports whether name is one of the files a device with this
// stem writes: STEM.EPOCH.tsj or STEM.EPOCH.tss.
func isOwnName(name, stem string) bool {
	rest, ok := strings.CutPrefix(name, stem)
	if !ok || len(rest) < 5 {
		return false
	}
	_, err := strconv.ParseUint(rest[:len(rest)-4], 10, 64)
	return err == nil && syncFileKind(name) != 0
}

// folderBehind reports whether the folder lacks records of this device
// that are no longer in its outbox.
func (r *Replica) folderBehind() bool {
	return r.ownCovered()+uint64(len(r.outbox)) < r.st.VV[r.dev]
}

// A DeviceStatus is what one device has contributed, as read here.
type DeviceStatus struct {
	Device string `json:"device"`
	Name   string `json:"name,omitempty"`
	Self   bool   `json:"self,omitempty"`
	// Seq is the last record read from the device; LastChange the wall
	// time its clock gave the last change in it.
	Seq        uint64    `json:"seq"`
	LastChange time.Time `json:"lastChange,omitempty"`
	// Waiting counts records read but not applied yet: they follow one
	// not arrived yet, or changes of another device not arrived yet.
	Waiting int `json:"waiting,omitempty"`
	// Removed reports that the device is not a member any more; Ignored
	// counts the records it wrote after its removal that were read and
	// are ignored.
	Removed bool `json:"removed,omitempty"`
	Ignored int  `json:"ignored,omitempty"`
}

// A Status is the replica's view of the folder.
type Status struct {
	Devices []DeviceStatus `json:"devices"`
	// Problems says in words what is wrong or incomplete in the folder.
	Problems []string `json:"problems,omitempty"`
	// Unwritten counts records not yet in the folder.
	Unwritten int `json:"unwritten,omitempty"`
	// Epoch is the number of the current epoch: it grows by one at every
	// removal and recovery passphrase change.
	Epoch uint64 `json:"epoch"`
	// Removed reports that this device is no longer a member of the group.
	Removed bool `json:"removed,omitempty"`
}

// Status reports what has been read from every device and what is wrong.
func (r *Replica) Status() Status {
	devs := map[string]bool{}
	for d := range r.st.VV {
		devs[d] = true
	}
	for d := range r.st.Devices {
		devs[d] = true
	}
	for d := range r.pending {
		devs[d] = true
	}
	for d := range r.ros.known {
		devs[d] = true
	}
	devs[r.dev] = true
	st := Status{Problems: slices.Clone(r.problems), Unwritten: len(r.outbox), Epoch: r.ros.epoch, Removed: r.ros.out(r.dev)}
	for _, name := range slices.Sorted(maps.Keys(r.files)) {
		if p := r.files[name].problem; p != "" {
			st.Problems = append(st.Problems, p)
		}
	}
	for _, d := range slices.Sorted(maps.Keys(devs)) {
		ds := DeviceStatus{Device: d, Self: d == r.dev, Seq: r.st.VV[d], Waiting: len(r.pending[d])}
		if h := r.st.Last[d]; h != 0 {
			ds.LastChange = h.Wall()
		}
		if i := r.st.Devices[d]; i != nil {
			ds.Name = i.Name
			if i.Removed {
				ds.Removed = true
				for seq := range r.pending[d] {
					if seq > i.Cutoff {
						ds.Ignored++
						ds.Waiting--
					}
				}
			}
		}
		if ds.Waiting > 0 {
			st.Problems = append(st.Problems, fmt.Sprintf("%d records of device %s wait for earlier changes that have not arrived yet", ds.Waiting, deviceLabel(ds)))
		}
		st.Devices = append(st.Devices, ds)
	}
	if st.Removed {
		st.Problems = append(st.Problems, ErrRemoved.Error()+": it can no longer read what the others write; set sync up again to rejoin")
	} else if n := r.ownCovered(); r.folderBehind() {
		st.Problems = append(st.Problems, fmt.Sprintf("the folder holds this device's changes up to %d of %d: it was restored from an older copy or files were lost; the next sync writes them again", n, r.st.VV[r.dev]))
	}
	return st
}

func deviceLabel(d DeviceStatus) string {
	if d.Name != "" {
		return fmt.Sprintf("%q", d.Name)
	}
	return d.Device
}

// fileProblem says in words what is wrong with a file, or nothing when
// it is a file of a device that is no longer a member sealed under an
// epoch key this device was not given: what it holds is ignored here.
func (r *Replica) fileProblem(name string, err error) string {
	if errors.Is(err, errNoKey) {
		for dev := range r.ros.known {
			if r.ros.out(dev) && strings.HasPrefix(name, r.k.stem(dev)+".") {
				return ""
			}
		}
	}
	return fmt.Sprintf("%s: %v", name, err)
}

// outGrew reports whether this device read more of a device that is no
// longer a member since its last snapshot.
func (r *Replica) outGrew() bool {
	for dev := range r.ros.known {
		if r.ros.out(dev) && r.st.VV[dev] > r.snapOut[dev] {
			return true
		}
	}
	return false
}
