package devsync

import (
	"encoding/json"
	"maps"
	"slices"
	"sort"
)

// A State is a device's merged view of every change it has read: an
// observed-remove CRDT whose causal context is VV, the highest sequence
// read from each device (records are applied in causal order, so every
// sequence up to VV[dev] has been applied). Two states join (Join) into
// the state that has read both.
type State struct {
	VV       map[string]uint64       `json:"vv"`
	Profiles map[string]*profState   `json:"profiles"`
	Devices  map[string]*deviceState `json:"devices,omitempty"`
	MaxHLC   HLC                     `json:"maxHLC"`
	// Last is, per device, the HLC of the last record read from it.
	Last map[string]HLC `json:"last,omitempty"`
}

type profState struct {
	Present map[Dot]HLC     `json:"present,omitempty"`
	Labels  map[Dot]labelEl `json:"labels,omitempty"`
	Keys    map[string]*kst `json:"keys,omitempty"`
	// LastLabel is the latest label ever given, kept after a deletion so a
	// profile that comes back with an edit made elsewhere has its name.
	LastLabel labelEl `json:"lastLabel"`
}

type labelEl struct {
	Label string `json:"l"`
	HLC   HLC    `json:"h"`
	Dev   string `json:"d,omitempty"`
}

func (a labelEl) after(b labelEl) bool {
	if a.HLC != b.HLC {
		return a.HLC > b.HLC
	}
	return a.Dev > b.Dev
}

type kst struct {
	Values map[Dot]valueEl `json:"values,omitempty"`
	Prefs  map[Dot]prefEl  `json:"prefs,omitempty"`
}

type valueEl struct {
	Value     json.RawMessage `json:"v"`
	Meta      json.RawMessage `json:"m,omitempty"`
	Candidate bool            `json:"c,omitempty"`
	HLC       HLC             `json:"h"`
}

type prefEl struct {
	Target Dot `json:"t"`
	HLC    HLC `json:"h"`
}

type deviceState struct {
	Name string `json:"name,omitempty"`
	// Removed reports that the device is no longer a member (the roster
	// says so; a state joined from elsewhere never does): what it wrote
	// after its record Cutoff is ignored.
	Removed bool   `json:"removed,omitempty"`
	Cutoff  uint64 `json:"cutoff,omitempty"`
}

// NewState returns the empty state.
func NewState() *State {
	return &State{VV: map[string]uint64{}, Profiles: map[string]*profState{}, Devices: map[string]*deviceState{}, Last: map[string]HLC{}}
}

func (s *State) profile(id string) *profState {
	p := s.Profiles[id]
	if p == nil {
		p = &profState{Present: map[Dot]HLC{}, Labels: map[Dot]labelEl{}, Keys: map[string]*kst{}}
		s.Profiles[id] = p
	}
	return p
}

func (p *profState) key(k string) *kst {
	ks := p.Keys[k]
	if ks == nil {
		ks = &kst{Values: map[Dot]valueEl{}, Prefs: map[Dot]prefEl{}}
		p.Keys[k] = ks
	}
	return ks
}

// dropped reports whether the record seq of dev is to be ignored.
func (s *State) dropped(dev string, seq uint64) bool {
	d := s.Devices[dev]
	return d != nil && d.Removed && seq > d.Cutoff
}

// ready reports whether r can be applied: it is the next record of its
// device and everything it depends on has been applied.
func (s *State) ready(r *Record) bool {
	if r.Seq != s.VV[r.Dev]+1 {
		return false
	}
	for d, n := range r.Deps {
		if d == r.Dev {
			continue
		}
		if dd := s.Devices[d]; dd != nil && dd.Removed {
			n = min(n, dd.Cutoff)
		}
		if s.VV[d] < n {
			return false
		}
	}
	return true
}

// apply applies a ready record.
func (s *State) apply(r *Record) {
	for i := range r.Ops {
		s.applyOp(Dot{Dev: r.Dev, Seq: r.Seq, Idx: uint32(i)}, &r.Ops[i])
	}
	s.VV[r.Dev] = r.Seq
	for _, o := range r.Ops {
		s.MaxHLC = max(s.MaxHLC, o.HLC)
		s.Last[r.Dev] = max(s.Last[r.Dev], o.HLC)
	}
}

