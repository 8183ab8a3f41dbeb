package vault

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
)

// DefaultDir returns the directory the vault lives in: $TESSERA_HOME when
// set, otherwise the platform's per-user data directory ($XDG_DATA_HOME/tessera
// or ~/.local/share/tessera on Linux and other Unixes, ~/Library/Application
// Support/Tessera on macOS, %LOCALAPPDATA%\Tessera on Windows). getenv reads
// the environment, so callers and tests decide where it comes from.
func DefaultDir(getenv func(string) string) (string, error) {
	return defaultDir(runtime.GOOS, getenv)
}

func defaultDir(goos string, getenv func(string) string) (string, error) {
	if d := getenv("TESSERA_HOME"); d != "" {
		return d, nil
	}
	switch goos {
	case "windows":
		if d := getenv("LOCALAPPDATA"); d != "" {
			return filepath.Join(d, "Tessera"), nil
		}
		return "", errors.New("vault directory: %LOCALAPPDATA% is not set")
	case "darwin":
		if h := getenv("HOME"); h != "" {
			return filepath.Join(h, "Library", "Application Support", "Tessera"), nil
		}
	default:
		// XDG says a relative $XDG_DATA_HOME is invalid and must be ignored.
		if d := getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
			return filepath.Join(d, "tessera"), nil
		}
		if h := getenv("HOME"); h != "" {
			return filepath.Join(h, ".local", "share", "tessera"), nil
		}
	}
	return "", fmt.Errorf("vault directory: neither TESSERA_HOME nor HOME is set")
}
