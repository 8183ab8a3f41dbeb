package vault

import (
	"bytes"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/tessera-app/tessera/profile"
)

// Limits on what one profile may hold; imports and writes beyond them fail
// with ErrTooLarge.
const (
	MaxLabelSize  = 1 << 10
	MaxKeySize    = 2 << 10
	MaxValueSize  = 64 << 10
	MaxEntries    = 10000
	MaxCandidates = 8
	maxProfileID  = 128
)

// A Key names an entry of a profile: a concept IRI, or a form field path
// when no concept is known (Assist §6.1 concepts and fields).
type Key struct {
	// Field reports whether Name is a field path rather than a concept IRI.
	Field bool
	Name  string
}

// ConceptKey returns the key of a concept IRI.
func ConceptKey(iri string) Key { return Key{Name: iri} }

// FieldKey returns the key of a form field path.
func FieldKey(path string) Key { return Key{Field: true, Name: path} }

// String returns "concept:IRI" or "field:PATH".
func (k Key) String() string {
	if k.Field {
		return "field:" + k.Name
	}
	return "concept:" + k.Name
}

func (k Key) kind() string {
	if k.Field {
		return "field"
	}
	return "concept"
}

// profileRec is what a profiles row seals.
type profileRec struct {
	ID      string `json:"id"`
	Label   string `json:"label"`
	Created string `json:"created"`
	Updated string `json:"updated"`
}

// entryRec is what an entries row seals: the key as well as the entry, so
// the key never needs to be stored in the clear.
type entryRec struct {
	Field bool          `json:"field,omitempty"`
	Name  string        `json:"name"`
	Entry profile.Entry `json:"entry"`
}

func (e entryRec) key() Key { return Key{Field: e.Field, Name: e.Name} }

func entryLookup(k *keys, profileID string, key Key) []byte {
	return k.lookupKey("entry", profileID, key.kind(), key.Name)
}

func sealJSON(k *keys, v any, at place) ([]byte, error) {
	pt, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode %s record: %w", at.table, err)
	}
	defer clear(pt)
	return sealRecord(k.seal, pt, at.ad())
}

func openProfile(k *keys, at place, rec []byte) (profileRec, error) {
	var p profileRec
	pt, err := openRecord(k.seal, rec, at.ad())
	if err != nil {
		return p, fmt.Errorf("profile %d: %w", at.id, err)
	}
	if err := json.Unmarshal(pt, &p); err != nil {
		return p, fmt.Errorf("profile %d: %w: %w", at.id, ErrCorrupt, err)
	}
	return p, nil
}

func (v *Vault) now() string { return v.opts.Clock.Now().UTC().Format(time.RFC3339) }

// An op is one operation on the unlocked vault: the keys, the verified
// manifest, and for a write the transaction and its changes to the manifest.
type op struct {
	q  dbq     // the database, or the write transaction
	tx *sql.Tx // nil for reads
	k  *keys
	m  *manifest
	d  *delta // nil for reads
}

// check returns an error wrapping ErrTampered unless the row read is the
// one the manifest knows at that id.
func (o *op) check(ref rowRef, ver uint64, parent, rank int64) error {
	var s rowState
	var ok bool
	if o.d != nil {
		s, ok = o.d.row(ref)
	} else {
		s, ok = o.m.rows[ref]
	}
	return checkRow(s, ok, ref, ver, parent, rank)
}

// countOf returns how many rows the manifest knows under c.
func (o *op) countOf(c countKey) int {
	if o.d != nil {
		return o.d.countOf(c)
	}
	return o.m.counts[c]
}

// withTx runs f in one write transaction on the unlocked vault; the
// manifest is rewritten in the same transaction.
func (v *Vault) withTx(name string, f func(o *op) error) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	k, err := v.keysLocked()
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	tx, err := v.db.Begin()
	if err != nil {
		return fmt.Errorf("%s: %w", name, sqlErr(err))
	}
	defer tx.Rollback()
	o := &op{q: tx, tx: tx, k: k, m: v.m, d: newDelta(v.m, k)}
	if v.counter != nil {
		o.d.flags |= flagCounter
	}
	if err := f(o); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := o.d.write(tx, k); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("%s: %w", name, sqlErr(err))
	}
	o.d.apply()
	v.counter.advance(v.m.seq)
	return nil
}

