package vault

import (
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestSiteRules(t *testing.T) {
	clock := &manualClock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	opts := testOptions(nil)
	opts.Clock = clock
	dir := t.TempDir()
	v, err := Create(dir, opts, InitOptions{Passphrase: []byte("correct horse")})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	for _, id := range []string{"home", "work"} {
		if _, err := v.CreateProfile(id, id); err != nil {
			t.Fatal(err)
		}
	}
	if rs, err := v.SiteRules(); err != nil || len(rs) != 0 {
		t.Fatalf("SiteRules() of a new vault = %v, %v", rs, err)
	}
	if _, ok, err := v.SiteRule("https://shop.example"); ok || err != nil {
		t.Fatalf("SiteRule(absent) = %v, %v", ok, err)
	}

	shop := SiteRule{Origin: "https://shop.example", Site: "shop.example", Profile: "home",
		Concepts: []string{"https://schema.org/name", "https://schema.org/email", "https://schema.org/name"}}
	if err := v.SetSiteRule(shop); err != nil {
		t.Fatal(err)
	}
	if err := v.SetSiteRule(SiteRule{Origin: "https://a.example:8443", Site: "a.example", Profile: "work", Concepts: []string{"https://schema.org/email"}}); err != nil {
		t.Fatal(err)
	}
	got, ok, err := v.SiteRule(shop.Origin)
	want := []string{"https://schema.org/email", "https://schema.org/name"}
	if err != nil || !ok || got.Profile != "home" || got.Site != "shop.example" || !slices.Equal(got.Concepts, want) ||
		!got.Created.Equal(clock.Now()) || !got.LastUsed.IsZero() {
		t.Fatalf("SiteRule(%q) = %+v, %v, %v; want home, concepts %q, created now, never used", shop.Origin, got, ok, err, want)
	}

	// Replacing keeps the creation time unless one is given, and may move
	// the rule to another profile.
	clock.Add(time.Hour)
	if err := v.SetSiteRule(SiteRule{Origin: shop.Origin, Site: "shop.example", Profile: "work", Concepts: []string{"https://schema.org/email"}}); err != nil {
		t.Fatal(err)
	}
	clock.Add(time.Hour)
	if err := v.TouchSiteRule(shop.Origin); err != nil {
		t.Fatal(err)
	}
	got, _, err = v.SiteRule(shop.Origin)
	if err != nil || got.Profile != "work" || len(got.Concepts) != 1 || !got.Created.Equal(clock.Now().Add(-2*time.Hour)) || !got.LastUsed.Equal(clock.Now()) {
		t.Fatalf("after replace and touch: %+v, %v", got, err)
	}

	rs, err := v.SiteRules()
	if err != nil || len(rs) != 2 || rs[0].Origin != "https://a.example:8443" || rs[1].Origin != shop.Origin {
		t.Fatalf("SiteRules() = %+v, %v; want both, by origin", rs, err)
	}

	// The rules survive a reopen (verified against the manifest) and both
	// kinds of re-key, which re-index them under the new key.
	v.Close()
	v = unlocked(t, dir, nil)
	defer v.Close()
	if err := v.ChangePassphrase([]byte("battery staple")); err != nil {
		t.Fatal(err)
	}
	if err := v.Rekey([]byte("battery staple")); err != nil {
		t.Fatal(err)
	}
	if got, ok, err := v.SiteRule(shop.Origin); err != nil || !ok || got.Profile != "work" {
		t.Fatalf("SiteRule after re-keys = %+v, %v, %v", got, ok, err)
	}

	if err := v.DeleteSiteRule(shop.Origin); err != nil {
		t.Fatal(err)
	}
	if err := v.DeleteSiteRule(shop.Origin); !errors.Is(err, ErrNotFound) {
		t.Errorf("DeleteSiteRule(deleted) = %v, want ErrNotFound", err)
	}
	if err := v.TouchSiteRule(shop.Origin); !errors.Is(err, ErrNotFound) {
		t.Errorf("TouchSiteRule(deleted) = %v, want ErrNotFound", err)
	}
	if _, ok, err := v.SiteRule(shop.Origin); ok || err != nil {
		t.Errorf("SiteRule(deleted) = %v, %v", ok, err)
	}
	if rs, err := v.SiteRules(); err != nil || len(rs) != 1 {
		t.Errorf("SiteRules() after delete = %+v, %v", rs, err)
	}

	v.Lock()
	if _, err := v.SiteRules(); !errors.Is(err, ErrLocked) {
		t.Errorf("SiteRules() locked = %v, want ErrLocked", err)
	}
	if err := v.SetSiteRule(shop); !errors.Is(err, ErrLocked) {
		t.Errorf("SetSiteRule() locked = %v, want ErrLocked", err)
	}
}

func TestSetSiteRuleRefuses(t *testing.T) {
	v := newTestVault(t, t.TempDir(), nil)
	if _, err := v.CreateProfile("home", "Home"); err != nil {
		t.Fatal(err)
	}
	many := make([]string, MaxSiteConcepts+1)
	for i := range many {
		many[i] = fmt.Sprintf("https://schema.org/c%d", i)
	}
	email := []string{"https://schema.org/email"}
	long := "https://" + strings.Repeat("a", MaxOriginSize) + ".example"
	tests := []struct {
		name string
		rule SiteRule
		want error // nil: any error
	}{
		{"origin over 2 KiB", SiteRule{Origin: long, Profile: "home", Concepts: email}, ErrTooLarge},
		{"201 concepts", SiteRule{Origin: "https://shop.example", Profile: "home", Concepts: many}, ErrTooLarge},
		{"long concept", SiteRule{Origin: "https://shop.example", Profile: "home", Concepts: []string{strings.Repeat("c", MaxKeySize+1)}}, ErrTooLarge},
		{"long site", SiteRule{Origin: "https://shop.example", Site: strings.Repeat("s", MaxOriginSize+1), Profile: "home", Concepts: email}, ErrTooLarge},
		{"unknown profile", SiteRule{Origin: "https://shop.example", Profile: "nobody", Concepts: email}, ErrNotFound},
		{"no concepts", SiteRule{Origin: "https://shop.example", Profile: "home"}, nil},
		{"empty concept", SiteRule{Origin: "https://shop.example", Profile: "home", Concepts: []string{""}}, nil},
		{"empty origin", SiteRule{Profile: "home", Concepts: email}, nil},
		{"origin with a path", SiteRule{Origin: "https://shop.example/checkout", Profile: "home", Concepts: email}, nil},
		{"origin with a slash", SiteRule{Origin: "https://shop.example/", Profile: "home", Concepts: email}, nil},
		{"origin with a query", SiteRule{Origin: "https://shop.example?x", Profile: "home", Concepts: email}, nil},
		{"origin with a user", SiteRule{Origin: "https://u@shop.example", Profile: "home", Concepts: email}, nil},
		{"host only", SiteRule{Origin: "shop.example", Profile: "home", Concepts: email}, nil},
		{"opaque origin", SiteRule{Origin: "null", Profile: "home", Concepts: email}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := v.SetSiteRule(tt.rule)
			if err == nil || (tt.want != nil && !errors.Is(err, tt.want)) {
				t.Fatalf("SetSiteRule(%.60q) = %v, want %v", tt.rule.Origin, err, tt.want)
			}
		})
	}
	if rs, err := v.SiteRules(); err != nil || len(rs) != 0 {
		t.Fatalf("SiteRules() after refusals = %+v, %v", rs, err)
	}
	if err := v.SetSiteRule(SiteRule{Origin: "https://shop.example", Profile: "home", Concepts: many[:MaxSiteConcepts]}); err != nil {
		t.Fatalf("SetSiteRule with %d concepts: %v", MaxSiteConcepts, err)
	}
}

