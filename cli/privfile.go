package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// errFileExists is wrapped by writeNewFile's error when path exists and
// force was not given.
var errFileExists = errors.New("file exists")

// writeNewFile writes what write produces to path as a new file only its
// owner can read (0600), for files that may hold profile values in plain
// text. The data goes to a temporary file created exclusively in path's
// directory (O_EXCL: a planted symlink there is refused, never followed),
// is synced, and then takes the name path: linked (which fails if path
// exists in any form) or, with force, renamed over it (which replaces a
// regular file, never writes through a link). A symlink at path is
// refused even with force. A failed write leaves no file behind.
func writeNewFile(path string, force bool, write func(io.Writer) error) (err error) {
	fi, err := os.Lstat(path)
	switch {
	case err == nil && fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link: refusing to write values through it", path)
	case err == nil && !fi.Mode().IsRegular():
		return fmt.Errorf("%s exists and is not a regular file", path)
	case err == nil && !force:
		return fmt.Errorf("%s: %w: give --force to replace it", path, errFileExists)
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
	if force {
		return os.Rename(tmp, path)
	}
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s: %w: give --force to replace it", path, errFileExists)
		}
		return err
	}
	return os.Remove(tmp)
}
