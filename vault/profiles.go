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

func sealJSON(k *keys, v any, table string, ids ...int64) ([]byte, error) {
	pt, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode %s record: %w", table, err)
	}
	defer clear(pt)
	return sealRecord(k.seal, pt, recordAD(table, ids...))
}

func openProfile(k *keys, id int64, rec []byte) (profileRec, error) {
	var p profileRec
	pt, err := openRecord(k.seal, rec, recordAD("profiles", id))
	if err != nil {
		return p, fmt.Errorf("profile %d: %w", id, err)
	}
	if err := json.Unmarshal(pt, &p); err != nil {
		return p, fmt.Errorf("profile %d: %w: %w", id, ErrCorrupt, err)
	}
	return p, nil
}

func (v *Vault) now() string { return v.opts.Clock.Now().UTC().Format(time.RFC3339) }

// withTx runs f in one write transaction on the unlocked vault.
func (v *Vault) withTx(op string, f func(tx *sql.Tx, k *keys) error) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	k, err := v.keysLocked()
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	tx, err := v.db.Begin()
	if err != nil {
		return fmt.Errorf("%s: %w", op, sqlErr(err))
	}
	defer tx.Rollback()
	if err := f(tx, k); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("%s: %w", op, sqlErr(err))
	}
	return nil
}

// withRead runs f against the unlocked vault for reading.
func (v *Vault) withRead(op string, f func(k *keys) error) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	k, err := v.keysLocked()
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if err := f(k); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

type dbq interface {
	QueryRow(query string, args ...any) *sql.Row
	Query(query string, args ...any) (*sql.Rows, error)
}

