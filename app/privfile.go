package app

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// The app's own small state files (paired browsers, trusted browsers):
// read only when they are regular files, never through a symlink, and
// written whole through a new 0600 temporary file and a rename.

// maxStateFile bounds what a state file may hold.
const maxStateFile = 1 << 20

// readPrivateFile reads the state file at path.
func readPrivateFile(path string) ([]byte, error) {
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
	b, err := io.ReadAll(io.LimitReader(f, maxStateFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxStateFile {
		return nil, fmt.Errorf("%s is over %d bytes", path, maxStateFile)
	}
	return b, nil
}

// writePrivateFile replaces the state file at path with data, 0600.
func writePrivateFile(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".tessera-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
