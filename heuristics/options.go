package heuristics

import (
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"

	"github.com/tessera-app/tessera/form"
	"github.com/tessera-app/tessera/regions"
)

// A shape is what the options of a select (or a radio's value) look like,
// independent of any label.
type shape int

const (
	shapeNone shape = iota
	shapeCountry
	shapeDialCode
	shapeRegion
	shapeMonth
	shapeDay
	shapeYearPast
	shapeYearFuture
	shapeGender
	shapeHonorific
	shapeCardBrand
	shapeNameSuffix
)

// maxOptions bounds how many options are inspected: a select with thousands
// of options is not made more certain by reading all of them.
const maxOptions = 400

// countryLangs are the languages whose country names are recognised in
// option texts (the held-out forms span 30+ countries).
var countryLangs = []string{
	"en", "de", "fr", "es", "it", "pt", "nl", "pl", "sv", "ru", "ja", "zh",
	"zh-Hant", "ko", "tr", "id", "cs", "da", "fi", "nb", "hu", "ro", "el",
	"uk", "ar", "he", "hi", "th", "vi", "sk", "bg", "hr", "ms", "lt", "lv", "et",
}

// countryNames is the set of folded, lower-cased country names in
// countryLangs, from CLDR via x/text, built on first use.
var countryNames = sync.OnceValue(func() map[string]bool {
	set := make(map[string]bool, 10000)
	var regions []language.Region
	for a := 'A'; a <= 'Z'; a++ {
		for b := 'A'; b <= 'Z'; b++ {
			r, err := language.ParseRegion(string([]rune{a, b}))
			if err == nil && r.IsCountry() {
				regions = append(regions, r)
			}
		}
	}
	for _, l := range countryLangs {
		namer := display.Regions(language.MustParse(l))
		for _, r := range regions {
			if n := namer.Name(r); n != "" {
				set[normalize(n)] = true
			}
		}
	}
	for _, extra := range []string{"usa", "us", "uk", "great britain", "england", "russia", "south korea", "korea", "vietnam", "holland", "czech republic", "turkey", "macedonia", "swaziland", "burma", "ivory coast", "cape verde", "vatican"} {
		set[extra] = true
	}
	return set
})

// regionIndex maps the normalized names, codes and abbreviations of the
// first-level regions of every country in the regions table to the
// countries that have them; numeric codes (they read as days) and
// one-letter codes are left out. US and Canadian regions share one key: North American pickers
// list states and provinces together. The US military "states" are added.
var regionIndex = sync.OnceValue(func() map[string][]string {
	idx := map[string][]string{}
	add := func(name, cc string) {
		n := normalize(name)
		if utf8.RuneCountInString(n) < 2 || !strings.ContainsFunc(n, unicode.IsLetter) || slices.Contains(idx[n], cc) {
			return
		}
		idx[n] = append(idx[n], cc)
	}
	for cc, rs := range regions.ByCountry() {
		key := cc
		if cc == "CA" {
			key = "US"
		}
		for _, r := range rs {
			add(r.Code, key)
			add(r.Abbr, key)
			for _, n := range r.Names {
				add(n, key)
			}
		}
	}
	for _, n := range []string{"armed forces americas", "armed forces europe", "armed forces pacific", "aa", "ae", "ap"} {
		add(n, "US")
	}
	return idx
})

// monthPrefixes are the first three letters (folded) of month names in the
// supported languages; monthWords are month names in scripts where a
// prefix is not a word.
var monthPrefixes = sync.OnceValue(func() map[string]bool {
	set := map[string]bool{}
	for _, l := range []string{
		"jan feb mar apr may jun jul aug sep oct nov dec", // en, sv, nl, da, no
		"mai okt dez maa mei maj",                         // de, nl, sv
		"jan fev avr jui aou sep dec",                     // fr, pt
		"ene abr ago dic",                                 // es
		"gen mag giu lug set ott",                         // it
		"out",                                             // pt
		"sty lut kwi cze lip sie wrz paz lis gru",         // pl
		"oca sub nis haz tem agu eyl eki kas ara",         // tr
		"ags des", // id
		"led uno bre dub kve cer cvc zar rij lis pro", // cs
		"tam hel maa huh kes hei elo syy lok mar jou", // fi
		"ian iun iul noi", // ro
		"янв фев мар апр май июн июл авг сен окт ноя дек",      // ru
		"січ лют бер кві тра чер лип сер вер жов лис гру",      // uk
		"ιαν φεβ μαρ απρ μαι ιου ιουλ αυγ σεπ οκτ νοε δεκ",     // el
		"jan feb mar apr maj jun jul aug szep okt nov dec sze", // hu
	} {
		for _, w := range strings.Fields(l) {
			set[fold(w)] = true
		}
	}
	return set
})

