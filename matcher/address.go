package matcher

import (
	"slices"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/language"
	"golang.org/x/text/language/display"

	"github.com/tessera-app/tessera/regions"
)

// addressForms shapes a street address (lines separated by "\n") for one
// part: the whole address, one of lines 1–3, or the house number or street
// name of line 1.
func (r *run) addressForms(f *Field, part, v string) (forms, bool) {
	var lines []string
	for _, l := range strings.Split(v, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if level3, _, ok := r.entry(CanonicalConcept("ext:address-level3")); ok && !r.hasLevel3 {
		// The form has no field for the dependent locality: it belongs on
		// the street lines then, or it is lost.
		lines = append(lines, level3)
	}
	if len(lines) == 0 {
		return forms{}, false
	}
	// hasLine2 says the second line has boxes of its own: a box for the
	// whole line, or boxes for its parts (a floor, a door) when the
	// profile's line names such parts (lineComponents); else the first
	// line's box takes it.
	hasLine2 := r.lineParts["address-line2"] || r.line2Boxes > 0 && len(lines) > 1 && len(lineComponents(lines[1])) > 0
	line := func(n int) (forms, bool) {
		last := n
		if n == 0 && !hasLine2 || n > 0 && !r.lineParts["address-line"+itoa(n+2)] {
			last = len(lines) - 1 // no later line field: the rest goes here
		}
		if n >= len(lines) {
			return forms{}, false
		}
		return forms{text: []string{strings.Join(lines[n:last+1], ", ")}, factor: 1}, true
	}
	switch part {
	case "address-line1":
		return line(0)
	case "address-line2":
		return line(1)
	case "address-line3":
		return line(2)
	case "street-address":
		if hasLine2 {
			// One street box beside a box for the second line: the street
			// box is line 1 (sources label such a box street-address or
			// address-line1 alike), else line 2 goes in twice.
			return line(0)
		}
	case "floor", "apartment", "building", "staircase":
		if len(lines) < 2 {
			return forms{}, false
		}
		comps := lineComponents(lines[1])
		if v, ok := comps[part]; ok && (len(comps) > 1 || r.line2Boxes > 1) {
			// "Piso 4, Depto B" into boxes for the floor and the door.
			return forms{text: []string{v}, factor: factorDerived}, true
		}
		if r.line2Boxes > 1 || len(comps) > 1 {
			// Several boxes, or several parts, and this box's part is not
			// found: nothing rather than the whole line, or another part.
			return forms{}, false
		}
		if len(comps) == 0 {
			// The line names no part ("c/o John"): the first line's box
			// holds it.
			return forms{}, false
		}
		if comps[part] == "" {
			// The one part the line names is not this box's ("Apt 4B"
			// into a floor box).
			return forms{}, false
		}
		// The only box beside the first line: the whole second line.
		return line(1)
	case "house-number", "street-name":
		num, street, ok := splitStreet(lines[0])
		if !ok {
			return forms{}, false
		}
		if part == "house-number" {
			return forms{text: []string{num}, factor: factorDerived}, true
		}
		return forms{text: []string{street}, factor: factorDerived}, true
	}
	fs := forms{factor: 1}
	if f.InputType == "textarea" || f.DataType == "text" {
		fs.text = append(fs.text, strings.Join(lines, "\n"))
	}
	fs.text = append(fs.text, strings.Join(lines, ", "))
	return fs, true
}

// line2Part lists the parts of the second street line a box may ask for
// (heuristics.Result.Part).
var line2Part = map[string]bool{"floor": true, "apartment": true, "building": true, "staircase": true}

// line2Words name the parts of a second street line, by part, folded.
var line2Words = map[string][]string{
	"floor":     {"floor", "fl", "flr", "stock", "stockwerk", "etage", "piso", "planta", "piano", "andar", "verdieping", "pietro", "patro", "poschodie", "emelet", "etaj", "kat", "sprat", "kerros", "οροφος", "этаж", "етаж", "спрат", "поверх", "קומה", "الطابق", "طبقه"},
	"apartment": {"apartment", "apt", "flat", "unit", "suite", "ste", "wohnung", "whg", "top", "tur", "appartement", "app", "apartamento", "apto", "departamento", "depto", "dpto", "dto", "puerta", "pta", "porta", "door", "interno", "int", "interior", "lokal", "mieszkanie", "byt", "bytu", "stan", "ajto", "daire", "dzivoklis", "butas", "korter", "кв", "квартира", "стан", "апартамент", "דירה", "الشقة", "شقة"},
	"building":  {"building", "bldg", "gebaude", "haus", "batiment", "bat", "edificio", "torre", "bloque", "blq", "block", "blok", "bloc", "palazzina", "bloco", "budynek", "корпус", "блок"},
	"staircase": {"staircase", "stair", "entrance", "entree", "stiege", "escalera", "esc", "escalier", "scala", "portal", "klatka", "подъезд", "вход", "כניסה"},
}

// lineComponents splits a second street line into the parts its words
// name: "Piso 4, Depto B" and "Piso 4 Depto B" are floor "4" and
// apartment "B", "3rd floor, Flat 12" floor "3rd" and apartment "12". A
// part's value is the words after its name up to the next name, or,
// when none follow, the words before it. Words naming no part are left
// out.
func lineComponents(line string) map[string]string {
	out := map[string]string{}
	// toks are the words, piece the comma-separated piece of each: a
	// value stays within its piece.
	var toks []string
	var piece []int
	for p, pc := range strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == ';' || r == '/' || r == '|' }) {
		for _, t := range strings.Fields(pc) {
			toks, piece = append(toks, t), append(piece, p)
		}
	}
	kind := make([]string, len(toks))
	for i, t := range toks {
		w := fold(strings.Trim(t, ".:º°#"))
		for part, words := range line2Words {
			if slices.Contains(words, w) {
				kind[i] = part
			}
		}
	}
	used := make([]bool, len(toks))
	for i := range toks {
		if kind[i] == "" || out[kind[i]] != "" {
			continue
		}
		j := i + 1
		for j < len(toks) && kind[j] == "" && piece[j] == piece[i] {
			j++
		}
		lo, hi := i+1, j
		if lo == hi {
			// Nothing follows the name: the words before it ("3rd floor").
			lo, hi = i, i
			for lo > 0 && kind[lo-1] == "" && !used[lo-1] && piece[lo-1] == piece[i] {
				lo--
			}
		}
		v := strings.Trim(strings.Join(toks[lo:hi], " "), " .:º°#-")
		if v == "" {
			continue
		}
		for k := lo; k < hi; k++ {
			used[k] = true
		}
		out[kind[i]] = v
	}
	return out
}

