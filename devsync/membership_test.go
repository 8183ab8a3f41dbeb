package devsync

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"filippo.io/age"
)

// group returns n devices that have joined and read one another.
func group(t *testing.T, now *time.Time, n int) (memFS, []*Replica) {
	t.Helper()
	fs := memFS{}
	rs := devices(t, now, make([]time.Duration, n)...)
	syncAll(t, fs, rs...)
	for _, r := range rs {
		if len(r.ros.members) != n {
			t.Fatalf("device %s sees %d members, want %d", r.dev, len(r.ros.members), n)
		}
	}
	return fs, rs
}

// forge appends to w's journal in fs a record sealed under epoch key id
// and signed with sign: what a device holding that key can write,
// whatever its software.
func forge(t *testing.T, fs memFS, w *Replica, id string, sign *identity, rec *Record) {
	t.Helper()
	b, err := w.k.sealRecord(id, sign.sign, rec)
	if err != nil {
		t.Fatal(err)
	}
	fs[w.journalName()] = append(fs[w.journalName()], b...)
}

func record(dev string, seq uint64, deps map[string]uint64, pid, key, value string) *Record {
	return &Record{Dev: dev, Seq: seq, Deps: deps, Ops: []Op{{Kind: OpValue, Profile: pid, Key: key, Value: raw(value), HLC: 1 << 40}}}
}

// TestRemovedDeviceIsCutOff: once a device is removed, what it writes is
// ignored by every device, even when its software keeps writing with the
// key it holds, and it cannot read what the others write afterwards.
func TestRemovedDeviceIsCutOff(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	fs, rs := group(t, &now, 3)
	a, b, c := rs[0], rs[1], rs[2]
	b.Edit(func(e *Editor) { e.AddDevice("old phone"); e.Set("p", "concept:k", raw(`"before"`), nil) })
	syncAll(t, fs, rs...)
	oldKey := b.ros.cur

	if err := a.RemoveDevice(b.dev); err != nil {
		t.Fatal(err)
	}
	syncAll(t, fs, a, c)
	if a.ros.cur == oldKey || c.ros.cur != a.ros.cur || a.ros.epoch != 2 {
		t.Fatalf("epochs: a %d (%s), c %s, old %s; want a new epoch 2 on both", a.ros.epoch, a.ros.cur, c.ros.cur, oldKey)
	}

	// b edits before it has read of its removal: its record goes out
	// with the key it holds; then it learns it was removed.
	b.Edit(func(e *Editor) { e.Set("p", "concept:k", raw(`"after removal, honest"`), nil) })
	if err := b.Sync(fs); err != nil {
		t.Fatal(err)
	}
	if err := b.Sync(fs); !errors.Is(err, ErrRemoved) {
		t.Fatalf("removed device Sync = %v, want ErrRemoved", err)
	}
	// b's software goes on as if nothing happened: it writes records with
	// the key it still holds, signed with its own key, as the next in its
	// journal.
	forge(t, fs, b, oldKey, b.ident, record(b.dev, b.st.VV[b.dev]+1, nil, "p", "concept:k", `"after removal, forged"`))
	a.Edit(func(e *Editor) { e.Set("p", "concept:secret", raw(`"written after the removal"`), nil) })
	syncAll(t, fs, a, c)

	for _, r := range []*Replica{a, c} {
		if got := valuesOf(r, "p", "concept:k"); !slices.Equal(got, []string{`"before"`}) {
			t.Errorf("device %s: values = %q, want only what b wrote before its removal", r.dev, got)
		}
		var ds DeviceStatus
		for _, d := range r.Status().Devices {
			if d.Device == b.dev {
				ds = d
			}
		}
		if !ds.Removed || ds.Name != "old phone" || ds.Ignored == 0 {
			t.Errorf("device %s: status of the removed device = %+v, want removed, named, records ignored", r.dev, ds)
		}
		if st := r.Status(); len(st.Problems) != 0 {
			t.Errorf("device %s: problems %q, want none", r.dev, st.Problems)
		}
	}

	// b cannot read what a wrote after the removal: it does not hold the
	// key, and no key in the folder opens for it.
	b.Read(fs)
	if got := valuesOf(b, "p", "concept:secret"); len(got) != 0 {
		t.Errorf("removed device read %q", got)
	}
	if b.k.epochs[a.ros.cur] != nil {
		t.Error("removed device holds the new epoch key")
	}
	for _, se := range a.entries {
		if se.E.Kind == entryRotate {
			if _, ok := openEpochKey(&se.E, map[string]age.Identity{b.dev: b.ident.age}); ok {
				t.Error("the rotation seals the new key to the removed device")
			}
		}
	}
	if _, _, err := b.k.nextFrame(kindJournal, fs[a.journalName()], MaxRecordSize); !errors.Is(err, errNoKey) {
		t.Errorf("removed device opening the new journal: %v, want errNoKey", err)
	}
	if st := b.Status(); !st.Removed {
		t.Errorf("removed device status = %+v, want Removed", st)
	}
}

