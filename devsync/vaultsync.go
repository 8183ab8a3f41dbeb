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

// Site rules ride in the merged state as keys "site:ORIGIN" of the profile
// they fill from, valued {"concepts": [...]}: made, changed and removed
// like any detail, and removed with their profile. The vault holds one
// rule per origin: when devices chose different profiles for one origin at
// once, the latest choice (by HLC, then device, then profile id) is the
// one written to the vault.
const sitePrefix = "site:"

type siteValue struct {
	Concepts []string `json:"concepts"`
}

// diffSites records as changes the site rules the person made, changed,
// moved or forgot in the vault since it last matched view m. The vault
// showed one rule per origin, so a change to an origin's rule replaces
// every value of it this device had seen, in every profile.
func diffSites(e *Editor, vp []vault.SyncProfile, m View) {
	type rule struct{ profile, value string }
	now := map[string]rule{}
	for _, p := range vp {
		for _, r := range p.Sites {
			b, _ := json.Marshal(siteValue{Concepts: slices.Sorted(slices.Values(r.Concepts))})
			now[r.Origin] = rule{p.ID, string(b)}
		}
	}
	wins := siteWinners(m)
	origins := slices.Collect(maps.Keys(now))
	for o := range wins {
		if _, ok := now[o]; !ok {
			origins = append(origins, o)
		}
	}
	slices.Sort(origins)
	for _, origin := range origins {
		n, has := now[origin]
		w, had := wins[origin]
		if has && had && n.profile == w.profile && n.value == compactJSON(w.v.Value) {
			continue
		}
		key := sitePrefix + origin
		for _, p := range m.Profiles {
			for _, kv := range p.Keys {
				if kv.Key != key {
					continue
				}
				var dots []Dot
				for _, v := range kv.Values {
					dots = append(dots, v.Dots...)
				}
				e.Remove(p.ID, key, dots)
			}
		}
		if has {
			e.Put(n.profile, key, json.RawMessage(n.value), nil, false, nil)
		}
	}
}

// A siteWin is the rule the vault holds for one origin.
type siteWin struct {
	profile string
	v       ValueView
}

// siteWinners returns, per origin, the profile and value the vault holds
// for a merged view m.
func siteWinners(m View) map[string]siteWin {
	out := map[string]siteWin{}
	for _, p := range m.Profiles {
		for _, kv := range p.Keys {
			origin, ok := strings.CutPrefix(kv.Key, sitePrefix)
			if !ok || len(kv.Values) == 0 {
				continue
			}
			v := kv.Values[0]
			cur, had := out[origin]
			if !had || v.Time > cur.v.Time || v.Time == cur.v.Time && (v.Dev > cur.v.Dev || v.Dev == cur.v.Dev && p.ID > cur.profile) {
				out[origin] = siteWin{profile: p.ID, v: v}
			}
		}
	}
	return out
}

func shown(vals []ValueView) []ValueView {
	if len(vals) > maxValues {
		return vals[:maxValues]
	}
	return vals
}

// diffLocal records as changes what the person changed in the vault since
// it last matched view m (made from base): profiles created, renamed and
// deleted; values added, made current and removed; site rules.
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
			if !strings.HasPrefix(kv.Key, sitePrefix) {
				before[kv.Key] = shown(kv.Values)
			}
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
	diffSites(e, vp, m)
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
	wins := siteWinners(m)
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
			if strings.HasPrefix(kv.Key, sitePrefix) {
				continue
			}
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
		c.Sites = wantSites(wins, p.ID)
		c.SetSites = !sameSites(cur.Sites, c.Sites)
		if have[p.ID] == nil || c.Label != "" || len(c.Keys) > 0 || c.SetSites {
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

// wantSites returns the rules the vault should hold for profile pid,
// sorted by origin.
func wantSites(wins map[string]siteWin, pid string) []vault.SiteRule {
	var out []vault.SiteRule
	for _, origin := range slices.Sorted(maps.Keys(wins)) {
		w := wins[origin]
		if w.profile != pid {
			continue
		}
		var sv siteValue
		if json.Unmarshal(w.v.Value, &sv) != nil || len(sv.Concepts) == 0 {
			continue
		}
		out = append(out, vault.SiteRule{Origin: origin, Profile: pid, Concepts: sv.Concepts})
	}
	return out
}

// sameSites reports whether the vault's rules a are the rules b, by
// origin and concepts.
func sameSites(a, b []vault.SiteRule) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Origin != b[i].Origin || !slices.Equal(slices.Sorted(slices.Values(a[i].Concepts)), b[i].Concepts) {
			return false
		}
	}
	return true
}
