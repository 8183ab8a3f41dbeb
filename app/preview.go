package app

import (
	"slices"
	"strings"
	"unicode"

	"github.com/tessera-app/tessera/matcher"
	"github.com/tessera-app/tessera/profile"
)

// What a preview is (SECURITY.md). Before the person approves, a page or an
// agent may learn which fields the profile has a value for, by the kind of
// value the field asks for: never a value, a character of one, its length
// or its shape. Whether a value is offered must not depend on anything the
// asker chooses beyond the field's kind either: a select whose options are
// the dates of one year, or a pattern that only one postcode satisfies,
// would otherwise answer "is the birth date among these?" one question per
// call. Only the person's eyes, in the app's window, see values before a
// release.

// presence matches p against fields stripped of everything a page chooses
// besides what the field asks for (options, constraints, placeholder, input
// type), so that what it proposes depends on the field's kind and the
// profile alone. The proposals' Values are never to be shown.
func presence(fields []matcher.Field, p *profile.UserProfile) []matcher.Proposal {
	bare := slices.Clone(fields)
	for i := range bare {
		f := &bare[i]
		f.Options, f.Constraints, f.Placeholder, f.InputMode = nil, matcher.Constraints{}, "", ""
		f.Group, f.Hidden = "", false
		if f.InputType != "" {
			f.InputType = "text"
		}
		if f.DataType != "" {
			f.DataType = "string"
		}
	}
	var out []matcher.Proposal
	for _, pr := range matcher.Match(bare, p, matcher.Options{}) {
		if pr.Value == nil || pr.Skip != "" {
			continue
		}
		pr.Value = nil
		out = append(out, pr)
	}
	return out
}

// mask is the first character of each word and its length ("Ada" → "A••").
// It is an oracle when the asker chooses the text (issue 23): formspec.match
// is being moved off it.
func mask(v string) string {
	var b strings.Builder
	start := true
	for _, r := range v {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if start {
				b.WriteRune(r)
			} else {
				b.WriteRune('•')
			}
			start = false
		default:
			b.WriteRune(r)
			start = true
		}
	}
	return b.String()
}
