package agents

import (
	"errors"
	"fmt"
	"sync"

	"github.com/tessera-app/tessera/app/fill"
	"github.com/tessera-app/tessera/vault"
)

// Every agent call lands in the audit log (SECURITY.md, "Agents"). The log
// is sealed in the vault, so it can be written only while the vault is
// unlocked. Agent calls are therefore refused while the vault is locked
// (VAULT_LOCKED: nothing reaches the page or the person), and the refusal
// is recorded once the vault is unlocked. A call that began while the vault
// was unlocked and ended after it locked (say, while its dialog waited) is
// recorded at the next unlock too. Until then these records wait in memory,
// in order, with the time of the call:
//
//   - a record of a call that ran is always kept;
//   - refusals are kept up to maxPendingAudit; beyond that they are counted,
//     and the count is written as one record at the unlock;
//   - when the app quits while the vault is still locked, the records are
//     lost (they hold no value, but the log is sealed and never written in
//     the clear); the app's log says how many.
//
// Closing a site to agents or untrusting a tool in Settings is recorded the
// same way (event agent-access).

// maxPendingAudit bounds the refusals waiting for an unlock.
const maxPendingAudit = 1000

// EventAgentAccess records the person taking back what agents may do, in
// Settings: Reason "closed" (a site, and its trusted tools) or "untrusted"
// (one read-only tool, named in Tool).
const EventAgentAccess = "agent-access"

// auditQueue holds the agent records that wait for the vault.
type auditQueue struct {
	mu      sync.Mutex
	pending []vault.Release
	// refused counts refusals past maxPendingAudit.
	refused int
}

type releaseRecorder interface{ RecordRelease(vault.Release) error }

// recordAgent writes r to the audit log, after whatever waits; while the
// vault is locked r waits too (a refusal only up to the bound, see above).
func (a *Service) recordAgent(r vault.Release, ran bool) {
	v, ok := a.cfg.Vault, a.cfg.Vault != nil
	if !ok {
		return
	}
	if r.Time.IsZero() {
		r.Time = a.cfg.Now().UTC()
	}
	q := &a.audits
	q.mu.Lock()
	defer q.mu.Unlock()
	if err := a.flushLocked(v); err == nil {
		err = v.RecordRelease(r)
		if err == nil {
			return
		}
		if !errors.Is(err, vault.ErrLocked) {
			fmt.Fprintf(a.cfg.Log, "tessera: audit log: %v\n", err)
			return
		}
	}
	if ran || len(q.pending) < maxPendingAudit {
		q.pending = append(q.pending, r)
	} else {
		q.refused++
	}
}

// FlushAudit writes the agent records that wait, if the vault is unlocked now.
func (a *Service) FlushAudit() {
	v, ok := a.cfg.Vault, a.cfg.Vault != nil
	if !ok {
		return
	}
	a.audits.mu.Lock()
	defer a.audits.mu.Unlock()
	a.flushLocked(v)
}

// flushLocked writes what waits, oldest first (a.audits.mu held); it
// returns vault.ErrLocked, keeping the rest, when the vault is locked.
func (a *Service) flushLocked(v releaseRecorder) error {
	q := &a.audits
	for len(q.pending) > 0 {
		err := v.RecordRelease(q.pending[0])
		if errors.Is(err, vault.ErrLocked) {
			return err
		}
		if err != nil {
			fmt.Fprintf(a.cfg.Log, "tessera: audit log: %v\n", err)
		}
		q.pending = q.pending[1:]
	}
	q.pending = nil
	if q.refused > 0 {
		r := vault.Release{
			Time: a.cfg.Now().UTC(), Event: vault.EventAgent, Concepts: []string{}, Reason: "VAULT_LOCKED",
			Outcomes: map[string]int{"unrecorded": q.refused},
		}
		err := v.RecordRelease(r)
		if errors.Is(err, vault.ErrLocked) {
			return err
		}
		if err != nil {
			fmt.Fprintf(a.cfg.Log, "tessera: audit log: %v\n", err)
		}
		q.refused = 0
	}
	return nil
}

// AuditUnwritten logs what the audit log lost when the app stops with the
// vault still locked.
func (a *Service) AuditUnwritten() {
	a.FlushAudit()
	a.audits.mu.Lock()
	defer a.audits.mu.Unlock()
	if n := len(a.audits.pending) + a.audits.refused; n > 0 {
		fmt.Fprintf(a.cfg.Log, "tessera: audit log: %d agent records were not written: the vault stayed locked until the app stopped\n", n)
	}
}

// auditAccessTaken records the person taking back agent access in Settings.
func (a *Service) auditAccessTaken(origin, tool, reason string) {
	r := vault.Release{Event: EventAgentAccess, Origin: origin, Concepts: []string{}, Tool: tool, Reason: reason, Client: "Settings"}
	if origin != "" {
		r.Site = fill.SiteOf(origin)
	}
	a.recordAgent(r, true)
}
