package safefile

import (
	"bytes"
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

// DecodeStrict decodes the JSON document b into v: a field v does not
// have, or data after the document, is an error.
func DecodeStrict(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return err
	}
	if d.More() {
		return errors.New("data after the JSON document")
	}
	return nil
}

// ReadJSON reads the state file at path into v, strictly (DecodeStrict);
// what names it in errors. It reports whether the file was there: a
// missing file leaves v as it is.
func ReadJSON(path, what string, v any) (bool, error) {
	b, err := Read(path, MaxState)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return true, fmt.Errorf("read %s: %w", what, err)
	}
	if err := DecodeStrict(b, v); err != nil {
		return true, fmt.Errorf("read %s: %s: %w", what, path, err)
	}
	return true, nil
}

// WriteJSON replaces the state file at path with v, indented ("" for a
// store kept in memory only: nothing is written). A document over
// MaxState is refused.
func WriteJSON(path, what string, v any) error {
	if path == "" {
		return nil
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("save %s: %w", what, err)
	}
	if len(b) > MaxState {
		return fmt.Errorf("save %s: over %d bytes", what, MaxState)
	}
	if err := Replace(path, append(b, '\n')); err != nil {
		return fmt.Errorf("save %s: %w", what, err)
	}
	return nil
}

// ReadList reads the JSON list in the state file at path; what names it
// in errors. A missing file is an empty list.
func ReadList[T any](path, what string) ([]T, error) {
	var list []T
	_, err := ReadJSON(path, what, &list)
	return list, err
}

// WriteList replaces the state file at path with list ("" for a store
// kept in memory only: nothing is written).
func WriteList[T any](path, what string, list []T) error {
	if list == nil {
		list = []T{}
	}
	return WriteJSON(path, what, list)
}
