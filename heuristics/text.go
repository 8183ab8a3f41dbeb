package heuristics

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
	"golang.org/x/text/width"
)

// maxTextLen bounds the text of one signal that rules look at: labels past
// this length are prose (terms and conditions, help paragraphs), and
// bounding it keeps classification linear in page size.
const maxTextLen = 200

// diacriticBlocks are the blocks whose non-spacing marks fold removes:
// those of the Latin, Greek, Cyrillic, Hebrew and Arabic scripts and the
// generic combining blocks. The vowel signs of Indic scripts and Thai, and the kana
// voicing marks, are part of their letters: removing them merges words
// ("कूपन" coupon with "कंपनी" company).
var diacriticBlocks = &unicode.RangeTable{R16: []unicode.Range16{
	{Lo: 0x0300, Hi: 0x08ff, Stride: 1},
	{Lo: 0x1ab0, Hi: 0x1aff, Stride: 1},
	{Lo: 0x1dc0, Hi: 0x1dff, Stride: 1},
	{Lo: 0x20d0, Hi: 0x20ff, Stride: 1},
	{Lo: 0xfe20, Hi: 0xfe2f, Stride: 1},
}}

func isDiacritic(r rune) bool {
	return unicode.Is(unicode.Mn, r) && unicode.Is(diacriticBlocks, r)
}

// foldChain removes diacritics and folds full-width forms, so that keyword
// lists are written once ("telefono" matches "teléfono", "ｅｍａｉｌ" matches
// "email"). It is applied to keywords and to page text alike.
func fold(s string) string {
	if isASCII(s) || foldStable(s) {
		return s
	}
	return foldByChain(s)
}

// foldByChain is fold without its shortcuts: the transform chain itself.
func foldByChain(s string) string {
	t := foldChains.Get().(transform.Transformer)
	defer foldChains.Put(t)
	out, _, err := transform.String(t, s)
	if err != nil {
		return s
	}
	return out
}

// foldStable reports whether the chain leaves s as it is, by checks that
// cost a fraction of running it (most labels in Cyrillic, CJK or Arabic
// letters without marks): no rune width.Fold changes, s already in NFD
// (every link after Fold then sees s itself: NFD has nothing to
// decompose, no diacritic is left to remove) and in NFC. FuzzFoldStable
// holds it to the chain.
func foldStable(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || r >= utf8.RuneSelf && (width.LookupRune(r).Folded() != 0 || isDiacritic(r)) {
			return false
		}
	}
	return norm.NFD.QuickSpanString(s) == len(s) && norm.NFC.QuickSpanString(s) == len(s)
}

// foldChains pools fold's transformer: a chain holds a buffer per link
// (12 KB), too much to allocate for every label. transform.String resets it.
var foldChains = sync.Pool{New: func() any {
	return transform.Chain(width.Fold, norm.NFD, runes.Remove(runes.Predicate(isDiacritic)), norm.NFC)
}}

// letterFold spells out letters that have no decomposition, so keywords
// can be written in plain Latin ("strasse" matches "Straße"). It also
// merges letters that lower-casing or the keyboard make differ: Greek final
// sigma (upper-case "ΟΔΟΣ" lowers to "οδοσ"), the Ukrainian apostrophe
// written as a modifier letter ("Імʼя"), and the Arabic forms of yeh and
// kaf that Persian pages often carry.
var letterFold = strings.NewReplacer("ß", "ss", "ẞ", "ss", "đ", "d", "Đ", "d", "ł", "l", "Ł", "l", "ø", "o", "Ø", "o", "æ", "ae", "Æ", "ae", "ı", "i", "İ", "i",
	"ς", "σ", "ʼ", "'", "ي", "ی", "ك", "ک")

// normalize turns one piece of evidence (a label, a name or id, a
// placeholder) into lower-case words separated by single spaces: camelCase,
// snake_case, kebab-case and brackets are split ("billing[firstName]" ->
// "billing first name"), letters and digits are separated ("address2" ->
// "address 2"), diacritics and widths are folded.
func normalize(s string) string {
	if len(s) > 4*maxTextLen {
		s = s[:4*maxTextLen]
		for !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
	}
	if s = dropPlural(s); isASCII(s) {
		return normalizeASCII(s)
	}
	// letterFold replaces only non-ASCII letters.
	return normalizeRunes(letterFold.Replace(fold(s)))
}

