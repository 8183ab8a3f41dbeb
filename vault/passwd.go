package vault

import (
	"errors"
	"fmt"
)

// ChangePassphraseFrom replaces the passphrase of the unlocked vault as
// ChangePassphrase does (every record re-sealed under a new data key, in
// one transaction), after proving the current passphrase old: a wrong one
// gives ErrBadPassphrase, a vault that has none ErrNoPassphrase, and
// nothing changes. progress, when not nil, is called first with (0, -1)
// once the current passphrase is proven, while the new one's key wrap is
// derived (scrypt, about as long as the check), then with the records
// re-sealed so far and their total, from 0 up to total (total may be 0);
// total of total means only the commit is left. It is called with the
// vault's lock held and must not call the vault.
func (v *Vault) ChangePassphraseFrom(old, passphrase []byte, progress func(done, total int)) error {
	return v.changePassphrase(true, old, passphrase, progress)
}

// changePassphrase is ChangePassphrase, and ChangePassphraseFrom when
// prove asks for old to be proven first.
func (v *Vault) changePassphrase(prove bool, old, passphrase []byte, progress func(done, total int)) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if _, err := v.keysLocked(); err != nil {
		return fmt.Errorf("change passphrase: %w", err)
	}
	if len(passphrase) == 0 {
		return errors.New("change passphrase: passphrase is empty")
	}
	if prove {
		dk, err := v.unwrapPassphraseLocked(old)
		if err != nil {
			return fmt.Errorf("change passphrase: %w", err)
		}
		clear(dk)
		if progress != nil {
			progress(0, -1)
		}
	}
	v.resealProgress = progress
	defer func() { v.resealProgress = nil }()
	if err := v.rotateLocked(passphrase, false); err != nil {
		return fmt.Errorf("change passphrase: %w", err)
	}
	return nil
}
