package app

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/tessera-app/tessera/app/ui"
	"github.com/tessera-app/tessera/devsync"
)

// Several devices kept in step through the person's own sync folder
// (package devsync). While the vault is unlocked and sync is set up, a
// Syncer runs every syncEvery; it holds values in memory, so it stops when
// the vault locks. Settings sets the folder up and shows its state; the
// command line asks the running app (sync.status, sync.now).

// syncEvery is how often the running app reads and writes the folder.
const syncEvery = 30 * time.Second

// syncCtl is the sync of the running app.
type syncCtl struct {
	mu     sync.Mutex
	s      *devsync.Syncer
	cancel context.CancelFunc
	// err is why sync could not start, in words ("" when it did, or is
	// not set up).
	err string
	// join is the request to join made from Settings, if any.
	join *joinState
}

// syncStore is the vault as sync needs it (*vault.Vault is one).
func (a *App) syncStore() (devsync.Store, bool) {
	st, ok := a.cfg.Vault, a.cfg.Vault != nil
	return st, ok
}

// followVaultForSync starts sync when the vault is unlocked and stops it
// when it is not.
func (a *App) followVaultForSync(state string) {
	c := &a.syncing
	c.mu.Lock()
	defer c.mu.Unlock()
	if state != "unlocked" {
		c.stopLocked()
		return
	}
	if c.s != nil {
		return
	}
	store, ok := a.syncStore()
	if !ok {
		return
	}
	s, err := devsync.Open(store, devsync.Options{})
	switch {
	case errors.Is(err, devsync.ErrNotEnabled):
		c.err = ""
	case err != nil:
		c.err = err.Error()
		fmt.Fprintf(a.cfg.Log, "tessera: sync: %v\n", err)
	default:
		c.err = ""
		c.startLocked(s)
	}
}

func (c *syncCtl) startLocked(s *devsync.Syncer) {
	ctx, cancel := context.WithCancel(context.Background())
	c.s, c.cancel = s, cancel
	go s.Run(ctx, syncEvery)
}

func (c *syncCtl) stopLocked() {
	if c.s == nil {
		return
	}
	c.cancel()
	c.s.Close()
	c.s, c.cancel = nil, nil
}

// running returns the Syncer, or nil when sync is not running.
func (c *syncCtl) running() *devsync.Syncer {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.s
}

// SyncView is what Settings shows of sync (package ui).
type SyncView = ui.SyncView

func (a *App) syncView() SyncView {
	c := &a.syncing
	c.mu.Lock()
	s, problem := c.s, c.err
	c.mu.Unlock()
	if s == nil {
		return SyncView{Problem: problem}
	}
	st := s.Status()
	return SyncView{Enabled: true, Running: true, Status: &st}
}

// syncUI is the app's sync as the window's Settings sees it (ui.Sync):
// every view it returns is the sync state as it is now.
type syncUI struct{ a *App }

// View returns the sync state.
func (s syncUI) View() SyncView { return s.a.syncView() }

// Poll returns the sync state, moving a join by approval on (syncjoin.go).
func (s syncUI) Poll() SyncView { return s.a.uiSyncView() }

// SetUp sets up sync of the unlocked vault through folder.
func (s syncUI) SetUp(folder, name, passphrase string) (SyncView, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := s.a.setUpSync(ctx, folder, name, passphrase); err != nil {
		return SyncView{}, err
	}
	return s.a.syncView(), nil
}

// setUpSync sets up sync of the unlocked vault through folder and starts
// it (SetUpSync, and the command line's sync.setup).
func (a *App) setUpSync(ctx context.Context, folder, name, passphrase string) error {
	folder, name = strings.TrimSpace(folder), strings.TrimSpace(name)
	if folder == "" || name == "" {
		return errors.New("set up sync: choose a folder and name this device")
	}
	store, ok := a.syncStore()
	if !ok {
		return ui.ErrNoVault
	}
	pp := []byte(passphrase)
	defer clear(pp)
	s, err := devsync.Setup(ctx, store, folder, name, pp, devsync.Options{})
	if err != nil {
		return ui.PlainError("set up sync", err)
	}
	c := &a.syncing
	c.mu.Lock()
	c.stopLocked()
	c.err = ""
	c.startLocked(s)
	c.mu.Unlock()
	a.changed()
	return nil
}

// Now reads and writes the sync folder now.
func (s syncUI) Now() (SyncView, error) {
	if _, err := s.a.syncNow(context.Background()); err != nil {
		return s.a.syncView(), err
	}
	return s.a.syncView(), nil
}

// RemoveDevice removes device id from the group: what it writes
// afterwards is ignored.
func (s syncUI) RemoveDevice(id string) (SyncView, error) {
	sy := s.a.syncing.running()
	if sy == nil {
		return SyncView{}, errSyncOff
	}
	if err := sy.RemoveDevice(context.Background(), id); err != nil {
		return s.a.syncView(), ui.PlainError("remove device", err)
	}
	return s.a.syncView(), nil
}

// Stop stops syncing this vault (the folder and the other devices keep
// their copies).
func (s syncUI) Stop() (SyncView, error) {
	c := &s.a.syncing
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.s == nil {
		return SyncView{}, errSyncOff
	}
	if err := c.s.Disable(); err != nil {
		return SyncView{}, ui.PlainError("stop sync", err)
	}
	c.stopLocked()
	return SyncView{}, nil
}

// PassphraseChanged follows a change of the vault's recovery passphrase
// (syncPassphraseChanged).
func (s syncUI) PassphraseChanged(old, pp []byte) { s.a.syncPassphraseChanged(old, pp) }

// syncPassphraseChanged follows a change of the vault's recovery
// passphrase from old to pp: when old was the sync folder's passphrase,
// the folder gets the new one, with a new recovery identity and a new
// epoch (Syncer.SetPassphrase), so that whoever knew the old one (a
// removed device) cannot open what is written from now on. The vault's
// change stands whatever happens here; a failure is logged.
func (a *App) syncPassphraseChanged(old, pp []byte) {
	s := a.syncing.running()
	if s == nil {
		return
	}
	if _, err := devsync.ReadGroupFile(devsync.DirFS(s.Status().Folder), old); err != nil {
		// Another device's passphrase opens the folder: not this one's
		// to change.
		return
	}
	if err := s.SetPassphrase(pp); err != nil {
		fmt.Fprintf(a.cfg.Log, "tessera: sync: the folder keeps the old passphrase: %v\n", err)
	}
}

var errSyncOff = errors.New("sync is not running: set it up in Settings, with the vault unlocked")

func (a *App) syncNow(ctx context.Context) (devsync.Result, error) {
	s := a.syncing.running()
	if s == nil {
		return devsync.Result{}, errSyncOff
	}
	res, err := s.SyncNow(ctx)
	if err != nil {
		return res, ui.PlainError("sync", err)
	}
	a.changed()
	return res, nil
}

// cliSync is the app's sync as the command line's methods see it
// (cmdline.Sync).
type cliSync struct{ a *App }

func (s cliSync) Status() (*devsync.SyncStatus, error) {
	v := s.a.syncView()
	if !v.Running {
		return nil, errors.New(cmp.Or(v.Problem, errSyncOff.Error()))
	}
	return v.Status, nil
}

func (s cliSync) SetUp(ctx context.Context, folder, name, passphrase string) error {
	return s.a.setUpSync(ctx, folder, name, passphrase)
}

func (s cliSync) Now(ctx context.Context) (devsync.Result, error) { return s.a.syncNow(ctx) }

func (s cliSync) PassphraseChanged(old, pp []byte) { s.a.syncPassphraseChanged(old, pp) }
