package vault

import (
	"fmt"
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

// BenchmarkUnlockKeyringLoad is the app's start: open the vault, unlock it
// from the keyring, load all 10 x 500 entries.
func BenchmarkUnlockKeyringLoad(b *testing.B) {
	dir, kr := b.TempDir(), newFakeKeyring()
	seedBenchVault(b, dir, kr, testWorkFactor)
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
	for b.Loop() {
		v.Lock()
		if err := v.UnlockPassphrase([]byte("bench pass")); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSetEntry sets one entry in the 10 x 500 vault and reports the
// p99 latency as well as the mean.
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
	var durs []time.Duration
	i := 0
	for b.Loop() {
		start := time.Now()
		if err := v.SetEntry("p3", ConceptKey(fmt.Sprintf("https://schema.org/c%d", (i%250)*2)), manual(fmt.Sprintf("new %d", i))); err != nil {
			b.Fatal(err)
		}
		durs = append(durs, time.Since(start))
		i++
	}
	slices.Sort(durs)
	b.ReportMetric(float64(durs[len(durs)*99/100].Microseconds())/1000, "p99-ms")
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
	for b.Loop() {
		if err := v.Rekey([]byte("bench pass")); err != nil {
			b.Fatal(err)
		}
	}
}
