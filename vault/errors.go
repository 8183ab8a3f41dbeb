package vault

import "errors"

// Sentinel errors. Errors returned by this package wrap one of these when the
// condition applies; check them with errors.Is.
var (
	// ErrLocked is returned by every data operation on a locked vault.
	ErrLocked = errors.New("vault is locked")
	// ErrUninitialized is returned when no vault exists yet in the directory.
	ErrUninitialized = errors.New("vault is not initialized")
	// ErrExists is returned by Init when the directory already holds a vault.
	ErrExists = errors.New("vault already exists")
	// ErrBusy is returned by Open when another process has the vault open.
	ErrBusy = errors.New("vault is in use by another process")
	// ErrCorrupt is returned when the vault file or its write-ahead log is
	// damaged or truncated, a wrapped key is damaged, or a record fails
	// authentication. A damaged vault never opens as an empty one.
	ErrCorrupt = errors.New("vault is corrupt")
	// ErrBadPassphrase is returned when a passphrase does not unlock the vault.
	ErrBadPassphrase = errors.New("wrong passphrase")
	// ErrNoPassphrase is returned when a passphrase is needed but the vault
	// has none set.
	ErrNoPassphrase = errors.New("vault has no passphrase")
	// ErrKeyringUnavailable is returned when the OS keyring cannot be used.
	ErrKeyringUnavailable = errors.New("keyring unavailable")
	// ErrKeyringItemMissing is returned when the keyring works but holds no
	// key for this vault.
	ErrKeyringItemMissing = errors.New("vault key not in keyring")
	// ErrNotFound is returned for a profile or entry that does not exist.
	ErrNotFound = errors.New("not found")
	// ErrStorageFull is returned when the disk (or the database size limit)
	// is full; nothing of the failed operation was written.
	ErrStorageFull = errors.New("storage full")
	// ErrTooLarge is returned when an input exceeds a documented limit.
	ErrTooLarge = errors.New("input too large")
	// ErrMissing is returned when the vault file of a directory that held
	// a vault has vanished: the vault is not silently started afresh.
	// Init with InitOptions.ReplaceMissing, or Destroy, starts a new one.
	ErrMissing = errors.New("the vault file is missing")
	// ErrRollback is returned, along with ErrTampered, when the vault file
	// is an older copy of itself: the keyring's write counter has seen
	// later writes. A backup restored on purpose is accepted after
	// AcceptOlderCopy.
	ErrRollback = errors.New("the vault file is older than the last state the keyring saw")
)

// ErrTampered is returned when the vault file was changed by something
// other than Tessera: a record that fails authentication, an older copy of a
// row written back, a row deleted, added or moved to another id, a wrapped
// key that does not belong to the records, or (where the keyring keeps the
// vault's write counter) the whole file replaced by an older copy. No value
// is returned from a vault in that state. Errors wrapping ErrTampered also
// match ErrCorrupt, so callers that know only ErrCorrupt still refuse the
// vault.
var ErrTampered error = tamperedError{}

type tamperedError struct{}

func (tamperedError) Error() string { return "the vault file was modified outside Tessera" }

func (tamperedError) Is(target error) bool { return target == ErrCorrupt }
