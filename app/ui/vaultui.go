package ui

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tessera-app/tessera/app/confirm"
	"github.com/tessera-app/tessera/app/fill"
	"github.com/tessera-app/tessera/passphrase"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

// The window is the only place a person can set up, unlock or lock the
// vault while the app runs: the app holds the vault's exclusive lock, so the
// CLI gets vault.ErrBusy. These bindings are that place. Their errors reach
// the page as the rejection message of the JavaScript promise, so they are
// written to be shown as they are; passphrases never appear in them or in
// any log.

// Passphrase limits, the command line's too (package passphrase). The
// minimum keeps a passphrase from being guessable in a few scrypt rounds;
// the maximum bounds what is handed to scrypt.
const (
	MinPassphraseLen = passphrase.MinLength // characters
	MaxPassphraseLen = passphrase.MaxLength // bytes
)

// Errors the vault bindings return (wrapped) for input the person can fix.
var (
	// ErrNoVault is returned when the app has no vault to act on (it could
	// not be opened at startup; the reason is in the app log).
	ErrNoVault = errors.New("no vault is available: the app could not open it, see the app log")
	// ErrWeakPassphrase is returned for a new passphrase shorter than
	// MinPassphraseLen or too easy to guess (passphrase.Check).
	ErrWeakPassphrase = passphrase.ErrWeak
	// ErrPassphraseMismatch is returned when the confirmation differs from
	// the passphrase.
	ErrPassphraseMismatch = errors.New("the two passphrases do not match")
	// ErrPassphraseSet is returned by SetPassphrase when the vault already
	// has a passphrase: replacing one must prove the old one, which this
	// window does not ask for.
	ErrPassphraseSet = errors.New("the vault already has a passphrase")
)

// vaultControl is what the window needs of the vault (Config.Vault has
// it: see Vault).
type vaultControl interface {
	State() string
	Init(vault.InitOptions) error
	UnlockPassphrase([]byte) error
	UnlockKeyring() error
	Lock()
	ChangePassphrase([]byte) error
	Info() (vault.Info, error)
	Profiles() ([]profile.UserProfile, error)
	CreateProfile(id, label string) (profile.UserProfile, error)
}

// VaultView is what the vault card shows: the state and the ways in.
type VaultView struct {
	// State is "uninitialized", "locked" or "unlocked".
	State string `json:"state"`
	// HasPassphrase reports whether a passphrase opens the vault. An
	// initialized vault without one is lost with the keyring.
	HasPassphrase bool `json:"hasPassphrase"`
	// HasKeyring reports whether the OS keyring holds a key to the vault.
	HasKeyring bool `json:"hasKeyring"`
	// KeyringUsable reports whether offering "Use keyring" makes sense: the
	// vault has a keyring key and the keyring has not failed in this run.
	KeyringUsable bool `json:"keyringUsable"`
	// KeyringProblem says why the keyring failed in this run, if it did.
	KeyringProblem string `json:"keyringProblem,omitempty"`
	// Missing reports that the vault file has vanished from a directory
	// that held a vault (State is then "uninitialized"): setting up a new
	// vault there is refused, with the way to restore or replace it.
	Missing bool `json:"missing,omitempty"`
}

// Vault returns what the vault card shows.
func (u *UI) Vault() (VaultView, error) {
	v, err := u.vault()
	if err != nil {
		return VaultView{State: u.vaultState()}, nil
	}
	return u.view(v)
}

// SetUpVault creates the vault with passphrase, and also wraps it to the OS
// keyring when the keyring works (the returned view's HasKeyring says
// whether it did). The vault is left unlocked.
func (u *UI) SetUpVault(passphrase, confirm string) (VaultView, error) {
	v, err := u.vault()
	if err != nil {
		return VaultView{}, err
	}
	if err := CheckNewPassphrase(passphrase, confirm); err != nil {
		return VaultView{}, fmt.Errorf("set up vault: %w", err)
	}
	pp := []byte(passphrase)
	defer clear(pp)
	err = errKeyringSkipped
	if u.keyringProblem() == nil {
		err = v.Init(vault.InitOptions{Passphrase: pp, Keyring: true})
	}
	if isKeyringErr(err) {
		u.noteKeyring(err)
		// The passphrase alone is a complete vault; the keyring only
		// saves typing, so its absence is no reason to fail.
		err = v.Init(vault.InitOptions{Passphrase: pp})
	}
	if err != nil {
		return VaultView{}, PlainError("set up vault", err)
	}
	u.vaultChanged()
	return u.view(v)
}

