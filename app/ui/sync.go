package ui

import (
	"github.com/tessera-app/tessera/devsync"
	"github.com/tessera-app/tessera/vault"
)

// Sync is the sync of the vault with the person's other devices through
// their own sync folder, as Settings sets it up and shows it (the app's,
// package devsync underneath). Its errors are worded for the window.
type Sync interface {
	// View returns the sync state.
	View() SyncView
	// Poll returns the sync state, with the request to join this device
	// made moved one step on, or the requests of other devices answered
	// and listed.
	Poll() SyncView
	// SetUp sets up sync of the unlocked vault through folder.
	SetUp(folder, name, passphrase string) (SyncView, error)
	// Now reads and writes the sync folder now.
	Now() (SyncView, error)
	// RemoveDevice removes device id from the group.
	RemoveDevice(id string) (SyncView, error)
	// Stop stops syncing this vault.
	Stop() (SyncView, error)
	// AskToJoin asks, through folder, to join the devices kept in step
	// there; CancelJoin withdraws the request.
	AskToJoin(folder, name string) (SyncView, error)
	CancelJoin() SyncView
	// ApproveJoin and DeclineJoin answer another device's request id.
	ApproveJoin(id, code string) (SyncView, error)
	DeclineJoin(id string) (SyncView, error)
	// PassphraseChanged follows a change of the vault's recovery
	// passphrase from old to pp.
	PassphraseChanged(old, pp []byte)
}

// SyncView is what Settings shows of sync.
type SyncView struct {
	// Enabled reports whether this vault syncs through a folder; Running
	// whether the app is syncing now (the vault is unlocked).
	Enabled bool `json:"enabled"`
	Running bool `json:"running"`
	// Problem says why sync could not start.
	Problem string              `json:"problem,omitempty"`
	Status  *devsync.SyncStatus `json:"status,omitempty"`
	// Joining is the request to join made from this device; Pending the
	// requests of new devices, with their codes once known.
	Joining *SyncJoinView         `json:"joining,omitempty"`
	Pending []devsync.PendingJoin `json:"pending,omitempty"`
}

// SyncJoinView is what Settings shows of a request to join this device
// made: the folder, the code to compare once a device already in
// answered, and what went wrong.
type SyncJoinView struct {
	Folder  string `json:"folder"`
	Code    string `json:"code,omitempty"`
	Problem string `json:"problem,omitempty"`
}

// SyncStatus returns what Settings shows of sync, moving a join by
// approval on.
func (u *UI) SyncStatus() (SyncView, error) { return u.cfg.Sync.Poll(), nil }

// SetUpSync sets up sync of the unlocked vault through folder, under the
// device name shown on the other devices: with this vault's recovery
// passphrase when the folder is new, or the passphrase of the vault that
// set the folder up when it already holds a group.
func (u *UI) SetUpSync(folder, name, passphrase string) (SyncView, error) {
	u.personActed()
	return u.cfg.Sync.SetUp(folder, name, passphrase)
}

// SyncNow reads and writes the sync folder now.
func (u *UI) SyncNow() (SyncView, error) {
	u.personActed()
	return u.cfg.Sync.Now()
}

// RemoveSyncDevice removes device id from the group: what it writes
// afterwards is ignored.
func (u *UI) RemoveSyncDevice(id string) (SyncView, error) {
	u.personActed()
	return u.cfg.Sync.RemoveDevice(id)
}

// StopSync stops syncing this vault (the folder and the other devices
// keep their copies).
func (u *UI) StopSync() (SyncView, error) {
	u.personActed()
	return u.cfg.Sync.Stop()
}

// Joining by approval from Settings (devsync's join by approval), instead
// of typing the recovery passphrase of the vault that set the folder up.
// On the new device, "Ask a device already in" writes a request into the
// folder and shows the six-digit code once a device already in answered;
// on that device, the card lists the request with its code, and the
// person approves it only if both show the same code, or declines it.
// The exchange moves each time the open card reads the state (SyncStatus):
// both people are looking at their Settings then.

// AskToJoinSync asks, through folder, to join the devices already kept in
// step there, under the device name shown on them: the card then shows
// the code to compare with the one a device already in shows.
func (u *UI) AskToJoinSync(folder, name string) (SyncView, error) {
	u.personActed()
	return u.cfg.Sync.AskToJoin(folder, name)
}

// CancelSyncJoin withdraws the request to join made from this device.
func (u *UI) CancelSyncJoin() (SyncView, error) {
	u.personActed()
	return u.cfg.Sync.CancelJoin(), nil
}

// ApproveSyncJoin gives the request id the group's keys, once the person
// checked that the new device shows code.
func (u *UI) ApproveSyncJoin(id, code string) (SyncView, error) {
	u.personActed()
	return u.cfg.Sync.ApproveJoin(id, code)
}

// DeclineSyncJoin refuses the request id.
func (u *UI) DeclineSyncJoin(id string) (SyncView, error) {
	u.personActed()
	return u.cfg.Sync.DeclineJoin(id)
}

// markConflicts marks the details of pv that sync reports changed on two
// devices at once, for the editor to show as conflicts to settle.
func (u *UI) markConflicts(pv *ProfileView) {
	v := u.cfg.Sync.View()
	if v.Status == nil {
		return
	}
	keys := map[string]bool{}
	for _, c := range v.Status.Conflicts {
		if c.Profile == pv.ID {
			keys[c.Key] = true
		}
	}
	for gi := range pv.Groups {
		for ci := range pv.Groups[gi].Concepts {
			cv := &pv.Groups[gi].Concepts[ci]
			cv.Conflict = keys[vault.ConceptKey(cv.IRI).String()] && len(cv.Values) > 1
		}
	}
}
