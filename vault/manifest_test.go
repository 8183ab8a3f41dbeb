package vault

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"
)

// encodeV1 encodes st as a format 1 manifest, written before the sites
// table existed.
func encodeV1(st *manifestState) []byte {
	b := encodeV2(st)
	b[0] = 1
	at := 2 + len(st.vaultID) + 1 + 8 + 16*tabSites
	return append(b[:at:at], b[at+16:]...)
}

// encodeV2 encodes st as a format 2 manifest, written before the manifest
// covered the sync state.
func encodeV2(st *manifestState) []byte {
	b := st.encode()
	b[0] = 2
	return b[:len(b)-32]
}

// FuzzDecodeManifest checks the manifest decoder on any plaintext (it only
// ever sees authenticated ones) and that what decodes encodes back to the
// same bytes; a format 1 manifest decodes with no site rows and encodes
// back as format 1 plus those; a format 2 one decodes without a sync
// state MAC.
func FuzzDecodeManifest(f *testing.F) {
	st := manifestState{vaultID: bytes.Repeat([]byte{7}, 16), seq: 42, hwm: [numTables]int64{3, 9, 1, 4}, count: [numTables]int64{2, 8, 1, 3}}
	st.acc[0] = 0xAB
	st.syncMAC[0] = 0xCD
	f.Add(st.encode())
	f.Add((&manifestState{}).encode())
	f.Add(encodeV2(&st))
	st.hwm[tabSites], st.count[tabSites] = 0, 0
	f.Add(encodeV1(&st))
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := decodeManifest(b)
		if err != nil {
			return
		}
		if b[0] == 1 {
			if st.hwm[tabSites] != 0 || st.count[tabSites] != 0 {
				t.Fatalf("decodeManifest(%x) has site rows", b)
			}
			if got := encodeV1(&st); !bytes.Equal(got, b) {
				t.Fatalf("encodeV1(decodeManifest(%x)) = %x", b, got)
			}
			return
		}
		if b[0] == 2 {
			if st.syncMAC != ([32]byte{}) {
				t.Fatalf("decodeManifest(%x) has a sync state MAC", b)
			}
			if got := encodeV2(&st); !bytes.Equal(got, b) {
				t.Fatalf("encodeV2(decodeManifest(%x)) = %x", b, got)
			}
			return
		}
		if got := st.encode(); !bytes.Equal(got, b) {
			t.Fatalf("encode(decodeManifest(%x)) = %x", b, got)
		}
	})
}

// TestManifestIncremental runs random writes and checks after each that
// the manifest kept up to date write by write is the one recomputed from
// the whole file: the O(1) updates never drift from the full check.
func TestManifestIncremental(t *testing.T) {
	v := newTestVault(t, t.TempDir(), nil)
	rng := rand.New(rand.NewPCG(3, 4))
	for _, id := range []string{"p", "q"} {
		if _, err := v.CreateProfile(id, id); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 300 {
		pid := []string{"p", "q"}[rng.IntN(2)]
		key := FieldKey(fmt.Sprintf("f%d", rng.IntN(12)))
		origin := fmt.Sprintf("https://s%d.example", rng.IntN(4))
		var err error
		switch op := rng.IntN(13); {
		case op < 4:
			err = v.SetEntry(pid, key, manual(fmt.Sprint(i)))
		case op < 7:
			_, err = v.Learn(pid, []Observation{{FieldPath: key.Name, Value: str(fmt.Sprint(i % 7))}})
		case op < 8:
			err = v.DeleteEntry(pid, key)
		case op < 9:
			err = v.PromoteCandidate(pid, key, 0)
		case op < 10:
			err = v.RecordRelease(Release{Origin: "https://x.example"})
		case op < 11:
			err = v.SetSiteRule(SiteRule{Origin: origin, Profile: pid, Concepts: []string{emailKey.Name}})
		case op < 12:
			err = v.TouchSiteRule(origin)
		default:
			err = v.DeleteSiteRule(origin)
		}
		if err != nil && !isNotFound(err) {
			t.Fatalf("step %d: %v", i, err)
		}
		if i%25 == 0 || i == 299 {
			full, err := verifyManifest(v.db, v.k, v.m.vaultID)
			if err != nil {
				t.Fatalf("step %d: full check of the file: %v", i, err)
			}
			if full.manifestState.seq != v.m.seq || full.count != v.m.count || full.acc != v.m.acc ||
				!maps.Equal(full.rows, v.m.rows) || !maps.Equal(full.counts, v.m.counts) {
				t.Fatalf("step %d: the incremental manifest drifted from the file", i)
			}
		}
	}
	if err := v.Rekey([]byte("correct horse")); err != nil {
		t.Fatal(err)
	}
	full, err := verifyManifest(v.db, v.k, v.m.vaultID)
	if err != nil || !maps.Equal(full.rows, v.m.rows) || !maps.Equal(full.counts, v.m.counts) {
		t.Fatalf("after Rekey: %v, or the manifest drifted", err)
	}
}

func isNotFound(err error) bool { return errors.Is(err, ErrNotFound) }
