package matcher

import (
	"strings"

	"github.com/tessera-app/tessera/profile"
)

// forms are the spellings of one value for one field. text lists the
// spellings a free-text field may take, best first; tiers groups the
// spellings an option may match, most specific group first (nil: one tier
// per text spelling).
type forms struct {
	text   []string
	tiers  [][]string
	factor float64
}

func one(v string) forms { return forms{text: []string{v}, factor: 1} }

// adapt shapes candidate c for field f: it picks the first spelling that
// satisfies the field's constraints, or the option the value means.
func (r *run) adapt(f *Field, id Identity, c candidate) (string, float64, string) {
	part := partOf(f, id)
	if part == "country" && id.Kind == EvidenceHeuristic && f.Part == "" {
		// The token "country" means the code when the page declares it;
		// a classifier's guess only says the box wants a country (sources
		// label a box for its name country or country-name alike): a
		// name, or the code where only a code fits.
		part = ""
	}
	fs, ok := r.forms(f, part, c)
	if !ok || len(fs.text) == 0 && len(fs.tiers) == 0 {
		return "", 0, SkipNoValue
	}
	if isChoice(f) || len(f.Options) > 0 && f.InputType == "" {
		tiers := fs.tiers
		if tiers == nil {
			for _, t := range fs.text {
				tiers = append(tiers, []string{t})
			}
		}
		if v, ok := r.chooseOption(f.Options, tiers); ok {
			return v, fs.factor, ""
		}
		return "", 0, SkipInvalidValue
	}
	why := SkipInvalidValue
	for _, v := range fs.text {
		switch s := check(f, v, r.pc); s {
		case "":
			return v, fs.factor, ""
		case SkipPattern:
			why = s
		}
	}
	return "", 0, why
}

// forms dispatches on the concept the value was found under (the field's own
// concept for field-key matches).
func (r *run) forms(f *Field, part string, c candidate) (forms, bool) {
	concept := c.concept
	if concept == "" {
		if id, ok := r.opts.Sidecars.Resolve(f); ok {
			concept = CanonicalConcept(id.Concept)
		}
	}
	v := strings.TrimSpace(c.value)
	switch concept {
	case profile.ConceptStreetAddress:
		return r.addressForms(f, part, c.value)
	case profile.ConceptAddressRegion:
		return regionForms(r.country(), v), true
	case profile.ConceptAddressCountry:
		key := [3]string{v, f.Lang, part}
		fs, ok := r.countries[key]
		if !ok {
			fs = countryForms(f, part, v)
			r.countries[key] = fs
		}
		return fs, true
	case profile.ConceptTelephone, profile.ConceptFax:
		return r.phoneForms(f, part, v, r.country())
	case profile.ConceptPostalCode:
		if part == "postal-code-1" || part == "postal-code-2" {
			first, second := splitPostcode(v, r.country())
			if part == "postal-code-1" {
				return one(first), first != ""
			}
			return one(second), second != ""
		}
		if CarriesOthers(part) {
			return r.postcodeCityForms(part, v), true
		}
		return postalForms(v), true
	case profile.ConceptHonorificPrefix:
		return honorificForms(v), true
	case profile.ConceptGender:
		return genderForms(v), true
	case profile.ConceptAdditionalName:
		return initialForms(f, v), true
	case profile.ConceptGivenName:
		if part == "initials" {
			return initialsForms(v), true
		}
	case profile.ConceptPhoneticName, profile.ConceptPhoneticGivenName, profile.ConceptPhoneticFamilyName:
		return phoneticForms(f, v), true
	case profile.ConceptBirthDate:
		return dateForms(f, part, v, r.pc)
	case profile.ConceptFamilyName:
		if part == "first-surname" || part == "second-surname" {
			first, second := splitSurnames(v)
			if part == "first-surname" {
				return one(first), first != ""
			}
			return one(second), second != ""
		}
	}
	if isISODate(v) {
		return dateForms(f, part, v, r.pc)
	}
	return one(v), true
}

// CarriesOthers reports whether a box for part of a value (a heuristics
// Result.Part) is filled with other concepts' values too: a postcode box
// that asks for the town ("10115 Berlin") or the town and the region
// ("Washington, DC 20500"). Whoever approves such a box approves those
// values with it.
func CarriesOthers(part string) bool {
	switch part {
	case "postal-code-and-city", "city-and-postal-code", "city-region-postal-code":
		return true
	}
	return false
}

// postcodeCityForms are the spellings for one box that asks for the
// postcode and the town together (heuristics.Result.Part
// "postal-code-and-city", "city-and-postal-code"): both, in the order the
// box names them ("10115 Berlin"), or the town, region and postcode
// ("city-region-postal-code": "San Francisco, CA 94105"), then the
// postcode alone for a box too short for all of them or a profile with no
// town.
func (r *run) postcodeCityForms(part, postcode string) forms {
	fs := postalForms(postcode)
	city, _, ok := r.entry(profile.ConceptAddressLocality)
	if city = strings.TrimSpace(city); !ok || city == "" {
		return fs
	}
	both := postcode + " " + city
	switch part {
	case "city-and-postal-code":
		both = city + " " + postcode
	case "city-region-postal-code":
		// "San Francisco, CA 94105", as American, Canadian and
		// Australian addresses write the line; without a region,
		// "San Francisco 94105".
		both = city + " " + postcode
		if region, _, ok := r.entry(profile.ConceptAddressRegion); ok && strings.TrimSpace(region) != "" {
			both = city + ", " + strings.TrimSpace(region) + " " + postcode
		}
	}
	fs.text = append([]string{both}, fs.text...)
	return fs
}

// country is the profile's ISO 3166-1 country code, upper case, or "".
func (r *run) country() string {
	v, _, ok := r.entry(profile.ConceptAddressCountry)
	if !ok {
		return ""
	}
	if cc, ok := countryCode(v); ok {
		return cc
	}
	return ""
}

var stripSeparators = strings.NewReplacer(" ", "", "-", "")

// postalForms: as stored, then without spaces or hyphens for fields whose
// length or pattern wants the bare code (UK "SW1A 1AA", JP "100-0001").
// postcodeSplit is where the postcodes of countries whose forms ask for
// them in two boxes divide, when a stored postcode has no separator.
var postcodeSplit = map[string]int{"JP": 3, "PT": 4, "PL": 2, "BR": 5, "US": 5}

// splitPostcode divides a postcode into the two parts a two-box form asks
// for: at its separator ("123-4567", "1000 001"), else where the country's
// postcodes divide. A postcode that cannot be divided is all first part.
func splitPostcode(v, country string) (first, second string) {
	v = postcodeDigits(v)
	groups := strings.FieldsFunc(v, func(r rune) bool { return r == '-' || r == ' ' || r == '‐' || r == '－' })
	switch {
	case len(groups) == 2:
		return groups[0], groups[1]
	case len(groups) == 1:
		if n, ok := postcodeSplit[country]; ok && len(v) > n {
			return v[:n], v[n:]
		}
	}
	return v, ""
}

// postcodeDigits drops the Japanese postal mark a stored postcode may
// start with ("〒150-0002") and makes full-width digits ASCII, so that the
// boxes of a divided postcode get digits they accept.
func postcodeDigits(v string) string {
	v = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), "〒"))
	return strings.Map(func(r rune) rune {
		if r >= '０' && r <= '９' {
			return '0' + (r - '０')
		}
		return r
	}, v)
}

func postalForms(v string) forms {
	fs := one(v)
	bare := stripSeparators.Replace(v)
	if bare != v {
		fs.text = append(fs.text, bare)
	}
	return fs
}
