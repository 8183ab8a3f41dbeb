package vault

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"filippo.io/age"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

const importTime = "2026-05-01T12:00:00Z"

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\n got: %s\nwant: %s", name, got, want)
	}
}

func TestParseVCards(t *testing.T) {
	tests := []struct {
		file    string
		wantErr bool
	}{
		{"v4-full.vcf", false},
		{"v3-two-cards.vcf", false},
		{"v4-gender.vcf", false},   // GENDER kept (issue 12, part 5)
		{"v4-phonetic.vcf", false}, // readings of the name kept (issue 12, part 5)
		{"empty-card.vcf", true},
		{"unterminated.vcf", true},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f, err := os.Open(filepath.Join("testdata", "vcard", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			ps, err := ParseVCards(f, importTime)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("ParseVCards(%q) = nil error, want one", tt.file)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseVCards(%q): %v", tt.file, err)
			}
			for i := range ps {
				if ps[i].ID == "" {
					t.Errorf("ParseVCards(%q)[%d] has no id", tt.file, i)
				}
				ps[i].ID = "" // random; the rest is deterministic
			}
			got, _ := json.MarshalIndent(ps, "", "  ")
			golden(t, filepath.Join("vcard", strings.TrimSuffix(tt.file, ".vcf")+".golden.json"), append(got, '\n'))
		})
	}
}

func TestE164(t *testing.T) {
	tests := []struct{ tel, region, want string }{
		{"tel:+44-20-7946-0958", "", "+442079460958"},
		{"(415) 555-0134", "US", "+14155550134"},
		{"08-123 456 78", "", "08-123 456 78"}, // no region: kept as written
		{"not a number", "FR", "not a number"},
	}
	for _, tt := range tests {
		if got := e164(tt.tel, tt.region); got != tt.want {
			t.Errorf("e164(%q, %q) = %q, want %q", tt.tel, tt.region, got, tt.want)
		}
	}
}

func TestParseProfilesJSON(t *testing.T) {
	tests := []struct {
		file    string
		wantIDs []string
		wantErr bool
	}{
		{"single.json", []string{"home"}, false},
		{"document.json", []string{"work", "kid"}, false},
		{"array.json", []string{"a"}, false},
		{"future-version.json", nil, true},
		{"bad-confidence.json", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "json", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			ps, err := ParseProfilesJSON(bytes.NewReader(data), importTime)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("ParseProfilesJSON(%q) = nil error, want one", tt.file)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseProfilesJSON(%q): %v", tt.file, err)
			}
			var ids []string
			for _, p := range ps {
				ids = append(ids, p.ID)
			}
			if strings.Join(ids, ",") != strings.Join(tt.wantIDs, ",") {
				t.Errorf("ParseProfilesJSON(%q) ids = %q, want %q", tt.file, ids, tt.wantIDs)
			}
			// What we write, we read back identically.
			var buf bytes.Buffer
			if err := WriteProfilesJSON(&buf, ps); err != nil {
				t.Fatal(err)
			}
			again, err := ParseProfilesJSON(&buf, importTime)
			if err != nil {
				t.Fatal(err)
			}
			a, _ := json.Marshal(ps)
			b, _ := json.Marshal(again)
			if !bytes.Equal(a, b) {
				t.Errorf("round trip of %q changed it:\n got: %s\nwant: %s", tt.file, b, a)
			}
		})
	}
	if _, err := ParseProfilesJSON(strings.NewReader(" "+strings.Repeat(" ", MaxImportSize)), importTime); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ParseProfilesJSON(oversized) = %v, want ErrTooLarge", err)
	}
}

func TestImportMerges(t *testing.T) {
	v := newTestVault(t, t.TempDir(), nil)
	data, _ := os.ReadFile(filepath.Join("testdata", "json", "single.json"))
	ps, err := ParseProfilesJSON(bytes.NewReader(data), importTime)
	if err != nil {
		t.Fatal(err)
	}
	res, err := v.Import(ps)
	if err != nil {
		t.Fatal(err)
	}
	if res != (ImportResult{Created: 1, Learned: 3}) {
		t.Fatalf("first Import = %+v, want 1 created, 3 learned", res)
	}
	// Importing a changed value again never overwrites: it becomes a candidate.
	ps[0].Concepts["https://schema.org/givenName"] = manual("Nora")
	res, err = v.Import(ps)
	if err != nil {
		t.Fatal(err)
	}
	if res != (ImportResult{Unchanged: 2, Candidates: 1}) {
		t.Fatalf("second Import = %+v, want 2 unchanged, 1 candidate", res)
	}
	e, err := v.Entry("home", ConceptKey("https://schema.org/givenName"))
	if err != nil || mustValue(t, e) != "Noor" {
		t.Fatalf("givenName after conflicting import = %s, %v, want Noor", e.Value, err)
	}
}

