package devsync

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tessera-app/tessera/devsync/syncthingtest"
	"github.com/tessera-app/tessera/vault"
)

// content is a vault's profiles and values, comparable across homes.
func content(t *testing.T, v *vault.Vault) string {
	t.Helper()
	snap, err := v.SyncSnapshot()
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, p := range snap.Profiles {
		lines = append(lines, "profile "+p.ID+" "+p.Label)
		for _, k := range p.Keys {
			var vals []string
			for _, e := range k.Values {
				vals = append(vals, compactJSON(e.Value))
			}
			lines = append(lines, "  "+k.Key.String()+" "+strings.Join(vals, " | "))
		}
	}
	return strings.Join(lines, "\n")
}

func (h *home) has(t *testing.T, pid string, key vault.Key, value string) bool {
	t.Helper()
	for _, v := range h.values(t, pid, key) {
		if v == value {
			return true
		}
	}
	return false
}

// TestSyncthing keeps two, then three, Tessera homes in step through real
// Syncthing instances on this machine: edits on every side, some at the
// same time, with the network between two instances cut and restored; at
// the end every home holds the same profiles and every value written. It
// also measures how long a change on one home takes to show on another.
// It runs when TESSERA_TEST_SYNCTHING=1 and syncthing is installed
// (scripts/deps-debian.sh).
func TestSyncthing(t *testing.T) {
	if os.Getenv("TESSERA_TEST_SYNCTHING") != "1" {
		t.Skip("set TESSERA_TEST_SYNCTHING=1 to run Syncthing")
	}
	if _, err := exec.LookPath("syncthing"); err != nil {
		t.Skip("syncthing is not installed")
	}
	for _, n := range []int{2, 3} {
		t.Run(fmt.Sprintf("%d homes", n), func(t *testing.T) { syncthingHomes(t, n) })
	}
}

func syncthingHomes(t *testing.T, n int) {
	ctx := context.Background()
	sts := syncthingtest.Start(t, n)
	homes := make([]*home, n)
	pass := "recovery passphrase of home 0"
	for i := range n {
		homes[i] = newHome(t, fmt.Sprintf("passphrase %d", i))
		if i == 0 {
			homes[i].v.ChangePassphrase([]byte(pass))
		}
	}
	var err error
	if homes[0].s, err = Setup(ctx, homes[0].v, sts[0].Folder, "home 0", []byte(pass), testOpts); err != nil {
		t.Fatal(err)
	}
	for i := 1; i < n; i++ {
		waitFor(t, 30*time.Second, "group file on home "+fmt.Sprint(i), func() bool {
			_, err := os.Stat(filepath.Join(sts[i].Folder, GroupFileName))
			return err == nil
		})
		if homes[i].s, err = Setup(ctx, homes[i].v, sts[i].Folder, fmt.Sprintf("home %d", i), []byte(pass), testOpts); err != nil {
			t.Fatal(err)
		}
	}
	syncAllHomes := func() {
		for _, h := range homes {
			if _, err := h.s.SyncNow(ctx); err != nil && err != ErrWaiting {
				t.Fatalf("SyncNow: %v", err)
			}
		}
	}
	email := vault.ConceptKey("https://schema.org/email")
	type written struct {
		pid   string
		key   vault.Key
		value string
	}
	var all []written
	set := func(i int, pid string, key vault.Key, value string) {
		if _, err := homes[i].v.Profile(pid); err != nil {
			homes[i].v.CreateProfile(pid, "Profile "+pid)
		}
		if err := homes[i].v.SetEntry(pid, key, entry(value)); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(value)
		all = append(all, written{pid, key, string(b)})
	}
	for round := range 4 {
		if round == 1 {
			syncthingtest.Cut(t, sts[0], sts[1], true)
		}
		for i := range n {
			set(i, fmt.Sprintf("p%d", i), vault.FieldKey(fmt.Sprintf("r%d", round)), fmt.Sprintf("home %d round %d", i, round))
			// Every home changes the same detail at once.
			set(i, "shared", email, fmt.Sprintf("h%d.r%d@example.org", i, round))
		}
		syncAllHomes()
		time.Sleep(1500 * time.Millisecond)
		syncAllHomes()
		if round == 2 {
			syncthingtest.Cut(t, sts[0], sts[1], false)
		}
	}
	// The values the last round wrote on every home stay until settled;
	// earlier ones were replaced by the home that wrote them after it
	// had seen them, and that is not a loss. Check: same content
	// everywhere, and every value of the last round present.
	last := all[len(all)-2*n:]
	waitFor(t, 90*time.Second, "every home the same", func() bool {
		syncAllHomes()
		c0 := content(t, homes[0].v)
		for _, h := range homes[1:] {
			if content(t, h.v) != c0 {
				return false
			}
		}
		for _, h := range homes {
			for _, w := range last {
				if !h.has(t, w.pid, w.key, w.value) {
					return false
				}
			}
		}
		return true
	})
	for _, h := range homes {
		for i := range n {
			for round := range 4 {
				if !h.has(t, fmt.Sprintf("p%d", i), vault.FieldKey(fmt.Sprintf("r%d", round)), fmt.Sprintf(`"home %d round %d"`, i, round)) {
					t.Errorf("a value of home %d round %d is missing", i, round)
				}
			}
		}
		if st := h.s.Status(); len(st.Problems) > 0 || len(st.Devices) != n {
			t.Errorf("status: %+v", st.Status)
		}
	}
	t.Logf("%d homes converged:\n%s", n, content(t, homes[0].v))

	// Latency: a change on home 0 until home 1 has it, each home polling
	// as the app's timer would (here every 50 ms).
	var lat []time.Duration
	for k := range 25 {
		value := fmt.Sprintf("latency %d", k)
		start := time.Now()
		set(0, "p0", vault.FieldKey("latency"), value)
		if _, err := homes[0].s.SyncNow(ctx); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(value)
		waitFor(t, 60*time.Second, "latency sample", func() bool {
			homes[1].s.SyncNow(ctx)
			return homes[1].has(t, "p0", vault.FieldKey("latency"), string(b))
		})
		lat = append(lat, time.Since(start))
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	t.Logf("change on home 0 visible on home 1 through Syncthing (fsWatcherDelayS=1, 50 ms poll), %d samples: median %v, p99 %v, min %v", len(lat), lat[len(lat)/2].Round(time.Millisecond), lat[len(lat)*99/100].Round(time.Millisecond), lat[0].Round(time.Millisecond))
}

func waitFor(t *testing.T, d time.Duration, what string, f func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !f() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
