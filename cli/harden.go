package cli

import (
	"fmt"

	"github.com/tessera-app/tessera/hostrun"
)

// hardenApp hardens the desktop app (window or not) at start, before the
// vault is opened, as package hostrun hardens the host: no core file, and
// memory hidden from other processes of the user.
func hardenApp() error {
	if err := hostrun.NoCoreDumps(); err != nil {
		return fmt.Errorf("harden the app: %w", err)
	}
	if err := hostrun.HideMemory(); err != nil {
		return fmt.Errorf("harden the app: %w", err)
	}
	return nil
}
