//go:build unix

package hostrun

import "golang.org/x/sys/unix"

// NoCoreDumps sets the core file size limit, soft and hard, to zero, so a
// crash never writes the process's memory to disk and no child can raise
// it again.
func NoCoreDumps() error {
	return unix.Setrlimit(unix.RLIMIT_CORE, &unix.Rlimit{Cur: 0, Max: 0})
}
