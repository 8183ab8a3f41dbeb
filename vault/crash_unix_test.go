//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package vault

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tessera-app/tessera/profile"
)

// The crash workload is a deterministic sequence of steps: every fourth
// step rotates the data key, alternately by Rekey (with a fresh keyring
// identity) and by ChangePassphrase (vault passwd); every other step writes,
// in one transaction, the step number to "counter" and to field
// "f<step%10>". So the counter alone says which committed state the vault
// must be in.
const crashPass = "crash passphrase"

func isRekeyStep(i int) bool { return i%4 == 0 }

// expectedFields returns what fields f0..f9 hold once the counter is c.
func expectedFields(c int) map[string]string {
	want := map[string]string{}
	for j := 1; j <= c; j++ {
		if !isRekeyStep(j) {
			want[fmt.Sprintf("f%d", j%10)] = strconv.Itoa(j)
		}
	}
	return want
}

func crashOptions(keyringDir string) Options {
	return Options{Keyring: fileKeyring{keyringDir}, ScryptWorkFactor: testWorkFactor}
}

// readCounter unlocks the vault in dir with the keyring, and returns the
// counter and the fields.
func readCounter(dir, keyringDir string) (int, map[string]string, error) {
	v, err := Open(dir, crashOptions(keyringDir))
	if err != nil {
		return 0, nil, err
	}
	defer v.Close()
	if err := v.UnlockKeyring(); err != nil {
		return 0, nil, err
	}
	p, err := v.Profile("crash")
	if err != nil {
		return 0, nil, err
	}
	fields := map[string]string{}
	for name, e := range p.Fields {
		s, _ := e.StringValue()
		fields[name] = s
	}
	c, _ := strconv.Atoi(fields["counter"])
	delete(fields, "counter")
	return c, fields, nil
}

// padEntries is the size of the "pad" profile that the crash loop's
// re-keys re-seal along with the counter.
const padEntries = 60

// checkPad returns an error unless the pad profile survived whole.
func checkPad(dir, keyringDir string) error {
	v, err := Open(dir, crashOptions(keyringDir))
	if err != nil {
		return err
	}
	defer v.Close()
	if err := v.UnlockKeyring(); err != nil {
		return err
	}
	p, err := v.Profile("pad")
	if err != nil {
		return fmt.Errorf("pad profile: %w", err)
	}
	if len(p.Fields) != padEntries {
		return fmt.Errorf("pad profile has %d entries, want %d", len(p.Fields), padEntries)
	}
	for i := range padEntries {
		name := fmt.Sprintf("pad.%d", i)
		if s, _ := p.Fields[name].StringValue(); s != fmt.Sprintf("pad value %d", i) {
			return fmt.Errorf("pad profile: %s = %q", name, s)
		}
	}
	return nil
}

// crashWriter runs the workload from the vault's current counter on, until
// killed, printing each step once it has committed.
func crashWriter(dir, keyringDir string) error {
	c, _, err := readCounter(dir, keyringDir)
	if err != nil {
		return err
	}
	v, err := Open(dir, crashOptions(keyringDir))
	if err != nil {
		return err
	}
	if err := v.UnlockKeyring(); err != nil {
		return err
	}
	out := bufio.NewWriter(os.Stdout)
	fmt.Fprintln(out, "ready")
	out.Flush()
	for i := c + 1; ; i++ {
		switch {
		case isRekeyStep(i) && i%8 == 0:
			err = v.Rekey([]byte(crashPass))
		case isRekeyStep(i):
			err = v.ChangePassphrase([]byte(crashPass))
		default:
			val := strconv.Itoa(i)
			err = v.withTx("step", func(o *op) error {
				prow, _, err := findProfile(o, "crash")
				if err != nil {
					return err
				}
				for _, key := range []Key{FieldKey("counter"), FieldKey(fmt.Sprintf("f%d", i%10))} {
					cur, err := entryRows(o, prow, "crash", key)
					if err != nil {
						return err
					}
					var row int64
					if len(cur) > 0 {
						row = cur[0].row
					}
					if err := putEntryTx(o, prow, "crash", row, 0, key, manual(val)); err != nil {
						return err
					}
				}
				return nil
			})
		}
		if err != nil {
			return fmt.Errorf("step %d: %w", i, err)
		}
		fmt.Fprintf(out, "committed %d\n", i)
		out.Flush()
	}
}

