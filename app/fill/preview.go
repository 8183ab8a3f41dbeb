package fill

import (
	"slices"

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

// kindOnly is fields with nothing the page chose about a value's shape:
// no options, constraints, placeholder, input mode or type, data type,
// group or hiding. Whether such a field matches, and with which confidence,
// depends on what the field asks for and on the profile holding a value of
// that kind, never on whether the value fits a list or pattern the page
// wrote (options labelled one character per word, a pattern that accepts
// only one postcode).
func kindOnly(fields []matcher.Field) []matcher.Field {
	out := slices.Clone(fields)
	for i := range out {
		f := &out[i]
		f.Options, f.Constraints, f.Placeholder, f.InputMode, f.DataType = nil, matcher.Constraints{}, "", "", ""
		f.Group, f.Hidden = "", false
		if f.InputType != "" {
			f.InputType = "text"
		}
	}
	return out
}

// presence matches p against fields stripped of everything a page chooses
// besides what the field asks for (options, constraints, placeholder, input
// type), so that what it proposes depends on the field's kind and the
// profile alone. The proposals' Values are never to be shown.
func presence(fields []matcher.Field, p *profile.UserProfile) []matcher.Proposal {
	var out []matcher.Proposal
	for _, pr := range matcher.Match(kindOnly(fields), p, matcher.Options{}) {
		if pr.Value == nil || pr.Skip != "" {
			continue
		}
		pr.Value = nil
		out = append(out, pr)
	}
	return out
}
