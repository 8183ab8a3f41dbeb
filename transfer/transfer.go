// Package transfer is what the command line and the app's window share to
// bring profiles in and take them out: the import formats (vCard 3/4, the
// Formspec Assist profile JSON, Tessera's encrypted bundle) recognised and
// parsed one way, the preview of what an import would do to the vault,
// and the recipients an export is encrypted to. The vault package does the
// parsing and the writing; this package decides which of its functions a
// file goes to.
package transfer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"filippo.io/age"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

// Import formats.
const (
	FormatVCard  = "vcf"
	FormatJSON   = "json"
	FormatBundle = "bundle"
)

// ErrFormat is returned (wrapped) for a format that is none of the three.
var ErrFormat = errors.New("unknown import format")

// ErrNeedsKey is returned (wrapped) when a bundle is given no passphrase
// or identity to open it with.
var ErrNeedsKey = errors.New("an encrypted bundle needs its passphrase or an age identity")

// DetectFormat picks the import format: flag when set, else the file
// name's extension, else the first bytes (head); what is neither vCard nor
// JSON is taken for a bundle, whose decryption then says whether it is one.
func DetectFormat(flag, name string, head []byte) string {
	if flag != "" {
		return flag
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".vcf", ".vcard":
		return FormatVCard
	case ".json":
		return FormatJSON
	case ".age", ".tessera":
		return FormatBundle
	}
	h := strings.TrimSpace(string(head[:min(len(head), 64)]))
	switch {
	case strings.HasPrefix(strings.ToUpper(h), "BEGIN:VCARD"):
		return FormatVCard
	case strings.HasPrefix(h, "{") || strings.HasPrefix(h, "["):
		return FormatJSON
	}
	return FormatBundle
}

// Parse reads data in format into profiles; now stamps their import
// source. A bundle is opened with ids. data over vault.MaxImportSize is
// refused (vault.ErrTooLarge).
func Parse(format string, data []byte, now string, ids ...age.Identity) ([]profile.UserProfile, error) {
	if len(data) > vault.MaxImportSize {
		return nil, fmt.Errorf("%w: over %d bytes", vault.ErrTooLarge, vault.MaxImportSize)
	}
	switch format {
	case FormatVCard:
		return vault.ParseVCards(bytes.NewReader(data), now)
	case FormatJSON:
		return vault.ParseProfilesJSON(bytes.NewReader(data), now)
	case FormatBundle:
		if len(ids) == 0 {
			return nil, ErrNeedsKey
		}
		return vault.ReadBundle(bytes.NewReader(data), now, ids...)
	}
	return nil, fmt.Errorf("%w %q: want %s, %s or %s", ErrFormat, format, FormatVCard, FormatJSON, FormatBundle)
}

// PassphraseIdentity is the identity that opens a bundle encrypted to
// passphrase.
func PassphraseIdentity(passphrase string) ([]age.Identity, error) {
	id, err := age.NewScryptIdentity(passphrase)
	if err != nil {
		return nil, err
	}
	return []age.Identity{id}, nil
}

// Recipients are who an export is encrypted to: each of to (age public
// keys, "age1…"), and passphrase when it is not empty, stretched with
// scrypt at workFactor. At least one is needed.
func Recipients(to []string, passphrase []byte, workFactor int) ([]age.Recipient, error) {
	var out []age.Recipient
	for _, r := range to {
		r = strings.TrimSpace(r)
		if r == "" {
			continue
		}
		rs, err := age.ParseRecipients(strings.NewReader(r))
		if err != nil {
			return nil, fmt.Errorf("recipient %q: %w", r, err)
		}
		out = append(out, rs...)
	}
	if len(passphrase) > 0 {
		r, err := age.NewScryptRecipient(string(passphrase))
		if err != nil {
			return nil, err
		}
		r.SetWorkFactor(workFactor)
		out = append(out, r)
	}
	if len(out) == 0 {
		return nil, errors.New("no recipient: give an age recipient or a passphrase")
	}
	return out, nil
}

// Change says what importing one value would do.
type Change string

// Changes, as vault.Import decides them.
const (
	ChangeNew      Change = "new"      // the profile holds nothing there: it is learnt
	ChangeSame     Change = "same"     // the profile holds this value already
	ChangeConflict Change = "conflict" // it holds another: the import becomes a candidate beside it
)

// EntryPlan is what importing one entry would do.
type EntryPlan struct {
	// Key is the concept IRI, or the field path when Field.
	Key    string `json:"key"`
	Field  bool   `json:"field,omitempty"`
	Change Change `json:"change"`
}

// Plan is what importing one profile into the vault would do.
type Plan struct {
	// Label is the imported profile's label; Into the existing profile it
	// would merge into ("" creates a new one).
	Label   string      `json:"label"`
	Into    string      `json:"into,omitempty"`
	Entries []EntryPlan `json:"entries"`
	// New, Same and Conflicts count Entries by Change.
	New       int `json:"new"`
	Same      int `json:"same"`
	Conflicts int `json:"conflicts"`
}

// PlanImport says what importing in into target would do, entry by entry,
// the way vault.Import decides: into a profile that does not exist yet
// (target nil) everything is new; a value the target holds already is the
// same; another value there is a conflict, kept as a candidate while the
// target's value stays.
func PlanImport(in profile.UserProfile, target *profile.UserProfile) Plan {
	pl := Plan{Label: in.Label, Entries: []EntryPlan{}}
	if target != nil {
		pl.Into = target.ID
	}
	for _, part := range []struct {
		in, have map[string]profile.Entry
		field    bool
	}{{in.Concepts, concepts(target), false}, {in.Fields, fields(target), true}} {
		keys := make([]string, 0, len(part.in))
		for k := range part.in {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			c := ChangeNew
			if h, ok := part.have[k]; ok {
				c = ChangeConflict
				if sameValue(h.Value, part.in[k].Value) {
					c = ChangeSame
				}
			}
			pl.Entries = append(pl.Entries, EntryPlan{Key: k, Field: part.field, Change: c})
			switch c {
			case ChangeNew:
				pl.New++
			case ChangeSame:
				pl.Same++
			default:
				pl.Conflicts++
			}
		}
	}
	return pl
}

func concepts(p *profile.UserProfile) map[string]profile.Entry {
	if p == nil {
		return nil
	}
	return p.Concepts
}

func fields(p *profile.UserProfile) map[string]profile.Entry {
	if p == nil {
		return nil
	}
	return p.Fields
}

// sameValue compares two JSON values as vault.Import does: compacted.
func sameValue(a, b json.RawMessage) bool {
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return bytes.Equal(a, b)
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}
