package app

// The app's own small state files (paired browsers, trusted browsers) are
// read and written through internal/safefile: read only when they are
// regular files, never through a symlink, and written whole, 0600,
// through a temporary file and a rename.

// maxStateFile bounds what a state file may hold.
const maxStateFile = 1 << 20
