package vault

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Limits on a site rule; SetSiteRule refuses larger ones with ErrTooLarge.
const (
	MaxOriginSize   = 2 << 10
	MaxSiteConcepts = 200
)

// A SiteRule records that the person chose, in the confirmation dialog, to
// let one origin be filled from one profile without asking again, for
// the concepts listed (and only those).
//
// The vault seals each rule like any other record, indexes it by a keyed
// hash of its origin (the origin is not readable in the file) and covers it
// with the manifest, so a rule added, replayed, deleted or moved outside
// Tessera gives ErrTampered.
type SiteRule struct {
	Origin   string    `json:"origin"`   // exact top-level origin, "https://shop.example"
	Site     string    `json:"site"`     // its registrable domain, for display
	Profile  string    `json:"profile"`  // profile id
	Concepts []string  `json:"concepts"` // canonical concept IRIs approved
	Created  time.Time `json:"created"`
	LastUsed time.Time `json:"lastUsed,omitzero"`
}

func siteLookup(k *keys, origin string) []byte { return k.lookupKey("site", origin) }

// checkOrigin accepts only a serialized tuple origin, "scheme://host[:port]",
// exactly as a browser writes it: a rule must never match more, or other,
// pages than the one the person approved.
func checkOrigin(origin string) error {
	if len(origin) > MaxOriginSize {
		return fmt.Errorf("origin: %w: %d bytes", ErrTooLarge, len(origin))
	}
	u, err := url.Parse(origin)
	if err != nil || u.Scheme == "" || u.Host == "" || u.Opaque != "" || u.User != nil ||
		u.Path != "" || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || u.Scheme+"://"+u.Host != origin {
		return fmt.Errorf("origin %q is not of the form scheme://host[:port]", origin)
	}
	return nil
}

// checkSiteRule validates r and returns its concepts sorted, without
// duplicates.
func checkSiteRule(r SiteRule) ([]string, error) {
	if err := checkOrigin(r.Origin); err != nil {
		return nil, err
	}
	if len(r.Site) > MaxOriginSize {
		return nil, fmt.Errorf("site: %w: %d bytes", ErrTooLarge, len(r.Site))
	}
	if len(r.Concepts) > MaxSiteConcepts {
		return nil, fmt.Errorf("concepts: %w: %d of at most %d", ErrTooLarge, len(r.Concepts), MaxSiteConcepts)
	}
	if len(r.Concepts) == 0 {
		return nil, errors.New("a site rule needs at least one concept")
	}
	for _, c := range r.Concepts {
		if c == "" {
			return nil, errors.New("empty concept")
		}
		if len(c) > MaxKeySize {
			return nil, fmt.Errorf("concept: %w: %d bytes", ErrTooLarge, len(c))
		}
	}
	cs := slices.Clone(r.Concepts)
	slices.Sort(cs)
	return slices.Compact(cs), nil
}

// storedSite is a site rule row as read and checked.
type storedSite struct {
	row, prow int64
	rule      SiteRule
}

func openSiteRule(k *keys, at place, rec []byte) (SiteRule, error) {
	var r SiteRule
	pt, err := openRecord(k.seal, rec, at.ad())
	if err != nil {
		return r, fmt.Errorf("site rule %d: %w", at.id, err)
	}
	defer clear(pt)
	if err := json.Unmarshal(pt, &r); err != nil {
		return r, fmt.Errorf("site rule %d: %w: %w", at.id, ErrCorrupt, err)
	}
	return r, nil
}

// findSiteRule returns the row of origin's rule, checked against the
// manifest; ok is false when the vault has none.
func findSiteRule(o *op, origin string) (s storedSite, ok bool, err error) {
	lookup := siteLookup(o.k, origin)
	var ver int64
	var rec []byte
	err = o.q.QueryRow("SELECT id, profile, ver, rec FROM sites WHERE lookup = ?", lookup).Scan(&s.row, &s.prow, &ver, &rec)
	if errors.Is(err, sql.ErrNoRows) {
		c := countKey{kind: countSite}
		copy(c.lookup[:], lookup)
		if o.countOf(c) != 0 {
			return s, false, fmt.Errorf("site rule for %q: %w: its row is missing", origin, ErrTampered)
		}
		return s, false, nil
	}
	if err != nil {
		return s, false, sqlErr(err)
	}
	if err := o.check(rowRef{tabSites, s.row}, uint64(ver), s.prow, 0); err != nil {
		return s, false, err
	}
	if s.rule, err = openSiteRule(o.k, sitePlace(s.row, s.prow, uint64(ver)), rec); err != nil {
		return s, false, err
	}
	if s.rule.Origin != origin {
		return s, false, fmt.Errorf("site rule %d: %w: record does not match its index", s.row, ErrTampered)
	}
	return s, true, nil
}

