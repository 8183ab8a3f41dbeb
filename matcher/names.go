package matcher

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/tessera-app/tessera/profile"
)

// honorificGroups maps the folded spelling of an honorific to its meaning,
// across the languages Tessera's forms come in, so that "Mr" picks "Herr" on
// a German form. "f" groups Mrs, Ms and Miss: a form that offers several of
// them is ambiguous for a profile that says "Frau", and gets no choice.
var honorificGroups = map[string]string{
	// en
	"mr": "m", "mister": "m", "mrs": "f", "ms": "f", "miss": "f", "dr": "dr", "doctor": "dr", "prof": "prof", "professor": "prof", "mx": "x",
	// de
	"herr": "m", "frau": "f", "doktor": "dr",
	// fr
	"m": "m", "monsieur": "m", "mme": "f", "madame": "f", "mlle": "f", "mademoiselle": "f", "docteur": "dr", "professeur": "prof",
	// es, pt
	"sr": "m", "senor": "m", "senhor": "m", "sra": "f", "senora": "f", "senhora": "f", "srta": "f", "senorita": "f", "dra": "dr",
	// it
	"sig": "m", "signor": "m", "signore": "m", "sig ra": "f", "signora": "f", "sigra": "f", "dott": "dr", "dottore": "dr", "dottoressa": "dr",
	// nl
	"dhr": "m", "de heer": "m", "mevr": "f", "mevrouw": "f",
}

// honorificForms: the stored title, then its synonyms in other languages.
func honorificForms(v string) forms {
	fs := one(v)
	fs.tiers = [][]string{{v}}
	if g, ok := honorificGroups[fold(v)]; ok {
		var syn []string
		for k, gg := range honorificGroups {
			if gg == g && k != fold(v) {
				syn = append(syn, k)
			}
		}
		fs.tiers = append(fs.tiers, syn)
	}
	return fs
}

// isHonorific reports whether a name token is a title ("Dr.", "Mme"). A bare
// "M" is an initial unless written "M.".
func isHonorific(tok string) bool {
	if tok == "M" || tok == "m" {
		return false
	}
	_, ok := honorificGroups[fold(tok)]
	return ok
}

var nameSuffixes = map[string]bool{"jr": true, "sr": true, "ii": true, "iii": true, "iv": true, "phd": true, "md": true, "esq": true}

// familyParticles join the following word into the family name ("van der
// Berg", "de la Cruz").
var familyParticles = map[string]bool{
	"van": true, "von": true, "der": true, "den": true, "de": true, "del": true, "della": true, "la": true, "le": true,
	"da": true, "di": true, "du": true, "dos": true, "das": true, "do": true, "ten": true, "ter": true, "bin": true, "al": true, "zu": true,
}

// surnameParticles join the next word into a Spanish or Portuguese
// surname ("de la Fuente", "dos Santos").
var surnameParticles = map[string]bool{
	"de": true, "del": true, "la": true, "las": true, "los": true, "da": true, "das": true, "do": true, "dos": true, "y": true, "e": true, "i": true,
}

// splitSurnames splits a family name written with two surnames (Spanish
// "García López", "García de la Fuente") into the first (paternal) and the
// second (maternal). A single surname is all first: the second is "".
func splitSurnames(family string) (first, second string) {
	toks := strings.Fields(family)
	if len(toks) < 2 {
		return family, ""
	}
	i := lastNameStart(toks, surnameParticles)
	if i == 0 || surnameParticles[strings.ToLower(toks[0])] && i == 1 {
		return family, ""
	}
	return strings.Join(toks[:i], " "), strings.Join(toks[i:], " ")
}

// lastNameStart returns where the last name of toks begins: its last word
// with the particles before it ("de la" Fuente), leaving at least the first
// word out.
func lastNameStart(toks []string, particles map[string]bool) int {
	i := len(toks) - 1
	for i > 1 && particles[strings.ToLower(toks[i-1])] {
		i--
	}
	return i
}

