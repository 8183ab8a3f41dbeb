package confirm

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/tessera-app/tessera/vault"
)

type askFunc func(Confirmation) Decision

func (f askFunc) Ask(_ context.Context, c Confirmation) Decision { return f(c) }

var (
	browser = Peer{Kind: PeerBrowser, Name: "chromium", Session: "s1", Verified: true, Paired: "k1"}
	agent   = Peer{Kind: PeerAgent, Name: "claude", Session: "s2", Verified: true, Claimed: true}
	cli     = Peer{Kind: PeerCLI, Name: "tessera", Session: "s3", Verified: true}
)

func offer() Offer {
	return Offer{
		Requester: agent, Recipient: browser,
		Dialog: Confirmation{Kind: ConfirmFill, Site: "shop.example", Rows: []Row{
			{ID: "r1", Label: "Email", Value: "ada@example.org", Concept: "https://schema.org/email"},
			{ID: "r2", Label: "Phone", Value: "+44 20 7946 0000", Concept: "https://schema.org/telephone", Frame: 2},
		}},
		Values: func(id string) ([]string, string) {
			return map[string][]string{"r1": {"ada@example.org"}, "r2": {"020 7946 0000"}}[id], "k:" + id
		},
		Audit: func() vault.Release { return vault.Release{Origin: "https://shop.example", Site: "shop.example"} },
	}
}

// The gate refuses a recipient that is not a paired, verified browser
// (and an unverified requester) before anything is shown; the refusal is
// in the audit log.
func TestGateRefusesUnpairedRecipient(t *testing.T) {
	for _, tc := range []struct {
		name     string
		req, rec Peer
		want     error
	}{
		{"unpaired browser", agent, Peer{Kind: PeerBrowser, Name: "chromium", Session: "s9", Verified: true}, ErrRecipient},
		{"unverified browser", agent, Peer{Kind: PeerBrowser, Name: "chromium", Session: "s9", Paired: "k1"}, ErrRecipient},
		{"an agent as recipient", browser, agent, ErrRecipient},
		{"a command for an agent", agent, cli, ErrRecipient},
		{"a command for another command", Peer{Kind: PeerCLI, Session: "s8", Verified: true}, cli, ErrRecipient},
		{"an unverified command for itself", Peer{Kind: PeerCLI, Session: "s3"}, Peer{Kind: PeerCLI, Session: "s3"}, ErrRequester},
		{"a browser for a command", browser, cli, ErrRecipient},
		{"unpaired browser asks", Peer{Kind: PeerBrowser, Session: "s9", Verified: true}, browser, ErrRequester},
		{"unverified agent asks", Peer{Kind: PeerAgent, Session: "s9"}, browser, ErrRequester},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var audits []vault.Release
			asked := false
			g := NewGate(askFunc(func(Confirmation) Decision { asked = true; return Decision{Approve: true, Rows: []string{"r1"}} }),
				func(r vault.Release) { audits = append(audits, r) })
			o := offer()
			o.Requester, o.Recipient = tc.req, tc.rec
			rel, d, err := g.Release(context.Background(), o)
			if !errors.Is(err, tc.want) || rel != nil || d.Approve || asked {
				t.Errorf("Release = %v, %+v, %v (asked %v), want %v and nothing shown", rel, d, err, asked, tc.want)
			}
			if len(audits) != 1 || audits[0].Event != vault.EventDecline {
				t.Errorf("audit = %+v, want one refusal", audits)
			}
		})
	}
}

// The dialog names who asks and which browser receives; the audit names
// both; only approved rows are released, with the values the offer gives at
// the decision; Again gives more only within the approval, to the same
// browser.
func TestGateReleasesApprovedRowsOnly(t *testing.T) {
	var shown Confirmation
	var audits []vault.Release
	g := NewGate(askFunc(func(c Confirmation) Decision {
		shown = c
		return Decision{Approve: true, Rows: []string{"r2", "r9"}}
	}), func(r vault.Release) { audits = append(audits, r) })
	rel, d, err := g.Release(context.Background(), offer())
	if err != nil || !d.Approve {
		t.Fatal(err, d)
	}
	if shown.Client.Name != "claude" || shown.Client.Verified || shown.Recipient == nil || shown.Recipient.Name != "chromium" || shown.Recipient.Paired != "k1" {
		t.Errorf("dialog names client %+v and recipient %+v, want the agent (as a claim) and the paired browser", shown.Client, shown.Recipient)
	}
	if got := rel.Rows(); !reflect.DeepEqual(got, []string{"r2"}) {
		t.Errorf("Rows() = %v, want [r2]", got)
	}
	if vs := rel.Values("r2"); len(vs) != 1 || vs[0].String() != "020 7946 0000" {
		t.Errorf("Values(r2) = %v", vs)
	}
	if vs := rel.Values("r1"); len(vs) != 0 {
		t.Errorf("Values(r1) = %v, want none: not approved", vs)
	}
	if len(audits) != 1 || audits[0].Event != vault.EventRelease || audits[0].Client != "claude" || audits[0].Recipient != "chromium (paired k1)" ||
		!reflect.DeepEqual(audits[0].Concepts, []string{"https://schema.org/telephone"}) || audits[0].Frame != "2" {
		t.Errorf("audit = %+v", audits)
	}
	if _, ok := rel.Again(browser, "k:r2", "020 7946 0000"); !ok {
		t.Error("Again within the approval refused")
	}
	if _, ok := rel.Again(browser, "k:r1", "ada@example.org"); ok {
		t.Error("Again gave a value the person did not approve")
	}
	other := browser
	other.Session = "s7"
	if _, ok := rel.Again(other, "k:r2", "020 7946 0000"); ok {
		t.Error("Again gave a value to another browser")
	}
}

