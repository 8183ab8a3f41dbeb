package devsync

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

// maxValues is how many values of one key the vault shows: the current
// one and its candidates. The merged state may hold more (many devices
// writing at once); the rest stay in the state, not lost, and show when
// the person settles the ones shown.
const maxValues = 1 + vault.MaxCandidates

func keyOf(k vault.Key) string { return k.String() }

func parseKey(s string) vault.Key {
	if name, ok := strings.CutPrefix(s, "field:"); ok {
		return vault.FieldKey(name)
	}
	return vault.ConceptKey(strings.TrimPrefix(s, "concept:"))
}

// splitEntry returns an entry's value and, apart, what the vault keeps
// beside it.
func splitEntry(e profile.Entry) (value, meta json.RawMessage) {
	m := e
	m.Value = nil
	b, _ := json.Marshal(m)
	return e.Value, b
}

func joinEntry(v ValueView) profile.Entry {
	var e profile.Entry
	if len(v.Meta) > 0 {
		json.Unmarshal(v.Meta, &e)
	}
	e.Value = v.Value
	return e
}

func shown(vals []ValueView) []ValueView {
	if len(vals) > maxValues {
		return vals[:maxValues]
	}
	return vals
}

// diffLocal records as changes what the person changed in the vault since
// it last matched view m (made from base): profiles created, renamed and
// deleted; values added, made current and removed.
func diffLocal(e *Editor, vp []vault.SyncProfile, m View) {
	have := map[string]*vault.SyncProfile{}
	for i := range vp {
		have[vp[i].ID] = &vp[i]
	}
	was := map[string]*ProfileView{}
	for i := range m.Profiles {
		was[m.Profiles[i].ID] = &m.Profiles[i]
	}
	for _, id := range slices.Sorted(maps.Keys(was)) {
		if have[id] == nil {
			e.DeleteProfile(id)
		}
	}
	for _, p := range vp {
		mp := was[p.ID]
		if mp == nil {
			e.CreateProfile(p.ID, p.Label)
			mp = &ProfileView{}
		} else if p.Label != mp.Label {
			e.Rename(p.ID, p.Label)
		}
		now := map[string][]profile.Entry{}
		for _, kv := range p.Keys {
			now[keyOf(kv.Key)] = kv.Values
		}
		before := map[string][]ValueView{}
		for _, kv := range mp.Keys {
			before[kv.Key] = shown(kv.Values)
		}
		keys := slices.Sorted(maps.Keys(now))
		for k := range before {
			if _, ok := now[k]; !ok {
				keys = append(keys, k)
			}
		}
		for _, k := range keys {
			diffKey(e, p.ID, k, now[k], before[k])
		}
	}
}

func diffKey(e *Editor, id, key string, now []profile.Entry, before []ValueView) {
	inBefore := map[string]*ValueView{}
	for i := range before {
		inBefore[compactJSON(before[i].Value)] = &before[i]
	}
	inNow := map[string]bool{}
	for _, v := range now {
		inNow[compactJSON(v.Value)] = true
	}
	var removed []Dot
	for _, v := range before {
		if !inNow[compactJSON(v.Value)] {
			removed = append(removed, v.Dots...)
		}
	}
	for i, v := range now {
		if inBefore[compactJSON(v.Value)] != nil {
			continue
		}
		val, meta := splitEntry(v)
		if i == 0 {
			// A new current value replaces what the person replaced.
			e.Put(id, key, val, meta, false, removed)
			removed = nil
		} else {
			e.Put(id, key, val, meta, true, nil)
		}
	}
	e.Remove(id, key, removed)
	if len(now) > 0 && len(before) > 0 {
		if cur := inBefore[compactJSON(now[0].Value)]; cur != nil && compactJSON(before[0].Value) != compactJSON(now[0].Value) {
			e.Prefer(id, key, cur.Dots[0])
		}
	}
}

// vaultChanges returns what to write to the vault, holding vp, for it to
// show view m.
func vaultChanges(vp []vault.SyncProfile, m View) []vault.SyncChange {
	var out []vault.SyncChange
	want := map[string]bool{}
	for _, p := range m.Profiles {
		want[p.ID] = true
	}
	have := map[string]*vault.SyncProfile{}
	for i := range vp {
		have[vp[i].ID] = &vp[i]
		if !want[vp[i].ID] {
			out = append(out, vault.SyncChange{Profile: vp[i].ID, Delete: true})
		}
	}
	for _, p := range m.Profiles {
		c := vault.SyncChange{Profile: p.ID}
		cur := have[p.ID]
		if cur == nil {
			cur = &vault.SyncProfile{}
			c.Label = p.Label
		} else if p.Label != "" && p.Label != cur.Label {
			c.Label = p.Label
		}
		now := map[string][]profile.Entry{}
		for _, kv := range cur.Keys {
			now[keyOf(kv.Key)] = kv.Values
		}
		seen := map[string]bool{}
		for _, kv := range p.Keys {
			seen[kv.Key] = true
			vals := shown(kv.Values)
			if sameValues(now[kv.Key], vals) {
				continue
			}
			es := make([]profile.Entry, len(vals))
			for i, v := range vals {
				es[i] = joinEntry(v)
			}
			c.Keys = append(c.Keys, vault.SyncValues{Key: parseKey(kv.Key), Values: es})
		}
		for _, kv := range cur.Keys {
			if !seen[keyOf(kv.Key)] {
				c.Keys = append(c.Keys, vault.SyncValues{Key: kv.Key})
			}
		}
		if have[p.ID] == nil || c.Label != "" || len(c.Keys) > 0 {
			out = append(out, c)
		}
	}
	return out
}

func sameValues(a []profile.Entry, b []ValueView) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if compactJSON(a[i].Value) != compactJSON(b[i].Value) {
			return false
		}
	}
	return true
}
