package fill

import (
	"errors"

	"github.com/tessera-app/tessera/app/confirm"
	"github.com/tessera-app/tessera/nativemsg"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

// VaultError maps a vault error to its protocol error. Anything but the
// states a person can change is INTERNAL, with no detail: vault errors may
// name files, and the browser needs no more than that it failed.
func VaultError(method string, err error) *nativemsg.Error {
	switch {
	case errors.Is(err, vault.ErrLocked):
		return nativemsg.NewError(nativemsg.CodeVaultLocked, "%s: the vault is locked: unlock it in the Tessera app", method)
	case errors.Is(err, vault.ErrUninitialized):
		return nativemsg.NewError(nativemsg.CodeVaultUninitialized, "%s: no vault yet: set one up in the Tessera app", method)
	}
	return nativemsg.NewError(nativemsg.CodeInternal, "%s: the vault could not be read", method)
}

// Summaries lists profiles as the window and the browsers see them: never
// a value.
func Summaries(ps []profile.UserProfile) []confirm.ProfileSummary {
	out := make([]confirm.ProfileSummary, 0, len(ps))
	for _, p := range ps {
		out = append(out, Summarize(p))
	}
	return out
}

// Summarize is profile p as the window and the browsers see it: its
// label and how many values it holds, never a value.
func Summarize(p profile.UserProfile) confirm.ProfileSummary {
	return confirm.ProfileSummary{ID: p.ID, Label: p.Label, Entries: len(p.Concepts) + len(p.Fields), Updated: p.Updated}
}
