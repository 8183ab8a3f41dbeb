//go:build !(linux || darwin || freebsd || openbsd || netbsd || dragonfly || windows)

package vault

// A keyMem holds key material. Where no memory locking is known it is
// ordinary memory, zeroed on free.
type keyMem struct{ b []byte }

func allocKeyMem(n int) keyMem { return keyMem{b: make([]byte, n)} }

func (m *keyMem) bytes() []byte { return m.b }

func (m *keyMem) free() {
	clear(m.b)
	m.b = nil
}