// genderWords and honorificWords are option texts (folded, lower case) of
// gender and title pickers, comma-separated so entries may hold spaces.
var genderWords = wordSet("male, female, m, f, man, woman, men, women, mann, frau, mannlich, weiblich, divers, " +
	"homme, femme, masculin, feminin, hombre, mujer, masculino, femenino, uomo, donna, maschio, femmina, " +
	"maschile, femminile, vrouw, mezczyzna, kobieta, kvinna, mand, kvinde, mies, nainen, muz, zena, ferfi, " +
	"barbat, femeie, мужской, женский, мужчина, женщина, чоловік, жінка, 男, 女, 男性, 女性, 남, 여, 남성, 여성, " +
	"남자, 여자, erkek, kadin, pria, wanita, laki laki, perempuan, other, andere, autre, otro, altro, outro, " +
	"anders, inne, annat, diverse, nonbinary, non binary")

// otherWords are the gender list's words for "other": every list of
// choices ends with one (a reason to cancel, a way you heard of us), so
// alone they say nothing of gender.
var otherWords = wordSet("other, andere, autre, otro, altro, outro, anders, inne, annat")

var honorificWords = wordSet("mr, mrs, ms, miss, mx, dr, prof, herr, frau, m, mme, mlle, sr, sra, srta, sig, sig ra, " +
	"signor, signora, dhr, mevr, pan, pani, hr, fr, г н, г жа, господин, госпожа, bay, bayan, bapak, ibu, sdr, sdri")

// suffixWords are the suffixes of a name as lists offer them (generations,
// degrees, "Esq."): "Sr" is also a Spanish title, so a list of suffixes
// needs another suffix beside it.
var suffixWords = wordSet("jr, sr, ii, iii, iv, v, vi, 2nd, 3rd, 4th, phd, md, dds, dvm, esq, cpa, rn, jd, snr, jnr")

// cardBrands are the names of payment card brands as lists of card types
// show them.
var cardBrands = wordSet("visa, visa electron, mastercard, master card, american express, amex, discover, diners club, diners, " +
	"jcb, maestro, unionpay, china unionpay, carte bleue, cartes bancaires, elo, hipercard, mir, rupay, troy, dankort, postepay")

// wordSet returns the set of a comma-separated list, normalized on first
// use so entries match normalized option texts.
func wordSet(s string) func() map[string]bool {
	return sync.OnceValue(func() map[string]bool {
		set := map[string]bool{}
		for _, w := range strings.Split(s, ",") {
			if w = normalize(w); w != "" {
				set[w] = true
			}
		}
		return set
	})
}

// optionTexts returns the normalized texts of a select's options, without
// placeholders ("Select...", "--", empty values).
func optionTexts(c *form.Control) (texts, values, raws []string) {
	for i, o := range c.Options {
		if i >= maxOptions {
			break
		}
		t := normalize(o.Text)
		if t == "" {
			t = normalize(o.Label)
		}
		if o.Value == "" && i == 0 || t == "" {
			continue
		}
		texts = append(texts, t)
		values = append(values, strings.TrimSpace(o.Value))
		raws = append(raws, o.Text)
	}
	return texts, values, raws
}