// TestCrashSafety SIGKILLs a writing, re-keying, passphrase-changing child
// at random moments,
// many times, and checks after each kill that the vault opens with the
// keyring (and at the end with the passphrase) and holds exactly a committed
// state: the last step the child reported, or the one in flight when it
// died, and the untouched pad profile whole.
func TestCrashSafety(t *testing.T) {
	if testing.Short() {
		t.Skip("crash loop skipped in -short mode")
	}
	dir, krDir := t.TempDir(), t.TempDir()
	v, err := Create(dir, crashOptions(krDir), InitOptions{Passphrase: []byte(crashPass), Keyring: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.CreateProfile("crash", "Crash"); err != nil {
		t.Fatal(err)
	}
	// A second profile that only re-keys touch: it is checked whole after
	// every kill, so a half-applied re-key would show in it.
	pad := profile.UserProfile{ID: "pad", Label: "Pad", Fields: map[string]profile.Entry{}}
	for i := range padEntries {
		pad.Fields[fmt.Sprintf("pad.%d", i)] = manual(fmt.Sprintf("pad value %d", i))
	}
	if _, err := v.Import([]profile.UserProfile{pad}); err != nil {
		t.Fatal(err)
	}
	v.Close()

	rng := rand.New(rand.NewPCG(1, 2))
	const iterations = 150
	// window is how long after "ready" a kill may come. A child killed
	// before its first commit tests little, so while fewer than half the
	// children so far committed anything (a machine too loaded to commit
	// within the window) a kill before any commit doubles it, up to a
	// second: the kills stay at random moments, whatever the machine's
	// speed.
	window := 60 * time.Millisecond
	progressed, lastCounter, inRekey, inPasswd, inWrite := 0, 0, 0, 0, 0
	for it := range iterations {
		cmd := childCmd(t, os.Args[0], "writer", dir, krDir)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan int)
		go func() {
			defer close(lines)
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				if sc.Text() == "ready" {
					lines <- -1
				}
				if n, ok := strings.CutPrefix(sc.Text(), "committed "); ok {
					i, _ := strconv.Atoi(n)
					lines <- i
				}
			}
		}()
		// The kill clock starts once the child is ready, so that process
		// start-up time on a loaded machine does not eat the window.
		var kill <-chan time.Time
		reported := 0
	wait:
		for {
			select {
			case i, ok := <-lines:
				if !ok {
					break wait
				}
				if i < 0 {
					kill = time.After(time.Duration(rng.Int64N(int64(window))))
					continue
				}
				reported = i
			case <-kill:
				cmd.Process.Signal(syscall.SIGKILL)
				kill = nil
			}
		}
		werr := cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("iteration %d: child ended on its own: %v\n%s", it, werr, stderr.String())
		}

		switch inFlight := max(reported, lastCounter) + 1; {
		case isRekeyStep(inFlight) && inFlight%8 == 0:
			inRekey++
		case isRekeyStep(inFlight):
			inPasswd++
		default:
			inWrite++
		}
		c, fields, err := readCounter(dir, krDir)
		if err != nil {
			t.Fatalf("iteration %d: reopen after kill: %v", it, err)
		}
		if err := checkPad(dir, krDir); err != nil {
			t.Fatalf("iteration %d: %v", it, err)
		}
		// The committed state: the last write the child reported (or an
		// earlier one when it reported only re-keys), or the write in flight.
		lo := lastCounter
		if reported > 0 {
			lo = reported
			for isRekeyStep(lo) {
				lo--
			}
		}
		hi := max(reported, lastCounter) + 1
		for isRekeyStep(hi) {
			hi++
		}
		if c != lo && c != hi {
			t.Fatalf("iteration %d: counter %d after kill, want %d (last reported) or %d (in flight)", it, c, lo, hi)
		}
		want := expectedFields(c)
		if len(fields) != len(want) {
			t.Fatalf("iteration %d: %d fields at counter %d, want %d", it, len(fields), c, len(want))
		}
		for k, w := range want {
			if fields[k] != w {
				t.Fatalf("iteration %d: field %s = %q at counter %d, want %q", it, k, fields[k], c, w)
			}
		}
		if reported > 0 {
			progressed++
		} else if 2*progressed < it+1 {
			window = min(2*window, time.Second)
		}
		lastCounter = c
	}
	if progressed < iterations/4 {
		t.Fatalf("only %d of %d children committed anything; the kills came too early to test much", progressed, iterations)
	}
	// The passphrase wrap was renewed by every re-key in the same
	// transaction: it must open the final state too.
	v, err = Open(dir, testOptions(nil))
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if err := v.UnlockPassphrase([]byte(crashPass)); err != nil {
		t.Fatalf("passphrase unlock after crashes: %v", err)
	}
	if _, err := v.Profile("crash"); err != nil {
		t.Fatal(err)
	}
	if inRekey == 0 || inPasswd == 0 || inWrite == 0 {
		t.Fatalf("of %d kills %d landed in a re-key, %d in a passphrase change and %d in a write; the loop must test all three", iterations, inRekey, inPasswd, inWrite)
	}
	t.Logf("%d kills (%d during a re-key, %d during a passphrase change, %d during a write), final counter %d", iterations, inRekey, inPasswd, inWrite, lastCounter)
}