func (s *State) applyOp(d Dot, o *Op) {
	if o.Kind == OpDevice {
		ds := s.Devices[d.Dev]
		if ds == nil {
			ds = &deviceState{}
			s.Devices[d.Dev] = ds
		}
		if o.Label != "" {
			ds.Name = o.Label
		}
		return
	}
	p := s.profile(o.Profile)
	if len(o.Replaces) > 0 {
		p.remove(o.Key, o.Replaces)
	}
	switch o.Kind {
	case OpPresent:
		p.Present[d] = o.HLC
	case OpLabel:
		l := labelEl{Label: o.Label, HLC: o.HLC, Dev: d.Dev}
		p.Labels[d] = l
		if l.after(p.LastLabel) {
			p.LastLabel = l
		}
	case OpValue:
		p.key(o.Key).Values[d] = valueEl{Value: o.Value, Meta: o.Meta, Candidate: o.Candidate, HLC: o.HLC}
	case OpPrefer:
		p.key(o.Key).Prefs[d] = prefEl{Target: *o.Target, HLC: o.HLC}
	}
}

// remove deletes the elements under dots from the profile (from key only,
// when key is set).
func (p *profState) remove(key string, dots []Dot) {
	for _, d := range dots {
		delete(p.Present, d)
		delete(p.Labels, d)
	}
	del := func(ks *kst) {
		for _, d := range dots {
			delete(ks.Values, d)
			delete(ks.Prefs, d)
		}
	}
	if key != "" {
		if ks := p.Keys[key]; ks != nil {
			del(ks)
		}
		return
	}
	for _, ks := range p.Keys {
		del(ks)
	}
}

// Join merges o into s: afterwards s holds what a device that had read
// everything either had read would hold. An element one side has and the
// other lacks is kept unless the other side had read its dot (and so saw
// it removed).
func (s *State) Join(o *State) { s.join(o, func(string, string) {}) }

// join is Join, calling changed for each profile and key whose elements
// it changed (key "" for the profile's own).
func (s *State) join(o *State, changed func(profile, key string)) {
	keep := func(d Dot, other map[string]uint64) bool { return d.Seq > other[d.Dev] }
	svv := maps.Clone(s.VV)
	for id, op := range o.Profiles {
		sp := s.profile(id)
		if joinDots(sp.Present, op.Present, svv, o.VV, keep)+joinDots(sp.Labels, op.Labels, svv, o.VV, keep) > 0 {
			changed(id, "")
		}
		if op.LastLabel.after(sp.LastLabel) {
			sp.LastLabel = op.LastLabel
		}
		for k, oks := range op.Keys {
			sks := sp.key(k)
			if joinDots(sks.Values, oks.Values, svv, o.VV, keep)+joinDots(sks.Prefs, oks.Prefs, svv, o.VV, keep) > 0 {
				changed(id, k)
			}
		}
	}
	// Elements s has that o lacks, in profiles or keys o does not have.
	for id, sp := range s.Profiles {
		op := o.Profiles[id]
		if op == nil {
			op = &profState{}
		}
		if dropUnseen(sp.Present, op.Present, o.VV, keep)+dropUnseen(sp.Labels, op.Labels, o.VV, keep) > 0 {
			changed(id, "")
		}
		for k, sks := range sp.Keys {
			var oks kst
			if op.Keys[k] != nil {
				oks = *op.Keys[k]
			}
			if dropUnseen(sks.Values, oks.Values, o.VV, keep)+dropUnseen(sks.Prefs, oks.Prefs, o.VV, keep) > 0 {
				changed(id, k)
			}
		}
	}
	for d, n := range o.VV {
		s.VV[d] = max(s.VV[d], n)
	}
	for d, h := range o.Last {
		s.Last[d] = max(s.Last[d], h)
	}
	for d, od := range o.Devices {
		sd := s.Devices[d]
		if sd == nil {
			sd = &deviceState{}
			s.Devices[d] = sd
		}
		if sd.Name == "" {
			sd.Name = od.Name
		}
	}
	s.MaxHLC = max(s.MaxHLC, o.MaxHLC)
}

// joinDots adds to dst the elements of src that dst has not seen removed,
// and returns how many.
func joinDots[E any](dst, src map[Dot]E, dstVV, srcVV map[string]uint64, keep func(Dot, map[string]uint64) bool) int {
	n := 0
	for d, e := range src {
		if _, ok := dst[d]; ok {
			continue
		}
		if keep(d, dstVV) {
			dst[d] = e
			n++
		}
	}
	return n
}

// dropUnseen removes from dst the elements src lacks although it had read
// their dots, and returns how many.
func dropUnseen[E any](dst, src map[Dot]E, srcVV map[string]uint64, keep func(Dot, map[string]uint64) bool) int {
	n := 0
	for d := range dst {
		if _, ok := src[d]; ok {
			continue
		}
		if !keep(d, srcVV) {
			delete(dst, d)
			n++
		}
	}
	return n
}

// A View is the merged state as the vault shows it: the profiles that
// exist, their labels, and every value of every detail, the preferred one
// first.
type View struct {
	Profiles []ProfileView `json:"profiles"`
}

