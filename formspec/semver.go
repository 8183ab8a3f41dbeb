package formspec

import (
	"errors"
	"strconv"
	"strings"
)

// satisfies reports whether version v lies in the semver range expression
// rng: comparators (>=, <=, >, <, =, ^, ~ or none) separated by spaces are
// ANDed, alternatives separated by "||" ORed; "x" and "*" are wildcards.
// Versions compare numerically part by part (major.minor.patch), so
// calendar versions such as 2026.03.05 compare as expected; a pre-release
// or build suffix is ignored.
func satisfies(v, rng string) (bool, error) {
	if len(rng) > 256 {
		return false, errors.New("range too long")
	}
	ver, ok := parseVersion(v)
	if !ok {
		return false, errors.New("definition version is not major.minor.patch")
	}
	for _, alt := range strings.Split(rng, "||") {
		fields := strings.Fields(alt)
		if len(fields) == 0 {
			return false, errors.New("empty alternative")
		}
		all := true
		for _, c := range fields {
			ok, err := compare(ver, c)
			if err != nil {
				return false, err
			}
			all = all && ok
		}
		if all {
			return true, nil
		}
	}
	return false, nil
}

// parseVersion reads up to three numeric parts; a missing or wildcard part
// is -1.
func parseVersion(s string) ([3]int, bool) {
	out := [3]int{-1, -1, -1}
	s = strings.TrimPrefix(s, "v")
	if i := strings.IndexAny(s, "-+"); i >= 0 {
		s = s[:i]
	}
	parts := strings.Split(s, ".")
	if s == "" || len(parts) > 3 {
		return out, false
	}
	for i, p := range parts {
		if p == "x" || p == "X" || p == "*" {
			continue
		}
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || len(p) > 9 {
			return out, false
		}
		out[i] = n
	}
	return out, true
}

func cmp(a, b [3]int) int {
	for i := range 3 {
		x, y := max(a[i], 0), max(b[i], 0)
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

func compare(v [3]int, c string) (bool, error) {
	op := ""
	for _, p := range []string{">=", "<=", ">", "<", "=", "^", "~"} {
		if strings.HasPrefix(c, p) {
			op, c = p, c[len(p):]
			break
		}
	}
	w, ok := parseVersion(c)
	if !ok {
		return false, errors.New("comparator " + strconv.Quote(c) + " is not a version")
	}
	switch op {
	case ">=":
		return cmp(v, w) >= 0, nil
	case "<=":
		return cmp(v, w) <= 0, nil
	case ">":
		return cmp(v, w) > 0, nil
	case "<":
		return cmp(v, w) < 0, nil
	case "^":
		// Same leftmost non-zero part, and not below.
		if cmp(v, w) < 0 {
			return false, nil
		}
		for i := range 3 {
			if w[i] != 0 || i == 2 {
				return v[i] == max(w[i], 0) || w[i] < 0, nil
			}
			if v[i] != 0 {
				return false, nil
			}
		}
		return true, nil
	case "~":
		if cmp(v, w) < 0 {
			return false, nil
		}
		if w[1] < 0 {
			return v[0] == w[0], nil
		}
		return v[0] == w[0] && v[1] == w[1], nil
	}
	// "=" or none: equal on every part given.
	for i := range 3 {
		if w[i] >= 0 && v[i] != w[i] {
			return false, nil
		}
	}
	return true, nil
}
