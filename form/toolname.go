package form

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// Chromium 156 writes these into "format" for the input types JSON Schema
// has no format for (observed in testdata/webmcp-chromium/dates.*).
var chromiumFormats = map[string]string{
	"time":           `^([01][0-9]|2[0-3]):[0-5][0-9]$`,
	"datetime-local": `^[0-9]{4}-(0[1-9]|1[0-2])-[0-9]{2}T([01][0-9]|2[0-3]):[0-5][0-9]$`,
	"month":          `^[0-9]{4}-(0[1-9]|1[0-2])$`,
	"week":           `^[0-9]{4}-W(0[1-9]|[1-4][0-9]|5[0-3])$`,
	"color":          `^#[0-9a-zA-Z]{6}$`,
}

// timeSeconds is what Chromium 156 lets a time or datetime-local format
// take after the minutes, by the control's step (observed in
// testdata/webmcp-chromium/time-step.*): seconds when a valid step is
// under 60, milliseconds too when it is under 1; nothing for the default
// step (60), "any" or an invalid step.
func timeSeconds(step string) string {
	switch s, ok := parseHTMLFloat(step); {
	case !ok || s <= 0:
		return ""
	case s < 1:
		return `(:[0-5][0-9](\.[0-9]{1,3})?)?`
	case s < 60:
		return `(:[0-5][0-9])?`
	}
	return ""
}

// chromiumDateNote is the text Chromium adds to every date parameter's
// description.
const chromiumDateNote = "Dates MUST be provided in 'YYYY-MM-DD' format."

// toolnameTool synthesises a toolname-dialect tool exactly as Chromium 156
// does: control order, disabled and readonly controls skipped, hidden inputs
// only when they carry toolparamdescription, a name shared by two
// non-groupable controls left out, and Chromium's types and descriptions.
func toolnameTool(s *Snapshot, f *Form) Tool {
	t := Tool{Name: f.Attrs["toolname"], snap: s, HasDescription: true}
	t.Description = f.Attrs["tooldescription"]
	_, t.Meta.Autosubmit = f.Attrs["toolautosubmit"]
	t.Meta.Dialect, t.Meta.Element, t.Meta.Tag = DialectToolname, f.Ref, "form"
	t.Meta.Action, t.Meta.Method = formMeta(f)

	// Every enabled, writable control with a name takes part in grouping by
	// name, even an unannotated hidden input that yields no parameter:
	// Chromium drops a name that controls of different kinds share.
	byName := map[string]*param{}
	var params []*param
	for _, i := range f.Controls {
		c := &s.Controls[i]
		if c.Name == "" || c.Disabled || (c.ReadOnly && readonlyApplies(c.Type)) {
			continue
		}
		if p := byName[c.Name]; p != nil {
			p.controls = append(p.controls, i)
			continue
		}
		p := &param{path: []string{c.Name}, controls: []int{i}, typ: c.Type}
		byName[c.Name] = p
		params = append(params, p)
	}
	buttons := map[string]bool{}
	for _, n := range f.ButtonNames {
		buttons[n] = true
	}
	var kept []*param
	for _, p := range params {
		if buttons[p.path[0]] {
			continue
		}
		first := &s.Controls[p.controls[0]]
		all := func(typ string) bool { return len(sameType(s, p.controls, typ)) == len(p.controls) }
		switch {
		case all("radio"):
			p.kind = kindRadio
		case all("checkbox"):
			p.kind = kindBool
			if len(p.controls) > 1 {
				p.kind = kindCheckboxes
			}
		case len(p.controls) > 1:
			continue
		case !fillable(first) || first.Type == "file":
			continue
		case first.Type == "hidden" && first.Attrs["toolparamdescription"] == "":
			continue
		case first.Type == "select-one":
			p.kind = kindSelect
		case first.Type == "select-multiple":
			p.kind = kindSelectMulti
		default:
			p.kind = kindScalar
			p.number = first.Type == "number" || first.Type == "range"
		}
		kept = append(kept, p)
	}
	t.InputSchema, t.params, _ = buildSchema(kept, func(p *param) (Obj, bool) { return toolnameParam(s, p) }, false, nil, f.Ref)
	return t
}

// sameType keeps the controls of type typ.
func sameType(s *Snapshot, idx []int, typ string) []int {
	var out []int
	for _, i := range idx {
		if s.Controls[i].Type == typ {
			out = append(out, i)
		}
	}
	return out
}

// chromiumDescription is a control's description: toolparamdescription,
// else its labels' text, else aria-description.
func chromiumDescription(c *Control) string {
	if d := c.Attrs["toolparamdescription"]; d != "" {
		return d
	}
	if l := joinLabels(c.LabelTexts); l != "" {
		return l
	}
	return c.AriaDescription
}

// groupDescription is the description of a radio group or checkbox set
// of several members: the toolparamdescription of the fieldset directly
// around all of them (the members' own descriptions are ignored).
func groupDescription(s *Snapshot, members []int) string {
	for _, fs := range s.Controls[members[0]].Fieldsets {
		shared := true
		for _, i := range members[1:] {
			shared = shared && slices.ContainsFunc(s.Controls[i].Fieldsets, func(o Fieldset) bool { return o.Index == fs.Index })
		}
		if shared {
			return fs.Attrs["toolparamdescription"]
		}
	}
	return ""
}