// findProfile returns the row id and record of a profile by its id.
func findProfile(q dbq, k *keys, id string) (int64, profileRec, error) {
	var row int64
	var rec []byte
	err := q.QueryRow("SELECT id, rec FROM profiles WHERE lookup = ?", k.lookupKey("profile", id)).Scan(&row, &rec)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, profileRec{}, fmt.Errorf("profile %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return 0, profileRec{}, sqlErr(err)
	}
	p, err := openProfile(k, row, rec)
	if err == nil && p.ID != id {
		err = fmt.Errorf("profile %d: %w: record does not match its index", row, ErrCorrupt)
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
	err := v.withTx("create profile", func(tx *sql.Tx, k *keys) error {
		p, _, err := v.createProfileTx(tx, k, id, label)
		out = profile.UserProfile{ID: p.ID, Label: p.Label, Created: p.Created, Updated: p.Updated,
			Concepts: map[string]profile.Entry{}, Fields: map[string]profile.Entry{}}
		return err
	})
	return out, err
}

func (v *Vault) createProfileTx(tx *sql.Tx, k *keys, id, label string) (profileRec, int64, error) {
	if id == "" {
		id = newProfileID()
	}
	if len(id) > maxProfileID {
		return profileRec{}, 0, fmt.Errorf("profile id: %w", ErrTooLarge)
	}
	if err := checkLabel(label); err != nil {
		return profileRec{}, 0, err
	}
	if _, _, err := findProfile(tx, k, id); err == nil {
		return profileRec{}, 0, fmt.Errorf("profile %q already exists", id)
	} else if !errors.Is(err, ErrNotFound) {
		return profileRec{}, 0, err
	}
	row, err := nextID(tx, "profiles")
	if err != nil {
		return profileRec{}, 0, err
	}
	now := v.now()
	p := profileRec{ID: id, Label: label, Created: now, Updated: now}
	rec, err := sealJSON(k, p, "profiles", row)
	if err != nil {
		return p, 0, err
	}
	if _, err := tx.Exec("INSERT INTO profiles (id, lookup, rec) VALUES (?, ?, ?)", row, k.lookupKey("profile", id), rec); err != nil {
		return p, 0, sqlErr(err)
	}
	return p, row, nil
}

// RenameProfile changes a profile's label.
func (v *Vault) RenameProfile(id, label string) error {
	return v.withTx("rename profile", func(tx *sql.Tx, k *keys) error {
		if err := checkLabel(label); err != nil {
			return err
		}
		row, p, err := findProfile(tx, k, id)
		if err != nil {
			return err
		}
		p.Label = label
		return v.touchProfileTx(tx, k, row, p)
	})
}

func (v *Vault) touchProfileTx(tx *sql.Tx, k *keys, row int64, p profileRec) error {
	p.Updated = v.now()
	rec, err := sealJSON(k, p, "profiles", row)
	if err != nil {
		return err
	}
	_, err = tx.Exec("UPDATE profiles SET rec = ? WHERE id = ?", rec, row)
	return sqlErr(err)
}

// DeleteProfile deletes a profile and all its entries.
func (v *Vault) DeleteProfile(id string) error {
	return v.withTx("delete profile", func(tx *sql.Tx, k *keys) error {
		row, _, err := findProfile(tx, k, id)
		if err != nil {
			return err
		}
		_, err = tx.Exec("DELETE FROM profiles WHERE id = ?", row)
		return sqlErr(err)
	})
}

// Profiles returns every profile with its current entries (not the
// candidates), sorted by label.
func (v *Vault) Profiles() ([]profile.UserProfile, error) {
	var out []profile.UserProfile
	err := v.withRead("load profiles", func(k *keys) error {
		rows, err := v.db.Query("SELECT id, rec FROM profiles")
		if err != nil {
			return sqlErr(err)
		}
		byRow := map[int64]int{}
		for rows.Next() {
			var row int64
			var rec []byte
			if err := rows.Scan(&row, &rec); err != nil {
				rows.Close()
				return sqlErr(err)
			}
			p, err := openProfile(k, row, rec)
			if err != nil {
				rows.Close()
				return err
			}
			byRow[row] = len(out)
			out = append(out, newUserProfile(p))
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return sqlErr(err)
		}
		return loadEntries(v.db, k, "SELECT id, profile, rec FROM entries WHERE rank = 0", nil, func(prow int64) *profile.UserProfile {
			if i, ok := byRow[prow]; ok {
				return &out[i]
			}
			return nil
		})
	})
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Label != out[j].Label {
			return out[i].Label < out[j].Label
		}
		return out[i].ID < out[j].ID
	})
	return out, err
}

func newUserProfile(p profileRec) profile.UserProfile {
	return profile.UserProfile{ID: p.ID, Label: p.Label, Created: p.Created, Updated: p.Updated,
		Concepts: map[string]profile.Entry{}, Fields: map[string]profile.Entry{}}
}

func loadEntries(q dbq, k *keys, query string, args []any, dest func(prow int64) *profile.UserProfile) error {
	rows, err := q.Query(query, args...)
	if err != nil {
		return sqlErr(err)
	}
	defer rows.Close()
	for rows.Next() {
		var row, prow int64
		var rec []byte
		if err := rows.Scan(&row, &prow, &rec); err != nil {
			return sqlErr(err)
		}
		e, err := openEntry(k, row, prow, 0, rec)
		if err != nil {
			return err
		}
		p := dest(prow)
		if p == nil {
			return fmt.Errorf("entry %d: %w: no profile %d", row, ErrCorrupt, prow)
		}
		if e.Field {
			p.Fields[e.Name] = e.Entry
		} else {
			p.Concepts[e.Name] = e.Entry
		}
	}
	return sqlErr(rows.Err())
}

