package vault

import (
	"bytes"
	"crypto/rand"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"filippo.io/age"
	"modernc.org/sqlite"
)

// File names inside the vault directory.
const (
	dbName   = "vault.db"
	lockName = "vault.lock"
	// markerName is written beside the vault file once a vault exists, so
	// that a vault file that vanished is told apart from no vault at all.
	// It holds the vault id, which names the keyring items Destroy removes.
	markerName = "vault.id"
)

// DefaultScryptWorkFactor is the age scrypt work factor (log2 N) used for
// new passphrase wraps: about half a second to a second of unlock time on a
// current laptop, which is the deliberate cost of guessing one passphrase.
const DefaultScryptWorkFactor = 18

// keySize is the size of the data key.
const keySize = 32

// States reported by Vault.State.
const (
	StateUninitialized = "uninitialized"
	StateLocked        = "locked"
	StateUnlocked      = "unlocked"
)

// A Clock tells the time; the vault uses it for idle auto-lock and
// timestamps, so tests can move time by hand.
type Clock interface {
	Now() time.Time
}

type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now() }

// Options configures Open. The zero value is valid: no keyring, no idle
// auto-lock, the system clock and the default scrypt work factor.
type Options struct {
	// Keyring holds the vault's keyring identity; nil disables keyring
	// unlock.
	Keyring Keyring
	// Clock defaults to the system clock.
	Clock Clock
	// IdleTimeout locks the vault when no operation has used it for this
	// long; zero never locks by itself.
	IdleTimeout time.Duration
	// ScryptWorkFactor is the log2 scrypt cost of new passphrase wraps;
	// zero means DefaultScryptWorkFactor.
	ScryptWorkFactor int
}

// A Vault is an open vault directory. It is safe for concurrent use. Close
// it to release the directory lock.
type Vault struct {
	mu      sync.Mutex
	dir     string
	opts    Options
	lock    *dirLock
	db      *sql.DB // nil while uninitialized
	id      string  // vault id, hex; names the keyring account
	missing bool    // uninitialized because the vault file vanished
	k       *keys   // nil while locked
	m       *manifest
	counter *rollbackCounter // nil without a keyring counter
	// acceptOlder lets the next unlock accept a file behind the counter.
	acceptOlder bool
	lastUse     time.Time
	// resealProgress, when set, hears resealAll's progress.
	resealProgress func(done, total int)
}

// Open opens the vault in dir, creating the directory if needed, and takes
// an exclusive lock on it (ErrBusy if another process holds it). The
// returned vault is locked, or uninitialized when dir holds no vault yet. A
// damaged vault file gives an error wrapping ErrCorrupt. Call Close when done.
func Open(dir string, opts Options) (*Vault, error) {
	if opts.Clock == nil {
		opts.Clock = systemClock{}
	}
	if opts.ScryptWorkFactor == 0 {
		opts.ScryptWorkFactor = DefaultScryptWorkFactor
	}
	if strings.ContainsRune(dir, '?') {
		// The SQLite driver would read the rest of the path as options.
		return nil, fmt.Errorf("open vault %s: directory name contains '?'", dir)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("open vault: create directory: %w", err)
	}
	l, err := lockDir(filepath.Join(dir, lockName))
	if err != nil {
		return nil, fmt.Errorf("open vault %s: %w", dir, err)
	}
	v := &Vault{dir: dir, opts: opts, lock: l}
	if err := v.openDB(); err != nil {
		l.release()
		return nil, fmt.Errorf("open vault %s: %w", dir, err)
	}
	return v, nil
}

// Create opens dir and initializes a new vault in it (see Init). It is a
// convenience for Open followed by Init.
func Create(dir string, opts Options, init InitOptions) (*Vault, error) {
	v, err := Open(dir, opts)
	if err != nil {
		return nil, err
	}
	if err := v.Init(init); err != nil {
		v.Close()
		return nil, err
	}
	return v, nil
}

