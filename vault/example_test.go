package vault_test

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"log"
	"os"
	"strings"
	"time"

	"filippo.io/age"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

func Example() {
	dir, _ := os.MkdirTemp("", "vault-example")
	defer os.RemoveAll(dir)

	// A vault with a passphrase only; the app also passes
	// vault.SystemKeyring() and InitOptions.Keyring to unlock without typing.
	v, err := vault.Create(dir, vault.Options{ScryptWorkFactor: 10}, vault.InitOptions{Passphrase: []byte("a long passphrase")})
	if err != nil {
		log.Fatal(err)
	}
	defer v.Close()
	if _, err := v.CreateProfile("home", "Home"); err != nil {
		log.Fatal(err)
	}
	err = v.SetEntry("home", vault.ConceptKey("https://schema.org/email"), profile.Entry{
		Value: []byte(`"noor@example.org"`), Confidence: 1,
		Source: profile.Source{Type: "manual", Timestamp: "2026-01-01T00:00:00Z"},
	})
	if err != nil {
		log.Fatal(err)
	}

	v.Lock()
	_, err = v.Profile("home")
	fmt.Println(v.State(), errors.Is(err, vault.ErrLocked))

	if err := v.UnlockPassphrase([]byte("a long passphrase")); err != nil {
		log.Fatal(err)
	}
	p, _ := v.Profile("home")
	email, _ := p.Concepts["https://schema.org/email"].StringValue()
	fmt.Println(v.State(), p.Label, email)
	// Output:
	// locked true
	// unlocked Home noor@example.org
}

func ExampleVault_Learn() {
	dir, _ := os.MkdirTemp("", "vault-example")
	defer os.RemoveAll(dir)
	v, err := vault.Create(dir, vault.Options{ScryptWorkFactor: 10}, vault.InitOptions{Passphrase: []byte("pw")})
	if err != nil {
		log.Fatal(err)
	}
	defer v.Close()
	v.CreateProfile("home", "Home")

	tel := "https://schema.org/telephone"
	for _, value := range []string{`"+31201234567"`, `"+31201234567"`, `"+31699999999"`} {
		res, err := v.Learn("home", []vault.Observation{{Concept: tel, Value: []byte(value)}})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(res[0].Outcome)
	}
	cands, _ := v.Candidates("home", vault.ConceptKey(tel))
	fmt.Println(len(cands), "candidate kept beside the current value")
	// Output:
	// learned
	// confirmed
	// candidate
	// 1 candidate kept beside the current value
}

func ExampleParseVCards() {
	card := "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Bruno Okafor\r\nN:Okafor;Bruno;;;\r\nTEL:(415) 555-0134\r\nADR:;;500 Market St;San Francisco;CA;94105;US\r\nEND:VCARD\r\n"
	ps, err := vault.ParseVCards(strings.NewReader(card), "2026-01-01T00:00:00Z")
	if err != nil {
		log.Fatal(err)
	}
	tel, _ := ps[0].Concepts["https://schema.org/telephone"].StringValue()
	fmt.Println(ps[0].Label, tel)
	// Output: Bruno Okafor +14155550134
}

func ExampleDefaultDir() {
	dir, _ := vault.DefaultDir(func(k string) string {
		return map[string]string{"TESSERA_HOME": "/srv/tessera"}[k]
	})
	fmt.Println(dir)
	// Output: /srv/tessera
}

// memKeyring stands in for vault.SystemKeyring() in the example.
type memKeyring map[string]string

func (m memKeyring) Get(service, user string) (string, error) {
	s, ok := m[service+"/"+user]
	if !ok {
		return "", vault.ErrKeyringItemMissing
	}
	return s, nil
}

func (m memKeyring) Set(service, user, secret string) error {
	m[service+"/"+user] = secret
	return nil
}

func (m memKeyring) Delete(service, user string) error {
	delete(m, service+"/"+user)
	return nil
}

// The app's start: the first run creates a vault unlocked through the
// keyring; later runs unlock from the keyring without asking anything.
func ExampleOpenDefault() {
	dir, _ := os.MkdirTemp("", "vault-example")
	defer os.RemoveAll(dir)
	kr := memKeyring{}
	for range 2 {
		v, unlockErr, err := vault.OpenDefault(dir, vault.Options{Keyring: kr})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(v.State(), unlockErr)
		v.Close()
	}
	// Output:
	// unlocked <nil>
	// unlocked <nil>
}

