package matcher

import (
	"hash/maphash"
	"slices"
	"strings"
	"sync"
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

// An optionIndex is an option list in comparison form: the options whose
// folded value or text is a given string, by that string.
type optionIndex struct {
	// opts is a copy of the list, to tell hash collisions apart.
	opts   []Option
	byFold map[string][]int
}

// optionIndexes caches the index of every option list seen, across Match
// calls: forms repeat the same country and state lists, and folding them is
// most of the cost of choosing. Option lists are page content, never
// profile data; the cache is emptied when full.
var optionIndexes = struct {
	sync.Mutex
	m map[uint64]*optionIndex
}{m: map[uint64]*optionIndex{}}

var optionSeed = maphash.MakeSeed()

// maxCachedPages bounds each cache of page-derived tables.
const maxCachedPages = 512

// indexOptions returns the index of an option list, once per Match call for
// a given backing array and from the shared cache across calls.
func (r *run) indexOptions(opts []Option) *optionIndex {
	key := optKey{&opts[0], len(opts)}
	if ix, ok := r.folded[key]; ok {
		return ix
	}
	var h maphash.Hash
	h.SetSeed(optionSeed)
	for _, o := range opts {
		h.WriteString(o.Value)
		h.WriteByte(0)
		h.WriteString(o.Text)
		if o.Disabled {
			h.WriteByte(1)
		} else {
			h.WriteByte(2)
		}
	}
	sum := h.Sum64()
	optionIndexes.Lock()
	ix, ok := optionIndexes.m[sum]
	optionIndexes.Unlock()
	if !ok || !slices.Equal(ix.opts, opts) {
		ix = &optionIndex{opts: slices.Clone(opts), byFold: make(map[string][]int, 2*len(opts))}
		for i, o := range opts {
			v, t := fold(o.Value), fold(o.Text)
			ix.byFold[v] = append(ix.byFold[v], i)
			if t != v {
				ix.byFold[t] = append(ix.byFold[t], i)
			}
		}
		optionIndexes.Lock()
		if len(optionIndexes.m) >= maxCachedPages {
			clear(optionIndexes.m)
		}
		optionIndexes.m[sum] = ix
		optionIndexes.Unlock()
	}
	r.folded[key] = ix
	return ix
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
	ix := r.indexOptions(opts)
	for _, tier := range tiers {
		hit := -1
		for _, s := range tier {
			f := fold(s)
			if f == "" {
				continue
			}
			for _, i := range ix.byFold[f] {
				o := opts[i]
				if o.Disabled || strings.TrimSpace(o.Value) == "" {
					continue
				}
				if hit >= 0 && opts[hit].Value != o.Value {
					return "", false
				}
				if hit < 0 || i < hit {
					hit = i
				}
			}
		}
		if hit >= 0 {
			return opts[hit].Value, true
		}
	}
	return "", false
}
