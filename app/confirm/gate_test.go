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
