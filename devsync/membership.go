package devsync

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"maps"
	"slices"

	"filippo.io/age"
)

func (r *Replica) rosterName() string { return r.k.stem(r.dev) + ".tsr" }

// pubOf returns the signing key of a device that joined the group, for
// reading what it wrote; whether what it wrote counts is the state's
// cutoffs' business.
func (r *Replica) pubOf(dev string) ed25519.PublicKey { return r.ros.known[dev] }

// addEntries keeps the entries not already held and reports whether there
// was any. An entry whose author is known and whose signature is not the
// author's is dropped at once; others wait for the evaluation to judge
// them.
func (r *Replica) addEntries(list []*signedEntry) bool {
	have := map[string]bool{}
	for _, se := range r.entries {
		have[string(se.Sig)+se.id()] = true
	}
	added := false
	for _, se := range list {
		if have[string(se.Sig)+se.id()] {
			continue
		}
		pub := ed25519.PublicKey(se.E.Pub)
		if se.E.Kind != entryJoin {
			pub = r.ros.known[se.E.Dev]
		}
		if pub != nil && !r.k.verify(kindRoster, se.frame(), pub) {
			continue
		}
		have[string(se.Sig)+se.id()] = true
		r.entries = append(r.entries, se)
		added = true
	}
	return added
}

// evalRoster evaluates the entries held, opening the epoch keys sealed to
// this device (or to the recovery identity it holds) as it goes, and
// reports whether it learned a key.
func (r *Replica) evalRoster() bool {
	ids := map[string]age.Identity{r.dev: r.ident.age}
	if r.recovery != nil {
		ids[recoveryKey] = r.recovery
	}
	learned := false
	for {
		r.ros = r.k.evalRoster(r.entries)
		more := false
		for _, se := range r.entries {
			// Keys of every rotation, valid or not: holding a key makes
			// nobody a member, it only lets this device read (and judge
			// the joins of) that epoch.
			e := &se.E
			if e.Kind != entryRotate || r.k.epochs[e.KeyID] != nil {
				continue
			}
			if key, ok := openEpochKey(e, ids); ok {
				r.k.add(key)
				more = true
			}
		}
		if !more {
			return learned
		}
		learned = true
	}
}

// readRosters reads every roster file of the folder and evaluates them,
// again each time a new epoch key opens more of them.
func (r *Replica) readRosters(fsys FS, list []FileInfo) {
	var files []string
	for _, fi := range list {
		if syncFileKind(fi.Name) == kindRoster {
			files = append(files, fi.Name)
		}
	}
	data := map[string][]byte{}
	for _, name := range files {
		b, err := fsys.ReadFile(name, 0)
		if err != nil {
			r.problems = append(r.problems, fmt.Sprintf("cannot read %s: %v", name, err))
			continue
		}
		data[name] = b
	}
	for {
		added := false
		own := map[string]bool{}
		var problems []string
		for _, name := range slices.Sorted(maps.Keys(data)) {
			list, _, err := r.k.parseRoster(data[name])
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s: %v", name, err))
			}
			if r.addEntries(list) {
				added = true
			}
			if name == r.rosterName() {
				for _, se := range list {
					own[string(se.Sig)+se.id()] = true
				}
			}
		}
		learned := r.evalRoster()
		if !added && !learned {
			r.problems = append(r.problems, problems...)
			r.rosterDirty = slices.ContainsFunc(r.entries, func(se *signedEntry) bool { return !own[string(se.Sig)+se.id()] })
			return
		}
	}
}

// writeEntry signs a new entry of this device, sealed under the current
// epoch key, and evaluates the roster with it. Flush writes it out.
func (r *Replica) writeEntry(e *rosterEntry) error {
	e.Dev, e.Seq, e.HLC, e.In = r.dev, r.rseq+1, r.nextHLC(), r.ros.cur
	if e.Kind == entryJoin {
		e.Proof = r.k.joinProof(e.In, e)
	}
	se, _, err := r.k.sealEntry(r.ident.sign, e)
	if err != nil {
		return err
	}
	r.rseq++
	r.entries = append(r.entries, se)
	r.rosterDirty = true
	r.evalRoster()
	r.cutoffs()
	return nil
}

// join makes this device a member, when it is not one and holds the
// current epoch key (a device given the key by approval or through the
// recovery passphrase). A device that joined in an epoch that ended
// without it (it joined at the moment another was removed) joins again
// this way once it holds the new key; a removed device never does.
func (r *Replica) join() error {
	if r.ros.isMember(r.dev) {
		return nil
	}
	if _, gone := r.ros.removed[r.dev]; gone || r.k.epochs[r.ros.cur] == nil {
		return ErrRemoved
	}
	e := &rosterEntry{Kind: entryJoin, Pub: r.ident.pub(), Recipient: r.ident.age.Recipient().String()}
	if r.recovery != nil {
		e.Recovery = r.recovery.Recipient().String()
	}
	if err := r.writeEntry(e); err != nil {
		return err
	}
	if !r.ros.isMember(r.dev) {
		return ErrRemoved
	}
	return nil
}

