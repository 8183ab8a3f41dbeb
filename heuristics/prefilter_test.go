package heuristics

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
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

// TestKeywordsAgreeWithRules fails when matching keyword by keyword, behind
// the prefilter, differs from a rule's union expression: for strings built
// from every keyword of every rule (each alternative, each optional part in
// and out), set in words before and after, each rule must match where its
// union expression matches, starting at the same place.
func TestKeywordsAgreeWithRules(t *testing.T) {
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
					texts = append(texts, s, "your "+s, s+" required", "billing "+s+" 2", "l'"+s, "x"+s)
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
		checkKeywords(t, text)
		checked++
	}
	if checked < 5000 {
		t.Fatalf("checked only %d texts", checked)
	}
}

// unionExprs are the rules' union expressions, the reference the keyword
// matching must agree with.
var unionExprs = sync.OnceValue(func() []*regexp.Regexp {
	out := make([]*regexp.Regexp, len(rules))
	for i := range rules {
		out[i] = regexp.MustCompile(ruleExpr(&rules[i]))
	}
	return out
})

func checkKeywords(t *testing.T, text string) {
	t.Helper()
	tab := table()
	for i := range tab.rules {
		want, re := -1, unionExprs()[i]
		if re.MatchString(text) {
			want = re.FindStringIndex(text)[0]
		}
		if got := tab.find(&tab.rules[i], text); got != want {
			t.Errorf("rule %s on %q: keywords match at %d, its expression at %d", tab.rules[i].id, text, got, want)
		}
	}
}

// TestPrefilterSkips fails when the prefilter stops filtering: most keywords
// have starting literals, and a plain label leaves most rules out.
func TestPrefilterSkips(t *testing.T) {
	tab := table()
	// A keyword without one (a leading \b, a leading optional group) is
	// run on every text of every page: one such keyword cost 4 % of the
	// 200 KB page's classify time.
	for _, k := range tab.prefilter.always {
		kw := &tab.keywords[k]
		t.Errorf("rule %s: keyword %q has no starting literal", tab.rules[kw.rule].id, kw.re().String())
	}
	cand := map[string]bool{}
	tab.ruleHits(tab.prefilter.candidates("first name", nil), func(r *rule, _ []int32) bool {
		cand[r.id] = true
		return true
	})
	if n := len(cand); n > len(rules)/4 {
		t.Errorf("%d of %d rules are candidates for %q", n, len(rules), "first name")
	}
	if !cand["given-name"] {
		t.Errorf("given-name is not a candidate for %q", "first name")
	}
}

// FuzzPrefilter checks matching keyword by keyword, behind the prefilter,
// against the rules' union expressions on arbitrary text.
func FuzzPrefilter(f *testing.F) {
	for _, s := range []string{"first name", "e mail", "post code search", "ваше имя", "郵便番号", "cc number 2", "l'adresse"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkKeywords(t, normalize(s))
	})
}
