package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

// editorUI returns a UI over an unlocked vault with an empty profile.
func editorUI(t testing.TB) (*UI, *vault.Vault, string) {
	t.Helper()
	u, v, _ := newVaultUI(t, nil)
	if _, err := u.SetUpVault(goodPass, goodPass); err != nil {
		t.Fatal(err)
	}
	p, err := u.CreateProfile("Home")
	if err != nil {
		t.Fatal(err)
	}
	return u, v, p.ID
}

// values returns the values the editor shows for concept, preferred first.
func values(pv ProfileView, concept string) []ValueView {
	for _, g := range pv.Groups {
		for _, c := range g.Concepts {
			if c.IRI == concept {
				return c.Values
			}
		}
	}
	return nil
}

func plain(vs []ValueView) []string {
	var out []string
	for _, v := range vs {
		out = append(out, v.Value)
	}
	return out
}

// Every concept a form can ask for from profile data has a place in the
// editor: a concept without one could be filled but never edited.
func TestCatalogCoversEveryConcept(t *testing.T) {
	for _, tok := range profile.Tokens() {
		c, _ := profile.ConceptForToken(tok)
		if profile.IsSensitiveToken(tok) || tok == "transaction-currency" || tok == "transaction-amount" {
			if _, ok := profile.CatalogOrder(c); ok {
				t.Errorf("catalog offers %s (token %q), which is never filled from a profile", c, tok)
			}
			continue
		}
		if _, ok := profile.CatalogOrder(c); !ok {
			t.Errorf("token %q: concept %s is not in the editor's catalog", tok, c)
		}
	}
	groups := map[string]bool{}
	for _, g := range ConceptGroups {
		groups[g.ID] = true
	}
	for _, c := range profile.Catalog {
		if !groups[c.Group] {
			t.Errorf("concept %s is in group %q, which the editor does not show", c.IRI, c.Group)
		}
	}
}

func TestNormaliseValue(t *testing.T) {
	tel := conceptInfo(profile.ConceptTelephone)
	tests := []struct {
		info           ConceptInfo
		in, country    string
		want           string
		wantErr        bool
		errNotContains string
	}{
		{tel, "020 7946 0018", "GB", "+442079460018", false, ""},
		{tel, "+33 1 42 68 53 00", "GB", "+33142685300", false, ""},
		{tel, "020 7946 0018", "", "", true, "7946"},
		{tel, "12345", "GB", "", true, "12345"},
		{conceptInfo(profile.ConceptBirthDate), "1815-12-10", "", "1815-12-10", false, ""},
		{conceptInfo(profile.ConceptBirthDate), "10/12/1815", "", "", true, "1815"},
		{conceptInfo(profile.ConceptEmail), " ada@example.org ", "", "ada@example.org", false, ""},
		{conceptInfo(profile.ConceptEmail), "ada at example", "", "", true, "ada"},
		{conceptInfo(profile.ConceptURL), "example.org/ada", "", "https://example.org/ada", false, ""},
		{conceptInfo(profile.ConceptAddressCountry), "gb", "", "GB", false, ""},
		{conceptInfo(profile.ConceptAddressCountry), "Britain", "", "", true, "Britain"},
		{conceptInfo(profile.ConceptStreetAddress), " 12 St James's Square \r\n\r\n Flat 3 ", "", "12 St James's Square\nFlat 3", false, ""},
		{conceptInfo(profile.ConceptGivenName), "  Ada   ", "", "Ada", false, ""},
		{conceptInfo(profile.ConceptGivenName), "   ", "", "", true, ""},
	}
	for _, tt := range tests {
		got, err := normaliseValue(tt.info, tt.in, tt.country)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("normaliseValue(%s, %q, %q) = %q, %v, want %q (error %v)", tt.info.Label, tt.in, tt.country, got, err, tt.want, tt.wantErr)
			continue
		}
		if err != nil && !errors.Is(err, ErrBadValue) {
			t.Errorf("normaliseValue(%s, %q) error %v does not wrap ErrBadValue", tt.info.Label, tt.in, err)
		}
		// Errors reach the page and the log: never the value.
		if err != nil && tt.errNotContains != "" && strings.Contains(err.Error(), tt.errNotContains) {
			t.Errorf("normaliseValue(%s, %q) error %q repeats the value", tt.info.Label, tt.in, err)
		}
	}
}

