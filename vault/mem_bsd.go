//go:build darwin || freebsd || openbsd || netbsd || dragonfly

package vault

// excludeFromCoreDump does nothing where madvise has no MADV_DONTDUMP; the
// app's zero core limit covers these platforms.
func excludeFromCoreDump([]byte) {}