func itoa(n int) string { return string(rune('0' + n)) }

// splitStreet splits a street line into house number and street name. The
// number leads in English and French addresses ("221B Baker Street", "12,
// rue de la Paix") and trails in most of continental Europe and Latin
// America ("Hauptstraße 5a", "Rua Augusta, 123").
func splitStreet(s string) (num, street string, ok bool) {
	toks := strings.Fields(s)
	if len(toks) < 2 {
		return "", "", false
	}
	isNum := func(t string) bool {
		t = strings.Trim(t, ",")
		return t != "" && t[0] >= '0' && t[0] <= '9' && len(t) <= 8 && !strings.ContainsFunc(t, unicode.IsSpace)
	}
	if isNum(toks[0]) {
		return strings.Trim(toks[0], ","), strings.TrimLeft(strings.Join(toks[1:], " "), ", "), true
	}
	last := toks[len(toks)-1]
	if isNum(last) {
		return last, strings.TrimRight(strings.Join(toks[:len(toks)-1], " "), ", "), true
	}
	return "", "", false
}

// findRegion finds a region of a country by code, abbreviation, ISO 3166-2
// code ("US-CA") or any name.
func findRegion(country, v string) (regions.Region, bool) {
	fv := fold(v)
	if i := strings.IndexByte(v, '-'); i == 2 && country == "" {
		country = strings.ToUpper(v[:2])
	}
	if len(v) > 3 && strings.EqualFold(v[:3], country+"-") {
		fv = fold(v[3:])
	}
	for _, rg := range regions.ByCountry()[country] {
		if fold(rg.Code) == fv || rg.Abbr != "" && fold(rg.Abbr) == fv {
			return rg, true
		}
		for _, n := range rg.Names {
			if fold(n) == fv {
				return rg, true
			}
		}
	}
	return regions.Region{}, false
}

