package cli

// noCoreDumps does nothing: Windows writes no core files (crash dumps by
// Windows Error Reporting are the system's, off by default for local
// dumps).
func noCoreDumps() error { return nil }
