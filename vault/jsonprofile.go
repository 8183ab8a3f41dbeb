package vault

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/tessera-app/tessera/profile"
)

// ProfileFormat is the version written in the "$formspecProfile" member of
// the JSON profile format.
const ProfileFormat = "1.0"

// MaxImportSize bounds any import file (JSON, vCard or bundle).
const MaxImportSize = 16 << 20

// profileDoc is the JSON profile format: a version member and the
// profiles, each an Assist §6.1 UserProfile.
type profileDoc struct {
	Format   string                `json:"$formspecProfile"`
	Profiles []profile.UserProfile `json:"profiles"`
}

// WriteProfilesJSON writes profiles in the JSON profile format. The output
// is plain text: callers write it only when the person asked for a plain
// export.
func WriteProfilesJSON(w io.Writer, ps []profile.UserProfile) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(profileDoc{Format: ProfileFormat, Profiles: ps}); err != nil {
		return fmt.Errorf("write profiles: %w", err)
	}
	return nil
}

// ParseProfilesJSON reads the JSON profile format. It also accepts a single
// UserProfile object (with or without "$formspecProfile") and a JSON array
// of them. Input beyond MaxImportSize or the per-profile limits fails with
// ErrTooLarge; entries without a source are marked as imported.
func ParseProfilesJSON(r io.Reader, now string) ([]profile.UserProfile, error) {
	data, err := readLimited(r)
	if err != nil {
		return nil, fmt.Errorf("parse profile JSON: %w", err)
	}
	data = bytes.TrimSpace(data)
	var ps []profile.UserProfile
	switch {
	case len(data) > 0 && data[0] == '[':
		err = json.Unmarshal(data, &ps)
	case len(data) > 0 && data[0] == '{':
		var probe struct {
			Format   *string         `json:"$formspecProfile"`
			Profiles json.RawMessage `json:"profiles"`
		}
		if err = json.Unmarshal(data, &probe); err != nil {
			break
		}
		if probe.Format != nil && *probe.Format != ProfileFormat && !majorOne(*probe.Format) {
			return nil, fmt.Errorf("parse profile JSON: unsupported $formspecProfile version %q", *probe.Format)
		}
		if probe.Profiles != nil {
			err = json.Unmarshal(probe.Profiles, &ps)
		} else {
			var p profile.UserProfile
			err = json.Unmarshal(data, &p)
			ps = []profile.UserProfile{p}
		}
	default:
		err = errors.New("not a JSON object or array")
	}
	if err != nil {
		return nil, fmt.Errorf("parse profile JSON: %w", err)
	}
	for i := range ps {
		if err := normalizeImported(&ps[i], now); err != nil {
			return nil, fmt.Errorf("parse profile JSON: profile %d: %w", i, err)
		}
	}
	return ps, nil
}

// majorOne reports whether a format version is 1.x, which this reader
// understands.
func majorOne(v string) bool { return len(v) >= 2 && v[:2] == "1." }

func readLimited(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxImportSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxImportSize {
		return nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, MaxImportSize)
	}
	return data, nil
}

// normalizeImported checks an imported profile against the limits and fills
// what the format leaves optional.
func normalizeImported(p *profile.UserProfile, now string) error {
	if len(p.ID) > maxProfileID {
		return fmt.Errorf("id: %w", ErrTooLarge)
	}
	if len(p.Label) > MaxLabelSize {
		return fmt.Errorf("label: %w", ErrTooLarge)
	}
	if n := len(p.Concepts) + len(p.Fields); n > MaxEntries {
		return fmt.Errorf("%d entries: %w", n, ErrTooLarge)
	}
	for _, part := range []struct {
		m     map[string]profile.Entry
		field bool
	}{{p.Concepts, false}, {p.Fields, true}} {
		for name, e := range part.m {
			if len(e.Value) == 0 || string(e.Value) == "null" {
				return fmt.Errorf("entry %q has no value", name)
			}
			if err := checkEntry(Key{Field: part.field, Name: name}, e); err != nil {
				return err
			}
			if e.Confidence < 0 || e.Confidence > 1 {
				return fmt.Errorf("entry %q: confidence %v is outside [0,1]", name, e.Confidence)
			}
			if e.Confidence == 0 {
				e.Confidence = 1
			}
			if e.Source.Type == "" {
				e.Source = profile.Source{Type: "import", Source: "json", Timestamp: now}
			}
			part.m[name] = e
		}
	}
	if p.Concepts == nil {
		p.Concepts = map[string]profile.Entry{}
	}
	if p.Fields == nil {
		p.Fields = map[string]profile.Entry{}
	}
	return nil
}
