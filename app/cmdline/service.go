package cmdline

import (
	"context"
	"encoding/json"
	"time"

	"github.com/tessera-app/tessera/app/broker"
	"github.com/tessera-app/tessera/app/confirm"
	"github.com/tessera-app/tessera/app/ui"
	"github.com/tessera-app/tessera/devsync"
	"github.com/tessera-app/tessera/nativemsg"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

// Vault is what the command line's methods do with the vault;
// *vault.Vault is one (checked below).
type Vault interface {
	State() string
	Init(vault.InitOptions) error
	ChangePassphrase([]byte) error
	Rekey(passphrase []byte) error
	ProfileSummaries() ([]vault.ProfileSummary, error)
	Profile(id string) (profile.UserProfile, error)
	CreateProfile(id, label string) (profile.UserProfile, error)
	SetEntry(profileID string, key vault.Key, e profile.Entry) error
	DeleteEntry(profileID string, key vault.Key) error
	DeleteProfile(id string) error
	Import(ps []profile.UserProfile) (vault.ImportResult, error)
	ExportProfiles(ids ...string) ([]profile.UserProfile, error)
	SiteRules() ([]vault.SiteRule, error)
	DeleteSiteRule(origin string) error
}

var _ Vault = (*vault.Vault)(nil)

// Window is what the methods act through: the window's own bindings
// (*ui.UI), so the passphrase rule, the keyring fallback and the state
// broadcast are the window's.
type Window interface {
	SetUpVault(passphrase, confirm string) (ui.VaultView, error)
	Unlock(passphrase string) (ui.VaultView, error)
	UnlockWithKeyring() (ui.VaultView, error)
	Lock() (ui.VaultView, error)
	SetPassphrase(passphrase, confirm string) (ui.VaultView, error)
}

// Sync is the app's sync of the vault through the person's sync folder,
// as sync.setup, sync.status and sync.now see it.
type Sync interface {
	// Status returns the state of the sync running; its error says why
	// none runs.
	Status() (*devsync.SyncStatus, error)
	// SetUp sets up sync of the unlocked vault through folder and starts
	// it.
	SetUp(ctx context.Context, folder, name, passphrase string) error
	// Now reads and writes the sync folder now.
	Now(ctx context.Context) (devsync.Result, error)
	// PassphraseChanged follows a change of the vault's recovery
	// passphrase from old to pp.
	PassphraseChanged(old, pp []byte)
}

// Config is what New needs of the running app.
type Config struct {
	// Vault is the vault; nil means the app has none.
	Vault  Vault
	Window Window
	Sync   Sync
	// Gate releases values (profile show and export) with the person's
	// say-so.
	Gate *confirm.Gate
	// HasWindow reports whether something shows dialogs.
	HasWindow func() bool
	// VaultState returns the vault's state ("uninitialized" without one).
	VaultState func() string
	// Changed tells the window the app's state may have changed;
	// VaultChanged tells it, every connected browser and the sync the
	// vault's state after the person changed it.
	Changed, VaultChanged func()
	// ShowUnlock answers a browser's or an agent's vault.unlock: the
	// window's unlock screen comes forward.
	ShowUnlock func(s *broker.Session) (any, *nativemsg.Error)
	// Now is the clock.
	Now func() time.Time
}

// Service serves the command line's methods.
type Service struct{ cfg Config }

// New returns the Service for cfg.
func New(cfg Config) *Service { return &Service{cfg: cfg} }

// A handler is one of the methods; bind binds it to c.
type handler func(ctx context.Context, c *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error)

func (c *Service) bind(h handler) broker.Handler {
	return func(ctx context.Context, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
		return h(ctx, c, s, params)
	}
}