// optionShape classifies the options of a select, or the value and text of
// a radio button.
func optionShape(c *form.Control) shape {
	if c.Type == "radio" {
		if len(c.Options) == 0 {
			return shapeNone
		}
		o := c.Options[0]
		gendered := func(s string) bool {
			// Single letters ("M", "F") say little on one radio button,
			// nor does "Other" (a group takes its sex from its other
			// buttons: radioGroups).
			s = normalize(s)
			return len(s) > 1 && genderWords()[s] && !otherWords()[s]
		}
		switch {
		case gendered(o.Text) || gendered(o.Value):
			return shapeGender
		case honorificWords()[normalize(o.Text)]:
			return shapeHonorific
		}
		return shapeNone
	}
	if c.Tag != "select" {
		return shapeNone
	}
	texts, values, raws := optionTexts(c)
	n := len(texts)
	if n == 0 {
		return shapeNone
	}
	var country, dial, month, gender, honor, titleOnly, brand, suffix, senior int
	states := map[string]int{} // options naming a region, by country
	var nums []int
	for i, t := range texts {
		if dialCode().MatchString(raws[i]) {
			dial++
		}
		if ct := countryText(t); countryNames()[ct] || countryNames()[stripParen(ct)] {
			country++
		}
		for _, cc := range regionIndex()[t] {
			states[cc]++
		}
		if isMonth(t) {
			month++
		}
		if genderWords()[t] {
			gender++
		}
		if cardBrands()[t] {
			brand++
		}
		switch {
		case t == "sr":
			senior++
		case suffixWords()[t]:
			suffix++
		}
		if honorificWords()[t] {
			honor++
			if !genderWords()[t] {
				titleOnly++
			}
		}
		if v, err := atoi(values[i]); err == nil && len(values[i]) == 4 && v >= 1900 && v <= 2100 {
			// "22" shown for the value "2022": the value says the year.
			nums = append(nums, v)
		} else if v, err := atoi(t); err == nil {
			nums = append(nums, v)
		} else if v, err := atoi(values[i]); err == nil && len(values[i]) == len(t) {
			nums = append(nums, v)
		}
	}
	switch {
	case n >= 5 && country*10 >= n*6:
		// Country names with calling codes ("Germany (+49)") are still a
		// country picker: the person picks a country.
		return shapeCountry
	case n >= 5 && dial*10 >= n*6:
		return shapeDialCode
	case n >= 6 && maxCount(states)*10 >= n*7:
		return shapeRegion
	case n >= 12 && n <= 13 && month >= 12:
		return shapeMonth
	case titleOnly > 0 && honor >= 2 && honor >= gender && honor*10 >= n*6:
		// "Frau / Herr / Divers" (a German Anrede) holds gender words, but
		// a title no gender list has ("Herr", "Mr") makes it a title picker.
		return shapeHonorific
	case gender >= 2 && gender*10 >= n*6:
		return shapeGender
	case brand >= 2 && brand*10 >= n*5:
		// A prompt and "Other" beside Visa and Mastercard.
		return shapeCardBrand
	case honor >= 2 && honor*10 >= n*6:
		return shapeHonorific
	case suffix > 0 && suffix+senior >= 2 && (suffix+senior)*10 >= n*6:
		// "Jr." and "Sr." or "III" and "IV": a name's suffix.
		return shapeNameSuffix
	}
	return numericShape(nums, n)
}

// dialCode matches a calling code in an option's raw text ("+49",
// "(+1)"), which normalize would drop.
var dialCode = lazyRE(`\+ ?\d{1,4}\b`)

// numericShape recognises day (1-31), month (1-12) and year lists.
func numericShape(nums []int, n int) shape {
	if len(nums) < 5 || len(nums)*10 < n*9 {
		return shapeNone
	}
	lo, hi := nums[0], nums[0]
	for _, v := range nums {
		lo, hi = min(lo, v), max(hi, v)
	}
	switch {
	case lo >= 0 && hi == 12 && len(nums) >= 12 && len(nums) <= 13:
		return shapeMonth
	case lo >= 0 && lo <= 1 && hi >= 28 && hi <= 31 && len(nums) >= 28 && len(nums) <= 32:
		return shapeDay
	case lo >= 1900 && hi <= 2100 && hi <= 2015:
		return shapeYearPast
	case lo >= 1900 && hi <= 2100 && lo >= 2015:
		return shapeYearFuture
	case lo >= 1900 && hi <= 2100 && lo <= 1990:
		return shapeYearPast
	}
	return shapeNone
}

// isMonth reports whether a normalized option text is a month name (or a
// CJK "N月"/"N월").
func isMonth(t string) bool {
	t = strings.TrimSuffix(strings.TrimSuffix(t, "月"), "월")
	if v, err := atoi(strings.TrimSpace(t)); err == nil {
		return v >= 1 && v <= 12
	}
	w, _, _ := strings.Cut(t, " ")
	if v, err := atoi(w); err == nil && v >= 1 && v <= 12 {
		// "01 - January", "1 Jan"
		return true
	}
	r := []rune(w)
	if len(r) < 3 {
		return false
	}
	months := monthPrefixes()
	return months[string(r[:3])] || (len(r) >= 4 && months[string(r[:4])])
}

