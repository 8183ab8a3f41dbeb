package app

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/tessera-app/tessera/app/ui"
	"github.com/tessera-app/tessera/devsync"
)

// Joining by approval from Settings (devsync's join by approval), instead
// of typing the recovery passphrase of the vault that set the folder up;
// the window's side is in package ui. The exchange moves each time the
// open card reads the state (ui.Sync.Poll): both people are looking at
// their Settings then.

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

// SyncJoinView is what Settings shows of a request to join (package ui).
type SyncJoinView = ui.SyncJoinView

func (j *joinState) view() *SyncJoinView {
	return &SyncJoinView{Folder: j.folder, Code: j.code, Problem: j.problem}
}

// errSyncOn is returned when asking to join while this vault already
// syncs.
var errSyncOn = errors.New("this vault is already kept in step through a folder: stop syncing first")

// AskToJoin asks, through folder, to join the devices already kept in
// step there, under the device name shown on them: the card then shows
// the code to compare with the one a device already in shows.
func (sc syncUI) AskToJoin(folder, name string) (SyncView, error) {
	a := sc.a
	folder, name = strings.TrimSpace(folder), strings.TrimSpace(name)
	if folder == "" || name == "" {
		return SyncView{}, errors.New("ask to join: choose the folder and name this device")
	}
	store, ok := a.syncStore()
	if !ok {
		return SyncView{}, ui.ErrNoVault
	}
	// Open tells a vault that does not sync (ErrNotEnabled) from one that
	// does, or is locked.
	if s, err := devsync.Open(store, devsync.Options{}); err == nil {
		s.Close()
		return SyncView{}, errSyncOn
	} else if !errors.Is(err, devsync.ErrNotEnabled) {
		return SyncView{}, ui.PlainError("ask to join", err)
	}
	req, err := devsync.RequestJoin(devsync.DirFS(folder))
	if err != nil {
		return SyncView{}, ui.PlainError("ask to join", err)
	}
	c := &a.syncing
	c.mu.Lock()
	if c.join != nil {
		c.join.req.Cancel()
	}
	c.join = &joinState{req: req, folder: folder, name: name}
	c.mu.Unlock()
	return a.uiSyncView(), nil
}

// CancelJoin withdraws the request to join made from this device.
func (sc syncUI) CancelJoin() SyncView {
	c := &sc.a.syncing
	c.mu.Lock()
	if c.join != nil {
		c.join.req.Cancel()
		c.join = nil
	}
	c.mu.Unlock()
	return sc.a.uiSyncView()
}

// ApproveJoin gives the request id the group's keys, once the person
// checked that the new device shows code.
func (sc syncUI) ApproveJoin(id, code string) (SyncView, error) {
	s := sc.a.syncing.running()
	if s == nil {
		return SyncView{}, errSyncOff
	}
	if err := s.ApproveJoin(id, strings.ReplaceAll(code, " ", "")); err != nil {
		return sc.a.uiSyncView(), ui.PlainError("approve", err)
	}
	return sc.a.uiSyncView(), nil
}

// DeclineJoin refuses the request id.
func (sc syncUI) DeclineJoin(id string) (SyncView, error) {
	s := sc.a.syncing.running()
	if s == nil {
		return SyncView{}, errSyncOff
	}
	if err := s.DeclineJoin(id); err != nil {
		return sc.a.uiSyncView(), ui.PlainError("decline", err)
	}
	return sc.a.uiSyncView(), nil
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
		j.problem = ui.PlainError("join", err).Error()
		j.code = ""
	}
}