// A remembered decision stands in for the dialog only when a browser asks
// for itself: never for an agent.
func TestGateRememberedOnlyForTheBrowserItself(t *testing.T) {
	asked := 0
	g := NewGate(askFunc(func(Confirmation) Decision { asked++; return Decision{Reason: DeclineDenied} }), func(vault.Release) {})
	o := offer()
	o.Remembered = &Decision{Approve: true, Rows: []string{"r1"}}
	if _, d, _ := g.Release(context.Background(), o); d.Approve || asked != 1 {
		t.Errorf("agent with a remembered decision: approve %v, asked %d; want the person asked", d.Approve, asked)
	}
	o.Requester = browser
	if rel, d, _ := g.Release(context.Background(), o); !d.Approve || asked != 1 || len(rel.Values("r1")) != 1 {
		t.Errorf("browser with a remembered decision: approve %v, asked %d", d.Approve, asked)
	}
}

// A Value is made by the gate alone: it has no exported field, and no way
// to read one from the wire, so no other package can put a value of its
// own where a released one goes.
func TestValueOnlyFromTheGate(t *testing.T) {
	ty := reflect.TypeOf(Value{})
	for i := range ty.NumField() {
		if ty.Field(i).IsExported() {
			t.Errorf("Value has exported field %s", ty.Field(i).Name)
		}
	}
	if _, ok := reflect.PointerTo(ty).MethodByName("UnmarshalJSON"); ok {
		t.Error("Value can be read from JSON")
	}
	var v Value
	if err := json.Unmarshal([]byte(`"ada@example.org"`), &v); err == nil && v.String() != "" {
		t.Errorf("json.Unmarshal made a Value %q", v.String())
	}
}

// The command line receives values only for itself, after the person's
// decision in the window, or with the decision the vault passphrase
// proved; Proven is never taken for another requester, nor Remembered for
// the command line. AuditRow writes a record per row.
func TestGateCommandForItself(t *testing.T) {
	var audits []vault.Release
	asked := 0
	g := NewGate(askFunc(func(c Confirmation) Decision {
		asked++
		return Decision{ID: c.ID, Approve: true, Rows: []string{"r1", "r2"}}
	}), func(r vault.Release) { audits = append(audits, r) })
	o := offer()
	o.Requester, o.Recipient = cli, cli
	o.AuditRow = func(id string) vault.Release { return vault.Release{Site: "this computer", ProfileID: "p-" + id} }
	rel, d, err := g.Release(context.Background(), o)
	if err != nil || !d.Approve || asked != 1 || len(rel.Rows()) != 2 || rel.Values("r1")[0].String() != "ada@example.org" {
		t.Fatalf("Release for itself = %v %+v %v (asked %d)", rel, d, err, asked)
	}
	if len(audits) != 2 || audits[0].ProfileID != "p-r1" || audits[1].ProfileID != "p-r2" || audits[0].Event != vault.EventRelease || audits[0].Client != "tessera" {
		t.Errorf("audit = %+v, want a release record per row naming the command", audits)
	}
	// Proven: no dialog.
	o.Proven = &Decision{Approve: true, Rows: []string{"r2"}, Reason: "passphrase"}
	o.Remembered = nil
	if rel, _, err := g.Release(context.Background(), o); err != nil || asked != 1 || len(rel.Rows()) != 1 || rel.Rows()[0] != "r2" {
		t.Errorf("Proven for the command itself: %v %v, asked %d", rel, err, asked)
	}
	// Remembered (a site's standing decision) is not the command's.
	o.Proven, o.Remembered = nil, &Decision{Approve: true, Rows: []string{"r1"}}
	if _, _, err := g.Release(context.Background(), o); err != nil || asked != 2 {
		t.Errorf("Remembered taken for a command: asked %d, %v", asked, err)
	}
	// Proven is not taken for a browser.
	o = offer()
	o.Requester = browser
	o.Proven = &Decision{Approve: true, Rows: []string{"r1"}}
	if _, _, err := g.Release(context.Background(), o); err != nil || asked != 3 {
		t.Errorf("Proven taken for a browser: asked %d, %v", asked, err)
	}
	// A decline with AuditRow: a record per row offered.
	audits = nil
	g2 := NewGate(askFunc(func(c Confirmation) Decision { return Decision{ID: c.ID, Reason: DeclineDenied} }), func(r vault.Release) { audits = append(audits, r) })
	o = offer()
	o.Requester, o.Recipient = cli, cli
	o.AuditRow = func(id string) vault.Release { return vault.Release{ProfileID: "p-" + id} }
	if rel, d, err := g2.Release(context.Background(), o); rel != nil || d.Approve || err != nil || len(audits) != 2 || audits[1].Event != vault.EventDecline {
		t.Errorf("declined: %v %+v %v, audit %+v", rel, d, err, audits)
	}
}

// A released document goes on the wire as the document itself; a value
// that is not JSON is never written as one.
func TestDocumentMarshal(t *testing.T) {
	b, err := json.Marshal([]Document{Value{`{"id":"p1"}`}.Document()})
	if err != nil || string(b) != `[{"id":"p1"}]` {
		t.Errorf("documents = %s, %v", b, err)
	}
	if _, err := json.Marshal(Value{`{"id":`}.Document()); err == nil {
		t.Error("a value that is not JSON was written as a document")
	}
}
