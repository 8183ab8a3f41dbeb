package hostrun

import "golang.org/x/sys/unix"

// HideMemory makes the process non-dumpable: only root may ptrace it or
// read its /proc files beyond the basics.
func HideMemory() error {
	return unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
}
