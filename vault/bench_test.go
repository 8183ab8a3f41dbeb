package vault

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/tessera-app/tessera/profile"
)

// seedBenchVault builds the benchmark vault: 10 profiles of 500 entries.
func seedBenchVault(b *testing.B, dir string, kr Keyring, wf int) {
	b.Helper()
	v, err := Create(dir, Options{Keyring: kr, ScryptWorkFactor: wf}, InitOptions{Passphrase: []byte("bench pass"), Keyring: kr != nil})
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	for p := range 10 {
		id := fmt.Sprintf("p%d", p)
		up := newUserProfile(profileRec{ID: id, Label: "Profile " + id})
		for e := range 500 {
			if e%2 == 0 {
				up.Concepts[fmt.Sprintf("https://schema.org/c%d", e)] = manual(fmt.Sprintf("value %d of %s", e, id))
			} else {
				up.Fields[fmt.Sprintf("form.section.field%d", e)] = manual(fmt.Sprintf("value %d of %s", e, id))
			}
		}
		if _, err := v.Import([]profile.UserProfile{up}); err != nil {
			b.Fatal(err)
		}
	}
}

// reportCPU reports the process CPU time per operation since start.
func reportCPU(b *testing.B, start time.Duration) {
	if now, ok := processCPU(); ok {
		b.ReportMetric(float64(now-start)/float64(b.N)/1e6, "cpu-ms/op")
	}
}

// BenchmarkUnlockKeyringLoad is the app's start: open the vault, unlock it
// from the keyring, load all 10 x 500 entries.
func BenchmarkUnlockKeyringLoad(b *testing.B) {
	dir, kr := b.TempDir(), newFakeKeyring()
	seedBenchVault(b, dir, kr, testWorkFactor)
	benchUnlockLoad(b, dir, kr)
}

// benchUnlockLoad times opening the seeded vault in dir, unlocking it
// through kr and loading every entry.
func benchUnlockLoad(b *testing.B, dir string, kr Keyring) {
	cpu, _ := processCPU()
	for b.Loop() {
		v, err := Open(dir, Options{Keyring: kr})
		if err != nil {
			b.Fatal(err)
		}
		if err := v.UnlockKeyring(); err != nil {
			b.Fatal(err)
		}
		ps, err := v.Profiles()
		if err != nil || len(ps) != 10 || len(ps[0].Concepts)+len(ps[0].Fields) != 500 {
			b.Fatalf("loaded %d profiles, %v", len(ps), err)
		}
		v.Close()
	}
	reportCPU(b, cpu)
}

// BenchmarkUnlockPassphrase measures the deliberate cost of one passphrase
// guess at DefaultScryptWorkFactor.
func BenchmarkUnlockPassphrase(b *testing.B) {
	dir := b.TempDir()
	v, err := Create(dir, Options{}, InitOptions{Passphrase: []byte("bench pass")})
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	cpu, _ := processCPU()
	for b.Loop() {
		v.Lock()
		if err := v.UnlockPassphrase([]byte("bench pass")); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu)
}

// BenchmarkSetEntry sets one entry in the 10 x 500 vault and reports the
// p50 and p99 latency as well as the mean, and the p99 of the CPU time the
// set itself used (on Linux), which a busy machine does not inflate.
func BenchmarkSetEntry(b *testing.B) {
	dir, kr := b.TempDir(), newFakeKeyring()
	seedBenchVault(b, dir, kr, testWorkFactor)
	v, err := Open(dir, Options{Keyring: kr})
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	if err := v.UnlockKeyring(); err != nil {
		b.Fatal(err)
	}
	// The SQLite driver runs on the calling goroutine: with it pinned to
	// one thread, that thread's CPU time is the set's own work.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var durs, cpus []time.Duration
	i := 0
	for b.Loop() {
		start := time.Now()
		c0, cpuOK := threadCPU()
		if err := v.SetEntry("p3", ConceptKey(fmt.Sprintf("https://schema.org/c%d", (i%250)*2)), manual(fmt.Sprintf("new %d", i))); err != nil {
			b.Fatal(err)
		}
		durs = append(durs, time.Since(start))
		if c1, ok := threadCPU(); ok && cpuOK {
			cpus = append(cpus, c1-c0)
		}
		i++
	}
	p := func(ds []time.Duration, at int) float64 {
		slices.Sort(ds)
		return float64(ds[len(ds)*at/100].Microseconds()) / 1000
	}
	b.ReportMetric(p(durs, 50), "p50-ms")
	b.ReportMetric(p(durs, 99), "p99-ms")
	if len(cpus) > 0 {
		b.ReportMetric(p(cpus, 99), "p99-cpu-ms")
	}
}

// BenchmarkRekey re-seals the whole 10 x 500 vault under a new key.
func BenchmarkRekey(b *testing.B) {
	dir, kr := b.TempDir(), newFakeKeyring()
	seedBenchVault(b, dir, kr, testWorkFactor)
	v, err := Open(dir, Options{Keyring: kr, ScryptWorkFactor: testWorkFactor})
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	if err := v.UnlockKeyring(); err != nil {
		b.Fatal(err)
	}
	cpu, _ := processCPU()
	for b.Loop() {
		if err := v.Rekey([]byte("bench pass")); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu)
}
