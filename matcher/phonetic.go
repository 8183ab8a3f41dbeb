package matcher

import (
	"strings"
	"unicode"

	"github.com/tessera-app/tessera/profile"
)

// A name's reading (profile.ConceptPhonetic*) is only ever what the person
// stored: it is never made from the name, whose kanji may be read several
// ways. What the matcher does with a stored reading is lossless: it joins
// the two parts into the whole (family first, as readings are written) or
// divides a whole written with one space, and writes kana in the syllabary
// the box asks for (katakana and hiragana spell the same sounds letter for
// letter).

// derivePhonetic derives a reading missing from the profile from the
// readings it holds; never from the name.
func (r *run) derivePhonetic(canon string, f *Field) (string, profile.Entry, float64, bool) {
	switch canon {
	case profile.ConceptPhoneticName:
		given, eg, okG := r.entry(profile.ConceptPhoneticGivenName)
		family, ef, okF := r.entry(profile.ConceptPhoneticFamilyName)
		if !okG || !okF {
			return "", profile.Entry{}, 0, false
		}
		e := eg
		if confOf(ef) < confOf(eg) {
			e = ef
		}
		if readingFamilyFirst(f.Lang, family+given) {
			return family + " " + given, e, 1, true
		}
		return given + " " + family, e, 1, true
	case profile.ConceptPhoneticGivenName, profile.ConceptPhoneticFamilyName:
		full, e, ok := r.entry(profile.ConceptPhoneticName)
		if !ok {
			return "", profile.Entry{}, 0, false
		}
		parts := strings.Fields(full) // splits at U+3000 too
		if len(parts) != 2 {
			return "", profile.Entry{}, 0, false
		}
		family, given := parts[1], parts[0]
		if readingFamilyFirst(f.Lang, full) {
			family, given = parts[0], parts[1]
		}
		if canon == profile.ConceptPhoneticFamilyName {
			return family, e, factorDerived, true
		}
		return given, e, factorDerived, true
	}
	return "", profile.Entry{}, 0, false
}

// readingFamilyFirst reports whether a reading is written family name
// first: kana always is, romaji on a Japanese page too.
func readingFamilyFirst(lang, reading string) bool {
	for _, r := range reading {
		if unicode.In(r, unicode.Hiragana, unicode.Katakana) {
			return true
		}
	}
	return baseLang(lang) == "ja"
}

// phoneticForms are the spellings of a stored reading for a box: in the
// syllabary the box names first (ふりがな, ひらがな: hiragana; フリガナ,
// カナ, カタカナ: katakana), then the other, then as stored, so that a
// pattern the page enforces picks the one it accepts.
func phoneticForms(f *Field, v string) forms {
	kata, hira := toKatakana(v), toHiragana(v)
	fs := forms{factor: 1}
	switch wantsKana(f) {
	case 'h':
		fs.text = []string{hira, kata, v}
	case 'k':
		fs.text = []string{kata, hira, v}
	default:
		fs.text = []string{v, kata, hira}
	}
	seen := map[string]bool{}
	out := fs.text[:0]
	for _, t := range fs.text {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	fs.text = out
	return fs
}

// wantsKana says which syllabary a box asks for: 'h' for hiragana, 'k' for
// katakana, 0 when it does not say. Its words decide (ひらがな, ふりがな;
// カタカナ, フリガナ, カナ, セイ/メイ), then its pattern's ranges, then the
// script of its example placeholder (例）ヤマダ).
func wantsKana(f *Field) rune {
	words := f.Label + " " + f.Placeholder
	has := func(s string, subs ...string) bool {
		for _, sub := range subs {
			if strings.Contains(s, sub) {
				return true
			}
		}
		return false
	}
	switch {
	case has(words, "ひらがな", "ふりがな", "せい", "めい"):
		return 'h'
	case has(words, "カナ", "フリガナ", "セイ", "メイ"):
		return 'k'
	case has(f.Constraints.Pattern, "ぁ", "Hiragana"):
		return 'h'
	case has(f.Constraints.Pattern, "ァ", "Katakana"):
		return 'k'
	}
	for _, r := range f.Placeholder {
		switch {
		case unicode.Is(unicode.Hiragana, r):
			return 'h'
		case unicode.Is(unicode.Katakana, r) && r != 'ー':
			return 'k'
		}
	}
	return 0
}

// toKatakana writes the hiragana of s in katakana (ぁ-ゖ and ゝゞ are
// U+0060 below their katakana).
func toKatakana(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'ぁ' && r <= 'ゖ' || r == 'ゝ' || r == 'ゞ' {
			return r + 0x60
		}
		return r
	}, s)
}

// toHiragana writes the katakana of s in hiragana; katakana with no
// hiragana (ヷ-ヺ, ー) stay as they are.
func toHiragana(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'ァ' && r <= 'ヶ' || r == 'ヽ' || r == 'ヾ' {
			return r - 0x60
		}
		return r
	}, s)
}
