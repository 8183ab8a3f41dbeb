// Package regions holds the first-level subdivisions (states, provinces,
// prefectures, ...) of the countries Tessera knows, from one embedded
// table: ISO 3166-2 codes, common abbreviations and names. Italy and Spain
// also have their provinces, the second level, which their forms ask for. The matcher
// writes a stored region in the form a field wants; the heuristics
// recognise a select of regions by its options.
package regions

import (
	_ "embed"
	"strings"
	"sync"
)

//go:embed regions.tsv
var table string

// A Region is one first-level subdivision of a country.
type Region struct {
	// Code is the ISO 3166-2 code without the country prefix ("CA" for
	// US-CA).
	Code string
	// Abbr is the common abbreviation when it is not the code ("NSW" is
	// both; Mexico's "CDMX" is not).
	Abbr string
	// Names are the region's names, the usual one first.
	Names []string
}

// ByCountry returns the regions of every country in the table, keyed by
// ISO 3166-1 alpha-2 code. The map is shared: callers must not change it.
var ByCountry = sync.OnceValue(func() map[string][]Region {
	out := map[string][]Region{}
	for _, l := range strings.Split(table, "\n") {
		if l == "" || l[0] == '#' {
			continue
		}
		cols := strings.Split(l, "\t")
		if len(cols) < 4 {
			continue
		}
		out[cols[0]] = append(out[cols[0]], Region{Code: cols[1], Abbr: cols[2], Names: strings.Split(cols[3], "|")})
	}
	return out
})
