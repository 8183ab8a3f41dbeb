//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package devsync

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tessera-app/tessera/vault"
)

// The test binary re-executes itself as a Tessera that edits its vault
// and syncs in a loop until it is killed, when this variable is set.
const childEnv = "TESSERA_SYNC_CHILD"

func TestMain(m *testing.M) {
	if args := os.Getenv(childEnv); args != "" {
		if err := childWriter(strings.Split(args, "\x1f")); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// childWriter opens the vault in dir, then sets value after value and
// syncs after each, printing "set N" once a value is committed to the
// vault, until killed.
func childWriter(args []string) error {
	dir, pass, prefix := args[0], args[1], args[2]
	start, _ := strconv.Atoi(args[3])
	v, err := vault.Open(dir, vault.Options{ScryptWorkFactor: 10})
	if err != nil {
		return err
	}
	if err := v.UnlockPassphrase([]byte(pass)); err != nil {
		return err
	}
	s, err := Open(v, testOpts)
	if err != nil {
		return err
	}
	ctx := context.Background()
	w := bufio.NewWriter(os.Stdout)
	for i := start; ; i++ {
		if err := v.SetEntry("shared", vault.FieldKey(fmt.Sprintf("%s%d", prefix, i)), entry(fmt.Sprintf("%s value %d", prefix, i))); err != nil {
			return err
		}
		fmt.Fprintf(w, "set %d\n", i)
		w.Flush()
		if _, err := s.SyncNow(ctx); err != nil {
			return err
		}
	}
}

// TestKilledDuringSync kills a Tessera with SIGKILL at random moments
// while it edits and syncs, many times, alternating between two homes:
// every value it had committed reaches both vaults, neither vault nor the
// folder is ever corrupt, and each restart carries on.
func TestKilledDuringSync(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a child process many times")
	}
	ctx := context.Background()
	folder := t.TempDir()
	dirs := []string{t.TempDir(), t.TempDir()}
	passes := []string{"pass a", "pass b"}
	for i, dir := range dirs {
		v, err := vault.Create(dir, vault.Options{ScryptWorkFactor: 10}, vault.InitOptions{Passphrase: []byte(passes[i])})
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			v.CreateProfile("shared", "Shared")
		}
		if _, err := Setup(ctx, v, folder, fmt.Sprintf("home %d", i), []byte(passes[0]), testOpts); err != nil {
			t.Fatal(err)
		}
		v.Close()
	}
	open := func(i int) (*vault.Vault, *Syncer) {
		t.Helper()
		v, err := vault.Open(dirs[i], vault.Options{ScryptWorkFactor: 10})
		if err != nil {
			t.Fatalf("home %d after a kill: open: %v", i, err)
		}
		if err := v.UnlockPassphrase([]byte(passes[i])); err != nil {
			t.Fatalf("home %d after a kill: unlock: %v", i, err)
		}
		s, err := Open(v, testOpts)
		if err != nil {
			t.Fatalf("home %d after a kill: %v", i, err)
		}
		return v, s
	}
	secret, err := ReadGroupFile(DirFS(folder), []byte(passes[0]))
	if err != nil {
		t.Fatal(err)
	}
	gk, _ := deriveGroupKeys(secret)
	torn := 0
	rng := rand.New(rand.NewPCG(1, 2))
	acked := map[string]bool{}
	next := []int{0, 0}
	kills := 40
	for k := range kills {
		i := k % 2
		other, os2 := open(1 - i)
		prefix := []string{"a", "b"}[i]
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"="+strings.Join([]string{dirs[i], passes[i], prefix, strconv.Itoa(next[i])}, "\x1f"))
		out, _ := cmd.StdoutPipe()
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan string)
		go func() {
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		// Let it commit a few values, syncing the other home meanwhile,
		// then kill it at a random moment.
		deadline := time.After(time.Duration(20+rng.IntN(200)) * time.Millisecond)
	wait:
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					break wait
				}
				n, _ := strconv.Atoi(strings.TrimPrefix(l, "set "))
				acked[fmt.Sprintf("%s%d", prefix, n)] = true
				next[i] = n + 1
			case <-deadline:
				break wait
			}
		}
		os2.SyncNow(ctx)
		cmd.Process.Signal(syscall.SIGKILL)
		for l := range lines {
			n, _ := strconv.Atoi(strings.TrimPrefix(l, "set "))
			acked[fmt.Sprintf("%s%d", prefix, n)] = true
			next[i] = n + 1
		}
		err := cmd.Wait()
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) && ee.ExitCode() == 1 {
			t.Fatalf("kill %d: the child failed on its own: %s", k, stderr.String())
		}
		torn += tornJournals(t, folder, gk)
		other.Close()
	}
	// Both homes start again and sync until quiet.
	var homes [2]*vault.Vault
	var syncers [2]*Syncer
	for i := range 2 {
		homes[i], syncers[i] = open(i)
		defer homes[i].Close()
	}
	for range 3 {
		for i := range 2 {
			if _, err := syncers[i].SyncNow(ctx); err != nil {
				t.Fatalf("home %d: SyncNow after the kills: %v", i, err)
			}
		}
	}
	for i := range 2 {
		p, err := homes[i].Profile("shared")
		if err != nil {
			t.Fatal(err)
		}
		for key := range acked {
			if _, ok := p.Fields[key]; !ok {
				t.Errorf("home %d: value %s committed before a kill is missing", i, key)
			}
		}
		if st := syncers[i].Status(); len(st.Problems) > 0 {
			t.Errorf("home %d: problems after the kills: %q", i, st.Problems)
		}
	}
	files, _ := filepath.Glob(filepath.Join(folder, "*"))
	t.Logf("%d kills (%d left a partly written record), %d values committed by the killed processes, all on both homes; folder: %d files", kills, torn, len(acked), len(files))
}

// tornJournals counts the journals that end in a partly written record,
// and fails on any that holds a record that does not open.
func tornJournals(t *testing.T, folder string, k *keys) int {
	t.Helper()
	n := 0
	files, _ := filepath.Glob(filepath.Join(folder, "*.tsj"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		off := 0
		for off < len(b) {
			_, l, err := k.nextFrame(kindJournal, b[off:], MaxRecordSize)
			if err != nil {
				t.Fatalf("%s after a kill: %v", f, err)
			}
			if l == 0 {
				break
			}
			off += l
		}
		if off < len(b) {
			n++
		}
	}
	return n
}
