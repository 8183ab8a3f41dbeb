package cmdline

import (
	"context"
	"encoding/json"

	"github.com/tessera-app/tessera/app/broker"
	"github.com/tessera-app/tessera/nativemsg"
)

// SyncSetupParams are the params of sync.setup: the folder, this device's
// name, and the recovery passphrase (this vault's for a new folder, the
// vault's that set it up otherwise).
type SyncSetupParams struct {
	Folder     string `json:"folder"`
	Name       string `json:"name"`
	Passphrase string `json:"passphrase"`
}

// cliSyncSetup answers sync.setup for the command line.
func cliSyncSetup(ctx context.Context, a *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	var p SyncSetupParams
	if err := broker.DecodeParams(params, &p); err != nil {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "sync.setup: %v", err)
	}
	if err := a.cfg.Sync.SetUp(ctx, p.Folder, p.Name, p.Passphrase); err != nil {
		return nil, cliError("sync.setup", err)
	}
	st, _ := a.cfg.Sync.Status()
	return st, nil
}

// cliSyncStatus answers sync.status for the command line.
func cliSyncStatus(ctx context.Context, a *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	if err := noParams(params); err != nil {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "sync.status: %v", err)
	}
	st, err := a.cfg.Sync.Status()
	if err != nil {
		return nil, nativemsg.NewError(nativemsg.CodeUnsupported, "sync.status: %v", err)
	}
	return st, nil
}

// cliSyncNow answers sync.now for the command line.
func cliSyncNow(ctx context.Context, a *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	if err := noParams(params); err != nil {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "sync.now: %v", err)
	}
	res, err := a.cfg.Sync.Now(ctx)
	if err != nil {
		return nil, nativemsg.NewError(nativemsg.CodeUnsupported, "sync.now: %v", err)
	}
	st, _ := a.cfg.Sync.Status()
	return map[string]any{"sent": res.Sent, "received": res.Received, "status": st}, nil
}

// noParams refuses params other than none or {}.
func noParams(params json.RawMessage) error {
	if len(params) == 0 {
		return nil
	}
	var p struct{}
	return broker.DecodeParams(params, &p)
}
