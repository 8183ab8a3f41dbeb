package vault

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// vmLocked returns the process's locked memory in kB (VmLck).
func vmLocked(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmLck:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatal("no VmLck in /proc/self/status")
	return 0
}

// TestKeysInLockedMemory checks that an unlocked vault's keys sit in
// mlocked memory and that Lock gives it back, zeroed (issue 18).
func TestKeysInLockedMemory(t *testing.T) {
	v := newTestVault(t, t.TempDir(), nil)
	if !v.k.mem.locked {
		t.Skip("mlock refused (RLIMIT_MEMLOCK): keys are in ordinary memory, which the vault tolerates")
	}
	unlocked := vmLocked(t)
	if unlocked == 0 {
		t.Fatal("VmLck is 0 with the vault unlocked")
	}
	k := v.k
	v.Lock()
	if v.k != nil || v.m != nil {
		t.Fatal("Lock kept the keys or the manifest")
	}
	if k.data != nil || k.seal != nil || k.lookup != nil || k.mac != nil || k.mem.b != nil {
		t.Fatal("Lock left key slices pointing at the key memory")
	}
	if got := vmLocked(t); got >= unlocked {
		t.Fatalf("VmLck %d kB after Lock, want below the %d kB while unlocked", got, unlocked)
	}
}

// TestKeyMemFree checks that free zeroes the key bytes before giving the
// memory back (in memory the test can still read: the heap fallback).
func TestKeyMemFree(t *testing.T) {
	b := make([]byte, 64)
	for i := range b {
		b[i] = 0xA5
	}
	m := keyMem{b: b}
	m.free()
	for i, c := range b {
		if c != 0 {
			t.Fatalf("byte %d = %#x after free, want 0", i, c)
		}
	}
}
