// Package vault owns the one place a person's profile data lives: an
// encrypted SQLite file of Formspec Assist §6 profiles (see package profile),
// the keys that open it, and a sealed audit log of every value released.
//
// # At rest
//
// The file holds nothing readable of a profile. A random 256-bit data key
// seals every record (profile metadata, entries, audit events, site rules) with
// XChaCha20-Poly1305; the associated data names the table, the row id, the
// parent row and rank, and the row's version, so a record copied into
// another row or table, or written back over a newer version of its row,
// fails to open. Concept IRIs, field paths and the origins of site rules
// are indexed by keyed HMACs, never stored in plain text. The data key itself is wrapped with age twice:
// to an X25519 identity kept in the OS keyring (unlock without typing) and to
// an age scrypt passphrase (recovery, and systems without a keyring). Either
// wrap alone suffices to unlock. The data key and the keys derived from it
// live in memory locked with mlock (VirtualLock on Windows) where the
// platform allows, and are zeroed when the vault locks.
//
// # Tampering
//
// A sealed manifest, rewritten in the same transaction as every write,
// covers every row: the count of rows per table, the highest id ever given
// out (ids are never reused), the last version, and the XOR of a keyed MAC of
// each row's table, id, version, parent, rank, index and record, and a keyed
// MAC of the sealed sync state (see manifest.go). Unlock checks every row and
// the sync state against it, and every later read
// checks the rows it reads against the versions unlock verified, so a row
// replayed from an older copy, deleted, added or moved, while the vault is
// closed or open, gives an error wrapping ErrTampered ("the vault file was
// modified outside Tessera") and never a value. The same holds for a wrapped
// key spliced in from a backup: changing the passphrase (ChangePassphrase)
// and Rekey both re-seal every record under a new data key, so an old wrap
// opens nothing written since. Rekey also enrols a fresh keyring identity.
//
// What the file alone cannot show is that it was replaced whole by an older
// copy of itself (a backup, a snapshot): that copy is consistent in every
// row. Where the vault uses the keyring, the keyring also keeps the vault's
// write counter, and an unlock of a file behind that counter fails with
// ErrTampered and ErrRollback (AcceptOlderCopy lets the person open a
// backup they restored on purpose). A passphrase-only vault (no keyring, or TESSERA_KEYRING=none)
// cannot notice such a rollback: an older copy of the whole file opens, with
// the values it held then. Nor can the counter catch a rollback of the last
// few writes before a crash (it is written just after each commit), or one
// made by a program that can also rewrite the person's keyring.
//
// Vaults written before the manifest (schema 1) are brought forward at
// their first unlock, in one transaction: every record re-sealed with a
// version, the manifest written. From then on the same checks apply.
// Vaults of schema 2 get the (empty) site rules table at open, and their
// manifest gains its row counts at the next write. A manifest written
// before it covered the sync state takes the sync state found as it is,
// and covers it from the next write on.
//
// # Site rules
//
// A SiteRule is the person's "remember for this site" from the
// confirmation dialog: one exact origin may be filled from one profile,
// for the concepts listed, without asking again. Rules are per origin and
// revocable (DeleteSiteRule); deleting a profile deletes its rules in the
// same transaction. They are sealed and covered by the manifest like every
// other row.
//
// # Lifecycle
//
// Open takes an exclusive lock on the data directory, so a second process
// gets ErrBusy instead of a second writer. A vault is "uninitialized" until
// Init, "locked" until UnlockKeyring or UnlockPassphrase, and locks itself
// again after Options.IdleTimeout without use. Every operation on a locked
// vault returns ErrLocked. A directory whose vault file vanished is not
// uninitialized but missing (ErrMissing): Init refuses it unless the person
// asked for a new vault (InitOptions.ReplaceMissing, or Destroy first), so a
// lost file is never silently replaced by an empty vault.
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
