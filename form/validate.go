package form

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The validator below checks tool arguments against the input schemas this
// package synthesises: the part of JSON Schema 2020-12 they use (type, enum,
// const, anyOf, minimum, maximum, multipleOf, minLength, maxLength,
// pattern, items, minItems, maxItems, uniqueItems, properties, required,
// additionalProperties). Keywords outside it are annotations, as format and
// contentEncoding are in 2020-12 by default; Plan checks the HTML value
// syntaxes itself. A general JSON Schema library compiled every draft's
// meta-schemas at init, ~5 ms and 1.7 MB on every start of the native host
// (issue 12).

// decodeJSON decodes one JSON value with numbers kept as json.Number, and
// refuses trailing data.
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}

// A validator collects the problems of one instance.
type validator struct {
	problems []ParamProblem
	patterns map[string]*regexp.Regexp
}

// schemaProblems returns one problem per keyword of schema (a decoded JSON
// object) that v fails, named by the parameter it concerns.
func schemaProblems(schema map[string]any, v any) []ParamProblem {
	c := &validator{patterns: map[string]*regexp.Regexp{}}
	c.check(schema, v, nil)
	return c.problems
}

func (c *validator) add(loc []string, reason, msg string) {
	c.problems = append(c.problems, ParamProblem{Param: paramOf(loc), Reason: reason, Message: msg})
}

// valid reports whether v satisfies s, without recording problems.
func (c *validator) valid(s map[string]any, v any) bool {
	sub := &validator{patterns: c.patterns}
	sub.check(s, v, nil)
	return len(sub.problems) == 0
}

func (c *validator) check(s map[string]any, v any, loc []string) {
	if t, ok := s["type"].(string); ok && !hasType(v, t) {
		c.add(loc, "type", fmt.Sprintf("got %s, want %s", typeName(v), t))
	}
	if e, ok := s["enum"].([]any); ok && !slices.ContainsFunc(e, func(x any) bool { return jsonEqual(x, v) }) {
		c.add(loc, "enum", "value is not one of the allowed choices")
	}
	if k, ok := s["const"]; ok && !jsonEqual(k, v) {
		c.add(loc, "enum", "value is not one of the allowed choices")
	}
	if alts, ok := s["anyOf"].([]any); ok && len(alts) > 0 && !slices.ContainsFunc(alts, func(a any) bool {
		sub, ok := a.(map[string]any)
		return ok && c.valid(sub, v)
	}) {
		c.add(loc, "enum", "value is not one of the allowed choices")
	}
	switch x := v.(type) {
	case string:
		c.checkString(s, x, loc)
	case json.Number:
		c.checkNumber(s, x, loc)
	case []any:
		c.checkArray(s, x, loc)
	case map[string]any:
		c.checkObject(s, x, loc)
	}
}

func (c *validator) checkString(s map[string]any, x string, loc []string) {
	n := utf8.RuneCountInString(x)
	if m, ok := intKeyword(s, "minLength"); ok && n < m {
		c.add(loc, "length", fmt.Sprintf("length must be >= %d, but got %d", m, n))
	}
	if m, ok := intKeyword(s, "maxLength"); ok && n > m {
		c.add(loc, "length", fmt.Sprintf("length must be <= %d, but got %d", m, n))
	}
	if p, ok := s["pattern"].(string); ok {
		re, seen := c.patterns[p]
		if !seen {
			// Page patterns are ECMAScript; one RE2 cannot compile
			// (lookaround, backreferences) is not enforced here, and the
			// page's own validation still applies on submit.
			re, _ = regexp.Compile(p)
			c.patterns[p] = re
		}
		if re != nil && !re.MatchString(x) {
			c.add(loc, "pattern", fmt.Sprintf("%q does not match pattern %q", x, p))
		}
	}
}