// regionForms: as stored, then the full name, the abbreviation, the ISO
// 3166-2 code. A select matches any; a text field takes the first that fits.
func regionForms(country, v string) forms {
	fs := one(v)
	rg, ok := findRegion(country, v)
	if !ok {
		return fs
	}
	abbr := rg.Abbr
	if abbr == "" {
		abbr = rg.Code
	}
	cc := country
	if cc == "" && len(v) > 3 && v[2] == '-' {
		cc = strings.ToUpper(v[:2])
	}
	all := []string{v}
	all = append(all, rg.Names...)
	all = append(all, abbr, rg.Code, cc+"-"+rg.Code)
	fs.text = dedupe(append([]string{v}, rg.Names[0], abbr))
	fs.tiers = [][]string{all}
	return fs
}

func dedupe(in []string) []string {
	seen := map[string]bool{}
	out := in[:0]
	for _, s := range in {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// countryAliases are English names people and forms use that CLDR does not.
var countryAliases = map[string]string{
	"usa": "US", "united states of america": "US", "america": "US", "uk": "GB", "great britain": "GB",
	"england": "GB", "holland": "NL", "the netherlands": "NL", "deutschland": "DE", "espana": "ES",
	"brasil": "BR", "nippon": "JP", "nihon": "JP",
}

var (
	countryNamesOnce sync.Once
	countryByName    map[string]string
)

// countryNameLangs are the languages whose country names are recognised in
// stored values.
var countryNameLangs = []string{"en", "de", "fr", "es", "it", "pt", "nl", "ja", "zh", "ko", "sv", "pl"}

// countryCode returns the ISO 3166-1 alpha-2 code of a country given as a
// code (alpha-2 or alpha-3) or a name.
func countryCode(v string) (string, bool) {
	v = strings.TrimSpace(v)
	if len(v) == 2 || len(v) == 3 {
		if rg, err := language.ParseRegion(v); err == nil && rg.IsCountry() {
			return rg.String(), true
		}
	}
	countryNamesOnce.Do(func() {
		countryByName = map[string]string{}
		for a, cc := range countryAliases {
			countryByName[a] = cc
		}
		for _, l := range countryNameLangs {
			n := display.Regions(language.Make(l))
			for _, cc := range allCountries() {
				if name := n.Name(language.MustParseRegion(cc)); name != "" {
					countryByName[fold(name)] = cc
				}
			}
		}
	})
	cc, ok := countryByName[fold(v)]
	return cc, ok
}

var (
	countriesOnce sync.Once
	countries     []string
)

// allCountries lists the ISO 3166-1 alpha-2 codes CLDR names.
func allCountries() []string {
	countriesOnce.Do(func() {
		for a := 'A'; a <= 'Z'; a++ {
			for b := 'A'; b <= 'Z'; b++ {
				rg, err := language.ParseRegion(string([]rune{a, b}))
				if err == nil && rg.IsCountry() && display.English.Regions().Name(rg) != "" && rg.String() == string([]rune{a, b}) {
					countries = append(countries, rg.String())
				}
			}
		}
	})
	return countries
}

// countryForms: for "country" the code, then names; for "country-name" the
// name in the page's language, then English. Options match code, alpha-3,
// English, page-language or native names.
func countryForms(f *Field, part, v string) forms {
	cc, ok := countryCode(v)
	if !ok {
		return one(v)
	}
	rg := language.MustParseRegion(cc)
	english := display.English.Regions().Name(rg)
	local := english
	if f.Lang != "" {
		if t, err := language.Parse(f.Lang); err == nil {
			if n := display.Regions(t).Name(rg); n != "" {
				local = n
			}
		}
	}
	native := ""
	// The country's likely language names it natively ("Deutschland").
	if b, conf := language.Make("und-" + cc).Base(); conf != language.No {
		native = display.Regions(language.Make(b.String())).Name(rg)
	}
	fs := forms{factor: 1}
	alpha3 := rg.ISO3()
	names := dedupe([]string{local, english, native})
	// The autofill token "country" means the code; a field that only says it
	// wants a country (Formspec, a heuristic guess) reads better with a name.
	if part != "country" {
		fs.text = append(names, cc)
	} else {
		fs.text = append([]string{cc}, names...)
	}
	var aliases []string
	for a, c := range countryAliases {
		if c == cc {
			aliases = append(aliases, a)
		}
	}
	fs.tiers = [][]string{{cc, alpha3}, names, aliases}
	return fs
}
