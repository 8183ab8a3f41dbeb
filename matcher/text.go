package matcher

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// fold is the case- and accent-insensitive comparison form: decomposed,
// marks dropped, case folded (ß → ss), punctuation turned to spaces and
// spaces collapsed — so "Québec", "QUEBEC" and "quebec." compare equal.
func fold(s string) string {
	if isFolded(s) {
		return s // already in comparison form: the common case for option values
	}
	return string(foldAppend(make([]byte, 0, len(s)), s))
}

// isFolded reports whether s is already in comparison form.
func isFolded(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case c == ' ' && i > 0 && i < len(s)-1 && s[i-1] != ' ':
		default:
			return false
		}
	}
	return true
}

// foldAppend appends the comparison form of s to b.
func foldAppend(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			t := transform.Chain(norm.NFKD, runes.Remove(runes.In(unicode.Mn)), cases.Fold(), norm.NFC)
			if r, _, err := transform.String(t, s); err == nil {
				s = r
			}
			break
		}
	}
	start := len(b)
	space := true
	for _, r := range s {
		switch {
		case r >= 'A' && r <= 'Z':
			b = append(b, byte(r+'a'-'A'))
		case r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9'):
			b = append(b, byte(r))
		case r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			b = utf8.AppendRune(b, r)
		default:
			if !space {
				b = append(b, ' ')
				space = true
			}
			continue
		}
		space = false
	}
	if len(b) > start && b[len(b)-1] == ' ' {
		b = b[:len(b)-1]
	}
	return b
}

// foldedOption is an option's value and text in comparison form.
type foldedOption struct{ value, text string }

// foldedOptions folds a field's options once per Match call: forms share
// option lists (a country select per address) and folding is most of the
// cost of choosing.
func (r *run) foldedOptions(opts []Option) []foldedOption {
	key := optKey{&opts[0], len(opts)}
	if fo, ok := r.folded[key]; ok {
		return fo
	}
	// All folded strings of the list share one buffer: one allocation
	// instead of two per option.
	ends := make([]int, 0, 2*len(opts))
	n := 0
	for _, o := range opts {
		n += len(o.Value) + len(o.Text)
	}
	buf := make([]byte, 0, n)
	for _, o := range opts {
		buf = foldAppend(buf, o.Value)
		ends = append(ends, len(buf))
		buf = foldAppend(buf, o.Text)
		ends = append(ends, len(buf))
	}
	all := string(buf)
	fo := make([]foldedOption, len(opts))
	start := 0
	for i := range opts {
		fo[i] = foldedOption{all[start:ends[2*i]], all[ends[2*i]:ends[2*i+1]]}
		start = ends[2*i+1]
	}
	r.folded[key] = fo
	return fo
}

// optKey identifies an option list by its backing array.
type optKey struct {
	first *Option
	n     int
}

// chooseOption picks the option meant by a value. tiers lists the spellings
// of the value from the most to the least specific; within a tier, the
// options whose value or visible text fold to one of the spellings are the
// candidates. One candidate is chosen; several are an ambiguity and end the
// search with no choice, since a wrong guess is worse than none.
func (r *run) chooseOption(opts []Option, tiers [][]string) (string, bool) {
	if len(opts) == 0 {
		return "", false
	}
	fo := r.foldedOptions(opts)
	for _, tier := range tiers {
		want := make(map[string]bool, len(tier))
		for _, s := range tier {
			if f := fold(s); f != "" {
				want[f] = true
			}
		}
		if len(want) == 0 {
			continue
		}
		hit := -1
		for i, o := range opts {
			if o.Disabled || strings.TrimSpace(o.Value) == "" {
				continue
			}
			if !want[fo[i].value] && !want[fo[i].text] {
				continue
			}
			if hit >= 0 && opts[hit].Value != o.Value {
				return "", false
			}
			hit = i
		}
		if hit >= 0 {
			return opts[hit].Value, true
		}
	}
	return "", false
}
