//go:build !(linux || darwin || freebsd || openbsd || netbsd || dragonfly || windows)

package vault

import (
	"fmt"
	"runtime"
)

type dirLock struct{}

// lockDir fails on platforms without a file-lock primitive we trust, rather
// than risk two writers.
func lockDir(string) (*dirLock, error) {
	return nil, fmt.Errorf("lock: not supported on %s", runtime.GOOS)
}

func (*dirLock) release() {}
