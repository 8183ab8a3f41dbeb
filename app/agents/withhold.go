package agents

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/tessera-app/tessera/profile"
)

// Agents never receive a profile value (SECURITY.md, "What an agent can
// learn"). Tessera's own tools are built to return none; but a tool result
// (and the tool list: names and descriptions are the page's words) also
// carries what a page answers (a registered tool's result, a form's
// respondWith, a Formspec provider's describe), and a page can read back
// the values Tessera just filled into it. So every result on its way to an
// agent passes withhold: any value of the vault's profiles, and any value
// released to a page while the app runs (in the shape it was filled: a
// date as the form wanted it, a phone in national format), is replaced by
// a marker, unless the agent itself supplied that text in its arguments.

// WithheldMarker replaces a profile value in an agent's result.
const WithheldMarker = "[a value withheld by Tessera]"

// minWithheld is the shortest value searched for: shorter ones ("GB", a
// house number) would blank out ordinary words of any page.
const minWithheld = 3

// minDigits is the shortest run of digits matched whatever separates them
// (a phone number written "020 7946 0000" or "+44 20 7946-0000").
const minDigits = 6

// maxReleasedKept bounds the released values remembered for withholding.
const maxReleasedKept = 512

// releasedValues remembers the values released to pages in this run.
type releasedValues struct {
	mu   sync.Mutex
	list []string
}

func (r *releasedValues) add(vs ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, v := range vs {
		if utf8.RuneCountInString(strings.TrimSpace(v)) < minWithheld || slices.Contains(r.list, v) {
			continue
		}
		if len(r.list) >= maxReleasedKept {
			r.list = r.list[1:]
		}
		r.list = append(r.list, v)
	}
}

func (r *releasedValues) all() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.list)
}

// secretValues lists the texts an agent must not receive: every string
// value of every profile and the values released to pages.
func (a *Service) secretValues() []string {
	out := a.released.all()
	if v, ok := a.cfg.Vault, a.cfg.Vault != nil; ok {
		if ps, err := v.Profiles(); err == nil {
			for i := range ps {
				out = appendEntries(out, ps[i].Concepts)
				out = appendEntries(out, ps[i].Fields)
			}
		}
	}
	return out
}

func appendEntries(out []string, m map[string]profile.Entry) []string {
	for _, e := range m {
		s, ok := e.StringValue()
		if !ok {
			continue
		}
		out = append(out, s)
	}
	return out
}

// withhold returns res with every secret value replaced by the marker,
// except texts the agent's own arguments hold. A result that cannot be
// re-read after the replacement is withheld whole.
func withhold(res ToolResult, secrets []string, args map[string]any) ToolResult {
	var out ToolResult
	switch err := scrub(res, &out, secrets, args); {
	case errors.Is(err, errUnchanged):
		return res
	case err != nil:
		return errorResult("the result was withheld by Tessera: it held the person's data")
	}
	return out
}

// errUnchanged reports that scrub found nothing to replace.
var errUnchanged = errors.New("nothing withheld")

