package devsync

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

var testSecret = Secret{Group: [16]byte{1, 2, 3}, Key: [32]byte{4, 5, 6}}

// simClock is a device clock: the simulation's time plus the device's
// error.
type simClock struct {
	now *time.Time
	off time.Duration
}

func (c simClock) Now() time.Time { return c.now.Add(c.off) }

type simDev struct {
	r    *Replica
	view memFS // the sync folder as this device's sync tool shows it
	stem string
}

// world is one random history: devices editing, syncing and compacting,
// and a sync tool that carries their files late, partly, twice, out of
// order, and sometimes an older copy.
type world struct {
	t       *testing.T
	rng     *rand.Rand
	now     time.Time
	devs    []*simDev
	history map[string][][]byte // every content a file had
	records []*Record           // every record any device made

	// removals lets devices remove one another; gone are the devices
	// removed, with who removed them, late the records a removed device
	// made after every other device had learned of its removal.
	removals bool
	gone     map[*simDev]*simDev
	late     map[*Record]bool
}

func newWorld(t *testing.T, seed uint64, n int) *world {
	w := &world{t: t, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), history: map[string][][]byte{},
		gone: map[*simDev]*simDev{}, late: map[*Record]bool{}}
	w.now = time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	k, _ := deriveGroupKeys(testSecret)
	for i := range n {
		// Clocks wrong by up to six hours either way.
		off := time.Duration(w.rng.IntN(12*60)-6*60) * time.Minute
		dev := fmt.Sprintf("%016x", 0xa0+i)
		r, err := NewReplica(dev, testSecret, simClock{&w.now, off})
		if err != nil {
			t.Fatal(err)
		}
		w.devs = append(w.devs, &simDev{r: r, view: memFS{}, stem: k.stem(dev)})
	}
	return w
}

func (w *world) owner(name string) *simDev {
	for _, d := range w.devs {
		if strings.HasPrefix(name, d.stem+".") {
			return d
		}
	}
	return nil
}

// remember adds the current contents of d's own files to their history.
func (w *world) remember(d *simDev) {
	for name, b := range d.view {
		if w.owner(name) != d {
			continue
		}
		h := w.history[name]
		if len(h) == 0 || !bytes.Equal(h[len(h)-1], b) {
			w.history[name] = append(h, slices.Clone(b))
		}
	}
}

var values = []string{`"a"`, `"b"`, `"c"`, `"d"`, `{"x": 1}`, `{"x":1}`, `42`}

func (w *world) edit(d *simDev) {
	err := d.r.Edit(func(e *Editor) {
		for range 1 + w.rng.IntN(3) {
			pid := fmt.Sprintf("p%d", w.rng.IntN(3))
			key := fmt.Sprintf("concept:k%d", w.rng.IntN(3))
			vals := d.r.values(pid, key)
			switch x := w.rng.IntN(100); {
			case x < 12:
				if d.r.st.Profiles[pid] == nil {
					e.CreateProfile(pid, fmt.Sprintf("L%d", w.rng.IntN(5)))
				} else {
					e.Rename(pid, fmt.Sprintf("L%d", w.rng.IntN(5)))
				}
			case x < 20:
				e.DeleteProfile(pid)
			case x < 55:
				e.Set(pid, key, json.RawMessage(values[w.rng.IntN(len(values))]), nil)
			case x < 70:
				e.Put(pid, key, json.RawMessage(values[w.rng.IntN(len(values))]), json.RawMessage(`{"s":1}`), true, nil)
			case x < 82:
				if len(vals) > 0 {
					e.Remove(pid, key, vals[w.rng.IntN(len(vals))].Dots)
				}
			default:
				if len(vals) > 0 {
					v := vals[w.rng.IntN(len(vals))]
					e.Prefer(pid, key, v.Dots[0])
				}
			}
		}
	})
	if err != nil {
		return
	}
	if n := len(d.r.outbox); n > 0 {
		if rec := d.r.outbox[n-1]; !slices.Contains(w.records, rec) {
			w.records = append(w.records, rec)
			if w.gone[d] != nil && w.allKnowGone(d) {
				w.late[rec] = true
			}
		}
	}
}

