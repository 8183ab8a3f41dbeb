// Package vault owns the one place a person's profile data lives: an
// encrypted SQLite file of Formspec Assist §6 profiles (see package profile),
// the keys that open it, and a sealed audit log of every value released.
//
// # At rest
//
// The file holds nothing readable of a profile. A random 256-bit data key
// seals every record (profile metadata, entries, audit events) with
// XChaCha20-Poly1305; the associated data names the table, the row id and the
// parent row, so a record copied into another row or table fails to open.
// Concept IRIs and field paths are indexed by keyed HMACs, never stored in
// plain text. The data key itself is wrapped with age twice: to an X25519
// identity kept in the OS keyring (unlock without typing) and to an age scrypt
// passphrase (recovery, and systems without a keyring). Either wrap alone
// suffices to unlock.
//
// # Lifecycle
//
// Open takes an exclusive lock on the data directory, so a second process
// gets ErrBusy instead of a second writer. A vault is "uninitialized" until
// Init, "locked" until UnlockKeyring or UnlockPassphrase, and locks itself
// again after Options.IdleTimeout without use. Every operation on a locked
// vault returns ErrLocked.
//
// # The CLI and the app
//
// The desktop app keeps one Vault open for its lifetime and decides when it
// is unlocked. The tessera CLI is a separate, short-lived process: each
// command opens the vault, unlocks it for that command only (keyring, or
// --passphrase-file) and locks it on exit. "tessera vault unlock" therefore
// checks that unlocking works (and re-enrols the keyring after a passphrase
// unlock); "tessera vault lock" changes nothing and reports that a CLI
// process never leaves the vault unlocked. While the app holds the vault, the
// CLI gets ErrBusy.
package vault
