package devsync

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tessera-app/tessera/vault"
)

// TestSyncerRandom runs random histories of three vaults edited the ways
// the app edits them (create, rename and delete profiles; set, learn,
// promote and delete values), synced through folders a sync tool carries
// late, partly and twice: once everything is carried, every vault holds
// the same profiles and values, and the values each home wrote last are
// there.
func TestSyncerRandom(t *testing.T) {
	histories := envInt("TESSERA_SYNC_HISTORIES", 8)
	if testing.Short() {
		histories = 2
	}
	for h := range histories {
		syncerHistory(t, uint64(h))
	}
}

func syncerHistory(t *testing.T, seed uint64) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(seed, 7))
	n := 3
	views := make([]memFS, n)
	homes := make([]*home, n)
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	for i := range n {
		views[i] = memFS{}
	}
	for i := range n {
		homes[i] = newHome(t, "pass")
		opts := testOpts
		view := views[i]
		opts.FS = func(string) FS { return view }
		opts.Clock = simClock{&now, time.Duration(rng.IntN(8)-4) * time.Hour}
		var err error
		if homes[i].s, err = Setup(ctx, homes[i].v, "folder", fmt.Sprintf("home %d", i), []byte("pass"), opts); err != nil {
			t.Fatal(err)
		}
		// The first home's group file goes everywhere, so all join one group.
		for j := range n {
			if j != i {
				views[j][GroupFileName] = views[0][GroupFileName]
			}
		}
	}
	// Each home's own files are those it wrote; carry copies them to
	// another home's view, whole, cut short, or as a conflicted copy.
	stems := make([]string, n)
	for i, h := range homes {
		stems[i] = h.s.rep.k.stem(h.s.rep.dev) + "."
	}
	carry := func(src, dst int, whole bool) {
		for _, name := range slices.Sorted(maps.Keys(views[src])) {
			if syncFileKind(name) == 0 || strings.Contains(name, "conflict") || !strings.HasPrefix(name, stems[src]) {
				continue
			}
			b := views[src][name]
			switch x := rng.IntN(10); {
			case whole || x < 6:
				views[dst][name] = slices.Clone(b)
			case x < 8:
				views[dst][name] = slices.Clone(b[:rng.IntN(len(b)+1)])
			default:
				views[dst][strings.TrimSuffix(name, name[len(name)-4:])+" (conflicted copy)"+name[len(name)-4:]] = slices.Clone(b)
			}
		}
		for name := range views[dst] {
			if _, ok := views[src][name]; strings.HasPrefix(name, stems[src]) && !ok && !strings.Contains(name, "conflict") {
				delete(views[dst], name)
			}
		}
	}
	// lastOp is, per profile/key, the last change any home made to it:
	// a value set, or "" for any other change. A profile deletion counts
	// for all its keys.
	lastOp := map[string]string{}
	for step := range 60 {
		i := rng.IntN(n)
		v := homes[i].v
		pid := fmt.Sprintf("p%d", rng.IntN(3))
		key := vault.FieldKey(fmt.Sprintf("k%d", rng.IntN(3)))
		val := fmt.Sprintf("v%d", step)
		k := pid + "/" + key.String()
		switch x := rng.IntN(100); {
		case x < 10:
			if _, err := v.CreateProfile(pid, "L"+val); err != nil {
				v.RenameProfile(pid, "L"+val)
			}
		case x < 15:
			v.DeleteProfile(pid)
			for kk := range lastOp {
				if strings.HasPrefix(kk, pid+"/") {
					lastOp[kk] = ""
				}
			}
		case x < 45:
			if _, err := v.Profile(pid); err != nil {
				v.CreateProfile(pid, "L"+pid)
			}
			if v.SetEntry(pid, key, entry(val)) == nil {
				b, _ := json.Marshal(val)
				lastOp[k] = string(b)
			}
		case x < 55:
			lastOp[k] = ""
			v.Learn(pid, []vault.Observation{{FieldPath: key.Name, Value: json.RawMessage(fmt.Sprintf("%q", val))}})
		case x < 62:
			lastOp[k] = ""
			v.PromoteCandidate(pid, key, 0)
		case x < 67:
			lastOp[k] = ""
			v.DeleteEntry(pid, key)
		case x < 85:
			if _, err := homes[i].s.SyncNow(ctx); err != nil && err != ErrWaiting {
				t.Fatalf("seed %d: SyncNow: %v", seed, err)
			}
		default:
			carry(i, rng.IntN(n), false)
		}
		now = now.Add(time.Duration(rng.IntN(5000)) * time.Millisecond)
	}
	for range 4 * n {
		for i := range n {
			if _, err := homes[i].s.SyncNow(ctx); err != nil && err != ErrWaiting {
				t.Fatalf("seed %d: SyncNow: %v", seed, err)
			}
		}
		for i := range n {
			for j := range n {
				if i != j {
					carry(i, j, true)
				}
			}
		}
	}
	want := content(t, homes[0].v)
	for i, h := range homes {
		if got := content(t, h.v); got != want {
			t.Fatalf("seed %d: home %d holds\n%s\nhome 0 holds\n%s\nstatus %+v", seed, i, got, want, h.s.Status())
		}
		if st := h.s.Status(); len(st.Problems) > 0 {
			t.Errorf("seed %d: home %d problems: %q", seed, i, st.Problems)
		}
	}
	// A value set last of all changes to its detail (and its profile) is
	// on every home: nothing that saw it removed it.
	checked := 0
	for k, val := range lastOp {
		if val == "" {
			continue
		}
		pid, key, _ := strings.Cut(k, "/")
		for i, h := range homes {
			if !h.has(t, pid, parseKey(key), val) {
				t.Errorf("seed %d: home %d lacks %s = %s, the last change made to it", seed, i, k, val)
			}
		}
		checked++
	}
	if checked == 0 {
		t.Logf("seed %d: no detail whose last change was a value set", seed)
	}
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}
