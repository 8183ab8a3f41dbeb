//go:build !linux

package app

import "errors"

// showRunning asks the instance serving the channel in dir to show its
// window. Only Linux has a way yet; elsewhere the person is told the app
// is already running.
func showRunning(dir string) error {
	return errors.New("showing another instance's window is not supported on this platform")
}
