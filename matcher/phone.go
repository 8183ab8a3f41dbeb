package matcher

import (
	"slices"
	"strconv"
	"strings"

	"github.com/nyaruka/phonenumbers"
	"golang.org/x/text/language"
)

// phoneInfo is a parsed phone number with the spellings phoneForms needs;
// parsing and formatting are the costly part of matching, so one Match
// call computes them once per stored number.
type phoneInfo struct {
	num                         *phonenumbers.PhoneNumber
	nsn, cc, ext                string
	intl, national, intlNoExt   string
	nationalNoExt, e164, digits string
	areaLen                     int
	// region is the number's ISO region, computed on first use (see
	// regionCode): it is costly for country codes shared by many regions.
	region string
}

func parsePhone(v, country string) (*phoneInfo, bool) {
	region := country
	if region == "" {
		region = "ZZ"
	}
	num, err := phonenumbers.Parse(v, region)
	if err != nil {
		return nil, false
	}
	p := &phoneInfo{
		num: num, nsn: phonenumbers.GetNationalSignificantNumber(num),
		cc:   strconv.Itoa(int(num.GetCountryCode())),
		ext:  num.GetExtension(),
		intl: phonenumbers.Format(num, phonenumbers.INTERNATIONAL), national: phonenumbers.Format(num, phonenumbers.NATIONAL),
		e164: formatNoExt(num, phonenumbers.E164),
	}
	p.intlNoExt, p.nationalNoExt = stripExt(p.intl), stripExt(p.national)
	p.digits = phonenumbers.NormalizeDigitsOnly(p.nationalNoExt)
	p.areaLen = -1
	return p, true
}

// areaCodeLen is the length of the area code at the start of the national
// significant number (the national destination code for non-geographic
// numbers), 0 when there is none. Computed on first use: it is costly and
// only part fields need it.
func (p *phoneInfo) areaCodeLen() int {
	if p.areaLen < 0 && p.cc == "1" && len(p.nsn) == 10 {
		p.areaLen = 3 // every NANP number: the costly lookup below agrees
	}
	if p.areaLen < 0 {
		p.areaLen = phonenumbers.GetLengthOfGeographicalAreaCode(p.num)
		if p.areaLen == 0 {
			p.areaLen = phonenumbers.GetLengthOfNationalDestinationCode(p.num)
		}
		if p.areaLen >= len(p.nsn) {
			p.areaLen = 0
		}
	}
	return p.areaLen
}

// nationalGroups returns the three digit groups of the number as its
// country writes it at home ("03-1234-5678": 03, 1234, 5678), when its
// national format has exactly three and the first ends with the area code
// (so that the groups are area code, then local number).
func (p *phoneInfo) nationalGroups() ([3]string, bool) {
	var g [3]string
	groups := strings.FieldsFunc(p.nationalNoExt, func(r rune) bool { return r < '0' || r > '9' })
	ac := p.areaCodeLen()
	if len(groups) != 3 || ac == 0 || !strings.HasSuffix(groups[0], p.nsn[:ac]) {
		return g, false
	}
	copy(g[:], groups)
	return g, true
}

// regionCode is the number's ISO 3166-1 region ("US", "CA"), or "ZZ".
func (p *phoneInfo) regionCode() string {
	if p.region == "" {
		p.region = phonenumbers.GetRegionCodeForNumber(p.num)
	}
	return p.region
}

// dialsLocally reports whether a number of country region is dialled
// without its country code there: the region shares the number's country
// calling code (a US number on a Canadian page is written
// "(202) 555-0123" too).
func (p *phoneInfo) dialsLocally(region string) bool {
	return region != "" && int32(phonenumbers.GetCountryCodeForRegion(region)) == p.num.GetCountryCode()
}

// national reports whether field f wants the number as it is dialled
// inside its country, as the best autofills decide: by the country the
// form is for (its country select, its domain), else the page language's
// region ("en-US"), else the language's usual country ("en" is read as
// the US, "de" as Germany); and, when the page names no country at all,
// by the field's own shape: a mask placeholder without "+" ("(555)
// 555-5555"), or a length, pattern or input mode that no international
// spelling satisfies while a national one does.
func (r *run) national(f *Field, p *phoneInfo, intl string, nationals []string) bool {
	if f.Country != "" {
		return p.dialsLocally(f.Country)
	}
	if pr := pageRegion(f.Lang); pr != "" {
		return p.dialsLocally(pr)
	}
	if f.Lang != "" {
		if rg, conf := language.Make(f.Lang).Region(); conf >= language.Low && p.dialsLocally(rg.String()) {
			return true
		}
	}
	if mask := phoneMask(f.Placeholder); mask != "" {
		return !strings.Contains(mask, "+")
	}
	return check(f, intl, r.pc) != "" && check(f, p.e164, r.pc) != "" &&
		slices.ContainsFunc(nationals, func(s string) bool { return check(f, s, r.pc) == "" })
}

// phoneMask returns the placeholder when it shows the shape of a number
// ("(555) 555-5555", "___-___-____", "+1 xxx xxx xxxx"): seven or more
// digits or digit marks and nothing but separators. Otherwise "".
func phoneMask(ph string) string {
	ph = strings.TrimSpace(ph)
	marks := 0
	for _, c := range ph {
		switch {
		case c >= '0' && c <= '9', strings.ContainsRune("xX_#*•", c):
			marks++
		case strings.ContainsRune(" ()-./+", c):
		default:
			return ""
		}
	}
	if marks < 7 {
		return ""
	}
	return ph
}

