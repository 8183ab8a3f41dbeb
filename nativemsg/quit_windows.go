//go:build windows

package nativemsg

import (
	"os"
	"path/filepath"
	"strings"
)

// The channel "directory" is a pipe name on Windows; the marker lives in the
// user's temp directory under a name derived from it.
func quitMarker(dir string) string {
	name := strings.NewReplacer(`\`, "_", ".", "_").Replace(dir)
	return filepath.Join(os.TempDir(), name+"-user-quit")
}
