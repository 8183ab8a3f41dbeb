//go:build !selftest

package app

// selfTest is the UI self-test; in builds without the selftest tag it is
// always nil and does nothing, so release binaries carry no test hooks.
type selfTest struct{}

func newSelfTest(*App, *UI, windowConfig) *selfTest { return nil }

func (*selfTest) bindings() []any { return nil }

func (*selfTest) domReady(shell) {}

func (*selfTest) result() error { return nil }
