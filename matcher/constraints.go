package matcher

import (
	"math"
	"net/mail"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf16"
)

// maxPattern bounds the pattern attribute the matcher compiles.
const maxPattern = 1024

// patternCache holds compiled patterns of one Match call; nil marks a
// pattern Go cannot compile.
type patternCache map[string]*regexp.Regexp

// sharedPatterns keeps compiled patterns across Match calls (forms repeat
// "\d{5}"); patterns are page content, and the cache is emptied when full.
var sharedPatterns = struct {
	sync.Mutex
	m map[string]*regexp.Regexp
}{m: map[string]*regexp.Regexp{}}

func (c patternCache) get(p string) (*regexp.Regexp, bool) {
	if re, ok := c[p]; ok {
		return re, re != nil
	}
	// Only short patterns are shared: they are the ones forms repeat, and
	// a compiled kilobyte-long pattern is too big to keep hundreds of.
	share := len(p) <= 256
	var re *regexp.Regexp
	ok := false
	if share {
		sharedPatterns.Lock()
		re, ok = sharedPatterns.m[p]
		sharedPatterns.Unlock()
	}
	if !ok {
		if len(p) <= maxPattern {
			// HTML anchors the pattern to the whole value; JS-only syntax
			// (lookarounds, backreferences) fails to compile here and
			// leaves the pattern unknown.
			re, _ = regexp.Compile("^(?:" + p + ")$")
		}
		if share {
			sharedPatterns.Lock()
			if len(sharedPatterns.m) >= maxCachedPages {
				clear(sharedPatterns.m)
			}
			sharedPatterns.m[p] = re
			sharedPatterns.Unlock()
		}
	}
	c[p] = re
	return re, re != nil
}

// check reports why v would not satisfy f's constraints ("" when it would).
func check(f *Field, v string, pc patternCache) string {
	if v == "" {
		return SkipInvalidValue
	}
	c := f.Constraints
	n := len(utf16.Encode([]rune(v)))
	if c.MaxLength > 0 && n > c.MaxLength {
		return SkipInvalidValue
	}
	if c.MinLength > 0 && n < c.MinLength {
		return SkipInvalidValue
	}
	multiline := f.InputType == "textarea" || (f.InputType == "" && f.DataType == "text")
	if !multiline && strings.ContainsAny(v, "\r\n") {
		return SkipInvalidValue
	}
	if c.Pattern != "" && !isChoice(f) {
		re, ok := pc.get(c.Pattern)
		if !ok {
			return SkipPattern
		}
		if !re.MatchString(v) {
			return SkipInvalidValue
		}
	}
	if !inputModeOK(f.InputMode, v) || !typeOK(f, v) {
		return SkipInvalidValue
	}
	return ""
}

func inputModeOK(mode, v string) bool {
	switch mode {
	case "numeric":
		return allRunes(v, func(r rune) bool { return r >= '0' && r <= '9' })
	case "decimal":
		return allRunes(v, func(r rune) bool { return r >= '0' && r <= '9' || r == '.' || r == ',' || r == '-' })
	case "tel":
		return allRunes(v, func(r rune) bool { return r >= '0' && r <= '9' || strings.ContainsRune("+*#()-. ", r) })
	case "email":
		return strings.Contains(v, "@")
	}
	return true
}

func allRunes(s string, ok func(rune) bool) bool {
	for _, r := range s {
		if !ok(r) {
			return false
		}
	}
	return true
}

func typeOK(f *Field, v string) bool {
	switch kind := valueKind(f); kind {
	case "email":
		a, err := mail.ParseAddress(v)
		return err == nil && a.Address == v && !strings.ContainsFunc(v, unicode.IsSpace)
	case "url":
		u, err := url.Parse(v)
		return err == nil && u.Scheme != "" && u.Host != ""
	case "number":
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
			return false
		}
		return numberInRange(f, x)
	case "integer":
		x, err := strconv.ParseInt(v, 10, 64)
		return err == nil && numberInRange(f, float64(x))
	case "date":
		if _, err := time.Parse("2006-01-02", v); err != nil {
			return false
		}
		return (f.Constraints.Min == "" || v >= f.Constraints.Min) && (f.Constraints.Max == "" || v <= f.Constraints.Max)
	case "month":
		if _, err := time.Parse("2006-01", v); err != nil {
			return false
		}
		return (f.Constraints.Min == "" || v >= f.Constraints.Min) && (f.Constraints.Max == "" || v <= f.Constraints.Max)
	}
	return true
}

func numberInRange(f *Field, x float64) bool {
	c := f.Constraints
	if c.Min != "" {
		if m, err := strconv.ParseFloat(c.Min, 64); err == nil && x < m {
			return false
		}
	}
	if c.Max != "" {
		if m, err := strconv.ParseFloat(c.Max, 64); err == nil && x > m {
			return false
		}
	}
	if c.Step != "" && c.Step != "any" {
		if st, err := strconv.ParseFloat(c.Step, 64); err == nil && st > 0 {
			base := 0.0
			if m, err := strconv.ParseFloat(c.Min, 64); err == nil {
				base = m
			}
			q := (x - base) / st
			if math.Abs(q-math.Round(q)) > 1e-9 {
				return false
			}
		}
	}
	return true
}

// valueKind is the value syntax a field accepts, from its HTML type or its
// Formspec dataType.
func valueKind(f *Field) string {
	switch f.InputType {
	case "email", "url", "date", "month":
		return f.InputType
	case "number", "range":
		return "number"
	}
	switch f.DataType {
	case "integer":
		return "integer"
	case "decimal", "money":
		return "number"
	case "date":
		return "date"
	case "uri":
		return "url"
	}
	return ""
}

func isChoice(f *Field) bool {
	switch f.InputType {
	case "select-one", "select-multiple", "radio":
		return true
	}
	return f.InputType == "" && (f.DataType == "choice" || f.DataType == "multiChoice") && len(f.Options) > 0
}
