package app

import (
	"context"

	"github.com/tessera-app/tessera/app/confirm"
	"github.com/tessera-app/tessera/app/fill"
	"github.com/tessera-app/tessera/vault"
)

// The dialog contract and the release gate live in package confirm; these
// names are its types as the app's own code (pairing, the self-test and
// their tests) writes them.
type (
	Confirmation   = confirm.Confirmation
	FrameInfo      = confirm.FrameInfo
	ClientInfo     = confirm.ClientInfo
	Row            = confirm.Row
	Decision       = confirm.Decision
	Presenter      = confirm.Presenter
	PairInfo       = confirm.PairInfo
	AgentAsk       = confirm.AgentAsk
	AgentFrame     = confirm.AgentFrame
	ProfileSummary = confirm.ProfileSummary
)

// Confirmation kinds, row sections and decline reasons (package confirm).
const (
	ConfirmFill      = confirm.ConfirmFill
	ConfirmContinue  = confirm.ConfirmContinue
	ConfirmLearn     = confirm.ConfirmLearn
	ConfirmReveal    = confirm.ConfirmReveal
	SectionFill      = confirm.SectionFill
	SectionAttention = confirm.SectionAttention
	DeclineDenied    = confirm.DeclineDenied
	DeclineTimeout   = confirm.DeclineTimeout
	DeclineCancelled = confirm.DeclineCancelled
	DeclineNoWindow  = confirm.DeclineNoWindow

	DefaultConfirmTimeout = confirm.DefaultConfirmTimeout
	DefaultApproveDelay   = confirm.DefaultApproveDelay
)

// ErrNoConfirmation is returned by Decide for an id that is not waiting.
var ErrNoConfirmation = confirm.ErrNoConfirmation

// windowAsker asks the person in the app's window for the gate, through
// the fill service, which knows the fill a dialog offers (for its profile
// picker). The gate is made before the fill service, which it is given, so
// the asker finds the service when it asks.
type windowAsker struct{ a *App }

func (w windowAsker) Ask(ctx context.Context, c Confirmation) Decision {
	return w.a.fill.Ask(ctx, c)
}

// ask shows c in the window and waits for the person (confirm.Queue.Ask).
func (a *App) ask(ctx context.Context, c Confirmation) Decision {
	return a.confirms.Ask(ctx, c, a.confirmTimeout, nil)
}

// audit appends r to the vault's audit log (fill.Audit).
func (a *App) audit(r vault.Release) {
	if a.cfg.Vault != nil {
		fill.Audit(a.cfg.Log, a.cfg.Vault, r)
	}
}
