package heuristics

import (
	"regexp"
	"testing"
)

// The patterns the passes match over normalized text must spell their
// words as normalize leaves them (Persian yeh and keheh for Arabic ی and
// ک, σ for a final ς, ASCII for Latin letters with marks): a word written
// otherwise never matches (regression: "اختياري" never marked an Arabic
// box optional, "αριθμος" never named a Greek house number).
func TestNormalizedPatternWords(t *testing.T) {
	patterns := map[string]func() *regexp.Regexp{
		"optionalWord": optionalWord, "withCallingCode": withCallingCode, "alternative": alternative,
		"apelido": apelido, "bareName": bareName, "buildingWord": buildingWord, "streetWord": streetWord,
		"houseNumberWord": houseNumberWord, "placeWord": placeWord, "suburbWord": suburbWord,
		"firstLine": firstLine, "lineWord": lineWord, "countryCodeWord": countryCodeWord, "phoneWord": phoneWord,
		"dayPart": dayPart, "monthPart": monthPart, "yearPart": yearPart, "dayAyYear": dayAyYear,
		"combinedDate": combinedDate, "newEmail": newEmail, "signupWord": signupWord, "loginWord": loginWord,
		"signupStart": signupStart, "loginStart": loginStart, "someoneElseSection": someoneElseSection, "giftSection": giftSection, "laterParty": laterParty,
		"vagueCode": vagueCode, "holderWord": holderWord, "bareNumber": bareNumber,
	}
	escape := regexp.MustCompile(`\\.`)
	word := regexp.MustCompile(`[\pL\pM]+`)
	sets := map[string]func() map[string]bool{
		"wholeLine2": wholeLine2, "genderWords": genderWords, "otherWords": otherWords,
		"honorificWords": honorificWords, "suffixWords": suffixWords, "cardBrands": cardBrands,
		"landmark": landmark,
	}
	for _, lp := range lineParts {
		sets["lineParts "+lp.part] = lp.words
	}
	for name, set := range sets {
		for w := range set() {
			if n := normalize(w); n != w {
				t.Errorf("%s: %q is %q once normalized, so text never holds it", name, w, n)
			}
		}
	}
	for name, re := range patterns {
		src := escape.ReplaceAllString(re().String(), " ")
		for _, w := range word.FindAllString(src, -1) {
			if n := normalize(w); n != w {
				t.Errorf("%s: %q is %q once normalized, so text never holds it", name, w, n)
			}
		}
	}
}
