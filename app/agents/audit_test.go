package agents

import (
	"testing"

	"github.com/tessera-app/tessera/vault"
)

// Refusals past the bound are counted, and the count is written at the
// unlock: the log says how many calls it does not list.
func TestAuditQueueBound(t *testing.T) {
	pass := []byte("agents audit test")
	v, err := vault.Create(t.TempDir(), vault.Options{ScryptWorkFactor: 10}, vault.InitOptions{Passphrase: pass})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	a := New(Config{Vault: v, Home: t.TempDir()})
	v.Lock()
	for i := 0; i < maxPendingAudit+7; i++ {
		a.recordAgent(vault.Release{Event: vault.EventAgent, Concepts: []string{}, Tool: "t", Reason: "VAULT_LOCKED"}, false)
	}
	// A call that ran is kept even past the bound.
	a.recordAgent(vault.Release{Event: vault.EventAgent, Concepts: []string{}, Tool: "ran", Reason: "ok"}, true)
	if err := v.UnlockPassphrase(pass); err != nil {
		t.Fatal(err)
	}
	a.FlushAudit()
	all, err := v.Releases()
	if err != nil {
		t.Fatal(err)
	}
	var rs []vault.Release
	for _, r := range all {
		if r.Event == vault.EventAgent {
			rs = append(rs, r)
		}
	}
	if len(rs) != maxPendingAudit+2 {
		t.Fatalf("%d records, want %d refusals, the call that ran and the count", len(rs), maxPendingAudit)
	}
	if rs[maxPendingAudit].Tool != "ran" || rs[maxPendingAudit+1].Outcomes["unrecorded"] != 7 {
		t.Errorf("last records = %+v %+v", rs[maxPendingAudit], rs[maxPendingAudit+1])
	}
}
