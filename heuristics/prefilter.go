package heuristics

import (
	"regexp/syntax"
	"slices"
)

// The prefilter spares most keywords any matching at all: every keyword
// starts with one of a few literal strings ("post ?code|postal code" starts
// with "post"), so a keyword none of whose starting literals occurs in a
// text cannot match it. One pass over the text finds the keywords worth
// running. Keywords with no such literal (a leading optional part, a wide
// character class) are always run.

// A lit is one starting literal of keyword kw. Its first four bytes
// (fewer when it is shorter: mask keeps those it has) are packed in key,
// so that most literals that share a text's first two bytes are told
// apart from it by one compare of integers, without a call.
type lit struct {
	s         string
	kw        int32
	key, mask uint32
}

// pack4 packs the first four bytes of s (zeros past its end) into a
// word, the first byte lowest.
func pack4(s string) uint32 {
	var w uint32
	for i := range min(len(s), 4) {
		w |= uint32(s[i]) << (8 * i)
	}
	return w
}

// prefilterIndex maps the first two bytes of every starting literal of two
// or more bytes to the literals; one-byte literals are kept by byte.
type prefilterIndex struct {
	// lits holds the literals of two bytes or more grouped by their
	// first two bytes b0, b1: those of pair k = b0<<8|b1 are
	// lits[start[k]:start[k+1]] (two loads a text position, where a map
	// lookup hashed the pair).
	lits   []lit
	start  *[1<<16 + 1]int32
	single [256][]int32 // keywords with a one-byte starting literal
	always []int32      // keywords without starting literals
}

// buildPrefilter indexes the starting literals of every keyword.
func buildPrefilter(kws []keyword) prefilterIndex {
	var prefilter prefilterIndex
	pairs := map[uint16][]lit{}
	for i := range kws {
		lits, ok := startLiterals(kws[i].parsed)
		if !ok {
			prefilter.always = append(prefilter.always, int32(i))
			continue
		}
		for _, s := range lits {
			if len(s) == 1 {
				prefilter.single[s[0]] = append(prefilter.single[s[0]], int32(i))
				continue
			}
			k := uint16(s[0])<<8 | uint16(s[1])
			n := min(len(s), 4)
			pairs[k] = append(pairs[k], lit{s: s, kw: int32(i), key: pack4(s), mask: ^uint32(0) >> (32 - 8*n)})
		}
	}
	prefilter.start = new([1<<16 + 1]int32)
	for k := range 1 << 16 {
		prefilter.start[k] = int32(len(prefilter.lits))
		prefilter.lits = append(prefilter.lits, pairs[uint16(k)]...)
	}
	prefilter.start[1<<16] = int32(len(prefilter.lits))
	return prefilter
}

// candidates appends to into the keywords that may match text, in table
// order (keywords are numbered rule by rule), each once.
func (p *prefilterIndex) candidates(text string, into []int32) []int32 {
	into = append(into, p.always...)
	for j := 0; j < len(text); j++ {
		into = append(into, p.single[text[j]]...)
		if j+1 < len(text) {
			k := int(text[j])<<8 | int(text[j+1])
			// Text bytes past the end pack as zeros (a literal with a zero
			// byte may pass the word's test where it is not: a candidate
			// too many, which the keyword's own match turns down).
			w := pack4(text[j:])
			for _, l := range p.lits[p.start[k]:p.start[k+1]] {
				if w&l.mask == l.key && (len(l.s) <= 4 || len(text)-j >= len(l.s) && text[j+4:j+len(l.s)] == l.s[4:]) {
					into = append(into, l.kw)
				}
			}
		}
	}
	slices.Sort(into)
	return slices.Compact(into)
}

// maxClassLits bounds how many single characters a character class may
// stand for before it counts as having no literal; maxSet bounds the
// strings one keyword's starting literals expand to.
const (
	maxClassLits = 8
	maxSet       = 128
	enoughPrefix = 4 // bytes: starting literals this long filter well
)

// startLiterals returns strings one of which every match of re begins with,
// or false when it cannot tell (or a match may be empty).
func startLiterals(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus:
		return startLiterals(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min < 1 {
			return nil, false
		}
		return startLiterals(re.Sub[0])
	case syntax.OpAlternate:
		var out []string
		for _, s := range re.Sub {
			l, ok := startLiterals(s)
			if !ok {
				return nil, false
			}
			out = append(out, l...)
		}
		return out, true
	case syntax.OpConcat:
		set := []string{""}
		for _, s := range re.Sub {
			if zeroWidth(s) && slices.Equal(set, []string{""}) {
				continue // leading anchors: the next part starts the match
			}
			if ex, ok := exactSet(s); ok && len(set)*len(ex) <= maxSet {
				set = product(set, ex)
				if minLen(set) >= enoughPrefix {
					break
				}
				continue
			}
			if st, ok := startLiterals(s); ok && len(set)*len(st) <= maxSet {
				set = product(set, st)
			}
			break
		}
		if minLen(set) == 0 {
			return nil, false
		}
		return set, true
	}
	set, ok := exactSet(re)
	if !ok || minLen(set) == 0 {
		return nil, false
	}
	return set, true
}

// exactSet returns every string re matches when they are few and plain
// (literals, small classes, optional parts, alternatives).
func exactSet(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return nil, false
		}
		return []string{string(re.Rune)}, true
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpBeginText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		// Anchors consume nothing: the match starts with what follows.
		return []string{""}, true
	case syntax.OpCharClass:
		var out []string
		for k := 0; k+1 < len(re.Rune); k += 2 {
			for c := re.Rune[k]; c <= re.Rune[k+1]; c++ {
				if len(out) == maxClassLits {
					return nil, false
				}
				out = append(out, string(c))
			}
		}
		return out, len(out) > 0
	case syntax.OpCapture:
		return exactSet(re.Sub[0])
	case syntax.OpQuest:
		s, ok := exactSet(re.Sub[0])
		if !ok {
			return nil, false
		}
		return append(s, ""), true
	case syntax.OpAlternate:
		var out []string
		for _, sub := range re.Sub {
			s, ok := exactSet(sub)
			if !ok || len(out)+len(s) > maxSet {
				return nil, false
			}
			out = append(out, s...)
		}
		return out, true
	case syntax.OpConcat:
		out := []string{""}
		for _, sub := range re.Sub {
			s, ok := exactSet(sub)
			if !ok || len(out)*len(s) > maxSet {
				return nil, false
			}
			out = product(out, s)
		}
		return out, true
	}
	return nil, false
}

func zeroWidth(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpBeginLine, syntax.OpBeginText, syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpEmptyMatch:
		return true
	}
	return false
}

func product(a, b []string) []string {
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, x+y)
		}
	}
	return out
}

func minLen(set []string) int {
	m := -1
	for _, s := range set {
		if m < 0 || len(s) < m {
			m = len(s)
		}
	}
	return max(m, 0)
}
