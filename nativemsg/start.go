package nativemsg

import (
	"fmt"
	"os"
	"os/exec"
)

// StartDetached starts exe with args as a background process that outlives
// the host (a browser kills its host's process group when the port closes),
// with stdin closed and stdout/stderr appended to logPath.
func StartDetached(exe string, args []string, logPath string) error {
	log, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("open app log: %w", err)
	}
	defer log.Close()
	cmd := exec.Command(exe, args...)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = detachAttr()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", exe, err)
	}
	// The child is deliberately not waited for; release its resources.
	return cmd.Process.Release()
}