// TestForgedRecordIgnored: a device that holds the group key (a member,
// or a removed device with an older key) writes a record in another
// device's name. It does not carry that device's signature: every device
// ignores it, says so, and still reads the real record with that number.
func TestForgedRecordIgnored(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	fs, rs := group(t, &now, 3)
	a, b, c := rs[0], rs[1], rs[2]
	a.Edit(func(e *Editor) { e.Set("p", "concept:k", raw(`"real"`), nil) })
	syncAll(t, fs, rs...)

	// c writes, in its own journal and in a's, a's next record, sealed
	// under the current key, signed with its own key.
	next := a.st.VV[a.dev] + 1
	forge(t, fs, c, c.ros.cur, c.ident, record(a.dev, next, nil, "p", "concept:k", `"forged"`))
	forge(t, fs, a, c.ros.cur, c.ident, record(a.dev, next, nil, "p", "concept:k", `"forged in a's file"`))
	b.Read(fs)
	if got := valuesOf(b, "p", "concept:k"); !slices.Equal(got, []string{`"real"`}) {
		t.Fatalf("values = %q, want the forged records ignored", got)
	}
	if st := b.Status(); !slices.ContainsFunc(st.Problems, func(p string) bool { return strings.Contains(p, "signature") }) {
		t.Errorf("problems = %q, want the forged records reported", st.Problems)
	}
	// a's real record with that number still counts.
	delete(fs, a.journalName())
	a.wname = ""
	a.Edit(func(e *Editor) { e.Set("p", "concept:k", raw(`"real again"`), nil) })
	if err := a.Flush(fs); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Repair(fs); err != nil {
		t.Fatal(err)
	}
	b.Read(fs)
	if got := valuesOf(b, "p", "concept:k"); !slices.Equal(got, []string{`"real again"`}) || b.st.VV[a.dev] != next {
		t.Errorf("after a's real record %d: values %q, read %d", next, got, b.st.VV[a.dev])
	}

	// A forged roster entry: c removes a in a's name.
	e := &rosterEntry{Dev: a.dev, Seq: 99, HLC: c.nextHLC(), Kind: entryRotate, In: c.ros.cur, Epoch: 2,
		KeyID: strings.Repeat("ab", keyIDSize), Removed: []Removal{{Dev: b.dev}}, Keys: map[string][]byte{}}
	_, fr, err := c.k.sealEntry(c.ident.sign, e)
	if err != nil {
		t.Fatal(err)
	}
	fs[c.rosterName()] = append(fs[c.rosterName()], fr...)
	b.Read(fs)
	if b.ros.epoch != 1 || !b.ros.isMember(b.dev) {
		t.Errorf("after a forged rotation: epoch %d, member %v; want nothing changed", b.ros.epoch, b.ros.isMember(b.dev))
	}
}