// errKeyringSkipped stands for "the keyring already failed in this run":
// trying it again would only make the person wait for the same failure.
var errKeyringSkipped = fmt.Errorf("%w: failed earlier", vault.ErrKeyringUnavailable)

// Unlock unlocks the vault with its passphrase. A wrong passphrase gives an
// error wrapping vault.ErrBadPassphrase.
func (u *UI) Unlock(passphrase string) (VaultView, error) {
	v, err := u.vault()
	if err != nil {
		return VaultView{}, err
	}
	if passphrase == "" {
		return VaultView{}, errors.New("unlock: enter the vault passphrase")
	}
	if len(passphrase) > MaxPassphraseLen {
		return VaultView{}, fmt.Errorf("unlock: %w", vault.ErrBadPassphrase)
	}
	pp := []byte(passphrase)
	defer clear(pp)
	if err := v.UnlockPassphrase(pp); err != nil {
		return VaultView{}, PlainError("unlock", err)
	}
	u.vaultChanged()
	return u.view(v)
}

// UnlockWithKeyring unlocks the vault with the key the OS keyring holds.
func (u *UI) UnlockWithKeyring() (VaultView, error) {
	v, err := u.vault()
	if err != nil {
		return VaultView{}, err
	}
	if err := v.UnlockKeyring(); err != nil {
		u.noteKeyring(err)
		return VaultView{}, PlainError("unlock with keyring", err)
	}
	u.noteKeyring(nil)
	u.vaultChanged()
	return u.view(v)
}

// Lock locks the vault now: its key leaves memory until the next unlock.
func (u *UI) Lock() (VaultView, error) {
	v, err := u.vault()
	if err != nil {
		return VaultView{}, err
	}
	v.Lock()
	u.CancelImport() // a previewed file's values go with the key
	u.vaultChanged()
	return u.view(v)
}

// SetPassphrase gives a vault that only the keyring opens a recovery
// passphrase. It returns ErrPassphraseSet (wrapped) when the vault has one.
func (u *UI) SetPassphrase(passphrase, confirm string) (VaultView, error) {
	v, err := u.vault()
	if err != nil {
		return VaultView{}, err
	}
	if err := CheckNewPassphrase(passphrase, confirm); err != nil {
		return VaultView{}, fmt.Errorf("set passphrase: %w", err)
	}
	info, err := v.Info()
	if err != nil {
		return VaultView{}, fmt.Errorf("set passphrase: %w", err)
	}
	if info.HasPassphrase {
		return VaultView{}, fmt.Errorf("set passphrase: %w", ErrPassphraseSet)
	}
	pp := []byte(passphrase)
	defer clear(pp)
	if err := v.ChangePassphrase(pp); err != nil {
		return VaultView{}, PlainError("set passphrase", err)
	}
	u.vaultChanged()
	return u.view(v)
}

// Profiles lists the profiles in the unlocked vault, sorted by label.
func (u *UI) Profiles() ([]confirm.ProfileSummary, error) {
	v, err := u.vault()
	if err != nil {
		return nil, err
	}
	ps, err := v.Profiles()
	if err != nil {
		return nil, PlainError("list profiles", err)
	}
	return fill.Summaries(ps), nil
}

// CreateProfile adds an empty profile named label to the unlocked vault.
func (u *UI) CreateProfile(label string) (confirm.ProfileSummary, error) {
	v, err := u.vault()
	if err != nil {
		return confirm.ProfileSummary{}, err
	}
	label = strings.TrimSpace(label)
	if label == "" {
		return confirm.ProfileSummary{}, errors.New("new profile: give the profile a name")
	}
	p, err := v.CreateProfile("", label)
	if err != nil {
		return confirm.ProfileSummary{}, PlainError("new profile", err)
	}
	u.changed()
	return fill.Summarize(p), nil
}

