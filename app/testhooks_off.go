//go:build !testhooks

package app

import "time"

// confirmTimeout is how long a dialog waits before it declines. Release
// builds do not read the environment for it.
func confirmTimeout(func(string) string) time.Duration { return DefaultConfirmTimeout }

// scriptedPresenter is the test hook that answers dialogs from
// TESSERA_TEST_DECISION; it exists only in builds with the testhooks tag.
func scriptedPresenter(*App, func(string) string) Presenter { return nil }
