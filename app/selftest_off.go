//go:build !selftest

package app

import (
	"context"

	"github.com/tessera-app/tessera/app/ui"
)

// selfTest is the UI self-test; in builds without the selftest tag it is
// always nil and does nothing, so release binaries carry no test hooks.
type selfTest struct{}

func newSelfTest(*App, *ui.UI, *ui.Window, windowConfig) *selfTest { return nil }

func (*selfTest) bindings() []any { return nil }

func (*selfTest) domReady(context.Context) {}

func (*selfTest) result() error { return nil }
