//go:build unix && !linux && !darwin

package nativemsg

import "errors"

func peerUID(fd int) (int, error) {
	return -1, errors.New("peer credentials not supported on this platform")
}
