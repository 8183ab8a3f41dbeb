package vault

import (
	"encoding/json"
	"fmt"
	"time"
)

// A Release records an event of the consent flow: profile values that left
// the app (when, to which origin and frame, which concepts, from which
// profile), and the proposals, declines, fill outcomes and learns around
// them. It never holds a value. The vault seals it like any other record.
type Release struct {
	Time      time.Time `json:"time"`
	Origin    string    `json:"origin"`
	Frame     string    `json:"frame,omitempty"`
	Concepts  []string  `json:"concepts"`
	ProfileID string    `json:"profile"`
	// Event is what happened: EventRelease when empty (records written
	// before events existed are releases).
	Event string `json:"event,omitempty"`
	// Site is the registrable domain of the page.
	Site string `json:"site,omitempty"`
	// Client names who asked (the browser, agent or command line), and
	// Recipient the paired browser that received the values when it is not
	// the one that asked.
	Client    string `json:"client,omitempty"`
	Recipient string `json:"recipient,omitempty"`
	// Fill ties the records of one fill together.
	Fill string `json:"fill,omitempty"`
	// Reason says why a request was declined ("denied", "timeout", ...).
	Reason string `json:"reason,omitempty"`
	// Outcomes counts what the page did with the values, by outcome
	// ("filled", "rejected", "gone", ...), for EventReport.
	Outcomes map[string]int `json:"outcomes,omitempty"`
	// Tool names the tool an agent called, for EventAgent.
	Tool string `json:"tool,omitempty"`
}

// Audit events.
const (
	EventRelease  = "release"  // the person approved; values went to the page
	EventDecline  = "decline"  // the person declined, or the dialog timed out
	EventReport   = "report"   // what the page accepted of a release
	EventLearn    = "learn"    // submitted values saved after approval
	EventNoLearn  = "no-learn" // the person declined saving submitted values
	EventProposal = "proposal" // masked previews were shown to a page or agent
	EventImport   = "import"   // the person imported values into a profile
	EventExport   = "export"   // the person exported a profile to a file
	EventAgent    = "agent"    // an agent called a tool (Reason: what came of it)
	EventSync     = "sync"     // values came in from another device (Client: which; Concepts: the keys, never the values)
)

// RecordRelease appends a release to the audit log. A zero Time is set to
// the vault clock's now.
func (v *Vault) RecordRelease(r Release) error {
	return v.withTx("record release", func(o *op) error {
		return v.appendAuditTx(o, r)
	})
}

// appendAuditTx appends r to the audit log in the write transaction o.
func (v *Vault) appendAuditTx(o *op, r Release) error {
	if r.Time.IsZero() {
		r.Time = v.opts.Clock.Now().UTC()
	}
	row, ver := o.d.nextID(tabAudit), o.d.nextVersion()
	rec, err := sealJSON(o.k, r, auditPlace(row, ver))
	if err != nil {
		return err
	}
	if _, err := o.tx.Exec("INSERT INTO audit (id, ver, rec) VALUES (?, ?, ?)", row, int64(ver), rec); err != nil {
		return sqlErr(err)
	}
	return o.d.put(&storedRow{ref: rowRef{tabAudit, row}, ver: ver, rec: rec})
}

// Releases returns the audit log, oldest first.
func (v *Vault) Releases() ([]Release, error) {
	var out []Release
	err := v.withRead("read audit log", func(o *op) error {
		rows, err := o.q.Query("SELECT id, ver, rec FROM audit ORDER BY id")
		if err != nil {
			return sqlErr(err)
		}
		defer rows.Close()
		for rows.Next() {
			var row, ver int64
			var rec []byte
			if err := rows.Scan(&row, &ver, &rec); err != nil {
				return sqlErr(err)
			}
			if err := o.check(rowRef{tabAudit, row}, uint64(ver), 0, 0); err != nil {
				return err
			}
			pt, err := openRecord(o.k.seal, rec, auditPlace(row, uint64(ver)).ad())
			if err != nil {
				return fmt.Errorf("audit %d: %w", row, err)
			}
			var r Release
			if err := json.Unmarshal(pt, &r); err != nil {
				return fmt.Errorf("audit %d: %w: %w", row, ErrCorrupt, err)
			}
			out = append(out, r)
		}
		if err := rows.Err(); err != nil {
			return sqlErr(err)
		}
		if int64(len(out)) != o.m.count[tabAudit] {
			return fmt.Errorf("%w: %d audit rows where Tessera wrote %d", ErrTampered, len(out), o.m.count[tabAudit])
		}
		return nil
	})
	for i := range out {
		if out[i].Event == "" {
			out[i].Event = EventRelease
		}
	}
	return out, err
}
