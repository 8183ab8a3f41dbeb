package vault

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/tessera-app/tessera/profile"
	"golang.org/x/crypto/chacha20poly1305"
)

// What package devsync needs of the vault to keep it in step with other
// devices: every value of every profile read at once (SyncSnapshot), the
// merged result written back in one transaction with its audit records
// and the sync state (ApplySync), and the sync state itself (the group
// key, the merged state, what was read of each device), sealed in the
// vault file like any record.

// metaSyncState names the meta row of the sealed sync state.
const metaSyncState = "sync_state"

// MaxSyncStateSize bounds the sealed sync state.
const MaxSyncStateSize = 256 << 20

// ErrSyncRace is returned by ApplySync when the vault changed since the
// SyncSnapshot its changes were computed from: sync again.
var ErrSyncRace = errors.New("the vault changed during sync")

// SyncValues are the values of one key of a profile: the current value
// first, then its candidates.
type SyncValues struct {
	Key    Key             `json:"key"`
	Values []profile.Entry `json:"values"`
}

// A SyncProfile is one profile with every value of every key, and the
// site rules that fill from it, sorted by origin.
type SyncProfile struct {
	ID    string       `json:"id"`
	Label string       `json:"label"`
	Keys  []SyncValues `json:"keys"`
	Sites []SiteRule   `json:"sites,omitempty"`
}

// A SyncSnapshot is the whole vault as sync sees it, the sync state, and
// the token ApplySync checks to know nothing was written in between.
type SyncSnapshot struct {
	Profiles []SyncProfile
	// State is the sync state last stored, nil when none.
	State []byte
	Token uint64
}

// SyncSnapshot reads every profile with all its values (candidates too),
// sorted by id and key, every row checked against the manifest.
func (v *Vault) SyncSnapshot() (SyncSnapshot, error) {
	var out SyncSnapshot
	err := v.withRead("read for sync", func(o *op) error {
		byRow := map[int64]int{}
		err := scanProfiles(o, func(row int64, p profileRec) {
			byRow[row] = len(out.Profiles)
			out.Profiles = append(out.Profiles, SyncProfile{ID: p.ID, Label: p.Label})
		})
		if err != nil {
			return err
		}
		rows, err := o.q.Query("SELECT id, profile, rank, ver, rec FROM entries ORDER BY profile, rank")
		if err != nil {
			return sqlErr(err)
		}
		defer rows.Close()
		type kv struct {
			p   int
			key Key
		}
		idx := map[kv]int{}
		n := int64(0)
		for rows.Next() {
			row, prow, e, err := o.scanEntry(rows)
			if err != nil {
				return err
			}
			i, ok := byRow[prow]
			if !ok {
				return fmt.Errorf("entry %d: %w: no profile %d", row, ErrTampered, prow)
			}
			p := &out.Profiles[i]
			j, ok := idx[kv{i, e.key()}]
			if !ok {
				j = len(p.Keys)
				idx[kv{i, e.key()}] = j
				p.Keys = append(p.Keys, SyncValues{Key: e.key()})
			}
			p.Keys[j].Values = append(p.Keys[j].Values, e.Entry)
			n++
		}
		if err := rows.Err(); err != nil {
			return sqlErr(err)
		}
		if n != o.m.count[tabEntries] {
			return fmt.Errorf("%w: %d entry rows where Tessera wrote %d", ErrTampered, n, o.m.count[tabEntries])
		}
		err = scanSiteRules(o, func(prow int64, r SiteRule) {
			if i, ok := byRow[prow]; ok {
				out.Profiles[i].Sites = append(out.Profiles[i].Sites, r)
			}
		})
		if err != nil {
			return err
		}
		if out.State, err = v.syncStateLocked(o.q, o.k, o.m); err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
		out.Token = o.m.seq
		return nil
	})
	sort.Slice(out.Profiles, func(i, j int) bool { return out.Profiles[i].ID < out.Profiles[j].ID })
	for i := range out.Profiles {
		ks := out.Profiles[i].Keys
		sort.Slice(ks, func(a, b int) bool { return ks[a].Key.String() < ks[b].Key.String() })
		ss := out.Profiles[i].Sites
		sort.Slice(ss, func(a, b int) bool { return ss[a].Origin < ss[b].Origin })
	}
	return out, err
}