// OpenDefault opens the vault in dir the way the app does at startup: when
// no vault exists and the keyring works, it creates one wrapped to the
// keyring and returns it unlocked; when a vault exists it tries the keyring.
// When the keyring cannot be used the vault is returned locked (or
// uninitialized), ready for the person to give a passphrase; the keyring
// error is returned alongside as unlockErr for display, never as a failure.
// A vault created here has no passphrase: the app should ask the person to
// set one (ChangePassphrase), or losing the keyring loses the vault.
func OpenDefault(dir string, opts Options) (v *Vault, unlockErr error, err error) {
	v, err = Open(dir, opts)
	if err != nil {
		return nil, nil, err
	}
	if opts.Keyring == nil {
		return v, fmt.Errorf("%w: none configured", ErrKeyringUnavailable), nil
	}
	if v.State() == StateUninitialized {
		return v, v.Init(InitOptions{Keyring: true}), nil
	}
	return v, v.UnlockKeyring(), nil
}

func (v *Vault) dbPath() string { return filepath.Join(v.dir, dbName) }

// dsn opens SQLite with WAL, foreign keys, zeroed free pages (so re-keyed
// or deleted records do not linger) and in-memory temp storage. In WAL mode
// synchronous=NORMAL keeps every commit across a killed process and never
// corrupts the file; only a power cut may roll back the last commits. That
// trade buys a set well under 5 ms: FULL fsyncs the WAL on every commit.
func dsn(path string, wal bool) string {
	q := "?_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)&_pragma=secure_delete(1)&_pragma=temp_store(2)&_txlock=immediate"
	if wal {
		q += "&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)"
	} else {
		q += "&_pragma=synchronous(FULL)"
	}
	// A plain path, not a file: URI, so that Windows paths need no
	// escaping; the driver strips the query itself.
	return path + q
}

func (v *Vault) openDB() error {
	fi, err := os.Stat(v.dbPath())
	if errors.Is(err, fs.ErrNotExist) {
		id, merr := os.ReadFile(filepath.Join(v.dir, markerName))
		if merr == nil {
			v.missing, v.id = true, strings.TrimSpace(string(id))
		} else if !errors.Is(merr, fs.ErrNotExist) {
			return fmt.Errorf("read %s: %w", markerName, merr)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("stat vault file: %w", err)
	}
	if fi.Size() == 0 {
		// An initialized vault is never empty (Init renames a complete
		// file into place), so this is truncation, not a new vault.
		return fmt.Errorf("%w: vault file %s is empty", ErrCorrupt, v.dbPath())
	}
	if err := checkWAL(v.dbPath() + "-wal"); err != nil {
		return err
	}
	db, err := sql.Open("sqlite", dsn(v.dbPath(), true))
	if err != nil {
		return fmt.Errorf("open database: %w", err)
	}
	db.SetMaxOpenConns(1)
	if err := checkDB(db); err != nil {
		db.Close()
		return err
	}
	if err := migrate(db); err != nil {
		db.Close()
		return err
	}
	id, err := getMeta(db, metaVaultID)
	if err != nil {
		db.Close()
		return err
	}
	v.db, v.id, v.missing = db, hex.EncodeToString(id), false
	// Vaults made before the marker existed get it at their first open.
	if _, err := os.Stat(filepath.Join(v.dir, markerName)); errors.Is(err, fs.ErrNotExist) {
		v.writeMarker()
	}
	return nil
}

// writeMarker records that this directory holds a vault. It is best effort:
// without it a vanished vault file reads as no vault, as it did before the
// marker existed.
func (v *Vault) writeMarker() {
	tmp := filepath.Join(v.dir, markerName+".new")
	if err := os.WriteFile(tmp, []byte(v.id+"\n"), 0o600); err == nil && syncFile(tmp) == nil {
		os.Rename(tmp, filepath.Join(v.dir, markerName))
		syncDir(v.dir)
	}
}

// uninitialized returns the error of an operation that needs a vault where
// there is none: ErrUninitialized, and ErrMissing as well when the vault file
// vanished.
func (v *Vault) uninitialized() error {
	if v.missing {
		return fmt.Errorf("%w: %w in %s: restore it from a backup, or destroy the vault to start a new one", ErrUninitialized, ErrMissing, v.dir)
	}
	return ErrUninitialized
}

// checkWAL refuses a write-ahead log whose header is damaged. SQLite
// silently ignores such a log, and with it every commit not yet
// checkpointed into the database file: after a crash that can be every
// profile, which would open as a valid, empty vault. A log left by a killed
// process always has a whole header (SQLite writes it in one call before
// any frame), so a bad one is damage, not an interrupted write. Damaged
// frames after a good header are indistinguishable from a torn last commit
// and are left to SQLite's recovery.
func checkWAL(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("check write-ahead log: %w", err)
	}
	defer f.Close()
	var h [32]byte
	n, err := io.ReadFull(f, h[:])
	if errors.Is(err, io.EOF) {
		// Empty: checkpointed and truncated, or created and never written.
		return nil
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("%w: write-ahead log %s is truncated (%d bytes); removing it recovers the vault as of its last checkpoint", ErrCorrupt, path, n)
	}
	if err != nil {
		return fmt.Errorf("check write-ahead log: %w", err)
	}
	if !validWALHeader(h) {
		return fmt.Errorf("%w: write-ahead log %s has a damaged header; removing it recovers the vault as of its last checkpoint", ErrCorrupt, path)
	}
	return nil
}