// A ProfileView is one profile of a View.
type ProfileView struct {
	ID    string    `json:"id"`
	Label string    `json:"label"`
	Keys  []KeyView `json:"keys,omitempty"`
}

// A KeyView is one detail of a profile: its values, the preferred first.
// More than one value is a conflict for the person to settle (or values the
// person kept as candidates).
type KeyView struct {
	Key    string      `json:"key"`
	Values []ValueView `json:"values"`
}

// A ValueView is one value of a detail. Equal values written by several
// changes are one value with several dots.
type ValueView struct {
	Value json.RawMessage `json:"value"`
	Meta  json.RawMessage `json:"meta,omitempty"`
	// Candidate reports that every write of the value kept it as a
	// candidate and nothing preferred it since.
	Candidate bool `json:"candidate,omitempty"`
	// Chosen reports that the person preferred the value after it was
	// written: a conflict it was part of is settled.
	Chosen bool  `json:"chosen,omitempty"`
	Dots   []Dot `json:"dots"`
	// Time is the value's HLC for the preference rule; Dev the device of
	// the change that gave it.
	Time HLC    `json:"time"`
	Dev  string `json:"dev"`
}

// View materializes s. It is a pure function of the elements s holds, so
// states holding the same elements give equal views.
func (s *State) View() View {
	var v View
	ids := slices.Sorted(maps.Keys(s.Profiles))
	for _, id := range ids {
		p := s.Profiles[id]
		pv := ProfileView{ID: id}
		alive := len(p.Present) > 0 || len(p.Labels) > 0
		keys := slices.Sorted(maps.Keys(p.Keys))
		for _, k := range keys {
			vals := p.Keys[k].view()
			if len(vals) == 0 {
				continue
			}
			alive = true
			pv.Keys = append(pv.Keys, KeyView{Key: k, Values: vals})
		}
		if !alive {
			continue
		}
		best := labelEl{}
		for _, l := range p.Labels {
			if l.after(best) {
				best = l
			}
		}
		if best.HLC == 0 {
			best = p.LastLabel
		}
		pv.Label = best.Label
		v.Profiles = append(v.Profiles, pv)
	}
	return v
}

func (ks *kst) view() []ValueView {
	if len(ks.Values) == 0 {
		return nil
	}
	pref := map[Dot]HLC{}
	for _, p := range ks.Prefs {
		pref[p.Target] = max(pref[p.Target], p.HLC)
	}
	groups := map[string]*ValueView{}
	dots := slices.SortedFunc(maps.Keys(ks.Values), func(a, b Dot) int {
		if a.less(b) {
			return -1
		}
		if b.less(a) {
			return 1
		}
		return 0
	})
	for _, d := range dots {
		e := ks.Values[d]
		t := e.HLC
		if e.Candidate {
			t = 0
		}
		cand, chosen := e.Candidate, false
		if h, ok := pref[d]; ok {
			t, cand, chosen = max(t, h), false, h > e.HLC
		}
		c := compactJSON(e.Value)
		g := groups[c]
		if g == nil {
			g = &ValueView{Value: e.Value, Meta: e.Meta, Candidate: cand, Chosen: chosen, Time: t, Dev: d.Dev}
			groups[c] = g
		} else {
			g.Candidate = g.Candidate && cand
			g.Chosen = g.Chosen || chosen
			if t > g.Time || t == g.Time && d.Dev > g.Dev {
				g.Time, g.Dev, g.Meta = t, d.Dev, e.Meta
			}
		}
		g.Dots = append(g.Dots, d)
	}
	out := make([]ValueView, 0, len(groups))
	for _, g := range groups {
		out = append(out, *g)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Time != b.Time {
			return a.Time > b.Time
		}
		if a.Dev != b.Dev {
			return a.Dev > b.Dev
		}
		return a.Dots[0].less(b.Dots[0])
	})
	return out
}

// clone returns a deep copy of s.
func (s *State) clone() *State {
	c := &State{VV: maps.Clone(s.VV), Profiles: make(map[string]*profState, len(s.Profiles)),
		Devices: make(map[string]*deviceState, len(s.Devices)), MaxHLC: s.MaxHLC, Last: maps.Clone(s.Last)}
	for id, p := range s.Profiles {
		cp := &profState{Present: maps.Clone(p.Present), Labels: maps.Clone(p.Labels), Keys: make(map[string]*kst, len(p.Keys)), LastLabel: p.LastLabel}
		for k, ks := range p.Keys {
			cp.Keys[k] = &kst{Values: maps.Clone(ks.Values), Prefs: maps.Clone(ks.Prefs)}
		}
		c.Profiles[id] = cp
	}
	for d, ds := range s.Devices {
		cd := *ds
		c.Devices[d] = &cd
	}
	return c
}
