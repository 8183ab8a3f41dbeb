package vault

import "golang.org/x/sys/unix"

// excludeFromCoreDump keeps key pages out of core dumps.
func excludeFromCoreDump(b []byte) { unix.Madvise(b, unix.MADV_DONTDUMP) }
