//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package vault

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

type dirLock struct{ f *os.File }

// lockDir takes a non-blocking exclusive flock on path. flock locks belong
// to the open file, so the kernel drops them when the holder dies, even by
// SIGKILL: a crash never leaves the vault locked.
func lockDir(path string) (*dirLock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock: %w", err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, ErrBusy
		}
		return nil, fmt.Errorf("lock: %w", err)
	}
	return &dirLock{f: f}, nil
}

func (l *dirLock) release() {
	unix.Flock(int(l.f.Fd()), unix.LOCK_UN)
	l.f.Close()
}
