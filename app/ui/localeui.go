package ui

import (
	"slices"
	"strings"

	"github.com/tessera-app/tessera/regions"
	"golang.org/x/text/collate"
	"golang.org/x/text/language"
	"golang.org/x/text/language/display"
)

// The editor's pickers in the person's language: every country and a set
// of languages, named from CLDR through x/text in the language the
// environment asks for (LC_ALL, LC_MESSAGES, LANG), English where CLDR has
// no names. Stored values stay codes (ISO 3166-1, BCP 47); only what the
// window shows changes.

// Named is a code and its name in the person's language.
type Named struct {
	Code string `json:"code"`
	Name string `json:"name"`
}

// LocaleView is what the editor's pickers offer.
type LocaleView struct {
	// Tag is the person's language (BCP 47), the one the names are in.
	Tag       string  `json:"tag"`
	Countries []Named `json:"countries"`
	Languages []Named `json:"languages"`
}

// pickerLanguages are the languages the language picker offers: the
// languages of the countries Tessera fills forms in most.
var pickerLanguages = []string{
	"ar", "bg", "bn", "ca", "cs", "cy", "da", "de", "el", "en", "es", "et", "eu", "fa", "fi", "fil", "fr", "ga",
	"gl", "he", "hi", "hr", "hu", "id", "is", "it", "ja", "ko", "lt", "lv", "mk", "ms", "mt", "nb", "nl",
	"pl", "pt", "ro", "ru", "sk", "sl", "sq", "sr", "sv", "sw", "ta", "th", "tr", "uk", "ur", "vi", "zh",
}

// personTag is the person's language from the environment: "de_DE.UTF-8"
// becomes de-DE; "C", "POSIX" and nonsense become English.
func personTag(getenv func(string) string) language.Tag {
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		v := getenv(k)
		if v == "" {
			continue
		}
		v, _, _ = strings.Cut(v, ".")
		v, _, _ = strings.Cut(v, "@")
		if v == "C" || v == "POSIX" {
			break
		}
		if t, err := language.Parse(strings.ReplaceAll(v, "_", "-")); err == nil {
			return t
		}
	}
	return language.English
}

// Locale returns the countries and languages the editor's pickers offer,
// named in the person's language and sorted the way it sorts.
func (u *UI) Locale() LocaleView {
	return localeView(personTag(u.cfg.Getenv))
}

func localeView(tag language.Tag) LocaleView {
	regions := display.Regions(tag)
	langs := display.Languages(tag)
	en := display.Regions(language.English)
	enLangs := display.Languages(language.English)
	out := LocaleView{Tag: tag.String()}
	for a := 'A'; a <= 'Z'; a++ {
		for b := 'A'; b <= 'Z'; b++ {
			code := string([]rune{a, b})
			r, err := language.ParseRegion(code)
			// Withdrawn codes (BU, YU, ...) parse as their successors.
			if err != nil || !r.IsCountry() || r.String() != code || r.Canonicalize() != r || en.Name(r) == "" {
				continue
			}
			name := regions.Name(r)
			if name == "" {
				name = en.Name(r)
			}
			if name != "" {
				out.Countries = append(out.Countries, Named{Code: r.String(), Name: name})
			}
		}
	}
	for _, l := range pickerLanguages {
		t := language.MustParse(l)
		name := langs.Name(t)
		if name == "" {
			name = enLangs.Name(t)
		}
		out.Languages = append(out.Languages, Named{Code: l, Name: name})
	}
	c := collate.New(tag, collate.Loose)
	byName := func(a, b Named) int { return c.CompareString(a.Name, b.Name) }
	slices.SortFunc(out.Countries, byName)
	slices.SortFunc(out.Languages, byName)
	return out
}

// RegionsOf returns the first-level regions (states, provinces, ...) of
// country (ISO 3166-1 alpha-2) that the regions table knows, by their
// usual name, sorted the way the person's language sorts; none for a
// country the table does not hold. The editor suggests them for the
// region of an address in that country.
func (u *UI) RegionsOf(country string) []Named {
	return regionsOf(personTag(u.cfg.Getenv), country)
}

func regionsOf(tag language.Tag, country string) []Named {
	rs := regions.ByCountry()[strings.ToUpper(strings.TrimSpace(country))]
	out := make([]Named, 0, len(rs))
	for _, r := range rs {
		if len(r.Names) > 0 {
			out = append(out, Named{Code: r.Code, Name: r.Names[0]})
		}
	}
	c := collate.New(tag, collate.Loose)
	slices.SortFunc(out, func(a, b Named) int { return c.CompareString(a.Name, b.Name) })
	return out
}