// shapeOf writes every digit and digit mark of s as '9', so that a number
// and a placeholder can be compared by their layout.
func shapeOf(s string) string {
	return strings.Map(func(c rune) rune {
		if c >= '0' && c <= '9' || strings.ContainsRune("xX_#*•", c) {
			return '9'
		}
		return c
	}, s)
}

// phone returns the parsed form of a stored number, cached for the run.
func (r *run) phone(v, country string) (*phoneInfo, bool) {
	key := country + "\x00" + v
	if p, ok := r.phones[key]; ok {
		return p, p != nil
	}
	p, ok := parsePhone(v, country)
	r.phones[key] = p
	return p, ok
}

// phoneForms shapes a stored phone number (E.164, optionally with an
// extension) for one autofill part. The whole number is offered in the
// page's national format when the page's region shares the number's
// country calling code, else in international format, then as E.164 and
// bare national digits (and for NANP ddd-ddd-dddd), so a field with a length
// or pattern limit takes the first that fits.
func (r *run) phoneForms(f *Field, part, v, country string) (forms, bool) {
	p, ok := r.phone(v, country)
	if !ok {
		return forms{}, false
	}
	nsn, cc := p.nsn, p.cc
	fs := forms{factor: 1}
	var ac int
	switch part {
	case "tel-area-code", "tel-local", "tel-local-prefix", "tel-local-suffix":
		ac = p.areaCodeLen()
	}
	if cc != "1" && !r.telCode {
		// Outside NANP, a form that asks for the area code and the two
		// halves of the local number with no calling code beside them
		// (Japan's "03 - 1234 - 5678") takes the number as the country
		// writes it at home, in its three groups, trunk prefix and all.
		if g, ok := p.nationalGroups(); ok {
			switch part {
			case "tel-area-code":
				return forms{factor: 1, text: []string{g[0]}}, true
			case "tel-local-prefix":
				return forms{factor: 1, text: []string{g[1]}}, true
			case "tel-local-suffix":
				return forms{factor: 1, text: []string{g[2]}}, true
			}
		}
	}
	switch part {
	case "tel-country-code":
		fs.text = []string{"+" + cc, cc}
		if isChoice(f) {
			// A list may name the country instead ("US (+1)" valued "US").
			fs.tiers = [][]string{{"+" + cc, cc}, {p.regionCode()}}
		}
	case "tel-national":
		fs.text = []string{p.nationalNoExt, p.digits}
	case "tel-area-code":
		if ac == 0 {
			return forms{}, false
		}
		fs.text = []string{nsn[:ac]}
	case "tel-local":
		if ac == 0 {
			return forms{}, false
		}
		local := nsn[ac:]
		fs.text = []string{local}
		if cc == "1" && len(local) == 7 {
			fs.text = []string{local[:3] + "-" + local[3:], local}
		}
	case "tel-local-prefix", "tel-local-suffix":
		// Only NANP numbers have an agreed split of the local number (3 + 4
		// digits); elsewhere any split would be a guess.
		local := nsn[min(ac, len(nsn)):]
		if cc != "1" || ac != 3 || len(local) != 7 {
			return forms{}, false
		}
		if part == "tel-local-prefix" {
			fs.text = []string{local[:3]}
		} else {
			fs.text = []string{local[3:]}
		}
	case "tel-extension":
		if p.ext == "" {
			return forms{}, false
		}
		fs.text = []string{p.ext}
	default:
		intl, national := p.intl, p.national
		if r.telExt {
			// The form's extension field takes the extension; without one the
			// formatted number keeps it (" ext. 12").
			intl, national = p.intlNoExt, p.nationalNoExt
		}
		nationals := []string{national, p.digits}
		if cc == "1" && len(nsn) == 10 && (p.ext == "" || r.telExt) {
			// NANP forms often ask for ddd-ddd-dddd by pattern.
			nationals = append(nationals, nsn[:3]+"-"+nsn[3:6]+"-"+nsn[6:])
		}
		if part == "international" {
			// The page asks for the calling code with the number.
			fs.text = []string{intl, p.e164}
		} else if r.national(f, p, intl, nationals) {
			fs.text = append([]string{national, intl, p.e164}, nationals[1:]...)
		} else {
			fs.text = []string{intl, p.e164}
		}
		if mask := phoneMask(f.Placeholder); mask != "" {
			// The spelling laid out like the placeholder goes first.
			want := shapeOf(mask)
			if i := slices.IndexFunc(fs.text, func(s string) bool { return shapeOf(s) == want }); i > 0 {
				fs.text = append([]string{fs.text[i]}, slices.Delete(slices.Clone(fs.text), i, i+1)...)
			}
		}
	}
	fs.text = dedupe(fs.text)
	return fs, true
}

// formatNoExt formats a number without its extension, which a separate
// field takes.
func formatNoExt(num *phonenumbers.PhoneNumber, f phonenumbers.PhoneNumberFormat) string {
	return stripExt(phonenumbers.Format(num, f))
}

func stripExt(s string) string {
	if i := strings.Index(s, " ext"); i >= 0 {
		s = s[:i]
	}
	return s
}

// pageRegion is the region of a page language tag ("de-CH" → "CH"), or "".
func pageRegion(lang string) string {
	if i := strings.LastIndexAny(lang, "-_"); i >= 0 && len(lang)-i-1 == 2 {
		return strings.ToUpper(lang[i+1:])
	}
	return ""
}