// normalizeRunes is normalize's last step, on any text: words of
// lower-case letters, digits and marks, one space between.
func normalizeRunes(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	var prev rune
	space := true
	n := 0
	for _, r := range s {
		if n >= maxTextLen {
			break
		}
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			// Spacing vowel signs (Devanagari, Bengali, Tamil, ...) are
			// marks, not letters, but belong to their word.
			if !space && boundary(prev, r) {
				b.WriteByte(' ')
			}
			b.WriteRune(unicode.ToLower(r))
			space = false
			n++
		case r == '\'' || r == '’':
			// Apostrophes join words ("nom d'utilisateur") rather than split
			// them, which keeps French and Italian keywords simple.
			if !space {
				b.WriteByte('\'')
			}
		default:
			if !space {
				b.WriteByte(' ')
				space = true
				n++
			}
		}
		prev = r
	}
	return strings.TrimSpace(b.String())
}

// dropPlural removes the optional plural "(s)" after a word ("Nombre(s)",
// "Name(s)"), which would otherwise leave a stray "s" word.
func dropPlural(s string) string {
	for from := 0; ; {
		i := strings.Index(s[from:], "(s)")
		if i < 0 {
			return s
		}
		i += from
		if r, _ := utf8.DecodeLastRuneInString(s[:i]); i > 0 && unicode.IsLetter(r) {
			s = s[:i] + s[i+3:]
			from = i
		} else {
			from = i + 3
		}
	}
}

// boundary reports whether a word break belongs between two adjacent runes
// of an identifier: lower->Upper (camelCase) and letter<->digit.
func boundary(prev, r rune) bool {
	switch {
	case unicode.IsLower(prev) && unicode.IsUpper(r):
		return true
	case unicode.IsLetter(prev) && unicode.IsDigit(r):
		return true
	case unicode.IsDigit(prev) && unicode.IsLetter(r):
		return true
	}
	return false
}

// normalizeASCII is normalizeRunes(s) for an s of ASCII alone (most
// names, ids and English labels), a byte at a time, and returns s itself,
// allocating nothing, when s is normalized already ("email", "first name").
// TestNormalizeASCII and FuzzNormalizeASCII hold it to normalizeRunes.
func normalizeASCII(s string) string {
	var buf [128]byte
	b := buf[:0]
	space := true
	prev := asciiOther // the kind of the byte before
	n := 0
	for i := 0; i < len(s) && n < maxTextLen; i++ {
		c := s[i]
		cl := asciiClasses[c]
		switch cl {
		case asciiLower, asciiUpper, asciiDigit:
			if !space && asciiBoundary[prev][cl] {
				b = append(b, ' ')
			}
			if cl == asciiUpper {
				c += 'a' - 'A'
			}
			b = append(b, c)
			space = false
			n++
		case asciiApostrophe:
			if !space {
				b = append(b, '\'')
			}
		default:
			if !space {
				b = append(b, ' ')
				space = true
				n++
			}
		}
		prev = cl
	}
	for len(b) > 0 && b[len(b)-1] == ' ' {
		b = b[:len(b)-1]
	}
	if string(b) == s {
		return s
	}
	return string(b)
}

// The kinds of ASCII byte normalizeASCII tells apart.
const (
	asciiOther byte = iota
	asciiLower
	asciiUpper
	asciiDigit
	asciiApostrophe
	asciiKinds
)

var asciiClasses = func() (t [256]byte) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = asciiLower
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = asciiUpper
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = asciiDigit
	}
	t['\''] = asciiApostrophe
	return t
}()

// asciiBoundary[prev][kind] is boundary for bytes of those kinds: lower
// to upper case, letter to digit, digit to letter.
var asciiBoundary = func() (t [asciiKinds][asciiKinds]bool) {
	t[asciiLower][asciiUpper] = true
	t[asciiLower][asciiDigit], t[asciiUpper][asciiDigit] = true, true
	t[asciiDigit][asciiLower], t[asciiDigit][asciiUpper] = true, true
	return t
}()

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
