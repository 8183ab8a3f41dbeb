package vault

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"filippo.io/age"
	"filippo.io/age/armor"
	"github.com/tessera-app/tessera/profile"
)

// bundleFormat names the version of the portable bundle's plaintext.
const bundleFormat = "tessera-bundle/1"

type bundleDoc struct {
	Format   string                `json:"$tesseraBundle"`
	Exported string                `json:"exported"`
	Profiles []profile.UserProfile `json:"profiles"`
}

// ExportProfiles returns the profiles with the given ids (all when ids is
// empty), in the order asked for.
func (v *Vault) ExportProfiles(ids ...string) ([]profile.UserProfile, error) {
	if len(ids) == 0 {
		return v.Profiles()
	}
	out := make([]profile.UserProfile, 0, len(ids))
	for _, id := range ids {
		p, err := v.Profile(id)
		if err != nil {
			return nil, fmt.Errorf("export: %w", err)
		}
		out = append(out, p)
	}
	return out, nil
}

// WriteBundle writes profiles as a portable bundle: JSON encrypted with age
// to the recipients (an age scrypt recipient for a passphrase, or X25519
// recipients of other devices), ASCII-armored so it survives copy and paste.
func WriteBundle(w io.Writer, ps []profile.UserProfile, now string, recipients ...age.Recipient) error {
	if len(recipients) == 0 {
		return errors.New("write bundle: no recipients")
	}
	aw := armor.NewWriter(w)
	ew, err := age.Encrypt(aw, recipients...)
	if err != nil {
		return fmt.Errorf("write bundle: %w", err)
	}
	if err := json.NewEncoder(ew).Encode(bundleDoc{Format: bundleFormat, Exported: now, Profiles: ps}); err != nil {
		return fmt.Errorf("write bundle: %w", err)
	}
	if err := ew.Close(); err != nil {
		return fmt.Errorf("write bundle: %w", err)
	}
	if err := aw.Close(); err != nil {
		return fmt.Errorf("write bundle: %w", err)
	}
	return nil
}

// ReadBundle decrypts and parses a bundle written by WriteBundle, armored
// or not. A bundle that no identity opens gives an error wrapping
// ErrBadPassphrase.
func ReadBundle(r io.Reader, now string, identities ...age.Identity) ([]profile.UserProfile, error) {
	br := bufio.NewReader(io.LimitReader(r, MaxImportSize+1))
	var src io.Reader = br
	if head, _ := br.Peek(len(armor.Header)); string(head) == armor.Header {
		src = armor.NewReader(br)
	}
	dr, err := age.Decrypt(src, identities...)
	var noMatch *age.NoIdentityMatchError
	if errors.As(err, &noMatch) {
		return nil, fmt.Errorf("read bundle: %w: no given passphrase or identity opens it", ErrBadPassphrase)
	}
	if err != nil {
		return nil, fmt.Errorf("read bundle: %w", err)
	}
	data, err := readLimited(dr)
	if err != nil {
		return nil, fmt.Errorf("read bundle: %w", err)
	}
	var doc bundleDoc
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("read bundle: %w", err)
	}
	if doc.Format != bundleFormat {
		return nil, fmt.Errorf("read bundle: unsupported format %q", doc.Format)
	}
	for i := range doc.Profiles {
		if err := normalizeImported(&doc.Profiles[i], now); err != nil {
			return nil, fmt.Errorf("read bundle: profile %d: %w", i, err)
		}
	}
	return doc.Profiles, nil
}
