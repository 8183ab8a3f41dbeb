//go:build !desktop

package app

// windowBuilt reports whether this binary was built with the desktop tag,
// without which Wails cannot open a window (its Run prints an error and
// returns success).
const windowBuilt = false