// vault returns the app's vault as the window controls it.
func (u *UI) vault() (Vault, error) {
	v, ok := u.cfg.Vault, u.cfg.Vault != nil
	if !ok {
		return nil, ErrNoVault
	}
	return v, nil
}

func (u *UI) view(v vaultControl) (VaultView, error) {
	info, err := v.Info()
	if err != nil {
		return VaultView{State: v.State()}, fmt.Errorf("read vault: %w", err)
	}
	view := VaultView{State: info.State, HasPassphrase: info.HasPassphrase, HasKeyring: info.HasKeyring, Missing: info.Missing}
	if p := u.keyringProblem(); p != nil {
		view.KeyringProblem = p.Error()
	} else {
		view.KeyringUsable = info.HasKeyring
	}
	return view, nil
}

// vaultChanged tells the window and every connected browser the vault's
// new state.
func (u *UI) vaultChanged() {
	u.cfg.Agents.FlushAudit()
	u.cfg.App.VaultChanged()
}

// vaultState is "uninitialized" when there is no vault, else its state.
func (u *UI) vaultState() string {
	if u.cfg.Vault == nil {
		return "uninitialized"
	}
	return u.cfg.Vault.State()
}

// noteKeyring records the outcome of a keyring call, so that a keyring
// that failed is not offered again until it works.
func (u *UI) noteKeyring(err error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	switch {
	case err == nil:
		u.keyringErr = nil
	case isKeyringErr(err):
		u.keyringErr = err
	}
}

func (u *UI) keyringProblem() error {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.keyringErr
}

func isKeyringErr(err error) bool {
	return errors.Is(err, vault.ErrKeyringUnavailable) || errors.Is(err, vault.ErrKeyringItemMissing)
}

// CheckNewPassphrase applies the passphrase rules, the command line's too,
// to a new passphrase.
func CheckNewPassphrase(pass, confirm string) error {
	if err := passphrase.Check(pass); err != nil {
		return err
	}
	if pass != confirm {
		return ErrPassphraseMismatch
	}
	return nil
}

// vaultMessages are the vault conditions the person can act on, worded for
// the window; the vault's own messages carry its call chain instead. The
// first that matches wins: a rollback is also tampering, and a missing
// vault file is also no vault.
var vaultMessages = []struct {
	err error
	msg string
}{
	{vault.ErrRollback, "the vault file is an older copy than the one Tessera last used here (a backup put in its place?), so nothing was read from it. " +
		"If you restored that backup on purpose, quit Tessera and run: tessera vault unlock --accept-older-copy"},
	{vault.ErrTampered, "the vault file was changed outside Tessera, so nothing was read from it. Quit Tessera and restore vault.db from a backup you trust"},
	{vault.ErrMissing, "the vault file is missing. Quit Tessera and restore vault.db from a backup, " +
		"or run: tessera vault init --replace-missing to start a new, empty vault"},
	{vault.ErrBadPassphrase, "wrong passphrase"},
	{vault.ErrNoPassphrase, "this vault has no passphrase: use the keyring"},
	{vault.ErrLocked, "the vault is locked: unlock it first"},
	{vault.ErrUninitialized, "there is no vault yet: set one up first"},
	{vault.ErrExists, "a vault already exists"},
	{vault.ErrKeyringItemMissing, "the keyring holds no key for this vault: use the passphrase"},
	{vault.ErrKeyringUnavailable, "the keyring cannot be used: use the passphrase"},
}

// PlainError wraps err for the window: a known vault condition reads as op
// and its short wording, and still matches its sentinel with errors.Is.
func PlainError(op string, err error) error {
	for _, m := range vaultMessages {
		if errors.Is(err, m.err) {
			return &windowError{msg: op + ": " + m.msg, err: err}
		}
	}
	return fmt.Errorf("%s: %w", op, err)
}

// windowError is an error with a message for the person and the full
// error underneath for errors.Is.
type windowError struct {
	msg string
	err error
}

func (e *windowError) Error() string { return e.msg }
func (e *windowError) Unwrap() error { return e.err }