// TestRemovedDeviceCannotSneakBackIn: a removed device still holds the
// first epoch's key. It makes up a new device and joins it with a clock
// set back before its removal; or it removes the device that removed it.
// Neither counts.
func TestRemovedDeviceCannotSneakBackIn(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	fs, rs := group(t, &now, 3)
	a, b, c := rs[0], rs[1], rs[2]
	firstKey := b.ros.cur
	if err := a.RemoveDevice(b.dev); err != nil {
		t.Fatal(err)
	}
	syncAll(t, fs, a, c)

	then := now.Add(-time.Hour)
	y, err := NewReplica("00000000000000ee", testSecret, simClock{&then, 0})
	if err != nil {
		t.Fatal(err)
	}
	if err := y.Flush(fs); err != nil { // y joins in epoch 1, as it sees it
		t.Fatal(err)
	}
	forge(t, fs, y, firstKey, y.ident, record(y.dev, 1, nil, "p", "concept:k", `"from the back door"`))
	b.Read(fs)
	b.rseq = 0
	if err := b.writeEntry(&rosterEntry{Kind: entryRotate, Epoch: 2, KeyID: strings.Repeat("cd", keyIDSize), Removed: []Removal{{Dev: a.dev}}, Keys: map[string][]byte{}}); err != nil {
		t.Fatal(err)
	}
	b.rosterDirty = true
	b.flushRoster(fs)

	syncAll(t, fs, a, c)
	for _, r := range []*Replica{a, c} {
		if r.ros.isMember(y.dev) || r.ros.isMember(b.dev) || !r.ros.isMember(a.dev) || r.ros.epoch != 2 {
			t.Errorf("device %s: members %v, epoch %d; want a and c only, epoch 2", r.dev, slices.Sorted(mapsKeys(r.ros.members)), r.ros.epoch)
		}
		if got := valuesOf(r, "p", "concept:k"); len(got) != 0 {
			t.Errorf("device %s applied %q", r.dev, got)
		}
	}
}

func mapsKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// TestConcurrentRemovals: two devices each remove another one at the same
// moment. One rotation wins; the other device rotates again, so both
// removals hold and the four... two remaining devices share one key.
func TestConcurrentRemovals(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	fs, rs := group(t, &now, 4)
	a, b, c, d := rs[0], rs[1], rs[2], rs[3]
	if err := a.RemoveDevice(c.dev); err != nil {
		t.Fatal(err)
	}
	if err := b.RemoveDevice(d.dev); err != nil {
		t.Fatal(err)
	}
	a.Flush(fs)
	b.Flush(fs)
	syncAll(t, fs, a, b)
	syncAll(t, fs, a, b)
	for _, r := range []*Replica{a, b} {
		if r.ros.isMember(c.dev) || r.ros.isMember(d.dev) || len(r.ros.members) != 2 {
			t.Errorf("device %s: members %v, want a and b", r.dev, slices.Sorted(mapsKeys(r.ros.members)))
		}
	}
	if a.ros.cur != b.ros.cur || a.ros.epoch != 3 {
		t.Errorf("a in epoch %d (%s), b in %d (%s); want both in epoch 3", a.ros.epoch, a.ros.cur, b.ros.epoch, b.ros.cur)
	}
	for _, r := range []*Replica{c, d} {
		r.Read(fs)
		if r.k.epochs[a.ros.cur] != nil {
			t.Errorf("removed %s holds the current key", r.dev)
		}
	}
	a.Edit(func(e *Editor) { e.Set("p", "concept:k", raw(`"after"`), nil) })
	syncAll(t, fs, a, b)
	if got := valuesOf(b, "p", "concept:k"); !slices.Equal(got, []string{`"after"`}) {
		t.Errorf("b reads %q of a, want [after]", got)
	}
}

