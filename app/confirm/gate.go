package confirm

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/tessera-app/tessera/vault"
)

// The release gate (SECURITY.md, "One gate"). Every value that leaves the
// vault goes through Gate.Release: it takes who asks, who receives, the
// site and frames, and the rows; it refuses a recipient that is not a
// verified browser session that proved a paired key (or, for the command
// line's reveal, the verified command that asked, for itself); it obtains the
// person's decision in the app's window, in a dialog that names both; and
// it writes the audit record naming both. What it releases is a Value, which
// no other package can make: the wire types that carry a value to a browser
// (a fill's fields, browser.apply's) hold Values, so code that would send a
// value around the gate does not compile.

// Peer kinds.
const (
	PeerBrowser = "browser"
	PeerAgent   = "agent"
	PeerCLI     = "cli"
)

// A Peer is one end of a release, as the app verified it.
type Peer struct {
	// Kind is PeerBrowser, PeerAgent or PeerCLI.
	Kind string
	// Name is the verified browser family, else the name the client gave.
	Name string
	// Session is the app's id of the peer's connection; Origin the
	// extension origin the host verified (browsers).
	Session string
	Origin  string
	// Verified reports whether the app verified the peer's process.
	Verified bool
	// Paired is the fingerprint of the paired key a browser session proved
	// ("" when it proved none).
	Paired string
	// Claimed reports that Name is only the peer's word (an agent's name is
	// what its MCP client said).
	Claimed bool
}

// Info is the peer as a dialog names it.
func (p Peer) Info() ClientInfo {
	return ClientInfo{Kind: p.Kind, Name: p.Name, Origin: p.Origin, Verified: p.Verified && !p.Claimed, Session: p.Session, Paired: p.Paired}
}

// label names the peer in the audit log.
func (p Peer) label() string {
	if p.Paired != "" {
		return p.Name + " (paired " + p.Paired + ")"
	}
	return p.Name
}

// Errors of Release.
var (
	// ErrRecipient is returned for a recipient that is not a verified
	// browser session that proved a paired key.
	ErrRecipient = errors.New("values go only to a verified browser that is paired with Tessera, or to the command that asked, for itself")
	// ErrRequester is returned for a requester the app did not verify.
	ErrRequester = errors.New("only a verified caller may ask for values")
)

// A Value is one value the person approved for one recipient. Only the gate
// makes one; its zero value is empty.
type Value struct{ s string }

// MarshalJSON writes the value as a JSON string, for the wire.
func (v Value) MarshalJSON() ([]byte, error) { return json.Marshal(v.s) }

// A Document is a released Value that holds a JSON document (a profile the
// command line reveals); it is written to the wire as that document.
type Document struct{ v Value }

// Document is v as a JSON document.
func (v Value) Document() Document { return Document{v} }

// MarshalJSON writes the document; a value that is not JSON is an error.
func (d Document) MarshalJSON() ([]byte, error) {
	if !json.Valid([]byte(d.v.s)) {
		return nil, errors.New("confirm: a released document is not JSON")
	}
	return []byte(d.v.s), nil
}

// String returns the value; for the app's own records (the values a page
// received, withheld from agents), never to be sent anywhere.
func (v Value) String() string { return v.s }

// An Offer is what a release would give, for the person to decide.
type Offer struct {
	Requester, Recipient Peer
	// Dialog is what the person sees: the site, frames and rows (their ids
	// set). The gate names the requester and the recipient in it.
	Dialog Confirmation
	// Values returns, at the decision, what row id releases (one value, or
	// several for a parameter that fills several controls) and its approval
	// key (concept and value, "" for none) for values offered again within
	// this approval (Released.Again).
	Values func(id string) (values []string, key string)
	// Remembered is the person's standing decision for this site; it is
	// taken instead of asking only when a browser asks for itself.
	Remembered *Decision
	// Proven is the decision the person made by proving who they are (the
	// vault passphrase given with a command); it is taken instead of asking
	// only when the command line asks for itself.
	Proven *Decision
	// Audit returns, at the decision, the record written for it (the site,
	// profile and fill); the gate sets its event, client, recipient,
	// concepts and reason.
	Audit func() vault.Release
	// Event is the audit event of an approval (vault.EventRelease when
	// empty).
	Event string
	// AuditRow, when set, makes the audit log one record per row (each
	// approved row, or each row offered when declined) instead of one for
	// the release: a reveal of several profiles is a record per profile.
	AuditRow func(id string) vault.Release
}

// Released is what the person approved for one recipient.
type Released struct {
	recipient string
	rows      []string
	values    map[string][]Value
	keys      map[string]bool
}

// Rows returns the ids of the approved rows, in the order approved.
func (r *Released) Rows() []string { return slices.Clone(r.rows) }

// Values returns the values of approved row id.
func (r *Released) Values(id string) []Value { return r.values[id] }

// Again returns value for a field offered again within this approval
// (a page that showed a field during a fill): only when key (concept and
// value) was approved, and only for the same recipient.
func (r *Released) Again(recipient Peer, key, value string) (Value, bool) {
	if r == nil || recipient.Session != r.recipient || !r.keys[key] {
		return Value{}, false
	}
	return Value{value}, true
}

// Grow adds the approvals of more to r, for the same recipient.
func (r *Released) Grow(more *Released) {
	if more == nil || more.recipient != r.recipient {
		return
	}
	for k := range more.keys {
		r.keys[k] = true
	}
}

