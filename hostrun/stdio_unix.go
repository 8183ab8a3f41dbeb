//go:build unix

package hostrun

import (
	"os"

	"golang.org/x/sys/unix"
)

// pollable returns the browser's end of a pipe as a file Go's network
// poller waits on, instead of a thread blocked in read(2): the relay's
// two directions then share one waiting thread, and a message from the
// browser wakes the host once, not a blocked thread and then a second
// one to hand the app's answer back. Only the host holds this end of the
// pipe (the app it starts gets /dev/null), so O_NONBLOCK changes nothing
// for anyone else. Anything but a pipe or socket (a terminal, a file) is
// returned as it is.
func pollable(f *os.File) *os.File {
	fd := int(f.Fd())
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil {
		return f
	}
	if t := st.Mode & unix.S_IFMT; t != unix.S_IFIFO && t != unix.S_IFSOCK {
		return f
	}
	if unix.SetNonblock(fd, true) != nil {
		return f
	}
	// os.NewFile registers a non-blocking descriptor with the poller.
	return os.NewFile(uintptr(fd), f.Name())
}
