package ui

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/language"
)

func TestPersonTag(t *testing.T) {
	for env, want := range map[string]string{"de_DE.UTF-8": "de-DE", "fr_CA": "fr-CA", "C": "en", "POSIX": "en", "": "en", "ja_JP.eucJP@x": "ja-JP", "??": "en"} {
		got := personTag(func(k string) string {
			if k == "LANG" {
				return env
			}
			return ""
		})
		if got.String() != want {
			t.Errorf("LANG=%q: %v, want %s", env, got, want)
		}
	}
	lcAll := personTag(func(k string) string { return map[string]string{"LC_ALL": "sv_SE.UTF-8", "LANG": "de_DE.UTF-8"}[k] })
	if lcAll.String() != "sv-SE" {
		t.Errorf("LC_ALL wins over LANG: %v", lcAll)
	}
}

// Country and language names come in the person's language, sorted as it
// sorts, every ISO country once; the codes stay codes.
func TestLocaleNamesInThePersonsLanguage(t *testing.T) {
	de := localeView(language.MustParse("de-DE"))
	name := func(list []Named, code string) string {
		i := slices.IndexFunc(list, func(n Named) bool { return n.Code == code })
		if i < 0 {
			return ""
		}
		return list[i].Name
	}
	if got := name(de.Countries, "DE"); got != "Deutschland" {
		t.Errorf("DE in German = %q", got)
	}
	if got := name(de.Countries, "GB"); got != "Vereinigtes Königreich" {
		t.Errorf("GB in German = %q", got)
	}
	if got := name(de.Languages, "fr"); got != "Französisch" {
		t.Errorf("fr in German = %q", got)
	}
	if n := len(de.Countries); n < 240 || n > 260 {
		t.Errorf("%d countries", n)
	}
	// "Österreich" sorts with O in German, not after Z.
	at, vn := slices.IndexFunc(de.Countries, func(n Named) bool { return n.Code == "AT" }), slices.IndexFunc(de.Countries, func(n Named) bool { return n.Code == "VN" })
	if at > vn {
		t.Errorf("Österreich (%d) after Vietnam (%d): not sorted the German way", at, vn)
	}
	en := localeView(language.English)
	if got := name(en.Countries, "DE"); got != "Germany" {
		t.Errorf("DE in English = %q", got)
	}
}

func TestRegionsOf(t *testing.T) {
	us := regionsOf(language.English, "us")
	i := slices.IndexFunc(us, func(n Named) bool { return n.Code == "CA" })
	if len(us) < 50 || i < 0 || us[i].Name != "California" {
		t.Errorf("US regions: %d, California at %d", len(us), i)
	}
	if !slices.IsSortedFunc(us, func(a, b Named) int { return strings.Compare(a.Name, b.Name) }) {
		t.Error("US regions not sorted by name")
	}
	if got := regionsOf(language.English, "zz"); len(got) != 0 {
		t.Errorf("an unknown country has regions: %v", got)
	}
}
