package vault

import (
	"unsafe"

	"golang.org/x/sys/windows"
)

// A keyMem holds key material in memory locked with VirtualLock, so that it
// is not paged out. Go's heap does not move objects, so the locked pages
// stay the key's. Locking is best effort; the key is zeroed on free either
// way.
type keyMem struct {
	b      []byte
	locked bool
}

func allocKeyMem(n int) keyMem {
	b := make([]byte, n)
	return keyMem{b: b, locked: windows.VirtualLock(uintptr(unsafe.Pointer(&b[0])), uintptr(n)) == nil}
}

func (m *keyMem) bytes() []byte { return m.b }

// free zeroes the memory and unlocks it.
func (m *keyMem) free() {
	if m.b == nil {
		return
	}
	clear(m.b)
	if m.locked {
		windows.VirtualUnlock(uintptr(unsafe.Pointer(&m.b[0])), uintptr(len(m.b)))
	}
	*m = keyMem{}
}
