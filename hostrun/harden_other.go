//go:build !linux && !darwin

package hostrun

// HideMemory does nothing here: the platform has no per-process switch
// for it (on Windows, the process's default DACL already keeps other
// users' processes from opening it).
func HideMemory() error { return nil }
