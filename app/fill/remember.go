package fill

import (
	"fmt"
	"slices"

	"github.com/tessera-app/tessera/app/confirm"
	"github.com/tessera-app/tessera/vault"
)

// "Remember for this site": when the person ticks it while approving a
// fill, later fills of the same origin from the same profile are approved
// without a dialog — but only for the concepts approved then, only for the
// rows a dialog would have ticked by default, never for a field needing
// attention, and every such release is in the audit log as remembered. A
// fill that would give anything more shows the dialog again. The rules are
// sealed in the vault and revocable from the window.

// Remembered returns the rule for an origin, if the vault keeps rules and
// has one.
func (a *Service) Remembered(origin string) (vault.SiteRule, bool) {
	st, ok := a.cfg.Vault, a.cfg.Vault != nil
	if !ok {
		return vault.SiteRule{}, false
	}
	r, ok, err := st.SiteRule(origin)
	if err != nil || !ok {
		return vault.SiteRule{}, false
	}
	return r, true
}

// rememberedDecision returns the decision a rule makes for the offered
// rows (targets, by row id), or false when the dialog must be shown: some
// row ticked by default holds a concept the rule does not cover
// (rememberKey), or nothing would be filled.
func rememberedDecision(r vault.SiteRule, c confirm.Confirmation, targets map[string]fillCandidate) (confirm.Decision, bool) {
	d := confirm.Decision{ID: c.ID, Approve: true, Reason: "remembered"}
	for _, row := range c.Rows {
		if !row.Checked || row.Section != confirm.SectionFill {
			continue
		}
		if fc, ok := targets[row.ID]; !ok || !slices.Contains(r.Concepts, fc.remember) {
			return confirm.Decision{}, false
		}
		d.Rows = append(d.Rows, row.ID)
	}
	return d, len(d.Rows) > 0
}

// Remember saves a rule from an approved fill decision: the concepts of
// the rows approved (rememberKey). A decision that ticked an attention row is an
// exception the person made once; it is not remembered.
func (a *Service) Remember(an *Analysed, pf *pendingFill, d confirm.Decision) {
	st, ok := a.cfg.Vault, a.cfg.Vault != nil
	if !ok || !d.Remember || !d.Approve {
		return
	}
	a.mu.Lock()
	targets, profile := pf.targets, pf.profile
	a.mu.Unlock()
	var concepts []string
	for _, id := range d.Rows {
		fc, ok := targets[id]
		if !ok {
			continue
		}
		if fc.row.Section != confirm.SectionFill {
			return
		}
		if !slices.Contains(concepts, fc.remember) {
			concepts = append(concepts, fc.remember)
		}
	}
	if len(concepts) == 0 {
		return
	}
	r := vault.SiteRule{Origin: an.Origin, Site: an.Site, Profile: profile, Concepts: concepts, Created: a.cfg.Now()}
	if err := st.SetSiteRule(r); err != nil {
		fmt.Fprintf(a.cfg.Log, "tessera: remember %s: %v\n", an.Origin, err)
	}
}

// CanRemember reports whether the dialog may offer "remember for this site".
func (a *Service) CanRemember() bool {
	_, ok := a.cfg.Vault, a.cfg.Vault != nil
	return ok
}
