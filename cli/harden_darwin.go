package cli

import "golang.org/x/sys/unix"

// hideMemory denies debuggers the process (PT_DENY_ATTACH).
func hideMemory() error {
	return unix.PtraceDenyAttach()
}