// A bundle for other devices: encrypted to each device's age recipient,
// readable by any of them and by nothing else. (A passphrase bundle takes
// age.NewScryptRecipient alone; age does not mix it with other recipients.)
func ExampleWriteBundle() {
	ps := []profile.UserProfile{{ID: "home", Label: "Home", Concepts: map[string]profile.Entry{
		"https://schema.org/email": {Value: []byte(`"noor@example.org"`), Confidence: 1,
			Source: profile.Source{Type: "manual", Timestamp: "2026-01-01T00:00:00Z"}},
	}}}
	phone, _ := age.GenerateX25519Identity()
	laptop, _ := age.GenerateX25519Identity()

	var bundle bytes.Buffer
	if err := vault.WriteBundle(&bundle, ps, "2026-01-01T00:00:00Z", phone.Recipient(), laptop.Recipient()); err != nil {
		log.Fatal(err)
	}
	fmt.Println(strings.Contains(bundle.String(), "noor@example.org"))

	got, err := vault.ReadBundle(bytes.NewReader(bundle.Bytes()), "2026-01-02T00:00:00Z", phone)
	if err != nil {
		log.Fatal(err)
	}
	email, _ := got[0].Concepts["https://schema.org/email"].StringValue()
	fmt.Println(got[0].Label, email)

	stranger, _ := age.GenerateX25519Identity()
	_, err = vault.ReadBundle(bytes.NewReader(bundle.Bytes()), "2026-01-02T00:00:00Z", stranger)
	fmt.Println(errors.Is(err, vault.ErrBadPassphrase))
	// Output:
	// false
	// Home noor@example.org
	// true
}

func ExampleParseProfilesJSON() {
	doc := `{"$formspecProfile": "1.0", "id": "work", "label": "Work",
	  "concepts": {"https://schema.org/jobTitle": {"value": "Editor"}},
	  "fields": {"employee.badge": {"value": "B-77"}}}`
	ps, err := vault.ParseProfilesJSON(strings.NewReader(doc), "2026-01-01T00:00:00Z")
	if err != nil {
		log.Fatal(err)
	}
	title, _ := ps[0].Concepts["https://schema.org/jobTitle"].StringValue()
	badge := ps[0].Fields["employee.badge"]
	fmt.Println(ps[0].Label, title, string(badge.Value), badge.Source.Type)
	// Output: Work Editor "B-77" import
}

// Every release of values to a page goes into the sealed audit log.
func ExampleVault_RecordRelease() {
	dir, _ := os.MkdirTemp("", "vault-example")
	defer os.RemoveAll(dir)
	v, err := vault.Create(dir, vault.Options{ScryptWorkFactor: 10}, vault.InitOptions{Passphrase: []byte("pw")})
	if err != nil {
		log.Fatal(err)
	}
	defer v.Close()
	err = v.RecordRelease(vault.Release{
		Time:   time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC),
		Origin: "https://shop.example", Frame: "main",
		Concepts: []string{"https://schema.org/email"}, ProfileID: "home",
	})
	if err != nil {
		log.Fatal(err)
	}
	rs, _ := v.Releases()
	for _, r := range rs {
		fmt.Println(r.Time.Format(time.DateOnly), r.Origin, r.ProfileID, r.Concepts)
	}
	// Output: 2026-03-01 https://shop.example home [https://schema.org/email]
}

// Re-keying replaces the data key and re-seals every record; both the
// keyring and the passphrase open the vault afterwards.
func ExampleVault_Rekey() {
	dir, _ := os.MkdirTemp("", "vault-example")
	defer os.RemoveAll(dir)
	kr := memKeyring{}
	v, err := vault.Create(dir, vault.Options{Keyring: kr, ScryptWorkFactor: 10},
		vault.InitOptions{Passphrase: []byte("pw"), Keyring: true})
	if err != nil {
		log.Fatal(err)
	}
	defer v.Close()
	v.CreateProfile("home", "Home")
	if err := v.Rekey([]byte("pw")); err != nil {
		log.Fatal(err)
	}
	v.Lock()
	fmt.Println(v.UnlockKeyring())
	v.Lock()
	fmt.Println(v.UnlockPassphrase([]byte("pw")))
	p, _ := v.Profile("home")
	fmt.Println(p.Label)
	// Output:
	// <nil>
	// <nil>
	// Home
}

