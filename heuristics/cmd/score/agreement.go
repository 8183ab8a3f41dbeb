package main

import (
	"regexp"
	"slices"

	"github.com/tessera-app/tessera/heuristics/internal/corpus"
)

// An Agreement says how consistently a source labels the same control: of
// the pairs of scored controls of one site that share their tag, their
// name and their id (digits aside: a page's second copy of a form numbers
// its ids anew), at least one of them labelled, how many carry the same
// label; and the ceiling it sets,
// the share of such controls labelled as most of their group is (a
// classifier that reads only what the pair shares can score no better).
// Only the tuning half and the calibration quarter are read: the untouched
// quarter stays untouched.
type Agreement struct {
	Source   string  `json:"source"`
	Pairs    int     `json:"pairs"`
	Agreeing int     `json:"agreeing"`
	Share    float64 `json:"share"`
	// Controls counts the controls in groups of two or more, and Majority
	// those labelled as most of their group is.
	Controls int     `json:"controls"`
	Majority int     `json:"majority"`
	Ceiling  float64 `json:"ceiling"`
}

// digits are the runs of digits an identifier's copies differ by.
var digits = regexp.MustCompile(`[0-9]+`)

// agreement measures each source's labelling consistency (Agreement).
func agreement(pages []*corpus.Page) []Agreement {
	type key struct{ source, site, tag, name, id string }
	groups := map[key][]string{}
	for _, p := range pages {
		if corpus.HeldOut(p.Site) && !corpus.Calibration(p.Site) {
			continue
		}
		for _, t := range p.Truths {
			if t.Index < 0 || t.Index >= len(p.Controls) {
				continue
			}
			c := p.Controls[t.Index]
			if c.Name == "" {
				continue
			}
			k := key{p.Source, p.Site, c.Tag, c.Name, digits.ReplaceAllString(c.ID, "#")}
			label := t.Token
			if label == "" {
				label = partLabel(t.Label)
			}
			groups[k] = append(groups[k], label)
		}
	}
	by := map[string]*Agreement{}
	for k, labels := range groups {
		if len(labels) < 2 {
			continue
		}
		for _, src := range []string{k.source, "all"} {
			a := by[src]
			if a == nil {
				a = &Agreement{Source: src}
				by[src] = a
			}
			for i := range labels {
				for j := i + 1; j < len(labels); j++ {
					if labels[i] == "" && labels[j] == "" {
						continue
					}
					a.Pairs++
					if labels[i] == labels[j] {
						a.Agreeing++
					}
				}
			}
			if slices.ContainsFunc(labels, func(l string) bool { return l != "" }) {
				count := map[string]int{}
				most := 0
				for _, l := range labels {
					count[l]++
					most = max(most, count[l])
				}
				a.Controls += len(labels)
				a.Majority += most
			}
		}
	}
	var out []Agreement
	for _, a := range by {
		a.Share, a.Ceiling = ratio(a.Agreeing, a.Pairs), ratio(a.Majority, a.Controls)
		out = append(out, *a)
	}
	slices.SortFunc(out, func(a, b Agreement) int { return sourceOrder(a.Source, b.Source) })
	return out
}
