package app

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/tessera-app/tessera/devsync"
)

// Joining by approval from Settings (devsync's join by approval), instead
// of typing the recovery passphrase of the vault that set the folder up.
// On the new device, "Ask a device already in" writes a request into the
// folder and shows the six-digit code once a device already in answered;
// on that device, the card lists the request with its code, and the
// person approves it only if both show the same code, or declines it.
// The exchange moves each time the open card reads the state (SyncStatus):
// both people are looking at their Settings then.

// joinState is a request to join this device made from Settings.
type joinState struct {
	req          *devsync.JoinRequest
	folder, name string
	code         string
	problem      string
	// stepping is held while advanceJoin moves the request on: the card's
	// poll and a button may ask at once, and only one may set sync up.
	stepping sync.Mutex
}

// SyncJoinView is what Settings shows of a request to join this device
// made: the folder, the code to compare once a device already in
// answered, and what went wrong.
type SyncJoinView struct {
	Folder  string `json:"folder"`
	Code    string `json:"code,omitempty"`
	Problem string `json:"problem,omitempty"`
}

func (j *joinState) view() *SyncJoinView {
	return &SyncJoinView{Folder: j.folder, Code: j.code, Problem: j.problem}
}

// errSyncOn is returned when asking to join while this vault already
// syncs.
var errSyncOn = errors.New("this vault is already kept in step through a folder: stop syncing first")

// AskToJoinSync asks, through folder, to join the devices already kept in
// step there, under the device name shown on them: the card then shows
// the code to compare with the one a device already in shows.
func (u *UI) AskToJoinSync(folder, name string) (SyncView, error) {
	u.app.personActed()
	folder, name = strings.TrimSpace(folder), strings.TrimSpace(name)
	if folder == "" || name == "" {
		return SyncView{}, errors.New("ask to join: choose the folder and name this device")
	}
	store, ok := u.app.syncStore()
	if !ok {
		return SyncView{}, ErrNoVault
	}
	// Open tells a vault that does not sync (ErrNotEnabled) from one that
	// does, or is locked.
	if s, err := devsync.Open(store, devsync.Options{}); err == nil {
		s.Close()
		return SyncView{}, errSyncOn
	} else if !errors.Is(err, devsync.ErrNotEnabled) {
		return SyncView{}, plainErr("ask to join", err)
	}
	req, err := devsync.RequestJoin(devsync.DirFS(folder))
	if err != nil {
		return SyncView{}, plainErr("ask to join", err)
	}
	c := &u.app.syncing
	c.mu.Lock()
	if c.join != nil {
		c.join.req.Cancel()
	}
	c.join = &joinState{req: req, folder: folder, name: name}
	c.mu.Unlock()
	return u.app.uiSyncView(), nil
}

// CancelSyncJoin withdraws the request to join made from this device.
func (u *UI) CancelSyncJoin() (SyncView, error) {
	u.app.personActed()
	c := &u.app.syncing
	c.mu.Lock()
	if c.join != nil {
		c.join.req.Cancel()
		c.join = nil
	}
	c.mu.Unlock()
	return u.app.uiSyncView(), nil
}

// ApproveSyncJoin gives the request id the group's keys, once the person
// checked that the new device shows code.
func (u *UI) ApproveSyncJoin(id, code string) (SyncView, error) {
	u.app.personActed()
	s := u.app.syncing.running()
	if s == nil {
		return SyncView{}, errSyncOff
	}
	if err := s.ApproveJoin(id, strings.ReplaceAll(code, " ", "")); err != nil {
		return u.app.uiSyncView(), plainErr("approve", err)
	}
	return u.app.uiSyncView(), nil
}

// DeclineSyncJoin refuses the request id.
func (u *UI) DeclineSyncJoin(id string) (SyncView, error) {
	u.app.personActed()
	s := u.app.syncing.running()
	if s == nil {
		return SyncView{}, errSyncOff
	}
	if err := s.DeclineJoin(id); err != nil {
		return u.app.uiSyncView(), plainErr("decline", err)
	}
	return u.app.uiSyncView(), nil
}

// uiSyncView is what Settings shows: the sync state, with the request to
// join this device made moved one step on, or the requests of other
// devices answered and listed.
func (a *App) uiSyncView() SyncView {
	a.advanceJoin()
	v := a.syncView()
	c := &a.syncing
	c.mu.Lock()
	if c.join != nil {
		v.Joining = c.join.view()
	}
	c.mu.Unlock()
	if s := a.syncing.running(); s != nil {
		if p, err := s.PendingJoins(); err == nil {
			v.Pending = p
		}
	}
	return v
}

// advanceJoin moves the request to join made from Settings one step on:
// the code once a device already in answered, then, once it approved,
// sync set up with the keys it gave.
func (a *App) advanceJoin() {
	c := &a.syncing
	c.mu.Lock()
	j := c.join
	c.mu.Unlock()
	if j == nil || !j.stepping.TryLock() {
		return
	}
	defer j.stepping.Unlock()
	c.mu.Lock()
	done := c.join != j || j.problem != ""
	c.mu.Unlock()
	if done {
		return
	}
	if j.code == "" {
		code, err := j.req.Code()
		switch {
		case errors.Is(err, devsync.ErrPending):
			return
		case err != nil:
			a.joinFailed(j, err)
			return
		}
		c.mu.Lock()
		j.code = code
		c.mu.Unlock()
	}
	secret, err := j.req.Secret()
	if errors.Is(err, devsync.ErrPending) {
		return
	}
	if err != nil {
		a.joinFailed(j, err)
		return
	}
	store, ok := a.syncStore()
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := devsync.SetupWithSecret(ctx, store, j.folder, j.name, secret, devsync.Options{})
	if err != nil {
		a.joinFailed(j, err)
		return
	}
	c.mu.Lock()
	if c.join == j {
		c.join = nil
	}
	c.stopLocked()
	c.err = ""
	c.startLocked(s)
	c.mu.Unlock()
	a.changed()
}

// joinFailed ends the request j, keeping why for the card.
func (a *App) joinFailed(j *joinState, err error) {
	j.req.Cancel()
	c := &a.syncing
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.join == j {
		j.problem = plainErr("join", err).Error()
		j.code = ""
	}
}
