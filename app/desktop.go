package app

import (
	"context"
	"errors"
	"io/fs"
)

// DesktopOptions configures RunDesktop.
type DesktopOptions struct{ Hidden, Headless bool }

// RunDesktop runs the desktop app: the broker and the window.
func RunDesktop(ctx context.Context, assets fs.FS, opts DesktopOptions) error {
	return errors.New("desktop: not implemented yet")
}
