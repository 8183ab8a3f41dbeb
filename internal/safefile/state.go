package safefile

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

// The app's own small state files (paired browsers, trusted browsers,
// agent access) are read only when they are regular files, never through a
// symlink, and written whole, 0600, through a temporary file and a rename.

// MaxState bounds what a state file may hold.
const MaxState = 1 << 20

// ReadList reads the JSON list in the state file at path; what names
// it in errors. A missing file is an empty list.
func ReadList[T any](path, what string) ([]T, error) {
	b, err := Read(path, MaxState)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", what, err)
	}
	var list []T
	if err := json.Unmarshal(b, &list); err != nil {
		return nil, fmt.Errorf("read %s: %s: %w", what, path, err)
	}
	return list, nil
}

// WriteList replaces the state file at path with list ("" for a
// store kept in memory only: nothing is written).
func WriteList[T any](path, what string, list []T) error {
	if path == "" {
		return nil
	}
	if list == nil {
		list = []T{}
	}
	b, err := json.MarshalIndent(list, "", "  ")
	if err != nil {
		return err
	}
	if err := Replace(path, b); err != nil {
		return fmt.Errorf("save %s: %w", what, err)
	}
	return nil
}