// validWALHeader checks the magic number, version and checksum of a WAL
// header (https://sqlite.org/fileformat2.html#walformat).
func validWALHeader(h [32]byte) bool {
	magic := binary.BigEndian.Uint32(h[0:4])
	if magic&^1 != 0x377f0682 || binary.BigEndian.Uint32(h[4:8]) != 3007000 {
		return false
	}
	// The magic's low bit says in which byte order the checksum reads words.
	word := binary.LittleEndian.Uint32
	if magic&1 == 1 {
		word = binary.BigEndian.Uint32
	}
	var s0, s1 uint32
	for i := 0; i < 24; i += 8 {
		s0 += word(h[i:]) + s1
		s1 += word(h[i+4:]) + s0
	}
	return s0 == binary.BigEndian.Uint32(h[24:28]) && s1 == binary.BigEndian.Uint32(h[28:32])
}

// checkDB runs SQLite's quick integrity check, so a truncated or overwritten
// file is reported at open and not as a half-readable vault later.
func checkDB(db *sql.DB) error {
	var res string
	if err := db.QueryRow("PRAGMA quick_check").Scan(&res); err != nil {
		return fmt.Errorf("check database: %w", sqlErr(err))
	}
	if res != "ok" {
		return fmt.Errorf("check database: %w: %s", ErrCorrupt, res)
	}
	return nil
}

// sqlErr maps SQLite result codes onto the package's sentinels.
func sqlErr(err error) error {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return err
	}
	switch se.Code() & 0xff {
	case 11, 26: // SQLITE_CORRUPT, SQLITE_NOTADB
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	case 13: // SQLITE_FULL
		return fmt.Errorf("%w: %w", ErrStorageFull, err)
	case 8: // SQLITE_READONLY
		return fmt.Errorf("%w: %w", fs.ErrPermission, err)
	}
	return err
}

// Dir returns the vault directory.
func (v *Vault) Dir() string { return v.dir }

// State returns StateUninitialized, StateLocked or StateUnlocked. A vault
// idle for longer than Options.IdleTimeout is locked by this call.
func (v *Vault) State() string {
	v.mu.Lock()
	defer v.mu.Unlock()
	switch {
	case v.db == nil:
		return StateUninitialized
	case v.k == nil || v.idleLocked():
		return StateLocked
	}
	return StateUnlocked
}

// idleLocked locks the vault if the idle time has passed and reports
// whether it did. v.mu must be held.
func (v *Vault) idleLocked() bool {
	if v.k == nil || v.opts.IdleTimeout <= 0 {
		return false
	}
	if v.opts.Clock.Now().Sub(v.lastUse) < v.opts.IdleTimeout {
		return false
	}
	v.forgetKeysLocked()
	return true
}

// forgetKeysLocked wipes the keys and drops the manifest, after the keyring
// counter has caught up with the last write. v.mu must be held.
func (v *Vault) forgetKeysLocked() {
	v.counter.flush()
	if v.k != nil {
		v.k.wipe()
	}
	v.k, v.m, v.counter = nil, nil, nil
}

