package matcher

import (
	"strconv"
	"strings"

	"github.com/nyaruka/phonenumbers"
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

// regionCode is the number's ISO 3166-1 region ("US", "CA"), or "ZZ".
func (p *phoneInfo) regionCode() string {
	if p.region == "" {
		p.region = phonenumbers.GetRegionCodeForNumber(p.num)
	}
	return p.region
}

// domestic reports whether a page in lang dials the number without its
// country code: the page's region shares the number's country calling
// code (a US number on a Canadian page is written "(202) 555-0123" too).
func (p *phoneInfo) domestic(lang string) bool {
	pr := pageRegion(lang)
	return pr != "" && int32(phonenumbers.GetCountryCodeForRegion(pr)) == p.num.GetCountryCode()
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
		if p.domestic(f.Lang) {
			fs.text = []string{national, intl, p.e164, p.digits}
			if cc == "1" && len(nsn) == 10 && (p.ext == "" || r.telExt) {
				// NANP forms often ask for ddd-ddd-dddd by pattern.
				fs.text = append(fs.text, nsn[:3]+"-"+nsn[3:6]+"-"+nsn[6:])
			}
		} else {
			fs.text = []string{intl, p.e164}
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