// ProfileSummaries is what a picker needs (profile.list): labels and
// counts, without decrypting a single value.
func ExampleVault_ProfileSummaries() {
	dir, _ := os.MkdirTemp("", "vault-example")
	defer os.RemoveAll(dir)
	v, err := vault.Create(dir, vault.Options{ScryptWorkFactor: 10}, vault.InitOptions{Passphrase: []byte("pw")})
	if err != nil {
		log.Fatal(err)
	}
	defer v.Close()
	if _, err := v.Import([]profile.UserProfile{{ID: "home", Label: "Home", Concepts: map[string]profile.Entry{
		"https://schema.org/givenName": {Value: []byte(`"Noor"`), Confidence: 1},
		"https://schema.org/email":     {Value: []byte(`"noor@example.org"`), Confidence: 1},
	}}}); err != nil {
		log.Fatal(err)
	}
	ps, err := v.ProfileSummaries()
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range ps {
		fmt.Println(p.ID, p.Label, p.Entries, p.Candidates)
	}
	// Output:
	// home Home 2 0
}

// A row written back from an older copy of the file is refused, never
// read as a value.
func ExampleErrTampered() {
	dir, _ := os.MkdirTemp("", "vault-example")
	defer os.RemoveAll(dir)
	v, err := vault.Create(dir, vault.Options{ScryptWorkFactor: 10}, vault.InitOptions{Passphrase: []byte("pw")})
	if err != nil {
		log.Fatal(err)
	}
	defer v.Close()
	if _, err := v.CreateProfile("home", "Home"); err != nil {
		log.Fatal(err)
	}
	v.Close()
	backup, _ := os.ReadFile(dir + "/vault.db")
	v, _ = vault.Open(dir, vault.Options{})
	v.UnlockPassphrase([]byte("pw"))
	v.RenameProfile("home", "Home (new)")
	v.Close()

	// Splice the old profile row into today's file, as sqlite3 could.
	os.WriteFile(dir+"/old.db", backup, 0o600)
	db, _ := sql.Open("sqlite", dir+"/vault.db")
	db.Exec("ATTACH DATABASE ? AS old", dir+"/old.db")
	db.Exec("UPDATE profiles SET ver = (SELECT ver FROM old.profiles), rec = (SELECT rec FROM old.profiles)")
	db.Close()

	v, _ = vault.Open(dir, vault.Options{})
	err = v.UnlockPassphrase([]byte("pw"))
	v.Close()
	fmt.Println(errors.Is(err, vault.ErrTampered))
	// Output:
	// true
}

func ExampleVault_SetSiteRule() {
	dir, _ := os.MkdirTemp("", "vault-example")
	defer os.RemoveAll(dir)
	v, err := vault.Create(dir, vault.Options{ScryptWorkFactor: 10}, vault.InitOptions{Passphrase: []byte("pw")})
	if err != nil {
		log.Fatal(err)
	}
	defer v.Close()
	if _, err := v.CreateProfile("home", "Home"); err != nil {
		log.Fatal(err)
	}

	// The person ticked "remember for this site" when approving a fill.
	err = v.SetSiteRule(vault.SiteRule{
		Origin:   "https://shop.example",
		Site:     "shop.example",
		Profile:  "home",
		Concepts: []string{"https://schema.org/email", "https://schema.org/givenName"},
	})
	if err != nil {
		log.Fatal(err)
	}

	// The next fill from that origin finds the rule, and marks it used.
	r, ok, err := v.SiteRule("https://shop.example")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ok, r.Profile, r.Concepts)
	if err := v.TouchSiteRule(r.Origin); err != nil {
		log.Fatal(err)
	}

	// Another origin of the same site has no rule: rules are per origin.
	_, ok, _ = v.SiteRule("https://checkout.shop.example")
	fmt.Println(ok)

	// Revoking it, or deleting the profile, removes it.
	if err := v.DeleteSiteRule("https://shop.example"); err != nil {
		log.Fatal(err)
	}
	rules, _ := v.SiteRules()
	fmt.Println(len(rules))
	// Output:
	// true home [https://schema.org/email https://schema.org/givenName]
	// false
	// 0
}
