package app

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"time"

	"github.com/tessera-app/tessera/app/broker"
	"github.com/tessera-app/tessera/app/trust"
	"github.com/tessera-app/tessera/app/ui"
	"github.com/tessera-app/tessera/nativemsg"
)

// Pairing each extension install with the person's approval (PROTOCOL.md
// §2.1, "Pairing"). The extension keeps an ECDSA P-256 key pair it made
// with WebCrypto, its private half not extractable. Every browser session
// gets a fresh random challenge in session.hello and proves the key by
// signing it (pair.prove); a key the app does not know is NOT_PAIRED, and
// the extension may ask to be paired (pair.request): the app shows the
// verified browser and a six-digit code computed from the challenge and the
// key, which the popup shows too; the person approves or declines. Until a
// session has proven a paired key it may say hello and pair, nothing else.

// ConfirmPair is the kind of the dialog that pairs an extension install.
const ConfirmPair = "pair"

// Pairing methods: the only ones an unpaired browser session may call
// (package broker).
const (
	PairProveMethod   = broker.PairProveMethod
	PairRequestMethod = broker.PairRequestMethod
)

// checkProof decodes params and checks the signature against s's
// challenge. It returns the raw key.
func checkProof(s *broker.Session, method string, params json.RawMessage) ([]byte, *nativemsg.Error) {
	var p nativemsg.PairParams
	if err := strictUnmarshal(params, &p); err != nil {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "%s: %v", method, err)
	}
	raw, err1 := base64.StdEncoding.DecodeString(p.Key)
	sig, err2 := base64.StdEncoding.DecodeString(p.Signature)
	if err1 != nil || err2 != nil {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "%s: key and signature must be base64", method)
	}
	key, err := trust.ParseKey(raw)
	if err != nil {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "%s: not a P-256 public key", method)
	}
	if len(s.Challenge()) == 0 || !trust.VerifySignature(key, trust.SignedMessage(s.Challenge(), s.ID()), sig) {
		return nil, notPaired(method, "the signature does not prove the key for this session", "")
	}
	return raw, nil
}

func notPaired(method, why, reason string) *nativemsg.Error {
	e := nativemsg.NewError(nativemsg.CodeNotPaired, "%s: %s", method, why)
	e.Data.Reason = reason
	return e
}

// pairable reports whether s is a browser session that may pair at all: a
// verified browser through Tessera's host.
func pairable(s *broker.Session, method string) *nativemsg.Error {
	if s.Client().Kind != KindBrowser {
		return nativemsg.NewError(nativemsg.CodeUnsupported, "%s: only browsers pair", method)
	}
	return nil
}

// pairProve answers pair.prove: a key the person paired, proven for this
// session's challenge, makes the session paired.
func pairProve(ctx context.Context, a *App, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	if e := pairable(s, PairProveMethod); e != nil {
		return nil, e
	}
	raw, e := checkProof(s, PairProveMethod, params)
	if e != nil {
		return nil, e
	}
	p, ok := a.pairs.Find(raw)
	if !ok || p.Origin != s.Origin() {
		return nil, notPaired(PairProveMethod, "this browser is not paired with Tessera: pair it from the extension's popup", "unknown")
	}
	a.markPaired(s, p.ID)
	return nativemsg.PairResult{Paired: true, ID: p.ID}, nil
}

// pairRequest answers pair.request: the person is asked in the app, with
// the verified browser named and the code shown; approved, the key is
// stored and the session paired.
func pairRequest(ctx context.Context, a *App, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	if e := pairable(s, PairRequestMethod); e != nil {
		return nil, e
	}
	raw, e := checkProof(s, PairRequestMethod, params)
	if e != nil {
		return nil, e
	}
	id := trust.KeyID(raw)
	if p, ok := a.pairs.Find(raw); ok && p.Origin == s.Origin() {
		a.markPaired(s, p.ID)
		return nativemsg.PairResult{Paired: true, ID: p.ID}, nil
	}
	end, ok := s.BeginPairing()
	if !ok {
		return nil, nativemsg.NewError(nativemsg.CodeBusy, "%s: a pairing request of this session is waiting already", PairRequestMethod)
	}
	defer end()
	info := PairInfo{Code: trust.Code(s.Challenge(), raw), Browser: s.Client().Browser, Fingerprint: id}
	if p := s.Parent(); p != nil {
		info.Exe = p.Exe
	}
	c := Confirmation{
		Kind: ConfirmPair, Site: browserWords(s.Client().Browser), Origin: s.Origin(), Client: s.ClientInfo(), Pair: &info,
		ApproveDelayMs: int(DefaultApproveDelay / time.Millisecond),
	}
	d := a.ask(ctx, c)
	if !d.Approve {
		return nil, notPaired(PairRequestMethod, "pairing was declined ("+d.Reason+")", d.Reason)
	}
	p := trust.PairedBrowser{ID: id, Key: raw, Origin: s.Origin(), Browser: s.Client().Browser, Exe: info.Exe, Name: s.Client().Name, Paired: a.cfg.Now()}
	if err := a.pairs.Add(p); err != nil {
		return nil, nativemsg.NewError(nativemsg.CodeInternal, "%s: %v", PairRequestMethod, err)
	}
	a.markPaired(s, id)
	a.changed()
	return nativemsg.PairResult{Paired: true, ID: id}, nil
}

// browserWords names a verified browser family for the dialog's headline.
func browserWords(family string) string {
	if family == "" {
		return "a browser"
	}
	return family
}

// markPaired makes s a paired session of install id.
func (a *App) markPaired(s *broker.Session, id string) {
	a.pairs.Used(id, a.cfg.Now())
	a.broker.MarkPaired(s, id)
}

// Unpair forgets the paired install id and closes its sessions.
func (a *App) Unpair(id string) error {
	ok, err := a.pairs.Remove(id)
	if err != nil {
		return ui.PlainError("unpair", err)
	}
	if !ok {
		return fmt.Errorf("unpair: no paired browser %q", id)
	}
	a.broker.Unpair(id)
	return nil
}
