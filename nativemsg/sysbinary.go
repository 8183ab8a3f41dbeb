package nativemsg

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// ErrUnsafeBinary is returned (wrapped) by CheckSystemBinary for a binary
// that someone other than root could change.
var ErrUnsafeBinary = errors.New("the tessera binary is not protected from changes by other users")

// CheckSystemBinary checks that exe may be registered machine-wide (install
// --system): every user's browser would start it, so only root may be able
// to change it. The file, and every directory from it up to /, along the
// path as given and along the path with symlinks resolved, must be owned by
// root and writable by neither its group nor others; a symlink on the way
// must be owned by root. The error wraps ErrUnsafeBinary and says which
// file fails and how to install one that passes.
//
// On Windows it checks nothing yet: there the file's DACL would have to
// grant write access to Administrators, SYSTEM and TrustedInstaller only
// (PROTOCOL.md §3).
func CheckSystemBinary(exe string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	if !filepath.IsAbs(exe) {
		return fmt.Errorf("%w: %q is not an absolute path", ErrUnsafeBinary, exe)
	}
	real, err := filepath.EvalSymlinks(exe)
	if err != nil {
		return fmt.Errorf("check %s: %w", exe, err)
	}
	for _, start := range []string{filepath.Clean(exe), real} {
		for p := start; ; p = filepath.Dir(p) {
			fi, err := os.Lstat(p)
			if err != nil {
				return fmt.Errorf("check %s: %w", exe, err)
			}
			if why := rootOnly(fi); why != "" {
				return fmt.Errorf("%w: %s %s, so someone other than root could replace what every user's browser would run; copy tessera where only root can change it and register that copy: `sudo install -o root -g root -m 0755 %s /usr/local/bin/tessera && sudo /usr/local/bin/tessera install --system`", ErrUnsafeBinary, p, why, exe)
			}
			if p == filepath.Dir(p) {
				break
			}
		}
	}
	return nil
}

// rootOnly says why only root cannot be sure to be the one to change fi,
// or "" when only root can.
func rootOnly(fi os.FileInfo) string {
	uid, ok := fileOwner(fi)
	switch {
	case !ok:
		return "has no owner this system reports"
	case uid != 0:
		return fmt.Sprintf("is owned by uid %d, not root", uid)
	case fi.Mode()&os.ModeSymlink != 0:
		// A symlink's own mode bits mean nothing; its directory is checked.
		return ""
	case fi.Mode().Perm()&0o020 != 0:
		return "is writable by its group"
	case fi.Mode().Perm()&0o002 != 0:
		return "is writable by others"
	}
	return ""
}