// A SyncChange is what sync changes of one profile: it deletes it, or
// creates it when missing (named Label), renames it when Label differs,
// gives each key of Keys exactly the values listed (current first; none
// deletes the key), and, with SetSites, gives it exactly the site rules of
// Sites (by origin and concepts; a rule of one of those origins under
// another profile moves here, and the times it was made and last used
// stay this vault's own).
type SyncChange struct {
	Profile  string
	Delete   bool
	Label    string
	Keys     []SyncValues
	SetSites bool
	Sites    []SiteRule
}

// ApplySync writes the changes, the audit records and the new sync state
// in one transaction, covered by the manifest like any write. It returns
// an error wrapping ErrSyncRace, and writes nothing, when the vault was
// written since the SyncSnapshot whose Token it is given.
func (v *Vault) ApplySync(token uint64, changes []SyncChange, audit []Release, state []byte) error {
	return v.withTx("apply sync", func(o *op) error {
		if o.m.seq != token {
			return ErrSyncRace
		}
		for _, c := range changes {
			if err := v.applySyncChange(o, c); err != nil {
				return fmt.Errorf("profile %q: %w", c.Profile, err)
			}
		}
		for _, r := range audit {
			r.Event = EventSync
			if err := v.appendAuditTx(o, r); err != nil {
				return err
			}
		}
		return putSyncState(o.tx, o.k, o.d, state)
	})
}

func (v *Vault) applySyncChange(o *op, c SyncChange) error {
	prow, p, err := findProfile(o, c.Profile)
	missing := errors.Is(err, ErrNotFound)
	if err != nil && !missing {
		return err
	}
	if c.Delete {
		if missing {
			return nil
		}
		if _, err := deleteRows(o, tabEntries, "profile = ?", prow); err != nil {
			return err
		}
		if err := deleteSiteRulesOf(o, prow); err != nil {
			return err
		}
		_, err = deleteRows(o, tabProfiles, "id = ?", prow)
		return err
	}
	if missing {
		label := c.Label
		if label == "" {
			label = "Profile"
		}
		if p, prow, err = v.createProfileTx(o, c.Profile, label); err != nil {
			return err
		}
	} else if c.Label != "" && c.Label != p.Label {
		if err := checkLabel(c.Label); err != nil {
			return err
		}
		p.Label = c.Label
	}
	for _, kv := range c.Keys {
		if len(kv.Values) > 1+MaxCandidates {
			return fmt.Errorf("%s: %d values: %w", kv.Key, len(kv.Values), ErrTooLarge)
		}
		for _, e := range kv.Values {
			if err := checkEntry(kv.Key, e); err != nil {
				return err
			}
		}
		cur, err := entryRows(o, prow, p.ID, kv.Key)
		if err != nil {
			return err
		}
		if len(cur) > 0 {
			if _, err := deleteRows(o, tabEntries, "profile = ? AND lookup = ?", prow, entryLookup(o.k, p.ID, kv.Key)); err != nil {
				return err
			}
		}
		for rank, e := range kv.Values {
			if err := putEntryTx(o, prow, p.ID, 0, int64(rank), kv.Key, e); err != nil {
				return err
			}
		}
	}
	if c.SetSites {
		if err := v.applySyncSites(o, prow, p.ID, c.Sites); err != nil {
			return err
		}
	}
	return v.touchProfileTx(o, prow, p)
}

