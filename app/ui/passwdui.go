package ui

import (
	"errors"

	"github.com/tessera-app/tessera/vault"
)

// The window's Change passphrase (Settings): the current passphrase, a new
// one under the rule setting up applies, typed twice. The vault re-seals
// every record under a new data key (vault.ChangePassphraseFrom, what
// `tessera vault passwd` does); the page follows it through
// TransferProgressEvent with op "passwd": first the current passphrase is
// checked, then the new one's key wrap derived (both scrypt), then the
// records are re-sealed (Done of Total, every 25), then the change saved.

var (
	// ErrSamePassphrase is returned when the new passphrase is the
	// current one.
	ErrSamePassphrase = errors.New("the new passphrase is the one you have now: choose another")
	// ErrNoCurrentPassphrase is returned when the current passphrase field
	// is empty.
	ErrNoCurrentPassphrase = errors.New("type the passphrase you unlock Tessera with now")
)

// passwdVault is what Change passphrase needs of the vault.
type passwdVault interface {
	ChangePassphraseFrom(old, passphrase []byte, progress func(done, total int)) error
}

// PasswdProgressOp is the op of Change passphrase's progress events.
const PasswdProgressOp = "passwd"

// ChangePassphrase replaces the vault's passphrase with a new one after
// proving the current one, re-sealing every record. The vault stays
// unlocked. A vault without a passphrase gets its first through
// SetPassphrase instead.
func (u *UI) ChangePassphrase(current, passphrase, confirm string) (VaultView, error) {
	v, err := u.vault()
	if err != nil {
		return VaultView{}, err
	}
	u.personActed()
	if current == "" {
		return VaultView{}, &windowError{msg: "change passphrase: " + ErrNoCurrentPassphrase.Error(), err: ErrNoCurrentPassphrase}
	}
	if err := CheckNewPassphrase(passphrase, confirm); err != nil {
		return VaultView{}, PlainError("change passphrase", err)
	}
	if passphrase == current {
		return VaultView{}, &windowError{msg: "change passphrase: " + ErrSamePassphrase.Error(), err: ErrSamePassphrase}
	}
	old, pp := []byte(current), []byte(passphrase)
	defer clear(old)
	defer clear(pp)
	u.progress(PasswdProgressOp, "Checking your current passphrase", 0, 0)
	err = v.ChangePassphraseFrom(old, pp, func(done, total int) {
		switch {
		case total < 0:
			u.progress(PasswdProgressOp, "Sealing the new passphrase", 0, 0)
		case total > 0 && done == total:
			u.progress(PasswdProgressOp, "Saving", done, total)
		case done == 0 || done%25 == 0:
			// Every record would flood the page on a large vault.
			u.progress(PasswdProgressOp, "Re-sealing your records", done, total)
		}
	})
	switch {
	case errors.Is(err, vault.ErrBadPassphrase):
		return VaultView{}, &windowError{msg: "change passphrase: the current passphrase is wrong, so nothing changed. Type the one you unlock Tessera with", err: err}
	case errors.Is(err, vault.ErrNoPassphrase):
		return VaultView{}, &windowError{msg: "change passphrase: this vault has no passphrase yet. Set one on the Status screen (Set a passphrase)", err: err}
	case err != nil:
		return VaultView{}, PlainError("change passphrase", err)
	}
	u.vaultChanged()
	u.cfg.Sync.PassphraseChanged(old, pp)
	return u.view(v)
}