func (c *validator) checkNumber(s map[string]any, x json.Number, loc []string) {
	v, ok := rat(x)
	if !ok {
		for _, k := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"} {
			if _, has := s[k]; has {
				c.add(loc, "range", fmt.Sprintf("%.40s… is too large or too precise", x))
				return
			}
		}
		return
	}
	bound := func(key string, fails func(cmp int) bool, word string) {
		b, ok := ratKeyword(s, key)
		if ok && fails(v.Cmp(b)) {
			c.add(loc, "range", fmt.Sprintf("must be %s %s, but got %s", word, b.RatString(), x))
		}
	}
	bound("minimum", func(cmp int) bool { return cmp < 0 }, ">=")
	bound("maximum", func(cmp int) bool { return cmp > 0 }, "<=")
	bound("exclusiveMinimum", func(cmp int) bool { return cmp <= 0 }, ">")
	bound("exclusiveMaximum", func(cmp int) bool { return cmp >= 0 }, "<")
	if m, ok := ratKeyword(s, "multipleOf"); ok && m.Sign() > 0 {
		if q := new(big.Rat).Quo(v, m); !q.IsInt() {
			c.add(loc, "range", fmt.Sprintf("%s is not a multiple of %s", x, m.RatString()))
		}
	}
}

func (c *validator) checkArray(s map[string]any, x []any, loc []string) {
	if m, ok := intKeyword(s, "minItems"); ok && len(x) < m {
		c.add(loc, "items", fmt.Sprintf("at least %d items wanted, but got %d", m, len(x)))
	}
	if m, ok := intKeyword(s, "maxItems"); ok && len(x) > m {
		c.add(loc, "items", fmt.Sprintf("at most %d items wanted, but got %d", m, len(x)))
	}
	if u, _ := s["uniqueItems"].(bool); u {
	dup:
		for i := range x {
			for j := i + 1; j < len(x); j++ {
				if jsonEqual(x[i], x[j]) {
					c.add(loc, "duplicate", fmt.Sprintf("items at %d and %d are equal", i, j))
					break dup
				}
			}
		}
	}
	if items, ok := s["items"].(map[string]any); ok {
		for i, item := range x {
			c.check(items, item, append(slices.Clip(loc), strconv.Itoa(i)))
		}
	}
}

func (c *validator) checkObject(s map[string]any, x map[string]any, loc []string) {
	if req, ok := s["required"].([]any); ok {
		for _, r := range req {
			if name, ok := r.(string); ok {
				if _, has := x[name]; !has {
					c.add(append(slices.Clip(loc), name), "required", "missing required parameter")
				}
			}
		}
	}
	props, _ := s["properties"].(map[string]any)
	closed := s["additionalProperties"] == false
	for _, name := range sortedKeys(x) {
		sub, ok := props[name].(map[string]any)
		switch {
		case ok:
			c.check(sub, x[name], append(slices.Clip(loc), name))
		case closed:
			c.add(append(slices.Clip(loc), name), "unknown", "no such parameter")
		}
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// hasType reports whether v is of JSON Schema type t.
func hasType(v any, t string) bool {
	switch x := v.(type) {
	case nil:
		return t == "null"
	case bool:
		return t == "boolean"
	case string:
		return t == "string"
	case json.Number:
		if t == "number" {
			return true
		}
		r, ok := rat(x)
		return t == "integer" && ok && r.IsInt()
	case []any:
		return t == "array"
	case map[string]any:
		return t == "object"
	}
	return false
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// jsonEqual is JSON Schema's equality: numbers by value, arrays and objects
// member by member.
func jsonEqual(a, b any) bool {
	switch x := a.(type) {
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		rx, okx := rat(x)
		ry, oky := rat(y)
		return okx && oky && rx.Cmp(ry) == 0
	case []any:
		y, ok := b.([]any)
		return ok && slices.EqualFunc(x, y, jsonEqual)
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !jsonEqual(xv, yv) {
				return false
			}
		}
		return true
	}
	return a == b
}

// maxNumberText bounds the numbers rat reads exactly: a huge exponent
// would make big.Rat allocate without limit.
const maxNumberText = 400

// rat reads a JSON number exactly.
func rat(n json.Number) (*big.Rat, bool) {
	s := string(n)
	if len(s) > maxNumberText {
		return nil, false
	}
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		if e, err := strconv.Atoi(s[i+1:]); err != nil || e > 400 || e < -400 {
			return nil, false
		}
	}
	r, ok := new(big.Rat).SetString(s)
	return r, ok
}

func ratKeyword(s map[string]any, key string) (*big.Rat, bool) {
	n, ok := s[key].(json.Number)
	if !ok {
		return nil, false
	}
	return rat(n)
}

func intKeyword(s map[string]any, key string) (int, bool) {
	n, ok := s[key].(json.Number)
	if !ok {
		return 0, false
	}
	i, err := n.Int64()
	if err != nil {
		return 0, false
	}
	return int(i), true
}
