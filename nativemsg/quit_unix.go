//go:build !windows

package nativemsg

import "path/filepath"

func quitMarker(dir string) string { return filepath.Join(dir, "user-quit") }