// scrub writes v to out (a pointer to v's type) with every secret value
// replaced by the marker, except texts given holds; errUnchanged when
// there was none.
func scrub(v, out any, secrets []string, args map[string]any) error {
	given := argumentTexts(args)
	var keep []string
	var lines []string
	for _, s := range secrets {
		// Each line of a multi-line value (a street address) too.
		if strings.Contains(s, "\n") {
			lines = append(lines, strings.Split(s, "\n")...)
		}
	}
	for _, s := range append(slices.Clone(secrets), lines...) {
		s = strings.TrimSpace(s)
		if utf8.RuneCountInString(s) < minWithheld || given[strings.ToLower(s)] {
			continue
		}
		keep = append(keep, s)
	}
	if len(keep) == 0 {
		return errUnchanged
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	text := string(b)
	changed := false
	// Longest first, so "Ada Lovelace" goes whole before "Ada".
	slices.SortFunc(keep, func(x, y string) int { return len(y) - len(x) })
	for _, s := range keep {
		enc, _ := json.Marshal(s)
		needle := strings.Trim(string(enc), `"`)
		if t, ok := replaceFold(text, needle, WithheldMarker); ok {
			text, changed = t, true
		}
		if d := digitsOf(s); len(d) >= minDigits && !given[d] {
			if t, ok := replaceDigits(text, d, WithheldMarker); ok {
				text, changed = t, true
			}
		}
	}
	if !changed {
		return errUnchanged
	}
	return json.Unmarshal([]byte(text), out)
}

// argumentTexts are the agent's own argument values, lower-cased, and
// their digits.
func argumentTexts(args map[string]any) map[string]bool {
	out := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			out[strings.ToLower(strings.TrimSpace(x))] = true
			if d := digitsOf(x); d != "" {
				out[d] = true
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		case map[string]any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	walk(args)
	return out
}

// replaceFold replaces every case-insensitive occurrence of needle in s
// that is a word of its own: not preceded or followed by a letter or digit
// (so a profile's "Ada" is withheld in "Ada Lovelace" and "/ada.l", never
// in "Canada").
func replaceFold(s, needle, with string) (string, bool) {
	ls, ln := strings.ToLower(s), strings.ToLower(needle)
	if len(ls) != len(s) || len(ln) != len(needle) || ln == "" {
		// Lower-casing changed byte lengths: match exactly instead.
		ls, ln = s, needle
	}
	var b strings.Builder
	found, last, from := false, 0, 0
	for from <= len(ls) {
		i := strings.Index(ls[from:], ln)
		if i < 0 {
			break
		}
		i += from
		j := i + len(ln)
		if wordEdge(s, i, false) && wordEdge(s, j, true) {
			b.WriteString(s[last:i])
			b.WriteString(with)
			last, found = j, true
			from = j
			continue
		}
		from = i + 1
	}
	if !found {
		return s, false
	}
	b.WriteString(s[last:])
	return b.String(), true
}

// wordEdge reports whether position i of s is the edge of a word: the
// rune before it (after, when after) is not a letter or digit.
func wordEdge(s string, i int, after bool) bool {
	var r rune
	if after {
		if i >= len(s) {
			return true
		}
		r, _ = utf8.DecodeRuneInString(s[i:])
	} else {
		if i <= 0 {
			return true
		}
		r, _ = utf8.DecodeLastRuneInString(s[:i])
	}
	return !unicode.IsLetter(r) && !unicode.IsDigit(r)
}

// digitsOf is the digits of s, significant for a phone: without a leading
// international prefix's country code the national forms lack, the last
// digits are what both forms share, so the last minDigits+3 are kept.
func digitsOf(s string) string {
	var d []byte
	for _, r := range s {
		if r >= '0' && r <= '9' {
			d = append(d, byte(r))
		}
	}
	if len(d) > minDigits+3 {
		d = d[len(d)-(minDigits+3):]
	}
	return string(d)
}

// replaceDigits replaces each run of s whose digits, read across spaces,
// dashes, dots, slashes and brackets, end with digits.
func replaceDigits(s, digits, with string) (string, bool) {
	rs := []rune(s)
	var b strings.Builder
	found := false
	last := 0
	for i := 0; i < len(rs); i++ {
		if !unicode.IsDigit(rs[i]) {
			continue
		}
		// The run of digits and separators starting at i.
		j, got := i, []rune{}
		end := i
		for j < len(rs) && (unicode.IsDigit(rs[j]) || strings.ContainsRune(" -./()+", rs[j])) {
			if unicode.IsDigit(rs[j]) {
				got = append(got, rs[j])
				end = j + 1
			}
			j++
		}
		if strings.Contains(string(got), digits) {
			if i > last && rs[i-1] == '+' {
				i-- // the international prefix goes with the number
			}
			b.WriteString(string(rs[last:i]))
			b.WriteString(with)
			last, found = end, true
		}
		i = end
	}
	if !found {
		return s, false
	}
	b.WriteString(string(rs[last:]))
	return b.String(), true
}
