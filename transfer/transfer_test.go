package transfer

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"testing"

	"filippo.io/age"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

const now = "2026-11-25T12:00:00Z"

func TestDetectFormat(t *testing.T) {
	for _, tt := range []struct {
		flag, name, head, want string
	}{
		{"json", "x.vcf", "BEGIN:VCARD", "json"},
		{"", "Contacts.VCF", "", FormatVCard},
		{"", "p.json", "", FormatJSON},
		{"", "b.tessera", "", FormatBundle},
		{"", "-", "  begin:vcard\r\n", FormatVCard},
		{"", "-", "\n{\"profiles\":[]}", FormatJSON},
		{"", "-", "[]", FormatJSON},
		{"", "-", "-----BEGIN AGE ENCRYPTED FILE-----", FormatBundle},
		{"", "", "", FormatBundle},
	} {
		if got := DetectFormat(tt.flag, tt.name, []byte(tt.head)); got != tt.want {
			t.Errorf("DetectFormat(%q, %q, %q) = %q, want %q", tt.flag, tt.name, tt.head, got, tt.want)
		}
	}
}

func TestParseEachFormat(t *testing.T) {
	vcf, err := os.ReadFile("../vault/testdata/vcard/v3-two-cards.vcf")
	if err != nil {
		t.Fatal(err)
	}
	ps, err := Parse(FormatVCard, vcf, now)
	if err != nil || len(ps) != 2 {
		t.Fatalf("vCard: %d profiles, %v; want 2", len(ps), err)
	}
	var js bytes.Buffer
	if err := vault.WriteProfilesJSON(&js, ps); err != nil {
		t.Fatal(err)
	}
	back, err := Parse(DetectFormat("", "", js.Bytes()), js.Bytes(), now)
	if err != nil || len(back) != 2 || back[0].Label != ps[0].Label {
		t.Fatalf("JSON: %+v, %v", back, err)
	}
	rs, err := Recipients(nil, []byte("correct horse battery staple"), 10)
	if err != nil {
		t.Fatal(err)
	}
	var bundle bytes.Buffer
	if err := vault.WriteBundle(&bundle, ps, now, rs...); err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(FormatBundle, bundle.Bytes(), now); !errors.Is(err, ErrNeedsKey) {
		t.Errorf("bundle without a key: %v, want ErrNeedsKey", err)
	}
	wrong, _ := PassphraseIdentity("wrong passphrase here")
	if _, err := Parse(FormatBundle, bundle.Bytes(), now, wrong...); err == nil {
		t.Error("bundle opened with the wrong passphrase")
	}
	ids, _ := PassphraseIdentity("correct horse battery staple")
	got, err := Parse(DetectFormat("", "", bundle.Bytes()), bundle.Bytes(), now, ids...)
	if err != nil || len(got) != 2 {
		t.Fatalf("bundle: %d profiles, %v", len(got), err)
	}
	if _, err := Parse("xml", vcf, now); !errors.Is(err, ErrFormat) {
		t.Errorf("xml: %v, want ErrFormat", err)
	}
	if _, err := Parse(FormatJSON, make([]byte, vault.MaxImportSize+1), now); !errors.Is(err, vault.ErrTooLarge) {
		t.Errorf("oversized: %v, want ErrTooLarge", err)
	}
}

func TestRecipients(t *testing.T) {
	id, err := age.GenerateX25519Identity()
	if err != nil {
		t.Fatal(err)
	}
	rs, err := Recipients([]string{id.Recipient().String(), " "}, nil, 10)
	if err != nil || len(rs) != 1 {
		t.Fatalf("Recipients(age key) = %d, %v", len(rs), err)
	}
	if _, err := Recipients([]string{"age1nonsense"}, nil, 10); err == nil {
		t.Error("a malformed recipient was accepted")
	}
	if _, err := Recipients(nil, nil, 10); err == nil {
		t.Error("no recipient at all was accepted")
	}
}

func entry(v string) profile.Entry {
	b, _ := json.Marshal(v)
	return profile.Entry{Value: b, Confidence: 1}
}

// The plan says what vault.Import then does: checked against a real
// vault, so that a preview that promised otherwise fails.
func TestPlanImportMatchesImport(t *testing.T) {
	v, err := vault.Open(t.TempDir(), vault.Options{ScryptWorkFactor: 10})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if err := v.Init(vault.InitOptions{Passphrase: []byte("correct horse battery staple")}); err != nil {
		t.Fatal(err)
	}
	home, err := v.CreateProfile("", "Home")
	if err != nil {
		t.Fatal(err)
	}
	for k, val := range map[string]string{profile.ConceptEmail: "ada@example.org", profile.ConceptGivenName: "Ada"} {
		if err := v.SetEntry(home.ID, vault.Key{Name: k}, entry(val)); err != nil {
			t.Fatal(err)
		}
	}
	in := profile.UserProfile{ID: home.ID, Label: "Home", Concepts: map[string]profile.Entry{
		profile.ConceptEmail:      entry("ada@analytical.example"), // conflict
		profile.ConceptGivenName:  entry("Ada"),                    // same
		profile.ConceptFamilyName: entry("Lovelace"),               // new
	}, Fields: map[string]profile.Entry{}}
	target, err := v.Profile(home.ID)
	if err != nil {
		t.Fatal(err)
	}
	pl := PlanImport(in, &target)
	if pl.New != 1 || pl.Same != 1 || pl.Conflicts != 1 || pl.Into != home.ID || len(pl.Entries) != 3 {
		t.Fatalf("plan = %+v, want 1 new, 1 same, 1 conflict into Home", pl)
	}
	res, err := v.Import([]profile.UserProfile{in})
	if err != nil {
		t.Fatal(err)
	}
	if res.Learned != pl.New || res.Unchanged != pl.Same || res.Candidates != pl.Conflicts || res.Created != 0 {
		t.Errorf("Import did %+v, the plan said %+v", res, pl)
	}
	fresh := PlanImport(in, nil)
	if fresh.New != 3 || fresh.Into != "" {
		t.Errorf("plan into a new profile = %+v, want 3 new", fresh)
	}
}

func FuzzParse(f *testing.F) {
	vcf, _ := os.ReadFile("../vault/testdata/vcard/v4-full.vcf")
	js, _ := os.ReadFile("../vault/testdata/json/document.json")
	f.Add("", vcf)
	f.Add("", js)
	f.Add(FormatBundle, []byte("-----BEGIN AGE ENCRYPTED FILE-----\nYWdl\n-----END AGE ENCRYPTED FILE-----\n"))
	f.Add("", []byte("BEGIN:VCARD\nVERSION:4.0\nFN:\u00e9\nEND:VCARD\n"))
	ids, _ := PassphraseIdentity("fuzz passphrase")
	f.Fuzz(func(t *testing.T, format string, data []byte) {
		ps, err := Parse(DetectFormat(format, "", data), data, now, ids...)
		if err != nil {
			return
		}
		for _, p := range ps {
			pl := PlanImport(p, &p)
			if pl.New != 0 || pl.Conflicts != 0 || pl.Same != len(p.Concepts)+len(p.Fields) {
				t.Fatalf("a profile planned into itself: %+v", pl)
			}
			if len(p.Label) > vault.MaxLabelSize {
				t.Fatalf("label of %d bytes, over the limit", len(p.Label))
			}
		}
	})
}
