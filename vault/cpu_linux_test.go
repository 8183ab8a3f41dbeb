package vault

import (
	"time"

	"golang.org/x/sys/unix"
)

// The benchmarks report CPU time beside wall time: on a shared, loaded
// machine the wall time of a single-threaded operation measures the queue
// for a core as much as the vault.

// processCPU returns the user and system CPU time the process has used.
func processCPU() (time.Duration, bool) {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}

// threadCPU returns the CPU time of the calling OS thread; the caller
// must hold it with runtime.LockOSThread.
func threadCPU() (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