func TestLayOutAddress(t *testing.T) {
	street, city, region, postcode, country := profile.ConceptStreetAddress, profile.ConceptAddressLocality, profile.ConceptAddressRegion, profile.ConceptPostalCode, profile.ConceptAddressCountry
	catalog := []string{street, city, region, postcode, country}
	tests := []struct {
		country string
		want    []string // labels, in order
	}{
		{"", []string{"Street address", "City / town", "State / region", "Postcode", "Country"}},
		{"US", []string{"Street address", "City / town", "State", "ZIP code", "Country"}},
		{"DE", []string{"Street address", "Postcode", "City / town", "State / region", "Country"}},
		{"JP", []string{"Country", "Postcode", "Prefecture", "City / ward", "Street address"}},
	}
	for _, tt := range tests {
		var cs []ConceptValues
		for _, iri := range catalog {
			cs = append(cs, ConceptValues{ConceptInfo: conceptInfo(iri)})
		}
		layOutAddress(cs, tt.country)
		var got []string
		for _, c := range cs {
			got = append(got, c.Label)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("layOutAddress(%q) = %q, want %q", tt.country, got, tt.want)
		}
	}
}

func TestEditProfile(t *testing.T) {
	u, v, id := editorUI(t)
	email, tel, country := profile.ConceptEmail, profile.ConceptTelephone, profile.ConceptAddressCountry
	pv, err := u.ProfileDetail(id)
	if err != nil || len(pv.Groups) != 0 || len(pv.Fields) != 0 || pv.Label != "Home" {
		t.Fatalf("ProfileDetail(new) = %+v, %v, want an empty Home", pv, err)
	}
	steps := []struct{ concept, value string }{{email, "ada@example.org"}, {country, "gb"}, {tel, "020 7946 0018"}}
	for _, s := range steps {
		if pv, err = u.AddValue(id, s.concept, s.value); err != nil {
			t.Fatalf("AddValue(%s, %q): %v", s.concept, s.value, err)
		}
	}
	var groups []string
	for _, g := range pv.Groups {
		groups = append(groups, g.ID)
	}
	if !slices.Equal(groups, []string{"contact", "address"}) {
		t.Errorf("groups = %q, want contact then address", groups)
	}
	// Stored E.164, shown as the profile's country writes it.
	if vs := values(pv, tel); len(vs) != 1 || vs[0].Value != "+442079460018" || vs[0].Display != "020 7946 0018" || vs[0].SourceType != "manual" || vs[0].Source != "typed in Tessera" {
		t.Errorf("phone = %+v, want +442079460018 shown as 020 7946 0018, typed in Tessera", vs)
	}
	if e, err := v.Entry(id, vault.ConceptKey(tel)); err != nil || string(e.Value) != `"+442079460018"` || e.Source.Type != "manual" {
		t.Errorf("vault phone entry = %s (%+v), %v", e.Value, e.Source, err)
	}
	if _, err := u.AddValue(id, tel, "not a number"); !errors.Is(err, ErrBadValue) || err.Error() != "add value: phone: not a phone number of this profile's country; for another country start it with + and the country code" {
		t.Errorf("AddValue(bad phone) = %v, want ErrBadValue worded for the window", err)
	}

	// A second email sits beside the first; making it preferred swaps them.
	if pv, err = u.AddValue(id, email, "ada@work.example"); err != nil {
		t.Fatal(err)
	}
	if got := plain(values(pv, email)); !slices.Equal(got, []string{"ada@example.org", "ada@work.example"}) {
		t.Errorf("emails after adding a second = %q", got)
	}
	// Typed here, never filled: not "last used" (the vault stamps values
	// stored beside another as used when stored).
	for _, x := range values(pv, email) {
		if x.LastUsed != "" {
			t.Errorf("email %+v has a last use, want none", x)
		}
	}
	if _, err := u.AddValue(id, email, "ada@work.example"); !errors.Is(err, ErrBadValue) {
		t.Errorf("AddValue(the same email again) = %v, want ErrBadValue", err)
	}
	if _, err := u.AddValue(id, email, "ada@example.org"); !errors.Is(err, ErrBadValue) {
		t.Errorf("AddValue(the preferred email again) = %v, want ErrBadValue", err)
	}
	if pv, err = u.PromoteValue(id, email, 1); err != nil {
		t.Fatal(err)
	}
	if got := plain(values(pv, email)); !slices.Equal(got, []string{"ada@work.example", "ada@example.org"}) {
		t.Errorf("emails after make preferred = %q", got)
	}
	if _, err := u.PromoteValue(id, email, 0); !errors.Is(err, vault.ErrNotFound) {
		t.Errorf("PromoteValue(0) = %v, want ErrNotFound", err)
	}
	// Editing the preferred value keeps the other.
	if pv, err = u.SetValue(id, email, "ada@new.example"); err != nil {
		t.Fatal(err)
	}
	if got := plain(values(pv, email)); !slices.Equal(got, []string{"ada@new.example", "ada@example.org"}) {
		t.Errorf("emails after editing the preferred = %q", got)
	}
	// Deleting the preferred value promotes the other.
	if pv, err = u.DeleteValue(id, email, 0); err != nil {
		t.Fatal(err)
	}
	if got := plain(values(pv, email)); !slices.Equal(got, []string{"ada@example.org"}) {
		t.Errorf("emails after deleting the preferred = %q", got)
	}
	if pv, err = u.DeleteValue(id, email, 0); err != nil {
		t.Fatal(err)
	}
	if vs := values(pv, email); vs != nil {
		t.Errorf("emails after deleting the last = %+v, want none", vs)
	}
	if _, err := v.Entry(id, vault.ConceptKey(email)); !errors.Is(err, vault.ErrNotFound) {
		t.Errorf("vault email after deleting all = %v, want ErrNotFound", err)
	}

	// Field-path entries are listed apart and can be deleted.
	val, _ := json.Marshal("blue")
	if err := v.SetEntry(id, vault.FieldKey("survey.colour"), profile.Entry{Value: val, Source: profile.Source{Type: "form-fill", FormURL: "https://shop.example/survey"}}); err != nil {
		t.Fatal(err)
	}
	pv, err = u.ProfileDetail(id)
	if err != nil || len(pv.Fields) != 1 || pv.Fields[0].Path != "survey.colour" || pv.Fields[0].Value.Value != "blue" || pv.Fields[0].Value.Source != "learnt from shop.example" {
		t.Fatalf("ProfileDetail fields = %+v, %v", pv.Fields, err)
	}
	if pv, err = u.DeleteField(id, "survey.colour"); err != nil || len(pv.Fields) != 0 {
		t.Errorf("DeleteField = %+v, %v, want no field left", pv.Fields, err)
	}
}

