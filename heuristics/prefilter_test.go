package heuristics

import (
	"regexp/syntax"
	"strings"
	"testing"
	"unicode/utf8"
)

// samples returns strings that re matches: every alternative, with and
// without each optional part, bounded in number.
func samples(re *syntax.Regexp, limit int) []string {
	switch re.Op {
	case syntax.OpLiteral:
		return []string{string(re.Rune)}
	case syntax.OpCharClass:
		var out []string
		for k := 0; k+1 < len(re.Rune) && len(out) < 3; k += 2 {
			out = append(out, string(re.Rune[k]))
			if re.Rune[k+1] != re.Rune[k] {
				out = append(out, string(re.Rune[k+1]))
			}
		}
		return out
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return []string{"x"}
	case syntax.OpCapture:
		return samples(re.Sub[0], limit)
	case syntax.OpQuest, syntax.OpStar:
		return append([]string{""}, samples(re.Sub[0], limit)...)
	case syntax.OpPlus:
		return samples(re.Sub[0], limit)
	case syntax.OpRepeat:
		s := samples(re.Sub[0], limit)
		var out []string
		for _, x := range s {
			out = append(out, strings.Repeat(x, max(re.Min, 1)))
		}
		if re.Min == 0 {
			out = append(out, "")
		}
		return out
	case syntax.OpAlternate:
		var out []string
		for _, sub := range re.Sub {
			out = append(out, samples(sub, limit)...)
		}
		return trim(out, limit)
	case syntax.OpConcat:
		out := []string{""}
		for _, sub := range re.Sub {
			out = trim(product(out, samples(sub, limit)), limit)
		}
		return out
	}
	return []string{""} // anchors and other zero-width parts
}

func trim(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// TestPrefilterKeepsMatchingRules fails when the prefilter would skip a
// rule that matches a text: for strings built from every keyword of every
// rule (each alternative, each optional part in and out), set in words
// before and after, every rule whose expression matches is a candidate.
func TestPrefilterKeepsMatchingRules(t *testing.T) {
	var texts []string
	for i := range rules {
		for _, l := range rules[i].langs {
			for _, w := range l.words {
				w = keywordExpr(w)
				re, err := syntax.Parse(w, syntax.Perl)
				if err != nil {
					t.Fatalf("rule %s: keyword %q: %v", rules[i].id, w, err)
				}
				for _, s := range samples(re.Simplify(), 64) {
					texts = append(texts, s, "your "+s, s+" required", "billing "+s+" 2")
				}
			}
		}
	}
	for _, gc := range loadGolden(t) {
		for _, c := range gc.Controls {
			for _, s := range []string{c.Label, c.Name, c.ID, c.Placeholder, c.AriaLabel} {
				texts = append(texts, normalize(s))
			}
		}
	}
	checked := 0
	for _, text := range texts {
		if !utf8.ValidString(text) {
			continue
		}
		checkPrefilter(t, text)
		checked++
	}
	if checked < 5000 {
		t.Fatalf("checked only %d texts", checked)
	}
}

func checkPrefilter(t *testing.T, text string) {
	t.Helper()
	tab := table()
	var cand [maxRules]bool
	tab.prefilter.candidates(text, cand[:len(tab.rules)])
	for i := range tab.rules {
		if !cand[i] && tab.rules[i].re.MatchString(text) {
			t.Errorf("prefilter skips rule %s, which matches %q", tab.rules[i].id, text)
		}
	}
}

// TestPrefilterSkips fails when the prefilter stops filtering: most rules
// have starting literals, and a plain label leaves most rules out.
func TestPrefilterSkips(t *testing.T) {
	tab := table()
	if n := len(tab.prefilter.always); n > len(rules)/4 {
		t.Errorf("%d of %d rules have no starting literal", n, len(rules))
	}
	var cand [maxRules]bool
	tab.prefilter.candidates("first name", cand[:len(rules)])
	n := 0
	for _, c := range cand[:len(rules)] {
		if c {
			n++
		}
	}
	if n > len(rules)/4 {
		t.Errorf("%d of %d rules are candidates for %q", n, len(rules), "first name")
	}
	if !cand[ruleIndex("given-name")] {
		t.Errorf("given-name is not a candidate for %q", "first name")
	}
}

func ruleIndex(id string) int {
	for i := range rules {
		if rules[i].id == id {
			return i
		}
	}
	return -1
}

// FuzzPrefilter checks the prefilter against the full expressions on
// arbitrary text: it may keep too many rules, never too few.
func FuzzPrefilter(f *testing.F) {
	for _, s := range []string{"first name", "e mail", "post code search", "ваше имя", "郵便番号", "cc number 2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkPrefilter(t, normalize(s))
	})
}