// keysLocked returns the unlocked keys and marks the vault used. v.mu must
// be held.
func (v *Vault) keysLocked() (*keys, error) {
	if v.lock == nil {
		return nil, errors.New("vault is closed")
	}
	if v.db == nil {
		return nil, v.uninitialized()
	}
	if v.k == nil || v.idleLocked() {
		return nil, ErrLocked
	}
	v.lastUse = v.opts.Clock.Now()
	return v.k, nil
}

// Lock forgets the data key: it and every key derived from it are zeroed.
// The vault stays open and can be unlocked again.
func (v *Vault) Lock() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.forgetKeysLocked()
}

// Close locks the vault, closes the database and releases the directory.
func (v *Vault) Close() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.forgetKeysLocked()
	var err error
	if v.db != nil {
		err = v.db.Close()
		v.db = nil
	}
	if v.lock != nil {
		v.lock.release()
		v.lock = nil
	}
	if err != nil {
		return fmt.Errorf("close vault: %w", err)
	}
	return nil
}

// InitOptions says how a new vault's data key is wrapped. At least one of
// the two is required.
type InitOptions struct {
	// Passphrase wraps the data key with age scrypt.
	Passphrase []byte
	// Keyring wraps the data key to a new X25519 identity stored in
	// Options.Keyring.
	Keyring bool
	// ReplaceMissing lets Init create a new vault where the vault file
	// vanished (ErrMissing), because the person said so. The old vault's
	// keyring items are kept, for the file restored from a backup later.
	ReplaceMissing bool
}

// Init creates a new vault in the open, uninitialized directory and leaves
// it unlocked. It returns ErrExists when the directory already has a vault.
// The vault file appears atomically: a crash during Init leaves no vault.
func (v *Vault) Init(o InitOptions) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.db != nil {
		return fmt.Errorf("init vault: %w", ErrExists)
	}
	if v.missing && !o.ReplaceMissing {
		return fmt.Errorf("init vault: %w", v.uninitialized())
	}
	if len(o.Passphrase) == 0 && !o.Keyring {
		return errors.New("init vault: need a passphrase or the keyring")
	}
	if o.Keyring && v.opts.Keyring == nil {
		return fmt.Errorf("init vault: %w: none configured", ErrKeyringUnavailable)
	}
	dk := make([]byte, keySize)
	defer clear(dk)
	idb := make([]byte, 16)
	if _, err := rand.Read(dk); err != nil {
		return fmt.Errorf("init vault: %w", err)
	}
	if _, err := rand.Read(idb); err != nil {
		return fmt.Errorf("init vault: %w", err)
	}
	k, err := deriveKeys(dk)
	if err != nil {
		return fmt.Errorf("init vault: %w", err)
	}
	ok := false
	defer func() {
		if !ok {
			k.wipe()
		}
	}()
	m := newManifest(idb, 0)
	if o.Keyring {
		m.flags |= flagCounter
	}
	meta := map[string][]byte{metaVaultID: idb}
	if meta[metaCheck], err = sealCheck(k); err != nil {
		return fmt.Errorf("init vault: %w", err)
	}
	if meta[metaManifest], err = sealManifest(k, &m.manifestState); err != nil {
		return fmt.Errorf("init vault: %w", err)
	}
	if len(o.Passphrase) > 0 {
		if meta[metaWrapPassphrase], err = v.passphraseWrap(dk, o.Passphrase); err != nil {
			return fmt.Errorf("init vault: %w", err)
		}
	}
	account := keyringAccount(hex.EncodeToString(idb))
	if o.Keyring {
		id, err := age.GenerateX25519Identity()
		if err != nil {
			return fmt.Errorf("init vault: %w", err)
		}
		if meta[metaWrapKeyring], err = wrapKey(dk, id.Recipient()); err != nil {
			return fmt.Errorf("init vault: %w", err)
		}
		if err := v.opts.Keyring.Set(KeyringService, account, id.String()); err != nil {
			return fmt.Errorf("init vault: store key in keyring: %w", keyringErrOf(err))
		}
	}
	if err := v.writeNewDB(meta); err != nil {
		if o.Keyring {
			v.opts.Keyring.Delete(KeyringService, account)
		}
		return fmt.Errorf("init vault: %w", err)
	}
	if err := v.openDB(); err != nil {
		return fmt.Errorf("init vault: %w", err)
	}
	v.writeMarker()
	ok = true
	v.k, v.m, v.lastUse = k, m, v.opts.Clock.Now()
	if o.Keyring {
		v.counter, _ = loadCounter(v.opts.Keyring, v.id, 0, false)
	}
	return nil
}