// allKnowGone reports whether every other device has read that d was
// removed.
func (w *world) allKnowGone(d *simDev) bool {
	for _, o := range w.devs {
		if o != d && o.r.ros.isMember(d.r.dev) {
			return false
		}
	}
	return true
}

// remove has d remove another member, keeping at least two.
func (w *world) remove(d *simDev) {
	if w.gone[d] != nil || len(w.devs)-len(w.gone) < 3 {
		return
	}
	var cands []*simDev
	for _, e := range w.devs {
		if e != d && w.gone[e] == nil && d.r.ros.isMember(e.r.dev) {
			cands = append(cands, e)
		}
	}
	if len(cands) == 0 {
		return
	}
	e := cands[w.rng.IntN(len(cands))]
	if err := d.r.RemoveDevice(e.r.dev); err != nil {
		w.t.Fatalf("RemoveDevice: %v", err)
	}
	w.gone[e] = d
}

// check fails on an error, except ErrRemoved for a device removed.
func (w *world) check(d *simDev, err error) {
	if err != nil && !(w.gone[d] != nil && errors.Is(err, ErrRemoved)) {
		w.t.Fatalf("device %s: %v (epoch %d, members %v, removed %v)", d.r.dev, err, d.r.ros.epoch, slices.Sorted(maps.Keys(d.r.ros.members)), d.r.ros.removed)
	}
}

func (w *world) syncDev(d *simDev) {
	if err := d.r.Read(d.view); err != nil {
		w.t.Fatal(err)
	}
	_, err := d.r.Repair(d.view)
	w.check(d, err)
	w.check(d, d.r.Flush(d.view))
	w.remember(d)
}

// carry is the sync tool bringing src's files to dst, badly.
func (w *world) carry(src, dst *simDev) {
	for _, name := range slices.Sorted(maps.Keys(src.view)) {
		b := src.view[name]
		if w.owner(name) != src {
			continue
		}
		switch x := w.rng.IntN(100); {
		case x < 55:
			dst.view[name] = slices.Clone(b)
		case x < 75:
			dst.view[name] = slices.Clone(b[:w.rng.IntN(len(b)+1)])
		case x < 85:
			cp := strings.TrimSuffix(name, name[len(name)-4:]) + fmt.Sprintf(".sync-conflict-20261127-%06d-ABCDEFG", w.rng.IntN(1e6)) + name[len(name)-4:]
			if w.rng.IntN(2) == 0 {
				cp = strings.TrimSuffix(name, name[len(name)-4:]) + " (conflicted copy)" + name[len(name)-4:]
			}
			dst.view[cp] = slices.Clone(b[:w.rng.IntN(len(b)+1)])
		case x < 95:
			h := w.history[name]
			if len(h) > 0 {
				dst.view[name] = slices.Clone(h[w.rng.IntN(len(h))])
			}
		}
	}
	// Files the owner removed (compaction) go, sooner or later.
	for _, name := range slices.Sorted(maps.Keys(dst.view)) {
		if w.owner(name) == src && !strings.Contains(name, "conflict") {
			if _, ok := src.view[name]; !ok && w.rng.IntN(2) == 0 {
				delete(dst.view, name)
			}
		}
	}
}

func (w *world) step() {
	d := w.devs[w.rng.IntN(len(w.devs))]
	if w.removals && w.rng.IntN(100) < 2 {
		w.remove(d)
		return
	}
	switch x := w.rng.IntN(100); {
	case x < 35:
		w.edit(d)
	case x < 60:
		w.syncDev(d)
	case x < 63:
		w.check(d, d.r.Compact(d.view))
		w.remember(d)
	case x < 65:
		// The folder restored from an old backup: this device's own
		// journal goes back to an older copy. (Not for a removed device:
		// it no longer writes its files again.)
		if w.gone[d] != nil {
			break
		}
		for _, name := range slices.Sorted(maps.Keys(d.view)) {
			if h := w.history[name]; w.owner(name) == d && len(h) > 1 {
				d.view[name] = slices.Clone(h[w.rng.IntN(len(h))])
			}
		}
	case x < 95:
		w.carry(d, w.devs[w.rng.IntN(len(w.devs))])
	default:
		w.now = w.now.Add(time.Duration(w.rng.IntN(3600)) * time.Second)
	}
	w.now = w.now.Add(time.Duration(w.rng.IntN(2000)) * time.Millisecond)
}

