package ui

import "github.com/tessera-app/tessera/vault"

// Vault is everything the window does with the vault: the union of what
// each part needs (the vault card's vaultControl, the editor's editVault,
// transfers, remembered sites, Change passphrase); *vault.Vault is one
// (checked below).
type Vault interface {
	vaultControl
	transferVault
	siteRuleStore
	passwdVault
}

var _ Vault = (*vault.Vault)(nil)
