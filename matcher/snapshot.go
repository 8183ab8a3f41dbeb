package matcher

import (
	"strconv"

	"github.com/tessera-app/tessera/form"
	"github.com/tessera-app/tessera/heuristics"
)

// FieldsFromSnapshot turns the controls of an HTML snapshot and their
// heuristic classification (cls[i] for s.Controls[i], as heuristics.Classify
// returns; may be nil) into matcher fields, one per control, in control
// order. A valid autocomplete token becomes autocomplete evidence; a
// classification that did not come from that token becomes heuristic
// evidence with the classifier's confidence.
func FieldsFromSnapshot(s *form.Snapshot, cls []heuristics.Result) []Field {
	if s == nil {
		return nil
	}
	out := make([]Field, len(s.Controls))
	for i := range s.Controls {
		c := &s.Controls[i]
		f := Field{
			Index:       c.Index,
			Path:        c.Name,
			Label:       c.Label,
			InputType:   c.Type,
			Placeholder: c.Placeholder,
			Constraints: Constraints{
				Pattern: c.Constraints.Pattern, Min: c.Constraints.Min, Max: c.Constraints.Max, Step: c.Constraints.Step,
				MinLength: c.Constraints.MinLength, MaxLength: c.Constraints.MaxLength,
			},
			ReadOnly:  c.ReadOnly,
			Disabled:  c.Disabled,
			Hidden:    c.Visibility.Hidden,
			InputMode: c.InputMode,
			Lang:      s.Lang,
		}
		if f.Path == "" {
			f.Path = c.ID
		}
		// A Formspec renderer names the field path in data-name.
		if p := c.Attrs["data-name"]; p != "" {
			f.Path = p
		}
		if f.Label == "" {
			f.Label = c.AriaLabel
		}
		for _, o := range c.Options {
			text := o.Text
			if text == "" {
				text = o.Label
			}
			f.Options = append(f.Options, Option{Value: o.Value, Text: text, Disabled: o.Disabled})
		}
		if c.Type == "radio" {
			f.Group = strconv.Itoa(c.FormIndex) + "\x00" + c.Name
		}
		tok := ""
		if ai := c.AutocompleteInfo; ai != nil && !ai.Off && ai.Field != "" {
			if concept, ok := heuristics.ConceptForToken(ai.Field); ok {
				tok = ai.Field
				f.Evidence = append(f.Evidence, Evidence{Kind: EvidenceAutocomplete, Concept: concept, Token: tok})
			}
		}
		if i < len(cls) {
			if r := cls[i]; r.Concept != "" && r.Token != tok {
				f.Evidence = append(f.Evidence, Evidence{Kind: EvidenceHeuristic, Concept: r.Concept, Token: r.Token, Strength: r.Confidence})
			}
			if r := cls[i]; r.Part != "" && f.Part == "" {
				f.Part = r.Part
			}
		}
		out[i] = f
	}
	return out
}
