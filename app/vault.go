package app

import (
	"github.com/tessera-app/tessera/app/cmdline"
	"github.com/tessera-app/tessera/app/ui"
	"github.com/tessera-app/tessera/devsync"
	"github.com/tessera-app/tessera/vault"
)

// Vault is everything the running app does with the vault: the one
// interface Config.Vault has, so a method the app needs and the vault
// lacks is a compile error, not "no vault" at run time. It is the union of
// what each part needs (the window's ui.Vault, the command line's
// cmdline.Vault, sync); *vault.Vault is one (checked below); tests pass
// fakes that embed it.
type Vault interface {
	cmdline.Vault
	ui.Vault
	devsync.Store
}

var _ Vault = (*vault.Vault)(nil)
