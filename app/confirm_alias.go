package app

import (
	"context"

	"github.com/tessera-app/tessera/app/broker"
	"github.com/tessera-app/tessera/app/confirm"
	"github.com/tessera-app/tessera/vault"
)

// The dialog contract and the release gate live in package confirm; these
// names keep the app's code and the Wails bindings as they were.
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

// peerOf is session s as the gate knows it.
func peerOf(s *broker.Session) confirm.Peer {
	name := s.Client().Name
	if s.Client().Browser != "" {
		name = s.Client().Browser
	}
	p := confirm.Peer{Kind: s.Client().Kind, Name: name, Session: s.ID(), Origin: s.Origin(), Verified: s.Verified(), Claimed: s.Kind() == KindAgent}
	if s.Kind() == KindBrowser {
		p.Paired = s.PairID()
	}
	return p
}

// pendingKey carries the pending fill of a dialog to the window's asker,
// so the dialog's profile picker finds it.
type pendingKey struct{}

func withPending(ctx context.Context, pf *pendingFill) context.Context {
	return context.WithValue(ctx, pendingKey{}, pf)
}

// windowAsker asks the person in the app's window for the gate.
type windowAsker struct{ a *App }

func (w windowAsker) Ask(ctx context.Context, c Confirmation) Decision {
	pf, _ := ctx.Value(pendingKey{}).(*pendingFill)
	return w.a.ask(ctx, c, pf)
}

// auditRelease writes a record of the gate's to the audit log.
func (a *App) auditRelease(r vault.Release) {
	if v, e := a.fillVault(); e == nil {
		a.audit(v, r)
	}
}