// settle lets the sync tool finish: everything carried whole, every
// device reading until nothing changes.
func (w *world) settle() {
	for round := 0; round < 4*len(w.devs)+4; round++ {
		for _, d := range w.devs {
			w.syncDev(d)
		}
		for _, s := range w.devs {
			for _, d := range w.devs {
				if s == d {
					continue
				}
				for name, b := range s.view {
					if w.owner(name) == s {
						d.view[name] = slices.Clone(b)
					}
				}
				for name := range d.view {
					if w.owner(name) == s {
						if _, ok := s.view[name]; !ok {
							delete(d.view, name)
						}
					}
				}
			}
		}
	}
}

// model computes the view from every record ever made, with no order and
// no files: an element is there unless some change removed its dot.
func model(recs []*Record) View {
	removed := map[Dot]bool{}
	for _, r := range recs {
		for _, o := range r.Ops {
			for _, d := range o.Replaces {
				removed[d] = true
			}
		}
	}
	s := NewState()
	for _, r := range recs {
		for i, o := range r.Ops {
			d := Dot{Dev: r.Dev, Seq: r.Seq, Idx: uint32(i)}
			o.Replaces = nil
			if o.Kind == OpLabel && removed[d] {
				// Its label still counts as the last ever given.
				p := s.profile(o.Profile)
				if l := (labelEl{Label: o.Label, HLC: o.HLC, Dev: d.Dev}); l.after(p.LastLabel) {
					p.LastLabel = l
				}
				continue
			}
			if !removed[d] {
				s.applyOp(d, &o)
			}
		}
	}
	return s.View()
}