// writeSiteRule seals r into row (a new row when row is 0) under the
// profile row prow.
func writeSiteRule(o *op, row, prow int64, r SiteRule) error {
	if row == 0 {
		row = o.d.nextID(tabSites)
	}
	ver := o.d.nextVersion()
	rec, err := sealJSON(o.k, r, sitePlace(row, prow, ver))
	if err != nil {
		return err
	}
	lookup := siteLookup(o.k, r.Origin)
	if _, err := o.tx.Exec("INSERT INTO sites (id, profile, lookup, ver, rec) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET profile = excluded.profile, ver = excluded.ver, rec = excluded.rec",
		row, prow, lookup, int64(ver), rec); err != nil {
		return sqlErr(err)
	}
	return o.d.put(&storedRow{ref: rowRef{tabSites, row}, ver: ver, parent: prow, lookup: lookup, rec: rec})
}

// SiteRules returns every site rule, sorted by origin. Every row is checked
// against the manifest: a rule added, deleted, replayed or moved outside
// Tessera gives ErrTampered.
func (v *Vault) SiteRules() ([]SiteRule, error) {
	var out []SiteRule
	err := v.withRead("read site rules", func(o *op) error {
		return scanSiteRules(o, func(_ int64, r SiteRule) { out = append(out, r) })
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b SiteRule) int { return strings.Compare(a.Origin, b.Origin) })
	return out, nil
}

// scanSiteRules calls f with every site rule and its profile row, each
// checked against the manifest.
func scanSiteRules(o *op, f func(prow int64, r SiteRule)) error {
	rows, err := o.q.Query("SELECT id, profile, ver, rec FROM sites")
	if err != nil {
		return sqlErr(err)
	}
	defer rows.Close()
	n := int64(0)
	for rows.Next() {
		var row, prow, ver int64
		var rec []byte
		if err := rows.Scan(&row, &prow, &ver, &rec); err != nil {
			return sqlErr(err)
		}
		if err := o.check(rowRef{tabSites, row}, uint64(ver), prow, 0); err != nil {
			return err
		}
		r, err := openSiteRule(o.k, sitePlace(row, prow, uint64(ver)), rec)
		if err != nil {
			return err
		}
		f(prow, r)
		n++
	}
	if err := rows.Err(); err != nil {
		return sqlErr(err)
	}
	if n != o.m.count[tabSites] {
		return fmt.Errorf("%w: %d site rules where Tessera wrote %d", ErrTampered, n, o.m.count[tabSites])
	}
	return nil
}

// SiteRule returns the rule of an exact origin; ok is false when there is
// none.
func (v *Vault) SiteRule(origin string) (r SiteRule, ok bool, err error) {
	err = v.withRead("read site rule", func(o *op) error {
		s, found, err := findSiteRule(o, origin)
		r, ok = s.rule, found
		return err
	})
	if err != nil {
		return SiteRule{}, false, err
	}
	return r, ok, nil
}

// SetSiteRule stores r, replacing the rule of the same origin if there is
// one. The origin must be exactly "scheme://host[:port]" and at most
// MaxOriginSize bytes; the rule needs 1 to MaxSiteConcepts concepts (kept
// sorted, without duplicates) and an existing profile (else ErrNotFound). A
// zero Created becomes the replaced rule's, or now for a new rule; LastUsed
// is stored as given.
func (v *Vault) SetSiteRule(r SiteRule) error {
	return v.withTx("set site rule", func(o *op) error {
		cs, err := checkSiteRule(r)
		if err != nil {
			return err
		}
		r.Concepts = cs
		prow, _, err := findProfile(o, r.Profile)
		if err != nil {
			return err
		}
		cur, ok, err := findSiteRule(o, r.Origin)
		if err != nil {
			return err
		}
		if r.Created.IsZero() {
			r.Created = v.opts.Clock.Now().UTC()
			if ok {
				r.Created = cur.rule.Created
			}
		}
		return writeSiteRule(o, cur.row, prow, r)
	})
}

// DeleteSiteRule deletes the rule of an exact origin, or returns
// ErrNotFound when there is none.
func (v *Vault) DeleteSiteRule(origin string) error {
	return v.withTx("delete site rule", func(o *op) error {
		cur, ok, err := findSiteRule(o, origin)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("site rule for %q: %w", origin, ErrNotFound)
		}
		_, err = deleteRows(o, tabSites, "id = ?", cur.row)
		return err
	})
}

// TouchSiteRule sets the LastUsed time of an exact origin's rule to now,
// or returns ErrNotFound when there is none.
func (v *Vault) TouchSiteRule(origin string) error {
	return v.withTx("touch site rule", func(o *op) error {
		cur, ok, err := findSiteRule(o, origin)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("site rule for %q: %w", origin, ErrNotFound)
		}
		cur.rule.LastUsed = v.opts.Clock.Now().UTC()
		return writeSiteRule(o, cur.row, cur.prow, cur.rule)
	})
}

// deleteSiteRulesOf deletes the site rules of the profile row prow, in the
// transaction that deletes the profile. A rule of that profile the manifest
// knows but the query did not find was moved outside Tessera: ErrTampered.
func deleteSiteRulesOf(o *op, prow int64) error {
	if _, err := deleteRows(o, tabSites, "profile = ?", prow); err != nil {
		return err
	}
	if n := o.countOf(countKey{kind: countSites, parent: prow}); n != 0 {
		return fmt.Errorf("%w: %d site rules of the profile are missing", ErrTampered, n)
	}
	return nil
}
