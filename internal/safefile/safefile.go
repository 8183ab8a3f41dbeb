// Package safefile writes and reads the files Tessera keeps for one person:
// plaintext exports, backups, preferences and the app's state files. A
// file is written whole, 0600, through a new temporary file in its
// directory and then takes its name; it is never written through a
// symbolic link, and a file that exists is replaced only when asked. A
// file is read only when it is a regular file, never through a link.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrExists is wrapped by WriteNew's error when path exists and replace
// was not asked.
var ErrExists = errors.New("file exists")

// WriteNew writes what write produces to path as a file only its owner can
// read (0600). The data goes to a temporary file created exclusively in
// path's directory (O_EXCL: a planted symlink there is refused, never
// followed), is synced, and then takes the name path: linked (which fails
// if path exists in any form) or, with replace, renamed over it (which
// replaces a regular file, never writes through a link). A symlink or a
// non-regular file at path is refused even with replace. A failed write
// leaves no file behind.
func WriteNew(path string, replace bool, write func(io.Writer) error) (err error) {
	fi, err := os.Lstat(path)
	switch {
	case err == nil && fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link: refusing to write through it", path)
	case err == nil && !fi.Mode().IsRegular():
		return fmt.Errorf("%s exists and is not a regular file", path)
	case err == nil && !replace:
		return fmt.Errorf("%s: %w", path, ErrExists)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tessera-*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	// CreateTemp already asks for 0600; a umask cannot add bits, but a
	// file system that ignores modes on create is set right here.
	if err := f.Chmod(0o600); err != nil {
		return err
	}
	if err := write(f); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if replace {
		return os.Rename(tmp, path)
	}
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s: %w", path, ErrExists)
		}
		return err
	}
	return os.Remove(tmp)
}

// Replace writes data to path (its directory created 0700 if missing),
// replacing what was there: WriteNew with replace.
func Replace(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return WriteNew(path, true, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Read reads the regular file at path, at most max bytes (more is an
// error). A symlink or a file swapped in while it is opened is refused.
func Read(path string, max int64) ([]byte, error) {
	lst, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !lst.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The file opened must be the one checked, not a link put there since.
	if st, err := f.Stat(); err != nil || !os.SameFile(lst, st) {
		return nil, fmt.Errorf("%s changed while it was read", path)
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%s is over %d bytes", path, max)
	}
	return b, nil
}
