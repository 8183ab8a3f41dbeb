// Package cmdline serves the methods the tessera command line calls on the
// running app (PROTOCOL.md §4.2): while the app runs it holds the vault's
// exclusive lock, so `tessera vault`, `tessera profile`, `tessera site` and
// `tessera sync` say hello with client kind "cli" and act here; any other
// session gets FORBIDDEN. They act through the window's own bindings
// (Window, which *ui.UI is), so the passphrase rule, the keyring fallback
// and the state broadcast are the window's, and a profile's values leave
// only through the release gate. Passphrases arrive in params only; no
// error or log line carries one. It needs the app only through Config;
// package app registers it on the broker.
package cmdline
