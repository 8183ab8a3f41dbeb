package devsync

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

// devices returns n replicas (devices a0, a1, ...) with clocks at now plus
// the given errors.
func devices(t *testing.T, now *time.Time, offs ...time.Duration) []*Replica {
	t.Helper()
	var out []*Replica
	for i, off := range offs {
		r, err := NewReplica(string("00000000000000a")+string(rune('0'+i)), testSecret, simClock{now, off})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

func syncAll(t *testing.T, fs FS, rs ...*Replica) {
	t.Helper()
	for range 2 {
		for _, r := range rs {
			if err := r.Sync(fs); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func valuesOf(r *Replica, pid, key string) []string {
	var out []string
	for _, v := range r.values(pid, key) {
		out = append(out, compactJSON(v.Value))
	}
	return out
}

func findProfile(v View, id string) *ProfileView {
	for i := range v.Profiles {
		if v.Profiles[i].ID == id {
			return &v.Profiles[i]
		}
	}
	return nil
}

func raw(s string) json.RawMessage { return json.RawMessage(s) }

func TestConcurrentEditsKeepBoth(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	fs := memFS{}
	// a1's clock is three hours fast: its edit is preferred, a0's kept.
	rs := devices(t, &now, 0, 3*time.Hour)
	rs[0].Edit(func(e *Editor) { e.CreateProfile("p", "Home"); e.Set("p", "concept:email", raw(`"old"`), nil) })
	syncAll(t, fs, rs...)
	rs[0].Edit(func(e *Editor) { e.Set("p", "concept:email", raw(`"from-a0"`), nil) })
	rs[1].Edit(func(e *Editor) { e.Set("p", "concept:email", raw(`"from-a1"`), nil) })
	syncAll(t, fs, rs...)
	for i, r := range rs {
		if got, want := valuesOf(r, "p", "concept:email"), []string{`"from-a1"`, `"from-a0"`}; !slices.Equal(got, want) {
			t.Errorf("device %d: values = %q, want %q (preferred first)", i, got, want)
		}
	}
	// Settling the conflict on a0 (preferring its own) reaches a1.
	rs[0].Edit(func(e *Editor) {
		v := rs[0].values("p", "concept:email")
		e.Prefer("p", "concept:email", v[1].Dots[0])
		e.Remove("p", "concept:email", v[0].Dots)
	})
	syncAll(t, fs, rs...)
	if got := valuesOf(rs[1], "p", "concept:email"); !slices.Equal(got, []string{`"from-a0"`}) {
		t.Errorf("after settling: a1 values = %q, want [from-a0]", got)
	}
}

func TestDeleteConcurrentWithEdit(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	fs := memFS{}
	rs := devices(t, &now, 0, 0)
	rs[0].Edit(func(e *Editor) {
		e.CreateProfile("p", "Work")
		e.Set("p", "concept:phone", raw(`"+331"`), nil)
		e.Set("p", "concept:name", raw(`"Ann"`), nil)
	})
	syncAll(t, fs, rs...)
	now = now.Add(time.Minute)
	// a0 removes the phone and then the whole profile; a1, not having
	// seen either, edits the phone.
	rs[0].Edit(func(e *Editor) { e.Remove("p", "concept:phone", rs[0].values("p", "concept:phone")[0].Dots) })
	rs[0].Edit(func(e *Editor) { e.DeleteProfile("p") })
	rs[1].Edit(func(e *Editor) { e.Set("p", "concept:phone", raw(`"+332"`), nil) })
	syncAll(t, fs, rs...)
	for i, r := range rs {
		p := findProfile(r.View(), "p")
		if p == nil {
			t.Fatalf("device %d: profile deleted on a0 and edited on a1 is gone, want it back with the edit", i)
		}
		if p.Label != "Work" {
			t.Errorf("device %d: label = %q, want Work", i, p.Label)
		}
		if got := valuesOf(r, "p", "concept:phone"); !slices.Equal(got, []string{`"+332"`}) {
			t.Errorf("device %d: phone = %q, want the edit [+332]", i, got)
		}
		if got := valuesOf(r, "p", "concept:name"); len(got) != 0 {
			t.Errorf("device %d: name = %q, want it deleted (a0 saw it)", i, got)
		}
	}
}

// TestFilesAsSyncToolsLeaveThem: a journal read while partly written, a
// conflicted copy of it, a journal arriving before the snapshot it
// follows, and an older copy of a file restored over a newer one.
func TestFilesAsSyncToolsLeaveThem(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	src, dst := memFS{}, memFS{}
	rs := devices(t, &now, 0, 0)
	a, b := rs[0], rs[1]
	for i := range 5 {
		a.Edit(func(e *Editor) { e.Set("p", "concept:k", raw(`"v`+string(rune('0'+i))+`"`), nil) })
		if err := a.Flush(src); err != nil {
			t.Fatal(err)
		}
	}
	name := a.journalName()
	whole := src[name]
	// Partly written: three records and a half (after a's roster file,
	// without which no record of a is read).
	dst[a.rosterName()] = src[a.rosterName()]
	dst[name] = whole[:len(whole)*7/10]
	b.Read(dst)
	if b.st.VV[a.dev] != 3 {
		t.Fatalf("after a partial file: read %d records, want 3", b.st.VV[a.dev])
	}
	// The rest arrives, and so does a conflicted copy of the whole.
	dst[name] = whole
	dst[strings.TrimSuffix(name, ".tsj")+" (conflicted copy 2026-11-27).tsj"] = whole
	dst[strings.TrimSuffix(name, ".tsj")+".sync-conflict-20261127-120000-ABCDEFG.tsj"] = whole[:len(whole)/2]
	b.Read(dst)
	if got := valuesOf(b, "p", "concept:k"); b.st.VV[a.dev] != 5 || !slices.Equal(got, []string{`"v4"`}) {
		t.Fatalf("after the rest: read %d, values %q; want 5, [v4]", b.st.VV[a.dev], got)
	}
	if st := b.Status(); len(st.Problems) != 0 {
		t.Errorf("problems = %q, want none", st.Problems)
	}
	// An older copy of the journal comes back: nothing is undone.
	dst[name] = whole[:len(whole)/3]
	b.Read(dst)
	if got := valuesOf(b, "p", "concept:k"); !slices.Equal(got, []string{`"v4"`}) {
		t.Fatalf("after an older copy: values %q, want [v4]", got)
	}
	// a compacts, then writes more; its new journal reaches b before the
	// snapshot it follows.
	a2, _ := NewReplica("00000000000000b0", testSecret, simClock{&now, 0})
	fs2, view := memFS{}, memFS{}
	a2.Edit(func(e *Editor) { e.Set("q", "concept:k", raw(`"1"`), nil) })
	a2.Sync(fs2)
	view[a2.journalName()] = fs2[a2.journalName()]
	view[a2.rosterName()] = fs2[a2.rosterName()]
	if err := a2.Compact(fs2); err != nil {
		t.Fatal(err)
	}
	a2.Edit(func(e *Editor) { e.Set("q", "concept:k", raw(`"2"`), nil) })
	a2.Flush(fs2)
	a2.Edit(func(e *Editor) { e.Set("q", "concept:other", raw(`"3"`), nil) })
	a2.Flush(fs2)
	delete(view, strings.Replace(a2.journalName(), ".2.", ".1.", 1))
	view[a2.journalName()] = fs2[a2.journalName()]
	b2, _ := NewReplica("00000000000000b1", testSecret, simClock{&now, 0})
	b2.Read(view)
	if st := b2.Status(); b2.st.VV[a2.dev] != 0 || len(st.Problems) == 0 {
		t.Fatalf("journal before its snapshot: read %d, problems %q; want 0 read and a wait reported", b2.st.VV[a2.dev], st.Problems)
	}
	view[a2.snapshotName()] = fs2[a2.snapshotName()]
	b2.Read(view)
	if got := valuesOf(b2, "q", "concept:k"); b2.st.VV[a2.dev] != 3 || !slices.Equal(got, []string{`"2"`}) {
		t.Fatalf("after the snapshot: read %d, values %q; want 3, [2]", b2.st.VV[a2.dev], got)
	}
}

// TestOfflineForMonths: a device offline for months, with a clock behind,
// comes back; what it wrote meanwhile is kept as a candidate where the
// others changed the same detail, and nothing is lost.
func TestOfflineForMonths(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	fs := memFS{}
	rs := devices(t, &now, 0, -2*time.Hour)
	rs[0].Edit(func(e *Editor) { e.CreateProfile("p", "Me"); e.Set("p", "concept:addr", raw(`"old"`), nil) })
	syncAll(t, fs, rs...)
	offline := memFS{}
	for name, b := range fs {
		offline[name] = b
	}
	for i := range 90 {
		now = now.Add(24 * time.Hour)
		rs[0].Edit(func(e *Editor) { e.Set("p", "concept:tel", raw(`"`+string(rune('a'+i%26))+`"`), nil) })
		rs[0].Sync(fs)
	}
	rs[1].Edit(func(e *Editor) { e.Set("p", "concept:addr", raw(`"offline edit"`), nil) })
	rs[1].Sync(offline)
	for name, b := range offline {
		if _, ok := fs[name]; !ok || name == rs[1].journalName() {
			fs[name] = b
		}
	}
	rs[0].Edit(func(e *Editor) { e.Set("p", "concept:addr", raw(`"new"`), nil) })
	syncAll(t, fs, rs...)
	for i, r := range rs {
		got := valuesOf(r, "p", "concept:addr")
		slices.Sort(got)
		if !slices.Equal(got, []string{`"new"`, `"offline edit"`}) {
			t.Errorf("device %d: addr = %q, want both the new and the offline edit", i, got)
		}
	}
}

// TestFolderRevealsLittle: file names do not name the device, no value or
// key is readable, and every record's size is a multiple of the padding
// plus the seal's fixed overhead.
func TestFolderRevealsLittle(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	fs := memFS{}
	rs := devices(t, &now, 0)
	for i := range 20 {
		rs[0].Edit(func(e *Editor) {
			e.Set("home-profile", "concept:https://schema.org/email", raw(`"ann`+strings.Repeat("x", i*7)+`@example.org"`), nil)
		})
		rs[0].Flush(fs)
	}
	rs[0].Compact(fs)
	rs[0].Edit(func(e *Editor) { e.AddDevice("Ann's laptop") })
	rs[0].Flush(fs)
	k, _ := deriveGroupKeys(testSecret)
	for name, b := range fs {
		for _, secret := range []string{rs[0].dev, "home-profile", "schema.org", "ann", "laptop"} {
			if strings.Contains(name, secret) || strings.Contains(string(b), secret) {
				t.Errorf("%s reveals %q", name, secret)
			}
		}
		for off := 0; off < len(b); {
			_, n, err := k.nextFrame(syncFileKind(name), b[off:], MaxSnapshotSize)
			if err != nil || n == 0 {
				t.Fatalf("%s at %d: %v", name, off, err)
			}
			if (n-frameHeader-sealOver)%padTo != 0 {
				t.Errorf("%s: a frame of %d bytes is not padded to %d", name, n, padTo)
			}
			off += n
		}
	}
}
