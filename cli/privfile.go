package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/tessera-app/tessera/internal/safefile"
)

// errFileExists is wrapped by writeNewFile's error when path exists and
// force was not given.
var errFileExists = safefile.ErrExists

// writeNewFile writes what write produces to path as a new file only its
// owner can read (0600), for files that may hold profile values in plain
// text (safefile.WriteNew: never through a symlink, an existing file
// replaced only with force, nothing left behind by a failed write).
func writeNewFile(path string, force bool, write func(io.Writer) error) error {
	err := safefile.WriteNew(path, force, write)
	if errors.Is(err, safefile.ErrExists) {
		return fmt.Errorf("%s: %w: give --force to replace it", path, errFileExists)
	}
	return err
}