// Adding a value past the vault's bound is refused: the vault would drop
// the oldest value to make room, unasked.
func TestAddValueBound(t *testing.T) {
	u, _, id := editorUI(t)
	want := []string{}
	for i := 0; i <= vault.MaxCandidates; i++ {
		e := fmt.Sprintf("ada%d@example.org", i)
		want = append(want, e)
		if _, err := u.AddValue(id, profile.ConceptEmail, e); err != nil {
			t.Fatalf("AddValue #%d: %v", i, err)
		}
	}
	if _, err := u.AddValue(id, profile.ConceptEmail, "one.more@example.org"); !errors.Is(err, ErrBadValue) {
		t.Errorf("AddValue past the bound = %v, want ErrBadValue", err)
	}
	pv, err := u.ProfileDetail(id)
	if got := plain(values(pv, profile.ConceptEmail)); err != nil || !slices.Equal(got, want) {
		t.Errorf("emails = %q, %v, want every one added, %q", got, err, want)
	}
}

func TestRenameDuplicateDelete(t *testing.T) {
	u, v, id := editorUI(t)
	if _, err := u.AddValue(id, profile.ConceptEmail, "ada@example.org"); err != nil {
		t.Fatal(err)
	}
	if _, err := u.AddValue(id, profile.ConceptEmail, "ada@work.example"); err != nil {
		t.Fatal(err)
	}
	s, err := u.RenameProfile(id, "  Personal ")
	if err != nil || s.Label != "Personal" || s.ID != id {
		t.Fatalf("RenameProfile = %+v, %v, want Personal", s, err)
	}
	if _, err := u.RenameProfile(id, " "); err == nil {
		t.Errorf("RenameProfile(blank) succeeded")
	}
	cp, err := u.DuplicateProfile(id)
	if err != nil || cp.Label != "Personal (copy)" || cp.ID == id || cp.Entries != 1 {
		t.Fatalf("DuplicateProfile = %+v, %v, want a copy with 1 entry", cp, err)
	}
	pv, err := u.ProfileDetail(cp.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := plain(values(pv, profile.ConceptEmail)); !slices.Equal(got, []string{"ada@example.org", "ada@work.example"}) {
		t.Errorf("copy's emails = %q, want both, in order", got)
	}
	if err := u.DeleteProfile(id); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Profile(id); !errors.Is(err, vault.ErrNotFound) {
		t.Errorf("Profile after DeleteProfile = %v, want ErrNotFound", err)
	}
	if ps, _ := u.Profiles(); len(ps) != 1 || ps[0].ID != cp.ID {
		t.Errorf("Profiles after delete = %+v, want only the copy", ps)
	}
	if err := u.DeleteProfile(id); !errors.Is(err, vault.ErrNotFound) {
		t.Errorf("DeleteProfile twice = %v, want ErrNotFound", err)
	}
	if _, err := u.Lock(); err != nil {
		t.Fatal(err)
	}
	if _, err := u.ProfileDetail(cp.ID); !errors.Is(err, vault.ErrLocked) {
		t.Errorf("ProfileDetail when locked = %v, want ErrLocked", err)
	}
}

func TestSearchProfiles(t *testing.T) {
	u, _, home := editorUI(t)
	work, err := u.CreateProfile("Work")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []struct{ id, concept, value string }{
		{home, profile.ConceptEmail, "ada@example.org"},
		{home, profile.ConceptStreetAddress, "12 St James's Square\nFlat 3"},
		{work.ID, profile.ConceptEmail, "ada@analytical.example"},
		{work.ID, profile.ConceptOrganization, "Analytical Engines"},
	} {
		if _, err := u.AddValue(s.id, s.concept, s.value); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		q    string
		want []string // "label: matches"
	}{
		{"ADA@", []string{"Home: [Email: ada@example.org]", "Work: [Email: ada@analytical.example]"}},
		{"analytical", []string{"Work: [Email: ada@analytical.example Organisation: Analytical Engines]"}},
		{"flat", []string{"Home: [Street address: 12 St James's Square, Flat 3]"}},
		{"work", []string{"Work: []"}},
		{"organisation", []string{"Work: [Organisation: Analytical Engines]"}},
		{"nothing like it", nil},
	}
	for _, tt := range tests {
		hits, err := u.SearchProfiles(tt.q)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range hits {
			got = append(got, fmt.Sprintf("%s: %v", h.Label, h.Matches))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("SearchProfiles(%q) = %q, want %q", tt.q, got, tt.want)
		}
	}
}

// FuzzNormaliseValue: whatever a person types, a value accepted for a
// kind is already in its stored shape (accepting it again changes
// nothing) and never empty.
func FuzzNormaliseValue(f *testing.F) {
	for _, s := range []string{"020 7946 0018", "+33 1 42 68 53 00", "1815-12-10", "ada@example.org", "example.org/ada", "gb", " 12 St James's Square \r\n Flat 3 ", "Ada", "", "\x00", "ü@ü.ü"} {
		f.Add(s, "GB")
		f.Add(s, "")
	}
	f.Fuzz(func(t *testing.T, in, country string) {
		for _, info := range profile.Catalog {
			out, err := normaliseValue(info, in, country)
			if err != nil {
				continue
			}
			if out == "" {
				t.Fatalf("normaliseValue(%s, %q, %q) = \"\", accepted", info.Label, in, country)
			}
			again, err := normaliseValue(info, out, country)
			if err != nil || again != out {
				t.Fatalf("normaliseValue(%s, %q, %q) = %q, %v, want it to keep %q (from %q)", info.Label, out, country, again, err, out, in)
			}
		}
	})
}