// nameParts is a split full name.
type nameParts struct{ prefix, given, additional, family string }

// familyFirst reports whether names are written family name first on this
// page: East Asian languages, when the name is in an East Asian script.
func familyFirst(lang, name string) bool {
	switch baseLang(lang) {
	case "ja", "zh", "ko":
	default:
		return false
	}
	for _, r := range name {
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
			return true
		}
	}
	return false
}

// unspacedNames lists the languages that write a name in their own
// script without a space between family and given name (Japanese forms
// take either, and mostly show one).
var unspacedNames = map[string]bool{"ko": true, "zh": true}

// familyFirstBox reports whether a whole-name box wants the family name
// first whatever the script: Hungarian pages write "Kovács Anna", and a
// Russian or Ukrainian box labelled ФИО or ПІБ (family name, given name,
// patronymic) names its order.
func familyFirstBox(f *Field) bool {
	if baseLang(f.Lang) == "hu" {
		return true
	}
	for _, w := range strings.Fields(fold(f.Label)) {
		switch w {
		case "фио", "піб", "пиб":
			return true
		}
	}
	return strings.Contains(fold(f.Label), fold("фамилия имя"))
}

func baseLang(lang string) string {
	if i := strings.IndexAny(lang, "-_"); i >= 0 {
		lang = lang[:i]
	}
	return strings.ToLower(lang)
}

// splitName splits a full name; ok is false when it has no family part.
func splitName(name, lang string) (nameParts, bool) {
	toks := strings.Fields(name)
	var p nameParts
	for len(toks) > 1 && isHonorific(toks[0]) {
		p.prefix = strings.TrimSpace(p.prefix + " " + toks[0])
		toks = toks[1:]
	}
	for len(toks) > 2 && nameSuffixes[fold(toks[len(toks)-1])] {
		toks = toks[:len(toks)-1]
	}
	if len(toks) < 2 {
		return p, false
	}
	if familyFirst(lang, name) {
		p.family, p.given = toks[0], strings.Join(toks[1:], " ")
		return p, true
	}
	i := lastNameStart(toks, familyParticles)
	p.given = toks[0]
	p.additional = strings.Join(toks[1:i], " ")
	p.family = strings.Join(toks[i:], " ")
	return p, true
}

// deriveName derives a name concept missing from the profile: a full name
// from the parts (lossless), a part from the full name (a rule that can be
// wrong, hence factorDerived). The profile's explicit parts always win: they
// are looked up before deriveName is called.
func (r *run) deriveName(canon string, f *Field) (string, profile.Entry, float64, bool) {
	switch canon {
	case profile.ConceptName:
		given, eg, okG := r.entry(profile.ConceptGivenName)
		family, ef, okF := r.entry(profile.ConceptFamilyName)
		if !okG || !okF {
			return "", profile.Entry{}, 0, false
		}
		add, _, _ := r.entry(profile.ConceptAdditionalName)
		e := eg
		if confOf(ef) < confOf(eg) {
			e = ef
		}
		if familyFirst(f.Lang, family+given) && add == "" && unspacedNames[baseLang(f.Lang)] {
			// Korean and Chinese write a name in their script with no
			// space between its parts: 홍길동, 王小明.
			return family + given, e, 1, true
		}
		if familyFirst(f.Lang, family+given) || familyFirstBox(f) {
			return strings.Join(strings.Fields(family+" "+given+" "+add), " "), e, 1, true
		}
		return strings.Join(strings.Fields(given+" "+add+" "+family), " "), e, 1, true
	case profile.ConceptGivenName, profile.ConceptFamilyName, profile.ConceptAdditionalName, profile.ConceptHonorificPrefix:
		full, e, ok := r.entry(profile.ConceptName)
		if !ok {
			return "", profile.Entry{}, 0, false
		}
		p, ok := splitName(full, f.Lang)
		if !ok {
			return "", profile.Entry{}, 0, false
		}
		v := map[string]string{
			profile.ConceptGivenName: p.given, profile.ConceptFamilyName: p.family,
			profile.ConceptAdditionalName: p.additional, profile.ConceptHonorificPrefix: p.prefix,
		}[canon]
		return v, e, factorDerived, v != ""
	}
	return r.derivePhonetic(canon, f)
}