// applySyncSites gives the profile row prow exactly the site rules rules.
func (v *Vault) applySyncSites(o *op, prow int64, pid string, rules []SiteRule) error {
	had, err := profileSiteRows(o, prow)
	if err != nil {
		return err
	}
	for _, r := range rules {
		r.Profile = pid
		cs, err := checkSiteRule(r)
		if err != nil {
			return err
		}
		r.Concepts = cs
		delete(had, r.Origin)
		cur, ok, err := findSiteRule(o, r.Origin)
		if err != nil {
			return err
		}
		r.Created, r.LastUsed = v.opts.Clock.Now().UTC(), time.Time{}
		if ok {
			if cur.prow == prow && slices.Equal(cur.rule.Concepts, r.Concepts) {
				continue
			}
			r.Created, r.LastUsed = cur.rule.Created, cur.rule.LastUsed
		}
		if err := writeSiteRule(o, cur.row, prow, r); err != nil {
			return err
		}
	}
	for _, row := range had {
		if _, err := deleteRows(o, tabSites, "id = ?", row); err != nil {
			return err
		}
	}
	return nil
}

// profileSiteRows returns the rows of the site rules of profile row prow,
// by origin, each checked against the transaction's manifest.
func profileSiteRows(o *op, prow int64) (map[string]int64, error) {
	rows, err := o.q.Query("SELECT id, ver, rec FROM sites WHERE profile = ?", prow)
	if err != nil {
		return nil, sqlErr(err)
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var row, ver int64
		var rec []byte
		if err := rows.Scan(&row, &ver, &rec); err != nil {
			return nil, sqlErr(err)
		}
		if err := o.check(rowRef{tabSites, row}, uint64(ver), prow, 0); err != nil {
			return nil, err
		}
		r, err := openSiteRule(o.k, sitePlace(row, prow, uint64(ver)), rec)
		if err != nil {
			return nil, err
		}
		out[r.Origin] = row
	}
	if err := rows.Err(); err != nil {
		return nil, sqlErr(err)
	}
	if n := o.countOf(countKey{kind: countSites, parent: prow}); n != len(out) {
		return nil, fmt.Errorf("%w: %d site rules of a profile where Tessera wrote %d", ErrTampered, len(out), n)
	}
	return out, nil
}

// SyncState returns the sync state last stored, or an error wrapping
// ErrNotFound when sync was never set up.
func (v *Vault) SyncState() ([]byte, error) {
	var out []byte
	err := v.withRead("read sync state", func(o *op) error {
		var err error
		out, err = v.syncStateLocked(o.q, o.k, o.m)
		return err
	})
	return out, err
}

// PutSyncState stores the sync state (nil removes it).
func (v *Vault) PutSyncState(state []byte) error {
	return v.withTx("store sync state", func(o *op) error {
		return putSyncState(o.tx, o.k, o.d, state)
	})
}

// syncStateAD is the associated data of the sealed sync state.
var syncStateAD = []byte("tessera-vault/2\x00sync_state")

// errSyncStateChanged says the sealed sync state is not the one the
// manifest names: an older copy put back, or one removed.
var errSyncStateChanged = errors.New("the sync state differs from what Tessera wrote (an older copy put back, or removed)")

// syncStateMAC is what the manifest keeps of a sealed sync state.
func syncStateMAC(k *keys, rec []byte) [32]byte {
	var out [32]byte
	if rec == nil {
		return out
	}
	m := hmac.New(sha256.New, k.mac)
	m.Write([]byte("tessera-vault sync_state\x00"))
	m.Write(rec)
	copy(out[:], m.Sum(nil))
	return out
}

// storedSyncMAC returns the MAC of the sync state in the file (zero when
// there is none).
func storedSyncMAC(q queryer, k *keys) ([32]byte, error) {
	rec, err := getMeta(q, metaSyncState)
	if errors.Is(err, ErrNotFound) {
		return [32]byte{}, nil
	}
	if err != nil {
		return [32]byte{}, err
	}
	return syncStateMAC(k, rec), nil
}