// TestDeleteProfileDeletesSiteRules guards the promise of the dialog's
// "remember for this site": a rule never outlives its profile, and nothing
// else goes with it.
func TestDeleteProfileDeletesSiteRules(t *testing.T) {
	dir := t.TempDir()
	v := newTestVault(t, dir, nil)
	for _, id := range []string{"a", "b"} {
		if _, err := v.CreateProfile(id, id); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range []SiteRule{
		{Origin: "https://a1.example", Profile: "a", Concepts: []string{"https://schema.org/email"}},
		{Origin: "https://a2.example", Profile: "a", Concepts: []string{"https://schema.org/email"}},
		{Origin: "https://b.example", Profile: "b", Concepts: []string{"https://schema.org/email"}},
	} {
		if err := v.SetSiteRule(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := v.DeleteProfile("a"); err != nil {
		t.Fatal(err)
	}
	rs, err := v.SiteRules()
	if err != nil || len(rs) != 1 || rs[0].Origin != "https://b.example" {
		t.Fatalf("SiteRules() after DeleteProfile(a) = %+v, %v; want b's only", rs, err)
	}
	// A profile of the same id later is a new profile: no rule comes back.
	if _, err := v.CreateProfile("a", "a again"); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := v.SiteRule("https://a1.example"); ok || err != nil {
		t.Fatalf("SiteRule(a1) after the profile was re-created = %v, %v", ok, err)
	}
	v.Close()
	v = unlocked(t, dir, nil)
	defer v.Close()
	if rs, err := v.SiteRules(); err != nil || len(rs) != 1 {
		t.Fatalf("SiteRules() after reopening = %+v, %v", rs, err)
	}
}

// TestSiteRulesUpgrade opens the two earlier vault formats: schema 1 (no
// manifest, upgraded at unlock) and schema 2 (manifest format 1, before the
// sites table). Both get the table, start with no rules, keep every value,
// and verify again after rules are written.
func TestSiteRulesUpgrade(t *testing.T) {
	for _, fixture := range []string{"v1", "v2"} {
		t.Run(fixture, func(t *testing.T) {
			dir, krDir := fixtureCopyOf(t, fixture)
			v, err := Open(dir, testOptions(fileKeyring{krDir}))
			if err != nil {
				t.Fatal(err)
			}
			defer v.Close()
			var version int
			if err := v.db.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version != len(migrations) {
				t.Fatalf("schema version after open = %d, %v; want %d", version, err, len(migrations))
			}
			if err := v.UnlockKeyring(); err != nil {
				t.Fatalf("unlock the %s vault: %v", fixture, err)
			}
			checkFixtureValues(t, v)
			if rs, err := v.SiteRules(); err != nil || len(rs) != 0 {
				t.Fatalf("SiteRules() = %+v, %v; want none", rs, err)
			}
			if err := v.SetSiteRule(SiteRule{Origin: "https://shop.example", Profile: "home", Concepts: []string{emailKey.Name}}); err != nil {
				t.Fatal(err)
			}
			v.Close()

			v, err = Open(dir, testOptions(fileKeyring{krDir}))
			if err != nil {
				t.Fatal(err)
			}
			if err := v.UnlockPassphrase([]byte(fixturePass)); err != nil {
				t.Fatalf("unlock after the first site rule: %v", err)
			}
			if r, ok, err := v.SiteRule("https://shop.example"); err != nil || !ok || r.Profile != "home" {
				t.Fatalf("SiteRule() = %+v, %v, %v", r, ok, err)
			}
			checkFixtureValues(t, v)
			v.Close()

			// The site rows are under the manifest from the first one on.
			onFile(t, dir, func(db *sql.DB) { mustExec(t, db, "DELETE FROM sites") })
			v, err = Open(dir, testOptions(nil))
			if err != nil {
				t.Fatal(err)
			}
			defer v.Close()
			if err := v.UnlockPassphrase([]byte(fixturePass)); !errors.Is(err, ErrTampered) {
				t.Fatalf("unlock after the site rule was deleted = %v, want ErrTampered", err)
			}
		})
	}
}

// TestSiteRuleAddedToOldManifest puts a site row into a schema-2 vault whose
// manifest (format 1) predates the table: the manifest's zero count of site
// rows still holds.
func TestSiteRuleAddedToOldManifest(t *testing.T) {
	src := t.TempDir()
	v := newTestVault(t, src, nil)
	if _, err := v.CreateProfile("home", "Home"); err != nil {
		t.Fatal(err)
	}
	if err := v.SetSiteRule(SiteRule{Origin: "https://shop.example", Profile: "home", Concepts: []string{emailKey.Name}}); err != nil {
		t.Fatal(err)
	}
	v.Close()
	dir, _ := fixtureCopyOf(t, "v2")
	onFile(t, dir, func(db *sql.DB) {
		mustExec(t, db, "ATTACH DATABASE ? AS src", filepath.Join(src, dbName))
		mustExec(t, db, "INSERT INTO sites (id, profile, lookup, ver, rec) SELECT 1, 1, lookup, 1, rec FROM src.sites")
	})
	v, err := Open(dir, testOptions(nil))
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if err := v.UnlockPassphrase([]byte(fixturePass)); !errors.Is(err, ErrTampered) {
		t.Fatalf("unlock with a site row the manifest never counted = %v, want ErrTampered", err)
	}
}