// confOf is an entry's effective confidence (0 meaning unstated, so 1).
func confOf(e profile.Entry) float64 {
	if c := clamp01(e.Confidence); c > 0 {
		return c
	}
	return 1
}

// genderWords are the words of gender options across the languages of
// Tessera's forms, by meaning: a profile that says "female" picks "Mujer",
// "weiblich" or "Женский". Single letters are left out: "M" is a man in
// English and a woman (mujer) in Spanish.
var genderWords = map[string][]string{
	"m": {"male", "man", "men", "masculine", "männlich", "mann", "masculin", "homme", "hombre", "masculino", "varón", "maschio", "maschile", "uomo", "mannelijk", "mężczyzna", "męski", "muž", "mužské", "férfi", "mies", "miehet", "мужской", "мужчина", "чоловіча", "чоловік", "男", "男性", "남", "남자", "남성", "erkek", "laki-laki", "pria", "ذكر", "זכר", "ชาย", "nam"},
	"f": {"female", "woman", "women", "feminine", "weiblich", "frau", "féminin", "femme", "mujer", "femenino", "feminino", "mulher", "femmina", "femminile", "donna", "vrouwelijk", "vrouw", "kobieta", "żeński", "žena", "ženské", "nő", "nainen", "naiset", "kvinna", "kvinde", "kvinne", "женский", "женщина", "жіноча", "жінка", "女", "女性", "여", "여자", "여성", "kadın", "perempuan", "wanita", "أنثى", "נקבה", "หญิง", "nữ"},
	"x": {"other", "divers", "diverse", "non-binary", "nonbinary", "autre", "otro", "outro", "altro", "anders", "inne", "другой", "другое"},
}

// genderGroups maps a folded gender word to its meaning (genderWords),
// and the letters a profile may store ("f", "m", "w" for weiblich).
var genderGroups = sync.OnceValue(func() map[string]string {
	m := map[string]string{"f": "f", "w": "f", "m": "m", "d": "x", "x": "x"}
	for g, words := range genderWords {
		for _, w := range words {
			m[fold(w)] = g
		}
	}
	return m
})

// genderForms: the stored gender, then the words of the same meaning in
// the languages of forms.
func genderForms(v string) forms {
	fs := one(v)
	fs.tiers = [][]string{{v}}
	if g, ok := genderGroups()[fold(v)]; ok {
		fs.tiers = append(fs.tiers, genderWords[g])
	}
	return fs
}

// initialForms: a middle name, or its initial where the box takes one
// letter or says it wants the initial ("Middle initial", maxlength 1).
func initialForms(f *Field, v string) forms {
	r, _ := utf8.DecodeRuneInString(strings.TrimSpace(v))
	if r == utf8.RuneError || !unicode.IsLetter(r) {
		return one(v)
	}
	initial := string(unicode.ToUpper(r))
	if strings.Contains(fold(f.Label), "initial") {
		return one(initial)
	}
	return forms{text: []string{v, initial}, factor: 1}
}

// initialsForms: the initials of the given names, as Dutch forms ask for
// them ("Jan Pieter" is "J.P."), dotted, then bare for a box too short.
func initialsForms(given string) forms {
	var dotted, bare strings.Builder
	for _, w := range strings.FieldsFunc(given, func(r rune) bool { return r == ' ' || r == '-' || r == '.' }) {
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsLetter(r) {
			continue
		}
		dotted.WriteString(string(unicode.ToUpper(r)) + ".")
		bare.WriteRune(unicode.ToUpper(r))
	}
	if bare.Len() == 0 {
		return forms{}
	}
	return forms{text: []string{dotted.String(), bare.String()}, factor: 1}
}
