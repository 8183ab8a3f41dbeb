package hostrun

import "golang.org/x/sys/unix"

// HideMemory denies debuggers the process (PT_DENY_ATTACH).
func HideMemory() error {
	return unix.PtraceDenyAttach()
}