// An Asker shows a dialog and returns the person's decision.
type Asker interface {
	Ask(ctx context.Context, c Confirmation) Decision
}

// A Gate releases values after the person's decision.
type Gate struct {
	ask   Asker
	audit func(vault.Release)
}

// NewGate returns a gate that asks with ask and writes the audit log with
// audit.
func NewGate(ask Asker, audit func(vault.Release)) *Gate {
	return &Gate{ask: ask, audit: audit}
}

// Release shows o to the person and returns what they approved, with their
// decision. A recipient that is not a paired browser, or a requester the
// app did not verify, is refused before anything is shown (the refusal is
// in the audit log). A decline returns a nil Released.
func (g *Gate) Release(ctx context.Context, o Offer) (*Released, Decision, error) {
	var rec vault.Release
	if o.Audit != nil {
		rec = o.Audit()
	}
	rec.Client, rec.Recipient = o.Requester.label(), o.Recipient.label()
	if rec.Concepts == nil {
		rec.Concepts = []string{}
	}
	if err := checkPeers(o.Requester, o.Recipient); err != nil {
		rec.Event, rec.Reason = vault.EventDecline, "refused: "+err.Error()
		g.audit(rec)
		return nil, Decision{Reason: DeclineRefused}, err
	}
	c := o.Dialog
	c.Client = o.Requester.Info()
	if o.Requester.Session != o.Recipient.Session {
		r := o.Recipient.Info()
		c.Recipient = &r
	}
	var d Decision
	self := o.Requester.Session == o.Recipient.Session
	switch {
	case o.Remembered != nil && o.Requester.Kind == PeerBrowser && self:
		d = *o.Remembered
	case o.Proven != nil && o.Requester.Kind == PeerCLI && self:
		d = *o.Proven
	default:
		d = g.ask.Ask(ctx, c)
	}
	if o.Audit != nil {
		rec = o.Audit()
		rec.Client, rec.Recipient = o.Requester.label(), o.Recipient.label()
		if rec.Concepts == nil {
			rec.Concepts = []string{}
		}
	}
	if !d.Approve {
		rec.Event, rec.Reason = vault.EventDecline, d.Reason
		g.write(o, rec, rowIDs(c.Rows))
		return nil, d, nil
	}
	rel := &Released{recipient: o.Recipient.Session, values: map[string][]Value{}, keys: map[string]bool{}}
	offered := map[string]Row{}
	rows := c.Rows
	if d.offered != nil {
		rows = d.offered
	}
	for _, r := range rows {
		offered[r.ID] = r
	}
	frames := map[int]bool{}
	var concepts []string
	for _, id := range d.Rows {
		row, ok := offered[id]
		if !ok || o.Values == nil {
			continue
		}
		if _, dup := rel.values[id]; dup {
			continue
		}
		vals, key := o.Values(id)
		if len(vals) == 0 {
			continue
		}
		rel.rows = append(rel.rows, id)
		for _, v := range vals {
			rel.values[id] = append(rel.values[id], Value{v})
		}
		if key != "" {
			rel.keys[key] = true
		}
		frames[row.Frame] = true
		if row.Concept != "" && !slices.Contains(concepts, row.Concept) {
			concepts = append(concepts, row.Concept)
		}
	}
	if len(rel.rows) > 0 {
		rec.Event = o.Event
		if rec.Event == "" {
			rec.Event = vault.EventRelease
		}
		rec.Concepts = append([]string{}, concepts...)
		rec.Reason = d.Reason
		if rec.Frame == "" {
			var fs []string
			for _, f := range slices.Sorted(maps.Keys(frames)) {
				fs = append(fs, strconv.Itoa(f))
			}
			rec.Frame = strings.Join(fs, ",")
		}
		g.write(o, rec, rel.rows)
	} else {
		// Approved with nothing ticked: nothing leaves, and the log says
		// so as it says of a decline.
		rec.Event, rec.Reason = vault.EventDecline, DeclineDenied
		g.write(o, rec, rowIDs(c.Rows))
	}
	return rel, d, nil
}

// rowIDs are the ids of rows.
func rowIDs(rows []Row) []string {
	ids := make([]string, 0, len(rows))
	for _, r := range rows {
		ids = append(ids, r.ID)
	}
	return ids
}

// write writes rec to the audit log, or, with o.AuditRow, one record per
// row of ids with rec's event, parties and reason.
func (g *Gate) write(o Offer, rec vault.Release, ids []string) {
	if o.AuditRow == nil {
		g.audit(rec)
		return
	}
	for _, id := range ids {
		r := o.AuditRow(id)
		r.Event, r.Reason, r.Client, r.Recipient = rec.Event, rec.Reason, rec.Client, rec.Recipient
		if r.Concepts == nil {
			r.Concepts = []string{}
		}
		g.audit(r)
	}
}

func checkPeers(req, rcpt Peer) error {
	if !req.Verified {
		return ErrRequester
	}
	if req.Kind == PeerBrowser && req.Paired == "" {
		return ErrRequester
	}
	if rcpt.Kind == PeerCLI {
		// The command line receives values only for itself: the person's
		// own command, never on another's behalf.
		if req.Kind != PeerCLI || !rcpt.Verified || rcpt.Session == "" || rcpt.Session != req.Session {
			return ErrRecipient
		}
		return nil
	}
	if rcpt.Kind != PeerBrowser || !rcpt.Verified || rcpt.Paired == "" || rcpt.Session == "" {
		return ErrRecipient
	}
	return nil
}
