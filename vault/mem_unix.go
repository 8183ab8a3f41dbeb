//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package vault

import "golang.org/x/sys/unix"

// A keyMem holds key material outside the Go heap: an anonymous mapping,
// locked with mlock so that it is never written to swap, which the garbage
// collector never copies. Locking is best effort: a process over its
// RLIMIT_MEMLOCK still gets (unlocked) memory; the key is zeroed on free
// either way.
type keyMem struct {
	b      []byte
	mapped bool
	locked bool
}

func allocKeyMem(n int) keyMem {
	b, err := unix.Mmap(-1, 0, n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		return keyMem{b: make([]byte, n)}
	}
	excludeFromCoreDump(b)
	return keyMem{b: b, mapped: true, locked: unix.Mlock(b) == nil}
}

func (m *keyMem) bytes() []byte { return m.b }

// free zeroes the memory and gives it back.
func (m *keyMem) free() {
	if m.b == nil {
		return
	}
	clear(m.b)
	if m.locked {
		unix.Munlock(m.b)
	}
	if m.mapped {
		unix.Munmap(m.b)
	}
	*m = keyMem{}
}