// choices is Chromium's {"type":"string","anyOf":[...],"enum":[...]}. An
// option always has a title, "" included; a radio without a label has none.
func choices(values, titles []string, emptyTitles bool) Obj {
	anyOf := []any{}
	enum := []any{}
	for i, v := range values {
		o := Obj{{"type", "string"}, {"const", v}}
		if titles[i] != "" || emptyTitles {
			o = append(o, KV{"title", titles[i]})
		}
		anyOf = append(anyOf, o)
		enum = append(enum, v)
	}
	return Obj{{"type", "string"}, {"anyOf", anyOf}, {"enum", enum}}
}

// toolnameParam is the Chromium schema of one parameter.
func toolnameParam(s *Snapshot, p *param) (Obj, bool) {
	first := &s.Controls[p.controls[0]]
	required := false
	for _, i := range p.controls {
		required = required || s.Controls[i].Constraints.Required
	}
	var o Obj
	desc := chromiumDescription(first)
	switch p.kind {
	case kindRadio, kindCheckboxes:
		var values, titles []string
		for _, i := range p.controls {
			c := &s.Controls[i]
			values = append(values, radioValue(c))
			titles = append(titles, joinLabels(c.LabelTexts))
		}
		o = choices(values, titles, false)
		if p.kind == kindCheckboxes {
			o = Obj{{"type", "array"}, {"items", o}, {"uniqueItems", true}}
		}
		if len(p.controls) > 1 {
			// A lone radio keeps its own description.
			desc = groupDescription(s, p.controls)
		}
	case kindBool:
		o = Obj{{"type", "boolean"}}
	case kindSelect, kindSelectMulti:
		var values, titles []string
		for _, opt := range first.Options {
			values = append(values, opt.Value)
			title := opt.TextContent
			if title == "" {
				title = opt.Text
			}
			titles = append(titles, title)
		}
		o = choices(values, titles, true)
		if p.kind == kindSelectMulti {
			o = Obj{{"type", "array"}, {"items", o}, {"uniqueItems", true}}
		}
	default:
		o = toolnameScalar(first, &desc)
	}
	if desc != "" {
		o = append(o, KV{"description", desc})
	}
	return o, required
}

// toolnameScalar is Chromium's schema of a text-like, number or date
// control; it may rewrite the description (dates get a format note).
func toolnameScalar(c *Control, desc *string) Obj {
	switch c.Type {
	case "number", "range":
		b := numericBounds(c)
		o := Obj{{"type", "number"}}
		if b.hasMin {
			o = append(o, KV{"minimum", b.min})
		}
		if b.hasMax {
			o = append(o, KV{"maximum", b.max})
		}
		if b.hasStep && isMultiple(b.base, b.step) {
			o = append(o, KV{"multipleOf", b.step})
		}
		return o
	case "date":
		if *desc == "" {
			*desc = chromiumDateNote
		} else {
			*desc += " (" + chromiumDateNote + ")"
		}
		return Obj{{"type", "string"}, {"format", "date"}}
	}
	if f, ok := chromiumFormats[c.Type]; ok {
		if c.Type == "time" || c.Type == "datetime-local" {
			f = strings.TrimSuffix(f, "$") + timeSeconds(c.Constraints.Step) + "$"
		}
		return Obj{{"type", "string"}, {"format", f}}
	}
	o := Obj{{"type", "string"}}
	if c.Constraints.Pattern != "" {
		o = append(o, KV{"pattern", c.Constraints.Pattern})
	}
	return o
}

// bounds are the numeric constraints of a number or range input.
type bounds struct {
	min, max, step, base    float64
	hasMin, hasMax, hasStep bool
}

// numericBounds reads min, max and step as HTML does: invalid values are
// ignored, the default step is 1, a range defaults to 0..100, and the step
// base is min, else the value attribute, else 0. Chromium 156 ignores
// step="any" on a range (observed: multipleOf 1), so only numbers honour it.
func numericBounds(c *Control) bounds {
	k := c.Constraints
	b := bounds{step: 1, hasStep: true}
	b.min, b.hasMin = parseHTMLFloat(k.Min)
	b.max, b.hasMax = parseHTMLFloat(k.Max)
	if c.Type == "range" {
		if !b.hasMin {
			b.min, b.hasMin = 0, true
		}
		if !b.hasMax {
			b.max, b.hasMax = 100, true
		}
	}
	if k.Step != "" {
		if v, ok := parseHTMLFloat(k.Step); ok && v > 0 {
			b.step = v
		} else if c.Type == "number" && asciiLower(k.Step) == "any" {
			b.hasStep = false
		}
	}
	switch v, ok := parseHTMLFloat(c.Value); {
	case b.hasMin:
		b.base = b.min
	case ok:
		b.base = v
	}
	return b
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// htmlFloatRE is HTML's "valid floating-point number".
var htmlFloatRE = lazyRE(`^-?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$`)

// parseHTMLFloat parses a valid floating-point number; anything else (and
// values beyond float64) reads as absent.
func parseHTMLFloat(s string) (float64, bool) {
	if !htmlFloatRE().MatchString(s) {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

func isWhole(v float64) bool { return v == math.Trunc(v) }

// isMultiple reports whether base is a whole multiple of step, allowing
// for binary rounding of decimal steps like 0.01.
func isMultiple(base, step float64) bool {
	r := base / step
	return math.Abs(r-math.Round(r)) < 1e-9
}
