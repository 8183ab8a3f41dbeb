package vault

import (
	"database/sql"
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
	// Client names who asked (the browser or agent).
	Client string `json:"client,omitempty"`
	// Fill ties the records of one fill together.
	Fill string `json:"fill,omitempty"`
	// Reason says why a request was declined ("denied", "timeout", ...).
	Reason string `json:"reason,omitempty"`
	// Outcomes counts what the page did with the values, by outcome
	// ("filled", "rejected", "gone", ...), for EventReport.
	Outcomes map[string]int `json:"outcomes,omitempty"`
}

// Audit events.
const (
	EventRelease  = "release"  // the person approved; values went to the page
	EventDecline  = "decline"  // the person declined, or the dialog timed out
	EventReport   = "report"   // what the page accepted of a release
	EventLearn    = "learn"    // submitted values saved after approval
	EventNoLearn  = "no-learn" // the person declined saving submitted values
	EventProposal = "proposal" // masked previews were shown to a page or agent
)

// RecordRelease appends a release to the audit log. A zero Time is set to
// the vault clock's now.
func (v *Vault) RecordRelease(r Release) error {
	return v.withTx("record release", func(tx *sql.Tx, k *keys) error {
		if r.Time.IsZero() {
			r.Time = v.opts.Clock.Now().UTC()
		}
		row, err := nextID(tx, "audit")
		if err != nil {
			return err
		}
		rec, err := sealJSON(k, r, "audit", row)
		if err != nil {
			return err
		}
		_, err = tx.Exec("INSERT INTO audit (id, rec) VALUES (?, ?)", row, rec)
		return sqlErr(err)
	})
}

// Releases returns the audit log, oldest first.
func (v *Vault) Releases() ([]Release, error) {
	var out []Release
	err := v.withRead("read audit log", func(k *keys) error {
		rows, err := v.db.Query("SELECT id, rec FROM audit ORDER BY id")
		if err != nil {
			return sqlErr(err)
		}
		defer rows.Close()
		for rows.Next() {
			var row int64
			var rec []byte
			if err := rows.Scan(&row, &rec); err != nil {
				return sqlErr(err)
			}
			pt, err := openRecord(k.seal, rec, recordAD("audit", row))
			if err != nil {
				return fmt.Errorf("audit %d: %w", row, err)
			}
			var r Release
			if err := json.Unmarshal(pt, &r); err != nil {
				return fmt.Errorf("audit %d: %w: %w", row, ErrCorrupt, err)
			}
			out = append(out, r)
		}
		return sqlErr(rows.Err())
	})
	for i := range out {
		if out[i].Event == "" {
			out[i].Event = EventRelease
		}
	}
	return out, err
}
