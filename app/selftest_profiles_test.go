//go:build selftest

package app

import (
	"testing"

	"github.com/tessera-app/tessera/app/ui"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

// The editor's Go-side checks must fail when the page's clicks did not
// reach the vault, whatever the page reported.
func TestSelfTestProfileChecks(t *testing.T) {
	// asPage leaves the vault as the page's steps do, short of skip.
	asPage := func(skip string) func(t *testing.T, u *ui.UI, v *vault.Vault) {
		return func(t *testing.T, u *ui.UI, v *vault.Vault) {
			p, err := u.CreateProfile(selfTestEditLabel)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range []struct{ name, concept, value string }{
				{"email", profile.ConceptEmail, selfTestEmail},
				{"phone", profile.ConceptTelephone, selfTestPhone},
				{"email2", profile.ConceptEmail, selfTestEmail2},
			} {
				if s.name == skip {
					continue
				}
				if _, err := u.AddValue(p.ID, s.concept, s.value); err != nil {
					t.Fatal(err)
				}
			}
			if skip != "promote" {
				if _, err := u.PromoteValue(p.ID, profile.ConceptEmail, 1); err != nil {
					t.Fatal(err)
				}
			}
			if skip != "rename" {
				if _, err := u.RenameProfile(p.ID, selfTestEditRenamed); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := u.DuplicateProfile(p.ID); err != nil {
				t.Fatal(err)
			}
			if skip != "delete copy" {
				ps, _ := u.Profiles()
				for _, c := range ps {
					if c.ID != p.ID && c.Label != selfTestProfile {
						if err := u.DeleteProfile(c.ID); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
			if skip != "release" {
				r := vault.Release{Event: vault.EventRelease, Site: selfTestFillSite, ProfileID: p.ID, Concepts: []string{profile.ConceptEmail, profile.ConceptTelephone}}
				if skip == "decline" {
					r = vault.Release{Event: vault.EventDecline, Site: selfTestFillSite, ProfileID: p.ID, Reason: DeclineDenied}
				}
				if err := v.RecordRelease(r); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	tests := []struct {
		name  string
		setup func(t *testing.T, u *ui.UI, v *vault.Vault)
		ok    []bool
	}{
		{"as the page leaves it", asPage(""), []bool{true, true, true, true}},
		{"not renamed", asPage("rename"), []bool{false}},
		{"copy left", asPage("delete copy"), []bool{false, true, true, true}},
		{"second email not preferred", asPage("promote"), []bool{true, false, true, true}},
		{"no phone", asPage("phone"), []bool{true, true, false, true}},
		{"declined, not released", asPage("decline"), []bool{true, true, true, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, u, v, _ := newVaultApp(t, nil, "")
			if _, err := u.SetUpVault(goodPass, goodPass); err != nil {
				t.Fatal(err)
			}
			tt.setup(t, u, v)
			st := newSelfTest(a, u, ui.NewWindow(u), windowConfig{})
			got := st.profileChecks()
			if len(got) != len(tt.ok) {
				t.Fatalf("profileChecks() = %+v, want %d checks", got, len(tt.ok))
			}
			for i, c := range got {
				if c.OK != tt.ok[i] {
					t.Errorf("profileChecks()[%d] %q ok = %v, want %v (%s)", i, c.Name, c.OK, tt.ok[i], c.Detail)
				}
			}
		})
	}
}
