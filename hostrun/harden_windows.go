package hostrun

// NoCoreDumps does nothing: Windows writes no core files (crash dumps by
// Windows Error Reporting are the system's, off by default for local
// dumps).
func NoCoreDumps() error { return nil }