// Profile returns one profile with its current entries.
func (v *Vault) Profile(id string) (profile.UserProfile, error) {
	var out profile.UserProfile
	err := v.withRead("load profile", func(k *keys) error {
		row, p, err := findProfile(v.db, k, id)
		if err != nil {
			return err
		}
		out = newUserProfile(p)
		return loadEntries(v.db, k, "SELECT id, profile, rec FROM entries WHERE profile = ? AND rank = 0", []any{row},
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
// rank order.
func entryRows(q dbq, k *keys, prow int64, pid string, key Key) ([]storedEntry, error) {
	rows, err := q.Query("SELECT id, rank, rec FROM entries WHERE profile = ? AND lookup = ? ORDER BY rank", prow, entryLookup(k, pid, key))
	if err != nil {
		return nil, sqlErr(err)
	}
	defer rows.Close()
	var out []storedEntry
	for rows.Next() {
		var s storedEntry
		var rec []byte
		if err := rows.Scan(&s.row, &s.rank, &rec); err != nil {
			return nil, sqlErr(err)
		}
		if s.rec, err = openEntry(k, s.row, prow, s.rank, rec); err != nil {
			return nil, err
		}
		if s.rec.key() != key {
			return nil, fmt.Errorf("entry %d: %w: record does not match its index", s.row, ErrCorrupt)
		}
		out = append(out, s)
	}
	return out, sqlErr(rows.Err())
}

func putEntryTx(tx *sql.Tx, k *keys, prow int64, pid string, row, rank int64, key Key, e profile.Entry) error {
	if row == 0 {
		var err error
		if row, err = nextID(tx, "entries"); err != nil {
			return err
		}
	}
	rec, err := sealEntry(k, entryRec{Field: key.Field, Name: key.Name, Entry: e}, row, prow, rank)
	if err != nil {
		return err
	}
	_, err = tx.Exec("INSERT INTO entries (id, profile, lookup, rank, rec) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET rank = excluded.rank, rec = excluded.rec",
		row, prow, entryLookup(k, pid, key), rank, rec)
	return sqlErr(err)
}

// SetEntry sets the current value of key in a profile, as the person's own
// edit: it replaces the current value and keeps any candidates.
func (v *Vault) SetEntry(profileID string, key Key, e profile.Entry) error {
	return v.withTx("set entry", func(tx *sql.Tx, k *keys) error {
		if err := checkEntry(key, e); err != nil {
			return err
		}
		prow, p, err := findProfile(tx, k, profileID)
		if err != nil {
			return err
		}
		cur, err := entryRows(tx, k, prow, profileID, key)
		if err != nil {
			return err
		}
		var row int64
		if len(cur) > 0 && cur[0].rank == 0 {
			row = cur[0].row
		}
		if err := putEntryTx(tx, k, prow, profileID, row, 0, key, e); err != nil {
			return err
		}
		return v.touchProfileTx(tx, k, prow, p)
	})
}

// Entry returns the current value of key in a profile.
func (v *Vault) Entry(profileID string, key Key) (profile.Entry, error) {
	var out profile.Entry
	err := v.withRead("get entry", func(k *keys) error {
		prow, _, err := findProfile(v.db, k, profileID)
		if err != nil {
			return err
		}
		cur, err := entryRows(v.db, k, prow, profileID, key)
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
	err := v.withRead("get candidates", func(k *keys) error {
		prow, _, err := findProfile(v.db, k, profileID)
		if err != nil {
			return err
		}
		cur, err := entryRows(v.db, k, prow, profileID, key)
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
	return v.withTx("promote candidate", func(tx *sql.Tx, k *keys) error {
		prow, p, err := findProfile(tx, k, profileID)
		if err != nil {
			return err
		}
		cur, err := entryRows(tx, k, prow, profileID, key)
		if err != nil {
			return err
		}
		if len(cur) == 0 || cur[0].rank != 0 || i < 0 || i+1 >= len(cur) {
			return fmt.Errorf("%s candidate %d: %w", key, i, ErrNotFound)
		}
		a, b := cur[0], cur[i+1]
		// Park the current row at an unused rank first: (profile, lookup,
		// rank) is unique and the swap must not collide with itself.
		if _, err := tx.Exec("UPDATE entries SET rank = -1 WHERE id = ?", a.row); err != nil {
			return sqlErr(err)
		}
		if err := putEntryTx(tx, k, prow, profileID, b.row, 0, key, b.rec.Entry); err != nil {
			return err
		}
		if err := putEntryTx(tx, k, prow, profileID, a.row, b.rank, key, a.rec.Entry); err != nil {
			return err
		}
		return v.touchProfileTx(tx, k, prow, p)
	})
}

// DeleteEntry deletes key from a profile, its candidates included.
func (v *Vault) DeleteEntry(profileID string, key Key) error {
	return v.withTx("delete entry", func(tx *sql.Tx, k *keys) error {
		prow, p, err := findProfile(tx, k, profileID)
		if err != nil {
			return err
		}
		res, err := tx.Exec("DELETE FROM entries WHERE profile = ? AND lookup = ?", prow, entryLookup(k, profileID, key))
		if err != nil {
			return sqlErr(err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("%s: %w", key, ErrNotFound)
		}
		return v.touchProfileTx(tx, k, prow, p)
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
	err := v.withTx("learn", func(tx *sql.Tx, k *keys) error {
		prow, p, err := findProfile(tx, k, profileID)
		if err != nil {
			return err
		}
		for _, o := range obs {
			key := ConceptKey(o.Concept)
			if o.Concept == "" {
				key = FieldKey(o.FieldPath)
			}
			conf := o.Confidence
			if conf == 0 {
				conf = 1
			}
			e := profile.Entry{Value: o.Value, Confidence: conf, Source: o.Source, LastUsed: v.now(), Verified: true}
			if e.Source.Timestamp == "" {
				e.Source.Timestamp = v.now()
			}
			res, err := learnTx(tx, k, prow, profileID, key, e)
			if err != nil {
				return err
			}
			out = append(out, LearnResult{Key: key, Outcome: res})
		}
		return v.touchProfileTx(tx, k, prow, p)
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

func learnTx(tx *sql.Tx, k *keys, prow int64, pid string, key Key, e profile.Entry) (LearnOutcome, error) {
	if err := checkEntry(key, e); err != nil {
		return "", err
	}
	cur, err := entryRows(tx, k, prow, pid, key)
	if err != nil {
		return "", err
	}
	if len(cur) == 0 || cur[0].rank != 0 {
		return Learned, putEntryTx(tx, k, prow, pid, 0, 0, key, e)
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
		return Confirmed, putEntryTx(tx, k, prow, pid, s.row, 0, key, s.rec.Entry)
	}
	if len(cur) > MaxCandidates {
		// Bounded: the oldest candidate gives way; the current value, which
		// the person chose, is never the one dropped.
		if _, err := tx.Exec("DELETE FROM entries WHERE id = ?", cur[1].row); err != nil {
			return "", sqlErr(err)
		}
	}
	return Candidate, putEntryTx(tx, k, prow, pid, 0, cur[len(cur)-1].rank+1, key, e)
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
	err := v.withTx("import", func(tx *sql.Tx, k *keys) error {
		for _, up := range ps {
			if len(up.Concepts)+len(up.Fields) > MaxEntries {
				return fmt.Errorf("profile %q: %d entries: %w", up.ID, len(up.Concepts)+len(up.Fields), ErrTooLarge)
			}
			prow, p, err := findProfile(tx, k, up.ID)
			if errors.Is(err, ErrNotFound) || up.ID == "" {
				label := up.Label
				if label == "" {
					label = "Imported"
				}
				if p, prow, err = v.createProfileTx(tx, k, up.ID, label); err != nil {
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
					out, err := learnTx(tx, k, prow, p.ID, Key{Field: part.field, Name: n}, part.m[n])
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
			if err := v.touchProfileTx(tx, k, prow, p); err != nil {
				return err
			}
		}
		return nil
	})
	return res, err
}
