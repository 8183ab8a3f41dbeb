//go:build !linux && !darwin

package cli

// hideMemory does nothing here: the platform has no per-process switch
// for it (on Windows, the process's default DACL already keeps other
// users' processes from opening it).
func hideMemory() error { return nil }
