package matcher

import (
	"net/url"
	"strconv"
	"strings"
	"unicode"

	"github.com/tessera-app/tessera/form"
	"github.com/tessera-app/tessera/heuristics"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/regions"
)

// FieldsFromSnapshot turns the controls of an HTML snapshot and their
// heuristic classification (cls[i] for s.Controls[i], as heuristics.Classify
// returns; may be nil) into matcher fields, one per control, in control
// order. A valid autocomplete token becomes autocomplete evidence; a
// classification that did not come from that token becomes heuristic
// evidence with the classifier's confidence.
func FieldsFromSnapshot(s *form.Snapshot, cls []heuristics.Result) []Field {
	if s == nil {
		return nil
	}
	out := make([]Field, len(s.Controls))
	countries := formCountries(s, cls)
	for i := range s.Controls {
		c := &s.Controls[i]
		f := Field{
			Index:       c.Index,
			Path:        c.Name,
			Label:       c.Label,
			InputType:   c.Type,
			Placeholder: c.Placeholder,
			Constraints: Constraints{
				Pattern: c.Constraints.Pattern, Min: c.Constraints.Min, Max: c.Constraints.Max, Step: c.Constraints.Step,
				MinLength: c.Constraints.MinLength, MaxLength: c.Constraints.MaxLength,
			},
			ReadOnly:  c.ReadOnly,
			Disabled:  c.Disabled,
			Hidden:    c.Visibility.Hidden,
			InputMode: c.InputMode,
			Lang:      s.Lang,
			Country:   countries[c.FormIndex],
		}
		if f.Path == "" {
			f.Path = c.ID
		}
		// A Formspec renderer names the field path in data-name.
		if p := c.Attrs["data-name"]; p != "" {
			f.Path = p
		}
		if f.Label == "" {
			f.Label = c.AriaLabel
		}
		for _, o := range c.Options {
			text := o.Text
			if text == "" {
				text = o.Label
			}
			f.Options = append(f.Options, Option{Value: o.Value, Text: text, Disabled: o.Disabled})
		}
		if c.Type == "radio" {
			f.Group = strconv.Itoa(c.FormIndex) + "\x00" + c.Name
		}
		tok := ""
		if ai := c.AutocompleteInfo; ai != nil && !ai.Off && ai.Field != "" {
			if concept, ok := profile.ConceptForToken(ai.Field); ok {
				tok = ai.Field
				f.Evidence = append(f.Evidence, Evidence{Kind: EvidenceAutocomplete, Concept: concept, Token: tok})
			}
		}
		if i < len(cls) {
			if r := cls[i]; r.Concept != "" && r.Token != tok {
				f.Evidence = append(f.Evidence, Evidence{Kind: EvidenceHeuristic, Concept: r.Concept, Token: r.Token, Strength: r.DecisionConfidence()})
			}
			if r := cls[i]; r.Part != "" && f.Part == "" {
				f.Part = r.Part
			}
		}
		out[i] = f
	}
	return out
}

// formCountries returns, by form index, the country each form is for when
// the page says it, strongest sign first: the option chosen in the form's
// country select, else the country whose regions the form's region select
// lists, else the country of the site's domain (".de", ".co.uk"), else a
// postcode box that asks for a "ZIP" (the United States' word for it).
// Forms that say nothing are left out.
func formCountries(s *form.Snapshot, cls []heuristics.Result) map[int]string {
	out := map[int]string{}
	regional, zip := map[int]string{}, map[int]bool{}
	site := domainCountry(s.URL)
	for i := range s.Controls {
		c := &s.Controls[i]
		tok := ""
		if i < len(cls) {
			tok = cls[i].Token
		}
		if ai := c.AutocompleteInfo; ai != nil && ai.Field != "" {
			tok = ai.Field
		}
		switch {
		case tok == "address-level1" && c.Tag == "select":
			if cc := regionsCountry(c.Options); cc != "" {
				regional[c.FormIndex] = cc
			}
		case tok == "postal-code" && zipWord(c):
			zip[c.FormIndex] = true
		}
		if c.Tag != "select" || (tok != "country" && tok != "country-name") {
			continue
		}
		for _, o := range c.Options {
			if !o.Selected {
				continue
			}
			if cc, ok := countryCode(o.Value); ok {
				out[c.FormIndex] = cc
			} else if cc, ok := countryCode(o.Text); ok {
				out[c.FormIndex] = cc
			}
		}
	}
	for i := range s.Controls {
		fi := s.Controls[i].FormIndex
		if _, ok := out[fi]; ok {
			continue
		}
		switch {
		case regional[fi] != "":
			out[fi] = regional[fi]
		case site != "":
			out[fi] = site
		case zip[fi]:
			out[fi] = "US"
		}
	}
	return out
}

// regionsCountry returns the country whose first-level regions a select's
// options are: most of its options, and at least five, name or code one
// region of that country, and no other country's regions fit as many.
// Otherwise "".
func regionsCountry(opts []form.Option) string {
	best, bestN, tie, total := "", 0, false, 0
	for _, o := range opts {
		if strings.TrimSpace(o.Value) != "" || strings.TrimSpace(o.Text) != "" {
			total++
		}
	}
	for cc := range regions.ByCountry() {
		n := 0
		for _, o := range opts {
			if _, ok := findRegion(cc, o.Text); ok {
				n++
			} else if _, ok := findRegion(cc, o.Value); ok && len(o.Value) > 1 {
				n++
			}
		}
		switch {
		case n > bestN:
			best, bestN, tie = cc, n, false
		case n == bestN && n > 0:
			tie = true
		}
	}
	if tie || bestN < 5 || 2*bestN < total {
		return ""
	}
	return best
}

// zipWord reports whether a postcode box calls the postcode a ZIP.
func zipWord(c *form.Control) bool {
	for _, t := range []string{c.Label, c.Placeholder, c.AriaLabel} {
		for _, w := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !unicode.IsLetter(r) }) {
			if w == "zip" || w == "zipcode" {
				return true
			}
		}
	}
	return false
}

// genericTLDs are country-code domains sites use for their sound, not
// their country.
var genericTLDs = map[string]bool{"io": true, "ai": true, "co": true, "me": true, "tv": true, "ly": true, "fm": true, "gg": true, "to": true, "cc": true, "ws": true, "sh": true, "so": true, "app": true}

// domainCountry is the country of a URL's country-code domain, or "".
func domainCountry(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	tld := host[strings.LastIndexByte(host, '.')+1:]
	if len(tld) != 2 || genericTLDs[tld] || !strings.Contains(host, ".") {
		return ""
	}
	if tld == "uk" {
		return "GB"
	}
	cc, ok := countryCode(tld)
	if !ok {
		return ""
	}
	return cc
}