// withRead runs f against the unlocked vault for reading.
func (v *Vault) withRead(name string, f func(o *op) error) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	k, err := v.keysLocked()
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := f(&op{q: v.db, k: k, m: v.m}); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

type dbq interface {
	QueryRow(query string, args ...any) *sql.Row
	Query(query string, args ...any) (*sql.Rows, error)
}

// findProfile returns the row id and record of a profile by its id.
func findProfile(o *op, id string) (int64, profileRec, error) {
	var row, ver int64
	var rec []byte
	lookup := o.k.lookupKey("profile", id)
	err := o.q.QueryRow("SELECT id, ver, rec FROM profiles WHERE lookup = ?", lookup).Scan(&row, &ver, &rec)
	if errors.Is(err, sql.ErrNoRows) {
		c := countKey{kind: countProfile}
		copy(c.lookup[:], lookup)
		if o.countOf(c) != 0 {
			return 0, profileRec{}, fmt.Errorf("profile %q: %w: its row is missing", id, ErrTampered)
		}
		return 0, profileRec{}, fmt.Errorf("profile %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return 0, profileRec{}, sqlErr(err)
	}
	if err := o.check(rowRef{tabProfiles, row}, uint64(ver), 0, 0); err != nil {
		return 0, profileRec{}, err
	}
	p, err := openProfile(o.k, profilePlace(row, uint64(ver)), rec)
	if err == nil && p.ID != id {
		err = fmt.Errorf("profile %d: %w: record does not match its index", row, ErrTampered)
	}
	return row, p, err
}

func checkLabel(label string) error {
	if label == "" {
		return errors.New("profile label is empty")
	}
	if len(label) > MaxLabelSize {
		return fmt.Errorf("profile label: %w", ErrTooLarge)
	}
	return nil
}

func newProfileID() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// CreateProfile adds an empty profile. An empty id gets a random one. It
// returns the new profile.
func (v *Vault) CreateProfile(id, label string) (profile.UserProfile, error) {
	var out profile.UserProfile
	err := v.withTx("create profile", func(o *op) error {
		p, _, err := v.createProfileTx(o, id, label)
		out = profile.UserProfile{ID: p.ID, Label: p.Label, Created: p.Created, Updated: p.Updated,
			Concepts: map[string]profile.Entry{}, Fields: map[string]profile.Entry{}}
		return err
	})
	return out, err
}

func (v *Vault) createProfileTx(o *op, id, label string) (profileRec, int64, error) {
	if id == "" {
		id = newProfileID()
	}
	if len(id) > maxProfileID {
		return profileRec{}, 0, fmt.Errorf("profile id: %w", ErrTooLarge)
	}
	if err := checkLabel(label); err != nil {
		return profileRec{}, 0, err
	}
	if _, _, err := findProfile(o, id); err == nil {
		return profileRec{}, 0, fmt.Errorf("profile %q already exists", id)
	} else if !errors.Is(err, ErrNotFound) {
		return profileRec{}, 0, err
	}
	now := v.now()
	p := profileRec{ID: id, Label: label, Created: now, Updated: now}
	row := o.d.nextID(tabProfiles)
	return p, row, writeProfile(o, row, p)
}

// writeProfile seals p into profile row, inserting the row when it is new.
func writeProfile(o *op, row int64, p profileRec) error {
	ver := o.d.nextVersion()
	rec, err := sealJSON(o.k, p, profilePlace(row, ver))
	if err != nil {
		return err
	}
	lookup := o.k.lookupKey("profile", p.ID)
	if _, err := o.tx.Exec("INSERT INTO profiles (id, lookup, ver, rec) VALUES (?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET ver = excluded.ver, rec = excluded.rec",
		row, lookup, int64(ver), rec); err != nil {
		return sqlErr(err)
	}
	return o.d.put(&storedRow{ref: rowRef{tabProfiles, row}, ver: ver, lookup: lookup, rec: rec})
}

// RenameProfile changes a profile's label.
func (v *Vault) RenameProfile(id, label string) error {
	return v.withTx("rename profile", func(o *op) error {
		if err := checkLabel(label); err != nil {
			return err
		}
		row, p, err := findProfile(o, id)
		if err != nil {
			return err
		}
		p.Label = label
		return v.touchProfileTx(o, row, p)
	})
}

func (v *Vault) touchProfileTx(o *op, row int64, p profileRec) error {
	p.Updated = v.now()
	return writeProfile(o, row, p)
}

// deletedColumns are what a DELETE returns of each table: the row's id,
// version, parent and rank.
var deletedColumns = [numTables]string{
	"id, ver, 0, 0",
	"id, ver, profile, rank",
	"id, ver, 0, 0",
	"id, ver, profile, 0",
}

// deleteRows deletes the rows of a table that match where, and takes them
// out of the manifest. A deleted row that is not the one the manifest knows
// (moved under the parent being deleted, say) is ErrTampered, and the
// transaction is not committed.
func deleteRows(o *op, t uint8, where string, args ...any) (int, error) {
	rows, err := o.tx.Query("DELETE FROM "+tableNames[t]+" WHERE "+where+" RETURNING "+deletedColumns[t], args...)
	if err != nil {
		return 0, sqlErr(err)
	}
	type deleted struct {
		id, ver, parent, rank int64
	}
	var del []deleted
	for rows.Next() {
		var d deleted
		if err := rows.Scan(&d.id, &d.ver, &d.parent, &d.rank); err != nil {
			rows.Close()
			return 0, sqlErr(err)
		}
		del = append(del, d)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, sqlErr(err)
	}
	for _, d := range del {
		ref := rowRef{t, d.id}
		if err := o.check(ref, uint64(d.ver), d.parent, d.rank); err != nil {
			return 0, err
		}
		if err := o.d.remove(ref); err != nil {
			return 0, err
		}
	}
	return len(del), nil
}

// DeleteProfile deletes a profile, all its entries and its site rules.
func (v *Vault) DeleteProfile(id string) error {
	return v.withTx("delete profile", func(o *op) error {
		row, _, err := findProfile(o, id)
		if err != nil {
			return err
		}
		if _, err := deleteRows(o, tabEntries, "profile = ?", row); err != nil {
			return err
		}
		if err := deleteSiteRulesOf(o, row); err != nil {
			return err
		}
		_, err = deleteRows(o, tabProfiles, "id = ?", row)
		return err
	})
}

// Profiles returns every profile with its current entries (not the
// candidates), sorted by label.
func (v *Vault) Profiles() ([]profile.UserProfile, error) {
	var out []profile.UserProfile
	err := v.withRead("load profiles", func(o *op) error {
		byRow := map[int64]int{}
		err := scanProfiles(o, func(row int64, p profileRec) {
			byRow[row] = len(out)
			out = append(out, newUserProfile(p))
		})
		if err != nil {
			return err
		}
		want := 0
		for row := range byRow {
			want += o.countOf(countKey{kind: countCurrents, parent: row})
		}
		return loadEntries(o, "WHERE rank = 0", nil, want, func(prow int64) *profile.UserProfile {
			if i, ok := byRow[prow]; ok {
				return &out[i]
			}
			return nil
		})
	})
	sortProfiles(out, func(p profile.UserProfile) (string, string) { return p.Label, p.ID })
	return out, err
}

func sortProfiles[T any](ps []T, key func(T) (label, id string)) {
	sort.SliceStable(ps, func(i, j int) bool {
		li, ii := key(ps[i])
		lj, ij := key(ps[j])
		if li != lj {
			return li < lj
		}
		return ii < ij
	})
}

// scanProfiles opens every profile record, checking each row and their
// number against the manifest.
func scanProfiles(o *op, f func(row int64, p profileRec)) error {
	rows, err := o.q.Query("SELECT id, ver, rec FROM profiles")
	if err != nil {
		return sqlErr(err)
	}
	defer rows.Close()
	n := int64(0)
	for rows.Next() {
		var row, ver int64
		var rec []byte
		if err := rows.Scan(&row, &ver, &rec); err != nil {
			return sqlErr(err)
		}
		if err := o.check(rowRef{tabProfiles, row}, uint64(ver), 0, 0); err != nil {
			return err
		}
		p, err := openProfile(o.k, profilePlace(row, uint64(ver)), rec)
		if err != nil {
			return err
		}
		f(row, p)
		n++
	}
	if err := rows.Err(); err != nil {
		return sqlErr(err)
	}
	if n != o.m.count[tabProfiles] {
		return fmt.Errorf("%w: %d profile rows where Tessera wrote %d", ErrTampered, n, o.m.count[tabProfiles])
	}
	return nil
}

// A ProfileSummary describes a profile without any of its values.
type ProfileSummary struct {
	ID      string `json:"id"`
	Label   string `json:"label"`
	Created string `json:"created"`
	Updated string `json:"updated"`
	// Entries counts the profile's current values (concepts and fields).
	Entries int `json:"entries"`
	// Candidates counts the learned values waiting beside them.
	Candidates int `json:"candidates"`
}

// ProfileSummaries returns every profile's id, label, dates and entry
// counts, sorted by label. It opens the profile records only: the entries
// are counted, never decrypted. The counts are checked against the
// manifest, so rows deleted or added outside Tessera give ErrTampered.
func (v *Vault) ProfileSummaries() ([]ProfileSummary, error) {
	var out []ProfileSummary
	err := v.withRead("list profiles", func(o *op) error {
		byRow := map[int64]int{}
		err := scanProfiles(o, func(row int64, p profileRec) {
			byRow[row] = len(out)
			out = append(out, ProfileSummary{ID: p.ID, Label: p.Label, Created: p.Created, Updated: p.Updated})
		})
		if err != nil {
			return err
		}
		rows, err := o.q.Query("SELECT profile, rank = 0, COUNT(*) FROM entries GROUP BY profile, rank = 0")
		if err != nil {
			return sqlErr(err)
		}
		defer rows.Close()
		total := int64(0)
		for rows.Next() {
			var prow, n int64
			var current bool
			if err := rows.Scan(&prow, &current, &n); err != nil {
				return sqlErr(err)
			}
			i, ok := byRow[prow]
			if !ok {
				return fmt.Errorf("%w: entries of a profile row %d that does not exist", ErrTampered, prow)
			}
			if current {
				if want := o.countOf(countKey{kind: countCurrents, parent: prow}); int64(want) != n {
					return fmt.Errorf("profile %q: %w: %d current entries where Tessera wrote %d", out[i].ID, ErrTampered, n, want)
				}
				out[i].Entries = int(n)
			} else {
				out[i].Candidates = int(n)
			}
			total += n
		}
		if err := rows.Err(); err != nil {
			return sqlErr(err)
		}
		if total != o.m.count[tabEntries] {
			return fmt.Errorf("%w: %d entry rows where Tessera wrote %d", ErrTampered, total, o.m.count[tabEntries])
		}
		for row, i := range byRow {
			if want := o.countOf(countKey{kind: countCurrents, parent: row}); want != out[i].Entries {
				return fmt.Errorf("profile %q: %w: %d current entries where Tessera wrote %d", out[i].ID, ErrTampered, out[i].Entries, want)
			}
		}
		return nil
	})
	sortProfiles(out, func(p ProfileSummary) (string, string) { return p.Label, p.ID })
	return out, err
}

func newUserProfile(p profileRec) profile.UserProfile {
	return profile.UserProfile{ID: p.ID, Label: p.Label, Created: p.Created, Updated: p.Updated,
		Concepts: map[string]profile.Entry{}, Fields: map[string]profile.Entry{}}
}

// loadEntries loads the entry rows a where clause selects into the profiles
// dest returns, checking each row against the manifest and that there are
// want of them.
func loadEntries(o *op, where string, args []any, want int, dest func(prow int64) *profile.UserProfile) error {
	rows, err := o.q.Query("SELECT id, profile, rank, ver, rec FROM entries "+where, args...)
	if err != nil {
		return sqlErr(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		row, prow, e, err := o.scanEntry(rows)
		if err != nil {
			return err
		}
		p := dest(prow)
		if p == nil {
			return fmt.Errorf("entry %d: %w: no profile %d", row, ErrTampered, prow)
		}
		if e.Field {
			p.Fields[e.Name] = e.Entry
		} else {
			p.Concepts[e.Name] = e.Entry
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return sqlErr(err)
	}
	if n != want {
		return fmt.Errorf("%w: %d entry rows where Tessera wrote %d", ErrTampered, n, want)
	}
	return nil
}

// Profile returns one profile with its current entries.
func (v *Vault) Profile(id string) (profile.UserProfile, error) {
	var out profile.UserProfile
	err := v.withRead("load profile", func(o *op) error {
		row, p, err := findProfile(o, id)
		if err != nil {
			return err
		}
		out = newUserProfile(p)
		return loadEntries(o, "WHERE profile = ? AND rank = 0", []any{row}, o.countOf(countKey{kind: countCurrents, parent: row}),
			func(int64) *profile.UserProfile { return &out })
	})
	return out, err
}

func checkEntry(key Key, e profile.Entry) error {
	if key.Name == "" {
		return errors.New("entry key is empty")
	}
	if len(key.Name) > MaxKeySize {
		return fmt.Errorf("entry key: %w", ErrTooLarge)
	}
	if len(e.Value) > MaxValueSize {
		return fmt.Errorf("entry %s: value: %w", key, ErrTooLarge)
	}
	if !json.Valid(e.Value) {
		return fmt.Errorf("entry %s: value is not JSON", key)
	}
	return nil
}

type storedEntry struct {
	row, rank int64
	rec       entryRec
}

// entryRows returns the current value (rank 0) and candidates of a key, in
// rank order, checked against the manifest: a row replayed, moved or missing
// is ErrTampered, never a value.
func entryRows(o *op, prow int64, pid string, key Key) ([]storedEntry, error) {
	lookup := entryLookup(o.k, pid, key)
	rows, err := o.q.Query("SELECT id, rank, ver, rec FROM entries WHERE profile = ? AND lookup = ? ORDER BY rank", prow, lookup)
	if err != nil {
		return nil, sqlErr(err)
	}
	defer rows.Close()
	var out []storedEntry
	for rows.Next() {
		var s storedEntry
		var ver int64
		var rec []byte
		if err := rows.Scan(&s.row, &s.rank, &ver, &rec); err != nil {
			return nil, sqlErr(err)
		}
		if err := o.check(rowRef{tabEntries, s.row}, uint64(ver), prow, s.rank); err != nil {
			return nil, err
		}
		if s.rec, err = openEntry(o.k, entryPlace(s.row, prow, s.rank, uint64(ver)), rec); err != nil {
			return nil, err
		}
		if s.rec.key() != key {
			return nil, fmt.Errorf("entry %d: %w: record does not match its index", s.row, ErrTampered)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, sqlErr(err)
	}
	c := countKey{kind: countKeyRows, parent: prow}
	copy(c.lookup[:], lookup)
	if want := o.countOf(c); want != len(out) {
		return nil, fmt.Errorf("%s: %w: %d rows where Tessera wrote %d", key, ErrTampered, len(out), want)
	}
	return out, nil
}

// putEntryTx seals an entry into row (a new row when row is 0).
func putEntryTx(o *op, prow int64, pid string, row, rank int64, key Key, e profile.Entry) error {
	if row == 0 {
		row = o.d.nextID(tabEntries)
	}
	ver := o.d.nextVersion()
	rec, err := sealEntry(o.k, entryRec{Field: key.Field, Name: key.Name, Entry: e}, entryPlace(row, prow, rank, ver))
	if err != nil {
		return err
	}
	lookup := entryLookup(o.k, pid, key)
	if _, err = o.tx.Exec("INSERT INTO entries (id, profile, lookup, rank, ver, rec) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET rank = excluded.rank, ver = excluded.ver, rec = excluded.rec",
		row, prow, lookup, rank, int64(ver), rec); err != nil {
		return sqlErr(err)
	}
	return o.d.put(&storedRow{ref: rowRef{tabEntries, row}, ver: ver, parent: prow, rank: rank, lookup: lookup, rec: rec})
}

// SetEntry sets the current value of key in a profile, as the person's own
// edit: it replaces the current value and keeps any candidates.
func (v *Vault) SetEntry(profileID string, key Key, e profile.Entry) error {
	return v.withTx("set entry", func(o *op) error {
		if err := checkEntry(key, e); err != nil {
			return err
		}
		prow, p, err := findProfile(o, profileID)
		if err != nil {
			return err
		}
		cur, err := entryRows(o, prow, profileID, key)
		if err != nil {
			return err
		}
		var row int64
		if len(cur) > 0 && cur[0].rank == 0 {
			row = cur[0].row
		}
		if err := putEntryTx(o, prow, profileID, row, 0, key, e); err != nil {
			return err
		}
		return v.touchProfileTx(o, prow, p)
	})
}

// Entry returns the current value of key in a profile.
func (v *Vault) Entry(profileID string, key Key) (profile.Entry, error) {
	var out profile.Entry
	err := v.withRead("get entry", func(o *op) error {
		prow, _, err := findProfile(o, profileID)
		if err != nil {
			return err
		}
		cur, err := entryRows(o, prow, profileID, key)
		if err != nil {
			return err
		}
		if len(cur) == 0 || cur[0].rank != 0 {
			return fmt.Errorf("%s: %w", key, ErrNotFound)
		}
		out = cur[0].rec.Entry
		return nil
	})
	return out, err
}

// Candidates returns the values learned for key that conflict with its
// current value, oldest first.
func (v *Vault) Candidates(profileID string, key Key) ([]profile.Entry, error) {
	var out []profile.Entry
	err := v.withRead("get candidates", func(o *op) error {
		prow, _, err := findProfile(o, profileID)
		if err != nil {
			return err
		}
		cur, err := entryRows(o, prow, profileID, key)
		for _, s := range cur {
			if s.rank > 0 {
				out = append(out, s.rec.Entry)
			}
		}
		return err
	})
	return out, err
}

// PromoteCandidate makes candidate i (as numbered by Candidates) the current
// value of key; the former current value becomes a candidate in its place.
func (v *Vault) PromoteCandidate(profileID string, key Key, i int) error {
	return v.withTx("promote candidate", func(o *op) error {
		prow, p, err := findProfile(o, profileID)
		if err != nil {
			return err
		}
		cur, err := entryRows(o, prow, profileID, key)
		if err != nil {
			return err
		}
		if len(cur) == 0 || cur[0].rank != 0 || i < 0 || i+1 >= len(cur) {
			return fmt.Errorf("%s candidate %d: %w", key, i, ErrNotFound)
		}
		a, b := cur[0], cur[i+1]
		// Park the current row at an unused rank first: (profile, lookup,
		// rank) is unique and the swap must not collide with itself.
		if _, err := o.tx.Exec("UPDATE entries SET rank = -1 WHERE id = ?", a.row); err != nil {
			return sqlErr(err)
		}
		if err := putEntryTx(o, prow, profileID, b.row, 0, key, b.rec.Entry); err != nil {
			return err
		}
		if err := putEntryTx(o, prow, profileID, a.row, b.rank, key, a.rec.Entry); err != nil {
			return err
		}
		return v.touchProfileTx(o, prow, p)
	})
}

// DeleteEntry deletes key from a profile, its candidates included.
func (v *Vault) DeleteEntry(profileID string, key Key) error {
	return v.withTx("delete entry", func(o *op) error {
		prow, p, err := findProfile(o, profileID)
		if err != nil {
			return err
		}
		cur, err := entryRows(o, prow, profileID, key)
		if err != nil {
			return err
		}
		if len(cur) == 0 {
			return fmt.Errorf("%s: %w", key, ErrNotFound)
		}
		if _, err := deleteRows(o, tabEntries, "profile = ? AND lookup = ?", prow, entryLookup(o.k, profileID, key)); err != nil {
			return err
		}
		return v.touchProfileTx(o, prow, p)
	})
}

// An Observation is one value seen in a submitted form, offered to Learn.
type Observation struct {
	// Concept is the field's concept IRI when its identity is known.
	Concept string
	// FieldPath is the form field path, used when Concept is empty.
	FieldPath string
	Value     json.RawMessage
	Source    profile.Source
	// Confidence in [0,1]; zero means 1 for a person-confirmed save.
	Confidence float64
}

// A LearnOutcome says what Learn did with one observation.
type LearnOutcome string

// Learn outcomes.
const (
	// Learned: the key had no value; the observation is now its value.
	Learned LearnOutcome = "learned"
	// Confirmed: the observation equals the current value, whose lastUsed
	// was refreshed.
	Confirmed LearnOutcome = "confirmed"
	// Candidate: the observation conflicts with the current value and was
	// kept beside it as a candidate.
	Candidate LearnOutcome = "candidate"
	// Known: the observation equals an existing candidate.
	Known LearnOutcome = "known"
)

// A LearnResult is the outcome for one observation, under the key it was
// stored at.
type LearnResult struct {
	Key     Key
	Outcome LearnOutcome
}

// Learn stores observed values in a profile (Assist §6.2): under the
// concept when known, the field path otherwise. A value that conflicts with
// the current one never replaces it; it is kept as a candidate for the
// person to promote. All observations are stored in one transaction.
func (v *Vault) Learn(profileID string, obs []Observation) ([]LearnResult, error) {
	var out []LearnResult
	err := v.withTx("learn", func(o *op) error {
		prow, p, err := findProfile(o, profileID)
		if err != nil {
			return err
		}
		for _, ob := range obs {
			key := ConceptKey(ob.Concept)
			if ob.Concept == "" {
				key = FieldKey(ob.FieldPath)
			}
			conf := ob.Confidence
			if conf == 0 {
				conf = 1
			}
			e := profile.Entry{Value: ob.Value, Confidence: conf, Source: ob.Source, LastUsed: v.now(), Verified: true}
			if e.Source.Timestamp == "" {
				e.Source.Timestamp = v.now()
			}
			res, err := learnTx(o, prow, profileID, key, e)
			if err != nil {
				return err
			}
			out = append(out, LearnResult{Key: key, Outcome: res})
		}
		return v.touchProfileTx(o, prow, p)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func sameValue(a, b json.RawMessage) bool {
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return bytes.Equal(a, b)
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}

func learnTx(o *op, prow int64, pid string, key Key, e profile.Entry) (LearnOutcome, error) {
	if err := checkEntry(key, e); err != nil {
		return "", err
	}
	cur, err := entryRows(o, prow, pid, key)
	if err != nil {
		return "", err
	}
	if len(cur) == 0 || cur[0].rank != 0 {
		return Learned, putEntryTx(o, prow, pid, 0, 0, key, e)
	}
	for _, s := range cur {
		if !sameValue(s.rec.Entry.Value, e.Value) {
			continue
		}
		if s.rank != 0 {
			return Known, nil
		}
		s.rec.Entry.LastUsed = e.LastUsed
		s.rec.Entry.Confidence = max(s.rec.Entry.Confidence, e.Confidence)
		return Confirmed, putEntryTx(o, prow, pid, s.row, 0, key, s.rec.Entry)
	}
	if len(cur) > MaxCandidates {
		// Bounded: the oldest candidate gives way; the current value, which
		// the person chose, is never the one dropped.
		if _, err := deleteRows(o, tabEntries, "id = ?", cur[1].row); err != nil {
			return "", err
		}
	}
	return Candidate, putEntryTx(o, prow, pid, 0, cur[len(cur)-1].rank+1, key, e)
}

// An ImportResult counts what Import did.
type ImportResult struct {
	Created    int `json:"created"`
	Learned    int `json:"learned"`
	Unchanged  int `json:"unchanged"`
	Candidates int `json:"candidates"`
}

// Import merges profiles into the vault in one transaction. A profile whose
// id is new is created; entries of a known profile are learned, so values
// that conflict with what the vault holds become candidates, never
// overwrites.
func (v *Vault) Import(ps []profile.UserProfile) (ImportResult, error) {
	var res ImportResult
	err := v.withTx("import", func(o *op) error {
		for _, up := range ps {
			if len(up.Concepts)+len(up.Fields) > MaxEntries {
				return fmt.Errorf("profile %q: %d entries: %w", up.ID, len(up.Concepts)+len(up.Fields), ErrTooLarge)
			}
			prow, p, err := findProfile(o, up.ID)
			if errors.Is(err, ErrNotFound) || up.ID == "" {
				label := up.Label
				if label == "" {
					label = "Imported"
				}
				if p, prow, err = v.createProfileTx(o, up.ID, label); err != nil {
					return err
				}
				res.Created++
			} else if err != nil {
				return err
			}
			for _, part := range []struct {
				m     map[string]profile.Entry
				field bool
			}{{up.Concepts, false}, {up.Fields, true}} {
				names := make([]string, 0, len(part.m))
				for n := range part.m {
					names = append(names, n)
				}
				sort.Strings(names)
				for _, n := range names {
					out, err := learnTx(o, prow, p.ID, Key{Field: part.field, Name: n}, part.m[n])
					if err != nil {
						return fmt.Errorf("profile %q: %w", p.ID, err)
					}
					switch out {
					case Learned:
						res.Learned++
					case Candidate:
						res.Candidates++
					default:
						res.Unchanged++
					}
				}
			}
			if err := v.touchProfileTx(o, prow, p); err != nil {
				return err
			}
		}
		return nil
	})
	return res, err
}
