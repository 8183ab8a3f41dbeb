//go:build !linux

package vaultctl

import (
	"context"
	"errors"
)

// SessionLockEvents is not built on this platform yet. Designed: macOS
// observes com.apple.screenIsLocked and NSWorkspaceWillSleepNotification;
// Windows registers for WTS_SESSION_LOCK (WTSRegisterSessionNotification)
// and PBT_APMSUSPEND.
func SessionLockEvents(context.Context) (<-chan LockEvent, error) {
	return nil, errors.New("locking on screen lock and suspend is not implemented on this platform")
}