// TestRecoveryIdentity: the recovery identity (what the recovery
// passphrase unwraps) opens every epoch's key, so a new device joins with
// the passphrase after a removal; and so could a removed device that knows
// the passphrase, until the recovery identity changes (SetRecovery).
func TestRecoveryIdentity(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	secret, err := NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	fs := memFS{}
	mk := func(dev string, s Secret) *Replica {
		r, err := NewReplica(dev, s, simClock{&now, 0})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	a, b := mk("00000000000000a0", secret), mk("00000000000000a1", secret)
	syncAll(t, fs, a, b)
	if err := a.RemoveDevice(b.dev); err != nil {
		t.Fatal(err)
	}
	a.Edit(func(e *Editor) { e.Set("p", "concept:k", raw(`"after removal"`), nil) })
	syncAll(t, fs, a)

	n := mk("00000000000000a2", secret)
	syncAll(t, fs, n, a)
	if got := valuesOf(n, "p", "concept:k"); !slices.Equal(got, []string{`"after removal"`}) || !a.ros.isMember(n.dev) {
		t.Fatalf("new device with the passphrase: values %q, member %v", got, a.ros.isMember(n.dev))
	}

	// The person changes the recovery passphrase: a new recovery identity.
	id, _ := age.GenerateX25519Identity()
	if err := a.SetRecovery(id.Recipient().String()); err != nil {
		t.Fatal(err)
	}
	syncAll(t, fs, a, n)
	old := mk("00000000000000a3", secret) // knows only the old passphrase
	old.Sync(fs)                          // joins the only epoch it knows before reading the folder
	if err := old.Sync(fs); !errors.Is(err, ErrRemoved) {
		t.Errorf("joining with the old recovery identity: %v, want ErrRemoved", err)
	}
	syncAll(t, fs, a)
	if a.ros.isMember(old.dev) {
		t.Error("a device with the old recovery identity is a member")
	}
	if old.k.epochs[a.ros.cur] != nil {
		t.Error("the old recovery identity opens the current key")
	}
	fresh := mk("00000000000000a4", Secret{Group: secret.Group, Key: secret.Key, Recovery: id.String()})
	syncAll(t, fs, fresh, a)
	if !a.ros.isMember(fresh.dev) || a.ros.epoch != 3 {
		t.Errorf("with the new recovery identity: member %v, epoch %d", a.ros.isMember(fresh.dev), a.ros.epoch)
	}
}

// TestRosterRestoredFromOlderCopy: a roster file that goes back to an
// older copy, or disappears, loses no entry: every device keeps what it
// read and carries every entry in its own file.
func TestRosterRestoredFromOlderCopy(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	fs, rs := group(t, &now, 3)
	a, b, c := rs[0], rs[1], rs[2]
	if err := a.RemoveDevice(c.dev); err != nil {
		t.Fatal(err)
	}
	syncAll(t, fs, a, b)
	delete(fs, a.rosterName())
	n, _ := NewReplica("00000000000000b9", Secret{Group: testSecret.Group, Key: testSecret.Key, Epochs: [][32]byte{a.k.epochs[a.ros.cur].raw}}, simClock{&now, 0})
	n.Read(fs)
	if n.ros.epoch != 2 || n.ros.isMember(c.dev) {
		t.Errorf("with a's roster file gone: epoch %d, removed device member %v; want epoch 2 without it", n.ros.epoch, n.ros.isMember(c.dev))
	}
}

// TestOldSyncState: sync state saved by a development build from before
// devices had keys says so, rather than failing on a missing key.
func TestOldSyncState(t *testing.T) {
	old := []byte(`{"dev":"00000000000000a0","hlc":1,"epoch":1,"state":{"vv":{}}}`)
	if _, err := LoadReplica(old, testSecret, fixedClock{}); !errors.Is(err, ErrOldFolder) {
		t.Errorf("LoadReplica(old state) = %v, want ErrOldFolder", err)
	}
}