func viewJSON(t *testing.T, v View) string {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestMergeConverges runs many random histories of N devices and checks
// that, once the sync tool has carried everything, every device holds the
// same view, that view is the model's, and no value written anywhere is
// missing unless a change that had seen it removed it.
func TestMergeConverges(t *testing.T) {
	histories, steps := envInt("TESSERA_SYNC_HISTORIES", 300), 200
	if testing.Short() {
		histories = 40
	}
	for h := range histories {
		n := 2 + h%4
		w := newWorld(t, uint64(h), n)
		for range steps {
			w.step()
		}
		w.settle()
		want := viewJSON(t, model(w.records))
		for i, d := range w.devs {
			got := viewJSON(t, d.r.View())
			if got != want {
				var pend []string
				for dev, m := range d.r.pending {
					for seq, r := range m {
						pend = append(pend, fmt.Sprintf("%s.%d deps=%v", dev, seq, r.Deps))
					}
				}
				t.Fatalf("history %d (%d devices): device %d view differs from the model\nstatus: %+v\npending %v\nvv %v\nfiles %v", h, n, i, d.r.Status(), pend, d.r.st.VV, slices.Collect(maps.Keys(d.view)))
			}
			if st := d.r.Status(); len(st.Problems) > 0 {
				t.Fatalf("history %d: device %d problems after settling: %q", h, i, st.Problems)
			}
		}
		checkNoLoss(t, h, w.records, w.devs[0].r.View())
	}
}

// checkNoLoss checks that every value written is in the view unless a
// change removed it.
func checkNoLoss(t *testing.T, h int, recs []*Record, v View) {
	t.Helper()
	removed := map[Dot]bool{}
	for _, r := range recs {
		for _, o := range r.Ops {
			for _, d := range o.Replaces {
				removed[d] = true
			}
		}
	}
	have := map[string]bool{}
	for _, p := range v.Profiles {
		for _, k := range p.Keys {
			for _, val := range k.Values {
				for _, d := range val.Dots {
					have[p.ID+"\x00"+k.Key+"\x00"+d.String()] = true
				}
			}
		}
	}
	for _, r := range recs {
		for i, o := range r.Ops {
			d := Dot{Dev: r.Dev, Seq: r.Seq, Idx: uint32(i)}
			if o.Kind == OpValue && !removed[d] && !have[o.Profile+"\x00"+o.Key+"\x00"+d.String()] {
				t.Fatalf("history %d: value %s of %s/%s written at %s is lost", h, o.Value, o.Profile, o.Key, d)
			}
		}
	}
}

// TestMergeConvergesWithRemovals runs random histories in which devices
// remove one another (sometimes two at once) while the removed ones go on
// editing and syncing. Once everything is carried, the remaining devices
// agree on the epoch and on how much of each removed device counts, hold
// the model's view of exactly those records, lose nothing of their own,
// and ignore every record a removed device made after all the others had
// learned of its removal; no removed device holds the current key.
func TestMergeConvergesWithRemovals(t *testing.T) {
	histories, steps := envInt("TESSERA_SYNC_HISTORIES", 300)/3, 200
	if testing.Short() {
		histories = 20
	}
	removed, lateSeen := 0, 0
	for h := range histories {
		n := 3 + h%3
		w := newWorld(t, uint64(h)+1<<32, n)
		w.settle()
		w.removals = true
		for range steps {
			w.step()
		}
		w.settle()
		// The reference is a device nobody tried to remove; a removal
		// holds unless its remover was removed at the same moment.
		var ref *Replica
		for _, d := range w.devs {
			if w.gone[d] == nil {
				ref = d.r
				break
			}
		}
		var members []*simDev
		cut := map[string]uint64{}
		for _, d := range w.devs {
			if ref.ros.isMember(d.r.dev) {
				members = append(members, d)
				if by := w.gone[d]; by != nil && ref.ros.isMember(by.r.dev) {
					t.Fatalf("history %d: %s removed %s, still a member", h, by.r.dev, d.r.dev)
				}
				continue
			}
			ds := ref.st.Devices[d.r.dev]
			if ds == nil || !ds.Removed {
				t.Fatalf("history %d: device %s not a member but not removed on %s", h, d.r.dev, ref.dev)
			}
			cut[d.r.dev] = ds.Cutoff
			if d.r.k.epochs[ref.ros.cur] != nil {
				t.Fatalf("history %d: removed device %s holds the current epoch key", h, d.r.dev)
			}
			removed++
		}
		var recs []*Record
		for _, r := range w.records {
			c, gone := cut[r.Dev]
			if w.late[r] {
				lateSeen++
				if r.Seq <= c {
					t.Fatalf("history %d: record %s.%d made after every device knew of the removal counts (cutoff %d)", h, r.Dev, r.Seq, c)
				}
			}
			if !gone || r.Seq <= c {
				recs = append(recs, r)
			}
		}
		want := viewJSON(t, model(recs))
		for i, d := range members {
			if d.r.ros.cur != ref.ros.cur {
				t.Fatalf("history %d: member %d in epoch %d, member 0 in %d", h, i, d.r.ros.epoch, ref.ros.epoch)
			}
			for dev, c := range cut {
				if got := d.r.st.Devices[dev].Cutoff; got != c {
					t.Fatalf("history %d: member %d counts %d records of removed %s, member 0 %d", h, i, got, dev, c)
				}
			}
			if got := viewJSON(t, d.r.View()); got != want {
				t.Fatalf("history %d (%d devices, %d removed): member %d view differs from the model\nstatus: %+v", h, n, len(w.gone), i, d.r.Status())
			}
			if st := d.r.Status(); len(st.Problems) > 0 {
				t.Fatalf("history %d: member %d problems after settling: %q", h, i, st.Problems)
			}
		}
		checkNoLoss(t, h, recs, ref.View())
	}
	t.Logf("%d histories, %d devices removed, %d records made after everyone knew of the removal, all ignored", histories, removed, lateSeen)
}