// writeNewDB builds a complete vault file beside the final name and renames
// it into place, so that vault.db exists only when it is whole.
func (v *Vault) writeNewDB(meta map[string][]byte) error {
	tmp := v.dbPath() + ".new"
	os.Remove(tmp)
	os.Remove(tmp + "-journal")
	// Created here with 0600 because SQLite gives its -wal and -shm files
	// the mode of the database file.
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("create vault file: %w", err)
	}
	f.Close()
	db, err := sql.Open("sqlite", dsn(tmp, false))
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("create vault file: %w", err)
	}
	err = func() error {
		if err := migrate(db); err != nil {
			return err
		}
		tx, err := db.Begin()
		if err != nil {
			return sqlErr(err)
		}
		defer tx.Rollback()
		for name, val := range meta {
			if err := putMeta(tx, name, val); err != nil {
				return err
			}
		}
		return sqlErr(tx.Commit())
	}()
	if cerr := db.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err == nil {
		err = syncFile(tmp)
	}
	if err == nil {
		err = os.Rename(tmp, v.dbPath())
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("create vault file: %w", err)
	}
	syncDir(v.dir)
	return nil
}

func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// syncDir makes a rename durable; it is best effort because Windows cannot
// open directories for syncing.
func syncDir(dir string) {
	if f, err := os.Open(dir); err == nil {
		f.Sync()
		f.Close()
	}
}

func keyringAccount(vaultID string) string { return "vault-" + vaultID }

// keyringErrOf makes sure a keyring error wraps one of the keyring
// sentinels, whatever Keyring implementation produced it.
func keyringErrOf(err error) error {
	if errors.Is(err, ErrKeyringItemMissing) || errors.Is(err, ErrKeyringUnavailable) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrKeyringUnavailable, err)
}

func (v *Vault) passphraseWrap(dk, passphrase []byte) ([]byte, error) {
	r, err := age.NewScryptRecipient(string(passphrase))
	if err != nil {
		return nil, fmt.Errorf("passphrase: %w", err)
	}
	r.SetWorkFactor(v.opts.ScryptWorkFactor)
	return wrapKey(dk, r)
}

func wrapKey(dk []byte, r age.Recipient) ([]byte, error) {
	var buf bytes.Buffer
	w, err := age.Encrypt(&buf, r)
	if err != nil {
		return nil, fmt.Errorf("wrap data key: %w", err)
	}
	if _, err := w.Write(dk); err != nil {
		return nil, fmt.Errorf("wrap data key: %w", err)
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("wrap data key: %w", err)
	}
	return buf.Bytes(), nil
}

// errNoMatch is returned by unwrapKey when the identity does not open the
// wrap; every other failure is damage and wraps ErrCorrupt.
var errNoMatch = errors.New("identity does not open the wrapped key")

func unwrapKey(wrap []byte, ids ...age.Identity) ([]byte, error) {
	r, err := age.Decrypt(bytes.NewReader(wrap), ids...)
	var noMatch *age.NoIdentityMatchError
	if errors.As(err, &noMatch) {
		return nil, errNoMatch
	}
	if err != nil {
		return nil, fmt.Errorf("%w: wrapped key: %w", ErrCorrupt, err)
	}
	dk, err := io.ReadAll(io.LimitReader(r, keySize+1))
	if err != nil {
		return nil, fmt.Errorf("%w: wrapped key: %w", ErrCorrupt, err)
	}
	if len(dk) != keySize {
		return nil, fmt.Errorf("%w: wrapped key has %d bytes", ErrCorrupt, len(dk))
	}
	return dk, nil
}