// atoi is strconv.Atoi without the error value, which costs an allocation
// for every option text that is not a number.
func atoi(s string) (int, error) {
	if s == "" || (s[0] < '0' || s[0] > '9') && s[0] != '-' && s[0] != '+' {
		return 0, strconv.ErrSyntax
	}
	return strconv.Atoi(s)
}

// countryText drops the numbers from a normalized option text, leaving
// the country name of "germany 49" or "49 germany".
func countryText(t string) string {
	if !strings.ContainsAny(t, "0123456789") {
		return t
	}
	f := strings.Fields(t)
	out := f[:0]
	for _, w := range f {
		if _, err := atoi(w); err != nil {
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}

func stripParen(t string) string {
	if i := strings.IndexAny(t, "(["); i > 0 {
		return strings.TrimSpace(t[:i])
	}
	return t
}

// dialValue matches an option value that is a calling code and nothing
// else ("+36", "+1-684").
var dialValue = lazyRE(`^\+ ?\d{1,4}(-\d{1,4})?$`)

// valuesAreDialCodes reports whether the options of a select send calling
// codes: at least half the options with a value send "+" and digits (a
// last "Abroad" may send anything), at least one does.
func valuesAreDialCodes(c *form.Control) bool {
	n, dial := 0, 0
	for i, o := range c.Options {
		if i >= maxOptions {
			break
		}
		v := strings.TrimSpace(o.Value)
		if v == "" {
			continue
		}
		n++
		if dialValue().MatchString(v) {
			dial++
		}
	}
	return dial > 0 && 2*dial >= n
}

// fromOptions refines or supplies a token from the options of a select or
// the value of a radio button. hint is the token the keywords gave ("" when
// none); a shape alone (a list of months, say) names a token only when the
// hint or the shape is unambiguous.
func maxCount(m map[string]int) int {
	best := 0
	for _, v := range m {
		best = max(best, v)
	}
	return best
}

// optionsHaveLetters reports whether most options of a select show a
// letter (a country's name or code beside its calling code); a prompt
// option ("Select") alone does not count.
func optionsHaveLetters(c *form.Control) bool {
	n := 0
	for _, o := range c.Options {
		if strings.IndexFunc(o.Text, unicode.IsLetter) >= 0 {
			n++
		}
	}
	return 2*n > len(c.Options)
}

// brandChoice reports whether a radio button picks a card brand: its
// label or value is one ("Visa", "MC" aside: brands by their names).
func brandChoice(c *form.Control) bool {
	for _, o := range c.Options {
		if cardBrands()[normalize(o.Text)] || cardBrands()[normalize(o.Value)] {
			return true
		}
	}
	return cardBrands()[normalize(c.Label)]
}

// listAgrees gives token to a list whose options are its values: at 0.8
// where the label asks for it too, at lowValue where the label says nothing
// (or says one of alone, a neighbouring kind the list overrules); ok false
// where the label asks for something else.
func listAgrees(hint, token string, alone ...string) (string, float64, bool) {
	switch {
	case hint == token:
		return token, 0.8, true
	case hint == "" || slices.Contains(alone, hint):
		return token, lowValue, true
	}
	return "", 0, false
}

func fromOptions(c *form.Control, hint string) (token string, conf float64, ruleID string) {
	return fromShape(c, hint, optionShape(c))
}

// fromShape is fromOptions for a control whose optionShape is known.
func fromShape(c *form.Control, hint string, sh shape) (token string, conf float64, ruleID string) {
	if c.Type != "radio" && valuesAreDialCodes(c) {
		switch hint {
		case "", "country", "country-name", "tel", "tel-country-code", "tel-area-code", "honorific-prefix":
			// What the list sends is a calling code ("+36" for
			// "Magyarország (+36)"), however short the list and
			// whatever the label's first word: the phone's country code.
			return "tel-country-code", 0.85, "options:dial-code"
		}
	}
	switch sh {
	case shapeDialCode:
		switch hint {
		case "country":
			if !optionsHaveLetters(c) {
				// "Country code" over "+1", "+44", ...: a calling code,
				// whatever the label's first word.
				return "tel-country-code", 0.85, "options:dial-code"
			}
			// "Country" with "+49" beside each name: the country is what
			// the person picks; the calling code follows from it.
			return "country", 0.9, "options:country"
		case "", "tel", "tel-country-code", "tel-area-code", "honorific-prefix", "email":
			// A "Prefix" list of calling codes is no title, and no list
			// holds an e-mail address (a validation message above it
			// says "e-mail").
			return "tel-country-code", 0.85, "options:dial-code"
		}
	case shapeCountry:
		if hint == "tel-country-code" || hint == "tel" || hint == "tel-area-code" {
			// "Country code", "Phone" or "Prefisso" over "Germany (+49)":
			// the calling code (no area code list names countries); over
			// country names alone, an ISO code's country list, unless the
			// list's own name says whose ("Phone number country",
			// "phoneCountry": the phone's country, which the matcher
			// picks by the number's region).
			if showsDialCodes(c) || phoneNamed(c) {
				return "tel-country-code", 0.85, "options:dial-code"
			}
			return "country", 0.9, "options:country"
		}
		if hint == "" || hint == "country" || addressPart[hint] {
			return "country", 0.9, "options:country"
		}
	case shapeRegion:
		// A "City" select of cities that share their region's name
		// (Italian provinces, Japanese prefectures) stays a city.
		if hint == "" || hint == "address-level1" || hint == "country" || hint == "postal-code" {
			return "address-level1", 0.9, "options:region"
		}
	case shapeMonth:
		switch {
		case strings.HasPrefix(hint, "cc-exp") || hint == "cc-csc":
			// A card's list of months is its expiry, whatever its name
			// ("ccvalidmn" reads as a CVV): no list offers security codes.
			return "cc-exp-month", 0.9, "options:month"
		case strings.HasPrefix(hint, "bday"):
			return "bday-month", 0.9, "options:month"
		}
	case shapeDay:
		if strings.HasPrefix(hint, "bday") {
			return "bday-day", 0.9, "options:day"
		}
	case shapeYearPast:
		if strings.HasPrefix(hint, "bday") {
			return "bday-year", 0.9, "options:year-past"
		}
	case shapeYearFuture:
		if strings.HasPrefix(hint, "cc-exp") || hint == "cc-csc" {
			return "cc-exp-year", 0.9, "options:year-future"
		}
	case shapeGender:
		if hint == "" || hint == "sex" || hint == "honorific-prefix" {
			return "sex", 0.8, "options:gender"
		}
	case shapeCardBrand:
		// The label asks for the card's type and the options are card
		// brands: two signals agree.
		if t, conf, ok := listAgrees(hint, "cc-type"); ok {
			return t, conf, "options:card-brand"
		}
	case shapeNameSuffix:
		// "Suffix" over "Jr.", "Sr.", "III": what the label says (a word
		// with many other meanings: a street's, a file's) and what the
		// list offers agree.
		if t, conf, ok := listAgrees(hint, "honorific-suffix"); ok {
			return t, conf, "options:name-suffix"
		}
	case shapeHonorific:
		// The label asks for a title and the options are titles: two
		// signals agree, so this is not the mislabelled box lowValue
		// guards against (a German "Anrede" with Frau/Herr/Divers); a
		// "Gender" label over titles is the list alone.
		if t, conf, ok := listAgrees(hint, "honorific-prefix", "sex"); ok {
			return t, conf, "options:honorific"
		}
	}
	if hint == "tel-country-code" && c.Tag == "select" && optionsHaveLetters(c) && !showsDialCodes(c) && !phoneNamed(c) {
		// A short "countryCode" list of countries ("EG" for Egypt) with
		// no calling code in sight: the address's country (unless the
		// list calls itself the phone's).
		return "country", 0.9, "options:country"
	}
	return "", 0, ""
}

// phoneNamed reports whether a control's own name for itself (its label
// element, aria-label, name or id) speaks of a phone.
func phoneNamed(c *form.Control) bool {
	for _, t := range []string{labelText(c, true), c.AriaLabel, c.Name, c.ID} {
		if t != "" && phoneWord().MatchString(normalize(t)) {
			return true
		}
	}
	return false
}

// areaCodeList reports whether a list offers only the first digits of
// phone numbers (area codes, mobile prefixes: "010", "011", "02"): at
// least two options of one to four digits, a placeholder aside.
func areaCodeList(c *form.Control) bool {
	n := 0
	for i, o := range c.Options {
		v := strings.TrimSpace(o.Value)
		t := strings.TrimSpace(o.Text)
		if i == 0 && (v == "" || strings.Trim(t, "0123456789") != "") {
			continue // "선택", "--"
		}
		if i >= maxOptions || len(t) < 1 || len(t) > 4 || strings.Trim(t, "0123456789") != "" {
			return false
		}
		n++
	}
	return n >= 2
}
