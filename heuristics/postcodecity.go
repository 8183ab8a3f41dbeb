package heuristics

import (
	"slices"

	"github.com/tessera-app/tessera/form"
	"github.com/tessera-app/tessera/internal/parallel"
	"github.com/tessera-app/tessera/profile"
)

// postcodeAndCity returns the Part of a postcode box whose own words ask
// for the postcode and the town together ("Postcode / Town", "PLZ & Ort",
// "Code postal et ville"): "postal-code-and-city", or
// "city-and-postal-code" when the words name the town first, so that the
// box is filled with both ("10115 Berlin"), in the order it names them;
// "city-region-postal-code" for one that asks for the region too, in that
// order ("City, State, ZIP": "San Francisco, CA 94105").
// The first of the box's own texts (label, aria-label, placeholder) that
// names a postcode decides; one that offers a choice ("Postcode or town":
// a finder that takes either) asks for the postcode alone, and so does a
// text that names no town.
func postcodeAndCity(c *form.Control, m *memo) string {
	t := table()
	pc, city, region := ruleByID("postal-code"), ruleByID("address-level2"), ruleByID("address-level1")
	for _, s := range []string{c.Label, c.LabelElementText, c.AriaLabel, c.Placeholder} {
		if s == "" {
			continue
		}
		n := m.normalize(s)
		p := t.find(pc, n)
		if p < 0 {
			continue
		}
		q := t.find(city, n)
		r := t.find(region, n)
		switch {
		case q < 0 || alternative().MatchString(n):
			return ""
		case r >= 0:
			// A box for the town, the region and the postcode in the
			// order American, Canadian and Australian addresses write
			// them ("City, State, ZIP"): all three. In another order it
			// keeps the part the label names first.
			if q < r && r < p {
				return "city-region-postal-code"
			}
			return ""
		case p < q:
			return "postal-code-and-city"
		default:
			return "city-and-postal-code"
		}
	}
	return ""
}

// combinePostcodeCity gives the postcode boxes that ask for the town too
// (postcodeAndCity) their Part, in the forms where no box the person sees
// asks for the town alone: beside one, the label names a row of two boxes
// ("Postcode / Town" over a postcode box and a town box).
//
// A box read as the town for its label's first word ("Town / Postcode")
// is such a box too, where no box asks for the postcode alone: it takes
// the postcode's token, the value a form with one box for both checks.
func combinePostcodeCity(s *form.Snapshot, out []Result, m *memo) {
	// What each postcode or town box's own words ask (postcodeAndCity),
	// read once per box, on every core (parallel.Chunks).
	parts := make([]string, len(out))
	parallel.Chunks(len(out), controlChunk, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if r := &out[i]; (r.Token == "postal-code" || r.Token == "address-level2") && r.Part == "" {
				parts[i] = postcodeAndCity(&s.Controls[i], m)
			}
		}
	})
	if !slices.ContainsFunc(parts, func(p string) bool { return p != "" }) {
		return
	}
	shown := map[[2]int]bool{} // [form, 0] has a town box, [form, 1] a postcode box, [form, 2] a region box
	for j := range out {
		c := &s.Controls[j]
		if tok := out[j].Token; tok != "address-level2" && tok != "postal-code" && tok != "address-level1" || c.Visibility.Hidden || c.Type == "hidden" || out[j].Part != "" || parts[j] != "" {
			continue
		}
		switch out[j].Token {
		case "address-level2":
			shown[[2]int{c.FormIndex, 0}] = true
		case "postal-code":
			shown[[2]int{c.FormIndex, 1}] = true
		case "address-level1":
			shown[[2]int{c.FormIndex, 2}] = true
		}
	}
	for i := range out {
		r, part := &out[i], parts[i]
		if part == "" {
			continue
		}
		f := s.Controls[i].FormIndex
		switch {
		case part == "city-region-postal-code":
			// All three in one box, where no other box asks for any of
			// them.
			if !shown[[2]int{f, 0}] && !shown[[2]int{f, 1}] && !shown[[2]int{f, 2}] {
				r.Token, r.Part = "postal-code", part
				r.Concept, _ = profile.ConceptForToken(r.Token)
			}
		case r.Token == "postal-code" && !shown[[2]int{f, 0}]:
			r.Part = part
		case r.Token == "address-level2" && !shown[[2]int{f, 1}]:
			r.Token, r.Part = "postal-code", part
			r.Concept, _ = profile.ConceptForToken(r.Token)
		}
	}
}