func (v *Vault) syncStateLocked(q dbq, k *keys, m *manifest) ([]byte, error) {
	rec, err := getMeta(q, metaSyncState)
	if errors.Is(err, ErrNotFound) && m.syncMAC != ([32]byte{}) {
		return nil, fmt.Errorf("%w: %w", ErrTampered, errSyncStateChanged)
	}
	if err != nil {
		return nil, err
	}
	if syncStateMAC(k, rec) != m.syncMAC {
		return nil, fmt.Errorf("%w: %w", ErrTampered, errSyncStateChanged)
	}
	return openSyncState(k, rec)
}

func openSyncState(k *keys, rec []byte) ([]byte, error) {
	if len(rec) > MaxSyncStateSize || len(rec) < 1+nonceSize+chacha20poly1305.Overhead || rec[0] != recordFormat {
		return nil, fmt.Errorf("sync state: %w", ErrTampered)
	}
	aead, err := chacha20poly1305.NewX(k.seal)
	if err != nil {
		return nil, err
	}
	pt, err := aead.Open(nil, rec[1:1+nonceSize], rec[1+nonceSize:], syncStateAD)
	if err != nil {
		return nil, fmt.Errorf("sync state: %w: authentication failed", ErrTampered)
	}
	return pt, nil
}

// sealSyncState seals the sync state as a record is sealed, without the
// one-record size limit: the state holds every value of the vault.
func sealSyncState(k *keys, state []byte) ([]byte, error) {
	if len(state) > MaxSyncStateSize-recordOverhead {
		return nil, fmt.Errorf("sync state: %w", ErrTooLarge)
	}
	aead, err := chacha20poly1305.NewX(k.seal)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 1+nonceSize, recordOverhead+len(state))
	out[0] = recordFormat
	if _, err := rand.Read(out[1:]); err != nil {
		return nil, err
	}
	return aead.Seal(out, out[1:1+nonceSize], state, syncStateAD), nil
}

// putSyncState writes the sealed sync state (nil removes it) and notes
// its MAC in the transaction's manifest d.
func putSyncState(tx *sql.Tx, k *keys, d *delta, state []byte) error {
	if state == nil {
		d.syncMAC = [32]byte{}
		_, err := tx.Exec("DELETE FROM meta WHERE name = ?", metaSyncState)
		return sqlErr(err)
	}
	rec, err := sealSyncState(k, state)
	if err != nil {
		return err
	}
	d.syncMAC = syncStateMAC(k, rec)
	return putMeta(tx, metaSyncState, rec)
}

// resealSyncState re-seals the sync state under a new data key, in the
// re-key transaction whose new manifest is d, after checking it against
// the current manifest m: a sync state put back from an older copy is
// never re-sealed into a valid one.
func resealSyncState(tx *sql.Tx, old, nk *keys, m *manifest, d *delta) error {
	rec, err := getMeta(tx, metaSyncState)
	if errors.Is(err, ErrNotFound) {
		if m.syncMAC != ([32]byte{}) {
			return fmt.Errorf("%w: %w", ErrTampered, errSyncStateChanged)
		}
		return nil
	}
	if err != nil {
		return err
	}
	if syncStateMAC(old, rec) != m.syncMAC {
		return fmt.Errorf("%w: %w", ErrTampered, errSyncStateChanged)
	}
	pt, err := openSyncState(old, rec)
	if err != nil {
		return err
	}
	defer clear(pt)
	return putSyncState(tx, nk, d, pt)
}

// CheckPassphrase reports whether passphrase is the vault's recovery
// passphrase (nil), without changing its state. It returns an error
// wrapping ErrBadPassphrase or ErrNoPassphrase otherwise. It costs one
// scrypt, as an unlock does.
func (v *Vault) CheckPassphrase(passphrase []byte) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.db == nil {
		return fmt.Errorf("check passphrase: %w", v.uninitialized())
	}
	dk, err := v.unwrapPassphraseLocked(passphrase)
	if err != nil {
		return fmt.Errorf("check passphrase: %w", err)
	}
	clear(dk)
	return nil
}
