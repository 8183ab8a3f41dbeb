package app

import (
	"github.com/tessera-app/tessera/devsync"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

// Vault is everything the running app does with the vault: the one
// interface Config.Vault has, so a method the app needs and the vault
// lacks is a compile error, not "no vault" at run time. *vault.Vault is
// one (checked below); tests pass fakes that embed it.
type Vault interface {
	State() string
	Info() (vault.Info, error)
	Init(vault.InitOptions) error
	UnlockPassphrase([]byte) error
	UnlockKeyring() error
	Lock()
	ChangePassphrase([]byte) error
	Rekey(passphrase []byte) error

	Profiles() ([]profile.UserProfile, error)
	ProfileSummaries() ([]vault.ProfileSummary, error)
	Profile(id string) (profile.UserProfile, error)
	CreateProfile(id, label string) (profile.UserProfile, error)
	RenameProfile(id, label string) error
	DeleteProfile(id string) error
	SetEntry(profileID string, key vault.Key, e profile.Entry) error
	DeleteEntry(profileID string, key vault.Key) error
	Candidates(profileID string, key vault.Key) ([]profile.Entry, error)
	PromoteCandidate(profileID string, key vault.Key, i int) error
	Learn(profileID string, obs []vault.Observation) ([]vault.LearnResult, error)
	Import(ps []profile.UserProfile) (vault.ImportResult, error)
	ExportProfiles(ids ...string) ([]profile.UserProfile, error)

	Releases() ([]vault.Release, error)
	RecordRelease(vault.Release) error

	SiteRule(origin string) (vault.SiteRule, bool, error)
	SetSiteRule(vault.SiteRule) error
	DeleteSiteRule(origin string) error
	TouchSiteRule(origin string) error
	SiteRules() ([]vault.SiteRule, error)

	devsync.Store
}

var _ Vault = (*vault.Vault)(nil)