const checkText = "tessera vault key check"

// checkPlace is where the key check record belongs.
var checkPlace = place{table: "meta"}

func sealCheck(k *keys) ([]byte, error) {
	return sealRecord(k.seal, []byte(checkText), checkPlace.ad())
}

// UnlockKeyring unlocks the vault with the identity stored in the keyring.
// It returns an error wrapping ErrKeyringUnavailable when the keyring cannot
// be reached and ErrKeyringItemMissing when it has no (or a stale) key for
// this vault.
func (v *Vault) UnlockKeyring() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	dk, err := v.keyringKeyLocked()
	if err != nil {
		return fmt.Errorf("unlock with keyring: %w", err)
	}
	return v.setKeysLocked(dk)
}

// CheckKeyring reports, as UnlockKeyring would, whether the keyring can
// unlock the vault, without changing its state.
func (v *Vault) CheckKeyring() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	dk, err := v.keyringKeyLocked()
	if err != nil {
		return fmt.Errorf("check keyring: %w", err)
	}
	clear(dk)
	return nil
}

// keyringIdentities returns the age identities in the vault's keyring item:
// one, or two for the moment a re-key replaces the identity (rekey.go).
func (v *Vault) keyringIdentities() ([]age.Identity, error) {
	secret, err := v.opts.Keyring.Get(KeyringService, keyringAccount(v.id))
	if err != nil {
		return nil, keyringErrOf(err)
	}
	ids, err := age.ParseIdentities(strings.NewReader(secret))
	if err != nil {
		return nil, fmt.Errorf("%w: keyring item is not an age identity", ErrKeyringItemMissing)
	}
	return ids, nil
}

func (v *Vault) keyringKeyLocked() ([]byte, error) {
	if v.db == nil {
		return nil, v.uninitialized()
	}
	if v.opts.Keyring == nil {
		return nil, fmt.Errorf("%w: none configured", ErrKeyringUnavailable)
	}
	wrap, err := getMeta(v.db, metaWrapKeyring)
	if errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("%w: vault has no keyring key", ErrKeyringItemMissing)
	}
	if err != nil {
		return nil, err
	}
	ids, err := v.keyringIdentities()
	if err != nil {
		return nil, err
	}
	dk, err := unwrapKey(wrap, ids...)
	if errors.Is(err, errNoMatch) {
		return nil, fmt.Errorf("%w: keyring key does not match this vault", ErrKeyringItemMissing)
	}
	return dk, err
}

// UnlockPassphrase unlocks the vault with its passphrase. It returns an
// error wrapping ErrBadPassphrase for a wrong passphrase and ErrNoPassphrase
// when the vault has none.
func (v *Vault) UnlockPassphrase(passphrase []byte) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.db == nil {
		return fmt.Errorf("unlock with passphrase: %w", v.uninitialized())
	}
	dk, err := v.unwrapPassphraseLocked(passphrase)
	if err != nil {
		return fmt.Errorf("unlock with passphrase: %w", err)
	}
	return v.setKeysLocked(dk)
}

func (v *Vault) unwrapPassphraseLocked(passphrase []byte) ([]byte, error) {
	wrap, err := getMeta(v.db, metaWrapPassphrase)
	if errors.Is(err, ErrNotFound) {
		return nil, ErrNoPassphrase
	}
	if err != nil {
		return nil, err
	}
	if len(passphrase) == 0 {
		return nil, ErrBadPassphrase
	}
	id, err := age.NewScryptIdentity(string(passphrase))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadPassphrase, err)
	}
	dk, err := unwrapKey(wrap, id)
	if errors.Is(err, errNoMatch) {
		return nil, ErrBadPassphrase
	}
	return dk, err
}