// rotate starts a new epoch without the devices of removals, its key
// sealed to every other member and to the recovery recipient.
func (r *Replica) rotate(removals []Removal) error {
	var key [32]byte
	if _, err := rand.Read(key[:]); err != nil {
		return err
	}
	id, err := r.k.add(key)
	if err != nil {
		return err
	}
	gone := map[string]bool{}
	for _, rm := range removals {
		gone[rm.Dev] = true
	}
	e := &rosterEntry{Kind: entryRotate, Epoch: r.ros.epoch + 1, KeyID: id, Removed: removals, Keys: map[string][]byte{}}
	for _, dev := range slices.Sorted(maps.Keys(r.ros.members)) {
		if gone[dev] {
			continue
		}
		if e.Keys[dev], err = sealEpochKey(key, r.ros.members[dev].recipient); err != nil {
			return fmt.Errorf("rotate: device %s: %w", dev, err)
		}
	}
	rec := r.ros.recovery
	if r.wantRecovery != "" {
		rec, e.Recovery = r.wantRecovery, r.wantRecovery
	}
	if rec != "" {
		if e.Keys[recoveryKey], err = sealEpochKey(key, rec); err != nil {
			return fmt.Errorf("rotate: recovery: %w", err)
		}
	}
	return r.writeEntry(e)
}

// ErrUnknownDevice is returned by RemoveDevice for a device that is not a
// member of the group.
var ErrUnknownDevice = errors.New("no such device in the sync group")

// RemoveDevice removes dev from the group: a new epoch starts, whose key
// only the other members (and the recovery identity) can open, and what
// dev writes after what this device has read of it is ignored by every
// device. Flush writes the change.
func (r *Replica) RemoveDevice(dev string) error {
	if !r.ros.isMember(r.dev) {
		return ErrRemoved
	}
	if dev == r.dev || !r.ros.isMember(dev) {
		return fmt.Errorf("remove device %s: %w", dev, ErrUnknownDevice)
	}
	var seen uint64
	for _, se := range r.entries {
		if se.E.Dev == dev {
			seen = max(seen, se.E.Seq)
		}
	}
	rm := Removal{Dev: dev, Journal: r.st.VV[dev], Roster: seen}
	r.want[dev] = rm
	return r.rotate([]Removal{rm})
}

// Leave removes this device from the group itself, as a member removes
// another: a new epoch whose key only the others hold, and nothing it
// writes afterwards counts. Flush writes the change.
func (r *Replica) Leave() error {
	if !r.ros.isMember(r.dev) {
		return ErrRemoved
	}
	// Its own rotation is its next roster entry: it must count.
	rm := Removal{Dev: r.dev, Journal: r.st.VV[r.dev], Roster: r.rseq + 1}
	return r.rotate([]Removal{rm})
}

// SetRecovery seals the epoch keys from now on to a new recovery
// recipient, in a new epoch, so that whoever held the old recovery
// identity cannot open them. Flush writes the change.
func (r *Replica) SetRecovery(recipient string) error {
	if _, err := age.ParseX25519Recipient(recipient); err != nil {
		return err
	}
	if !r.ros.isMember(r.dev) {
		return ErrRemoved
	}
	r.wantRecovery = recipient
	return r.rotate(nil)
}

// heal rotates again when a removal or a recovery change this device made
// has no effect: a rotation concurrent with another one loses.
func (r *Replica) heal() error {
	if !r.ros.isMember(r.dev) {
		return nil
	}
	var redo []Removal
	for _, dev := range slices.Sorted(maps.Keys(r.want)) {
		if _, ok := r.ros.removed[dev]; !ok {
			if r.ros.isMember(dev) {
				redo = append(redo, r.want[dev])
			} else {
				delete(r.want, dev)
			}
		}
	}
	if len(redo) == 0 && (r.wantRecovery == "" || r.wantRecovery == r.ros.recovery) {
		return nil
	}
	return r.rotate(redo)
}

// flushRoster writes this device's roster file again when it lacks some
// of the entries this device holds. It carries every entry, the other
// devices' too (each signed by its author, so carrying it changes
// nothing): a roster file that a sync tool loses or restores from an
// older copy, or that a removed device stops writing, loses no entry.
func (r *Replica) flushRoster(fsys FS) error {
	if !r.rosterDirty {
		return nil
	}
	var buf []byte
	for _, se := range r.entries {
		f, err := r.k.resealEntry(se)
		if err != nil {
			return err
		}
		buf = append(buf, f...)
	}
	if err := fsys.WriteFile(r.rosterName(), buf); err != nil {
		return fmt.Errorf("write roster: %w", err)
	}
	r.rosterDirty = false
	return nil
}

// cutoffs sets, for every device that joined but is no longer a member,
// the last of its records that count: the most the device that removed it
// had read of it, raised to the most any member read of it before that
// member learned of the removal (its own state, and the dependencies of
// members' records read here), so that every device ends up applying the
// same records.
func (r *Replica) cutoffs() {
	for dev := range r.ros.known {
		ds := r.st.Devices[dev]
		if r.ros.isMember(dev) {
			if ds != nil {
				ds.Removed, ds.Cutoff = false, 0
			}
			continue
		}
		cut := max(r.ros.removed[dev].Journal, r.st.VV[dev])
		for d, m := range r.pending {
			if !r.ros.isMember(d) {
				continue
			}
			for _, rec := range m {
				cut = max(cut, rec.Deps[dev])
			}
		}
		if ds == nil {
			ds = &deviceState{}
			r.st.Devices[dev] = ds
		}
		ds.Removed, ds.Cutoff = true, cut
	}
}