func TestBundleRoundTrip(t *testing.T) {
	v := newTestVault(t, t.TempDir(), nil)
	if _, err := v.CreateProfile("me", "Me"); err != nil {
		t.Fatal(err)
	}
	if err := v.SetEntry("me", ConceptKey("https://schema.org/email"), manual("bundle@example.org")); err != nil {
		t.Fatal(err)
	}
	if _, err := v.ExportProfiles("me", "nobody"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("ExportProfiles(unknown id) = %v, want ErrNotFound", err)
	}
	ps, err := v.ExportProfiles("me")
	if err != nil {
		t.Fatal(err)
	}
	device, _ := age.GenerateX25519Identity()
	pass, _ := age.NewScryptRecipient("bundle pw")
	pass.SetWorkFactor(testWorkFactor)
	passID, _ := age.NewScryptIdentity("bundle pw")
	wrongID, _ := age.NewScryptIdentity("nope")
	other, _ := age.GenerateX25519Identity()
	tests := []struct {
		name      string
		recipient age.Recipient
		identity  age.Identity
		wantErr   error
	}{
		{"recipient", device.Recipient(), device, nil},
		{"passphrase", pass, passID, nil},
		{"wrong passphrase", pass, wrongID, ErrBadPassphrase},
		{"other device", device.Recipient(), other, ErrBadPassphrase},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteBundle(&buf, ps, importTime, tt.recipient); err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(buf.Bytes(), []byte("bundle@example.org")) {
				t.Fatal("bundle contains the value in plain text")
			}
			got, err := ReadBundle(&buf, importTime, tt.identity)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("ReadBundle = %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || mustValue(t, got[0].Concepts["https://schema.org/email"]) != "bundle@example.org" {
				t.Fatalf("ReadBundle = %+v, want the exported profile", got)
			}
		})
	}
}

// Fuzz targets: every import parser and the sealed-record decoder must
// fail cleanly, never panic, on any input.

func seedDir(f *testing.F, dir string) {
	entries, err := os.ReadDir(filepath.Join("testdata", dir))
	if err != nil {
		f.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".golden.json") {
			continue
		}
		data, err := os.ReadFile(filepath.Join("testdata", dir, e.Name()))
		if err != nil {
			f.Fatal(err)
		}
		if dir == "records" {
			if data, err = hex.DecodeString(strings.TrimSpace(string(data))); err != nil {
				f.Fatal(err)
			}
		}
		f.Add(data)
	}
}

func FuzzParseVCards(f *testing.F) {
	seedDir(f, "vcard")
	f.Fuzz(func(t *testing.T, data []byte) {
		ps, err := ParseVCards(bytes.NewReader(data), importTime)
		if err != nil {
			return
		}
		for _, p := range ps {
			if err := normalizeImported(&p, importTime); err != nil {
				t.Fatalf("ParseVCards produced a profile that breaks the limits: %v", err)
			}
		}
	})
}

func FuzzParseProfilesJSON(f *testing.F) {
	seedDir(f, "json")
	f.Fuzz(func(t *testing.T, data []byte) {
		ps, err := ParseProfilesJSON(bytes.NewReader(data), importTime)
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteProfilesJSON(&buf, ps); err != nil {
			t.Fatal(err)
		}
		if _, err := ParseProfilesJSON(&buf, importTime); err != nil {
			t.Fatalf("re-parse of written profiles failed: %v", err)
		}
	})
}

// recordTestKey and seedPlace are what the seed records in
// testdata/records were sealed with.
var (
	recordTestKey = bytes.Repeat([]byte{0x42}, 32)
	seedPlace     = entryPlace(7, 3, 0, 5)
)

func FuzzOpenRecord(f *testing.F) {
	seedDir(f, "records")
	ad := seedPlace.ad()
	f.Fuzz(func(t *testing.T, rec []byte) {
		pt, err := openRecord(recordTestKey, rec, ad)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("openRecord error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		// Anything that opens must be what the seeds sealed: a valid entry.
		if _, err := decodeEntry(pt); err != nil {
			t.Fatalf("opened record is not an entry: %v", err)
		}
	})
}

func TestSeedRecordsOpen(t *testing.T) {
	entries, _ := os.ReadDir(filepath.Join("testdata", "records"))
	if len(entries) == 0 && !*update {
		t.Fatal("no seed records in testdata/records")
	}
	if *update {
		for i, val := range []string{"seed one", strings.Repeat("long value ", 200)} {
			pt := encodeEntry(entryRec{Name: "https://schema.org/name", Entry: manual(val)})
			rec, err := sealRecord(recordTestKey, pt, seedPlace.ad())
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join("testdata", "records", []string{"entry.hex", "long.hex"}[i]), []byte(hex.EncodeToString(rec)+"\n"), 0o644)
		}
		return
	}
	for _, e := range entries {
		data, _ := os.ReadFile(filepath.Join("testdata", "records", e.Name()))
		rec, _ := hex.DecodeString(strings.TrimSpace(string(data)))
		if _, err := openRecord(recordTestKey, rec, seedPlace.ad()); err != nil {
			t.Errorf("seed %s does not open: %v", e.Name(), err)
		}
		for _, other := range []place{entryPlace(8, 3, 0, 5), entryPlace(7, 3, 0, 4), entryPlace(7, 4, 0, 5), entryPlace(7, 3, 1, 5)} {
			if _, err := openRecord(recordTestKey, rec, other.ad()); !errors.Is(err, ErrTampered) {
				t.Errorf("seed %s opens at %+v: %v, want ErrTampered", e.Name(), other, err)
			}
		}
	}
}

// FuzzDecodeEntry checks the entry decoder on any plaintext and that what
// decodes re-encodes to the same bytes.
func FuzzDecodeEntry(f *testing.F) {
	entries, _ := os.ReadDir(filepath.Join("testdata", "records"))
	for _, e := range entries {
		data, _ := os.ReadFile(filepath.Join("testdata", "records", e.Name()))
		rec, _ := hex.DecodeString(strings.TrimSpace(string(data)))
		if pt, err := openRecord(recordTestKey, rec, seedPlace.ad()); err == nil {
			f.Add(pt)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		e, err := decodeEntry(b)
		if err != nil {
			return
		}
		if got := encodeEntry(e); !bytes.Equal(got, b) {
			t.Fatalf("encodeEntry(decodeEntry(%q)) = %q", b, got)
		}
	})
}
