package matcher

import (
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// monthNames are the month names of the page languages Tessera knows, full
// names first; abbreviations are matched by prefix (see monthForms).
var monthNames = map[string][12]string{
	"en": {"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"},
	"de": {"Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"},
	"fr": {"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"},
	"es": {"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"},
	"it": {"gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre", "novembre", "dicembre"},
	"pt": {"janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"},
	"nl": {"januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober", "november", "december"},
	"ja": {"1月", "2月", "3月", "4月", "5月", "6月", "7月", "8月", "9月", "10月", "11月", "12月"},
}

// monthAbbrevs are the conventional short forms that are not a plain prefix
// of the full name.
var monthAbbrevs = map[string][12]string{
	"de": {"Jan", "Feb", "Mär", "Apr", "Mai", "Jun", "Jul", "Aug", "Sep", "Okt", "Nov", "Dez"},
	"fr": {"janv", "févr", "mars", "avr", "mai", "juin", "juil", "août", "sept", "oct", "nov", "déc"},
	"en": {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"},
	"es": {"ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sept", "oct", "nov", "dic"},
	"it": {"gen", "feb", "mar", "apr", "mag", "giu", "lug", "ago", "set", "ott", "nov", "dic"},
	"pt": {"jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez"},
	"nl": {"jan", "feb", "mrt", "apr", "mei", "jun", "jul", "aug", "sep", "okt", "nov", "dec"},
}

// dateConventions are the numeric date layouts of page languages (a region
// when the language alone does not decide: en-US and en-GB disagree).
var dateConventions = map[string]string{
	"en-us": "MM/DD/YYYY", "en-gb": "DD/MM/YYYY", "en-au": "DD/MM/YYYY", "en-ie": "DD/MM/YYYY",
	"en-nz": "DD/MM/YYYY", "en-in": "DD/MM/YYYY", "de": "DD.MM.YYYY", "fr": "DD/MM/YYYY",
	"es": "DD/MM/YYYY", "it": "DD/MM/YYYY", "pt": "DD/MM/YYYY", "nl": "DD-MM-YYYY",
	"ja": "YYYY/MM/DD", "zh": "YYYY/MM/DD", "ko": "YYYY.MM.DD", "pl": "DD.MM.YYYY", "ru": "DD.MM.YYYY",
	"sv": "YYYY-MM-DD", "hu": "YYYY.MM.DD.", "uk": "DD.MM.YYYY", "cs": "DD.MM.YYYY", "sk": "DD.MM.YYYY",
	"tr": "DD.MM.YYYY", "ro": "DD.MM.YYYY", "nb": "DD.MM.YYYY", "no": "DD.MM.YYYY", "fi": "DD.MM.YYYY",
	"da": "DD.MM.YYYY", "el": "DD/MM/YYYY", "he": "DD/MM/YYYY", "id": "DD/MM/YYYY", "vi": "DD/MM/YYYY",
}

func isISODate(v string) bool {
	if len(v) != 10 {
		return false
	}
	_, err := time.Parse("2006-01-02", v)
	return err == nil
}

// dateTok is one element of a date layout: 'd', 'm' or 'y' with a width,
// or a literal.
type dateTok struct {
	kind  byte
	width int
	lit   string
}

// parseLayout reads a date layout written for people: "MM/DD/YYYY",
// "TT.MM.JJJJ" (de), "JJ/MM/AAAA" (fr), "DD-MM-AAAA" (es, pt), "GG/MM/AAAA"
// (it), "DD.MM.RRRR" (pl, cs), "ДД.ММ.ГГГГ" (ru), "ДД.ММ.РРРР" (uk),
// "ÉÉÉÉ.HH.NN" (hu), "ÅÅÅÅ-MM-DD" (sv), "YYYY年MM月DD日". It reports false
// unless the layout has exactly one day, month and year.
func parseLayout(s string) ([]dateTok, bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 40 {
		return nil, false
	}
	rs := []rune(s)
	var toks []dateTok
	var seen [3]bool
	for i := 0; i < len(rs); {
		r := unicode.ToUpper(rs[i])
		if !unicode.IsLetter(r) || layoutLetter[r] == 0 && r > unicode.MaxASCII {
			toks = append(toks, dateTok{kind: 'l', lit: string(rs[i])})
			i++
			continue
		}
		j := i
		for j < len(rs) && unicode.ToUpper(rs[j]) == r {
			j++
		}
		w := j - i
		k := layoutLetter[r]
		switch {
		case k == 0:
			return nil, false
		case r == 'J':
			// J is jour in French and Jahr in German: four of them, or a day
			// already seen, make it the year.
			k = 'd'
			if w == 4 || seen[0] {
				k = 'y'
			}
		}
		idx := strings.IndexByte("dmy", k)
		if seen[idx] || w > 4 || k == 'y' && w != 2 && w != 4 || k == 'd' && w > 2 {
			return nil, false
		}
		seen[idx] = true
		toks = append(toks, dateTok{kind: k, width: w})
		i = j
	}
	return toks, seen[0] && seen[1] && seen[2]
}

// layoutLetter is the date part a letter of a written layout stands for,
// upper case: the initial of day, month and year in the languages whose
// forms write them (Tag, giorno, nap, день; hónap, месяц; Jahr, año, rok,
// év, год, рік, år). J is decided by its count (parseLayout).
var layoutLetter = map[rune]byte{
	'D': 'd', 'T': 'd', 'G': 'd', 'N': 'd', 'Д': 'd',
	'M': 'm', 'H': 'm', 'М': 'm',
	'Y': 'y', 'A': 'y', 'R': 'y', 'É': 'y', 'Å': 'y', 'Г': 'y', 'Р': 'y',
	'J': 'd',
}

var exampleDate = regexp.MustCompile(`^(\d{1,4})([./\- ])(\d{1,2})([./\- ])(\d{1,4})$`)

// layoutFromExample reads a layout from an example date placeholder such as
// "31/12/1990". It reports false when the example is ambiguous (day and
// month both ≤ 12).
func layoutFromExample(s string) ([]dateTok, bool) {
	m := exampleDate.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return nil, false
	}
	a, b, c := m[1], m[3], m[5]
	num := func(x string) int { n, _ := strconv.Atoi(x); return n }
	mk := func(k1 byte, w1 int, k2 byte, w2 int, k3 byte, w3 int) []dateTok {
		return []dateTok{{kind: k1, width: w1}, {kind: 'l', lit: m[2]}, {kind: k2, width: w2}, {kind: 'l', lit: m[4]}, {kind: k3, width: w3}}
	}
	switch {
	case len(a) == 4 && num(b) <= 12:
		return mk('y', 4, 'm', len(b), 'd', len(c)), true
	case len(c) == 4 && num(a) > 12 && num(b) <= 12:
		return mk('d', len(a), 'm', len(b), 'y', 4), true
	case len(c) == 4 && num(b) > 12 && num(a) <= 12:
		return mk('m', len(a), 'd', len(b), 'y', 4), true
	}
	return nil, false
}

func formatDate(toks []dateTok, t time.Time, lang string) string {
	var b strings.Builder
	for _, tk := range toks {
		switch tk.kind {
		case 'l':
			b.WriteString(tk.lit)
		case 'd':
			b.WriteString(pad(t.Day(), tk.width))
		case 'm':
			b.WriteString(pad(int(t.Month()), tk.width))
		case 'y':
			if tk.width == 2 {
				b.WriteString(pad(t.Year()%100, 2))
			} else {
				b.WriteString(pad(t.Year(), 4))
			}
		}
	}
	return b.String()
}

func pad(n, w int) string {
	s := strconv.Itoa(n)
	for len(s) < w {
		s = "0" + s
	}
	return s
}

// convention is the numeric date layout of a page language, if known.
func convention(lang string) ([]dateTok, bool) {
	l := strings.ToLower(strings.ReplaceAll(lang, "_", "-"))
	c, ok := dateConventions[l]
	if !ok {
		c, ok = dateConventions[baseLang(l)]
	}
	if !ok {
		return nil, false
	}
	return parseLayout(c)
}

// dateForms shapes an ISO date for a field: a date input takes ISO; a text
// field the layout its placeholder shows (or, failing that, one that its
// pattern accepts alone, or the page language's convention); day, month and
// year parts their number (month also its name in the page language).
func dateForms(f *Field, part, v string, pc patternCache) (forms, bool) {
	t, err := time.Parse("2006-01-02", v)
	if err != nil {
		return one(v), true
	}
	if _, whole := parseLayout(f.Placeholder); whole && strings.HasPrefix(part, "bday-") {
		// A placeholder showing a whole date outranks a guess that the field
		// wants one part of it ("TT.MM.JJJJ" read as a day field).
		part = ""
	}
	narrow := func() bool { return f.Constraints.MaxLength == 2 || len(strings.TrimSpace(f.Placeholder)) == 2 }
	switch part {
	case "bday-day":
		d := strconv.Itoa(t.Day())
		fs := forms{text: []string{d, pad(t.Day(), 2)}, factor: 1}
		if narrow() {
			fs.text[0], fs.text[1] = fs.text[1], fs.text[0]
		}
		fs.tiers = [][]string{fs.text}
		return fs, true
	case "bday-month":
		return monthForms(f, t.Month(), narrow()), true
	case "bday-year":
		fs := forms{text: []string{strconv.Itoa(t.Year())}, factor: 1}
		if f.Constraints.MaxLength == 2 {
			fs.text = []string{pad(t.Year()%100, 2)}
		}
		return fs, true
	}
	if valueKind(f) == "date" || f.InputType == "date" {
		return one(v), true
	}
	if toks, ok := parseLayout(f.Placeholder); ok {
		return one(formatDate(toks, t, f.Lang)), true
	}
	if toks, ok := layoutFromExample(f.Placeholder); ok {
		return one(formatDate(toks, t, f.Lang)), true
	}
	conv, hasConv := convention(f.Lang)
	if f.Constraints.Pattern != "" {
		re, ok := pc.get(f.Constraints.Pattern)
		if !ok {
			return forms{}, false
		}
		// Try every common layout; a pattern that accepts layouts giving
		// different text for this date (DD/MM vs MM/DD) is decided by the
		// page language, or not at all.
		var fits []string
		for _, l := range []string{"YYYY-MM-DD", "DD/MM/YYYY", "MM/DD/YYYY", "DD.MM.YYYY", "DD-MM-YYYY", "YYYY/MM/DD", "YYYY.MM.DD", "D/M/YYYY", "M/D/YYYY", "D.M.YYYY"} {
			toks, _ := parseLayout(l)
			if s := formatDate(toks, t, f.Lang); re.MatchString(s) {
				fits = append(fits, s)
			}
		}
		fits = dedupe(fits)
		switch {
		case len(fits) == 1:
			return one(fits[0]), true
		case len(fits) > 1 && hasConv:
			want := formatDate(conv, t, f.Lang)
			for _, s := range fits {
				if s == want {
					return forms{text: []string{s}, factor: factorDerived}, true
				}
			}
		}
		return forms{}, false
	}
	if hasConv {
		return forms{text: []string{formatDate(conv, t, f.Lang)}, factor: factorDerived}, true
	}
	// Nothing says how the page writes dates: ISO cannot be misread.
	return one(v), true
}

// monthForms offers a month as its number (padded when the field is two
// characters wide) and its name in the page language and English, full or
// abbreviated.
func monthForms(f *Field, m time.Month, padded bool) forms {
	n, p := strconv.Itoa(int(m)), pad(int(m), 2)
	fs := forms{text: []string{n, p}, factor: 1}
	if padded {
		fs.text = []string{p, n}
	}
	names := []string{}
	for _, l := range dedupe([]string{baseLang(f.Lang), "en"}) {
		if ns, ok := monthNames[l]; ok {
			names = append(names, ns[m-1])
		}
		if as, ok := monthAbbrevs[l]; ok {
			names = append(names, as[m-1])
		}
	}
	fs.tiers = [][]string{{n, p}, names}
	return fs
}