// setKeysLocked installs a data key after checking it against the vault's
// check record and every row against the sealed manifest (and the manifest
// against the keyring's counter). A vault written before the manifest
// existed is brought forward here, the first time its key is known. A key
// that unwraps but fails the check means a wrapped key spliced in from
// another copy of the vault: ErrTampered, not a wrong secret. setKeysLocked
// zeroes dk.
func (v *Vault) setKeysLocked(dk []byte) error {
	defer clear(dk)
	k, err := deriveKeys(dk)
	if err != nil {
		return err
	}
	m, counter, err := v.verifyLocked(k)
	if err != nil {
		k.wipe()
		return fmt.Errorf("unlock: %w", err)
	}
	v.forgetKeysLocked()
	v.k, v.m, v.counter, v.lastUse = k, m, counter, v.opts.Clock.Now()
	v.acceptOlder = false
	return nil
}

// AcceptOlderCopy makes the next unlock accept a vault file that is older
// than the keyring's write counter (ErrRollback): a backup the person
// restored on purpose. The counter is set back to the file's state. Every
// other check still applies, and the unlock still needs the passphrase or
// the keyring. Call it only on the person's word, never on a program's.
func (v *Vault) AcceptOlderCopy() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.acceptOlder = true
}

func (v *Vault) verifyLocked(k *keys) (*manifest, *rollbackCounter, error) {
	check, err := getMeta(v.db, metaCheck)
	if err != nil {
		return nil, nil, err
	}
	vaultID, err := getMeta(v.db, metaVaultID)
	if err != nil {
		return nil, nil, err
	}
	// The keyring keeps the write counter of vaults that use the keyring.
	_, err = getMeta(v.db, metaWrapKeyring)
	hasWrap := err == nil
	var m *manifest
	var counter *rollbackCounter
	if len(check) > 0 && check[0] == legacyRecordFormat {
		pt, err := openFormat(k.seal, check, recordADv1("meta", 0), legacyRecordFormat)
		if err != nil || string(pt) != checkText {
			return nil, nil, fmt.Errorf("%w: key check failed: the wrapped key does not belong to this vault's records", ErrTampered)
		}
		// Checked before the upgrade writes anything, keyring wrap or not
		// (a wrap is easily deleted): a counter means this vault was
		// upgraded already, so this file is an older copy.
		if v.opts.Keyring != nil {
			if counter, err = loadCounter(v.opts.Keyring, v.id, 0, v.acceptOlder); err != nil {
				return nil, nil, err
			}
			if !hasWrap {
				counter = nil
			}
		}
		if m, err = v.upgradeRecords(k, vaultID, counter != nil); err != nil {
			return nil, nil, fmt.Errorf("upgrade records: %w", err)
		}
		counter.advance(m.seq)
		return m, counter, nil
	}
	pt, err := openRecord(k.seal, check, checkPlace.ad())
	if err != nil || string(pt) != checkText {
		return nil, nil, fmt.Errorf("%w: key check failed: the wrapped key does not belong to this vault's records", ErrTampered)
	}
	if m, err = verifyManifest(v.db, k, vaultID); err != nil {
		return nil, nil, err
	}
	if v.opts.Keyring != nil && (hasWrap || m.flags&flagCounter != 0) {
		if counter, err = loadCounter(v.opts.Keyring, v.id, m.seq, v.acceptOlder); err != nil {
			return nil, nil, err
		}
	}
	return m, counter, nil
}

// Info describes a vault without unlocking it.
type Info struct {
	Dir           string `json:"dir"`
	State         string `json:"state"`
	HasPassphrase bool   `json:"hasPassphrase"`
	HasKeyring    bool   `json:"hasKeyring"`
	// Missing reports that the directory held a vault whose file has
	// vanished (see ErrMissing).
	Missing bool `json:"missing,omitempty"`
}

// Info reports the vault's state and which unlock methods it has.
func (v *Vault) Info() (Info, error) {
	info := Info{Dir: v.dir, State: v.State()}
	v.mu.Lock()
	defer v.mu.Unlock()
	info.Missing = v.missing
	if v.db == nil {
		return info, nil
	}
	for name, p := range map[string]*bool{metaWrapPassphrase: &info.HasPassphrase, metaWrapKeyring: &info.HasKeyring} {
		_, err := getMeta(v.db, name)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return info, fmt.Errorf("vault info: %w", err)
		}
		*p = err == nil
	}
	return info, nil
}
