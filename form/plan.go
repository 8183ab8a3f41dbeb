package form

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// MaxArgsBytes caps the JSON arguments of one tool call.
const MaxArgsBytes = 1 << 20

var (
	// ErrRejected is wrapped by *Rejection: the arguments were refused
	// and nothing is to be filled.
	ErrRejected = errors.New("arguments rejected")
	// ErrSchema reports a synthesised schema the validator cannot compile.
	ErrSchema = errors.New("tool schema does not compile")
)

// A FillPlan is what an accepted tool call does to the page: the value of
// every control the arguments name. Parameters left out leave their
// controls as they are.
type FillPlan struct {
	Tool  string `json:"tool"`
	Fills []Fill `json:"fills"`
	// Navigate is the URL an <a> tool fetches.
	Navigate string `json:"navigate,omitempty"`
	// Submit reports whether the page lets the agent submit the form
	// itself (toolautosubmit); otherwise the person submits.
	Submit bool `json:"submit"`
}

// A Fill sets one control: Value for value controls and single selects
// (a file input's base64 content), Checked for checkboxes and radios,
// Selected for select[multiple], Files for input[type=file][multiple] (each
// file's base64 content).
type Fill struct {
	Ref      string   `json:"ref"`
	Index    int      `json:"index"`
	Param    string   `json:"param"`
	Value    *string  `json:"value,omitempty"`
	Checked  *bool    `json:"checked,omitempty"`
	Selected []string `json:"selected,omitempty"`
	Files    []string `json:"files,omitempty"`
}

// A Rejection refuses a whole call, naming every bad parameter.
type Rejection struct {
	Tool     string         `json:"tool"`
	Problems []ParamProblem `json:"problems"`
}

// A ParamProblem is one reason a call was refused. Reason is one of
// "arguments" (not a JSON object), "unknown", "type", "enum", "range",
// "length", "pattern", "format", "required", "duplicate", "items".
type ParamProblem struct {
	Param   string `json:"param"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// Error lists every problem of the call.
func (r *Rejection) Error() string {
	parts := make([]string, len(r.Problems))
	for i, p := range r.Problems {
		parts[i] = fmt.Sprintf("%s: %s", p.Param, p.Message)
	}
	return fmt.Sprintf("tool %q: %v: %s", r.Tool, ErrRejected, strings.Join(parts, "; "))
}

// Unwrap returns ErrRejected.
func (r *Rejection) Unwrap() error { return ErrRejected }

// schemaDoc returns the tool's input schema as the validator reads it:
// encoded and decoded again, so numbers are read from their JSON text.
func (t Tool) schemaDoc() (map[string]any, error) {
	raw, err := json.Marshal(validationSchema(t.InputSchema))
	if err != nil {
		return nil, fmt.Errorf("%w: encode: %v", ErrSchema, err)
	}
	doc, err := decodeJSON(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: decode: %v", ErrSchema, err)
	}
	m, ok := doc.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: not an object", ErrSchema)
	}
	return m, nil
}

// validationSchema returns schema with Chromium's one invalid construct
// repaired: an empty <select> gives "anyOf": [], which JSON Schema forbids
// (anyOf needs an item). Dropping it keeps the meaning, since the sibling
// "enum": [] already accepts nothing. Tools keep Chromium's exact output.
func validationSchema(schema Obj) Obj {
	out := make(Obj, 0, len(schema))
	for _, kv := range schema {
		switch v := kv.Value.(type) {
		case Obj:
			kv.Value = validationSchema(v)
		case []any:
			if kv.Key == "anyOf" && len(v) == 0 {
				continue
			}
			items := make([]any, len(v))
			for i, item := range v {
				if o, ok := item.(Obj); ok {
					item = validationSchema(o)
				}
				items[i] = item
			}
			kv.Value = items
		}
		out = append(out, kv)
	}
	return out
}

// Plan validates args (a JSON object) against the tool's schema and returns
// the fills that carry them out. Any bad parameter refuses the whole call
// with a *Rejection listing every problem; nothing is half-applied. In the
// toolname dialect, values are first coerced the way Chromium's executeTool
// does (see coerce).
func (t Tool) Plan(args json.RawMessage) (FillPlan, error) {
	reject := func(ps ...ParamProblem) (FillPlan, error) {
		return FillPlan{}, &Rejection{Tool: t.Name, Problems: ps}
	}
	if len(args) > MaxArgsBytes {
		return reject(ParamProblem{Reason: "arguments", Message: fmt.Sprintf("arguments exceed %d bytes", MaxArgsBytes)})
	}
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage("{}")
	}
	v, err := decodeJSON(args)
	if err != nil {
		return reject(ParamProblem{Reason: "arguments", Message: "arguments are not valid JSON: " + err.Error()})
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return reject(ParamProblem{Reason: "arguments", Message: "arguments must be a JSON object"})
	}
	if t.Meta.Dialect == DialectToolname {
		t.coerce(obj)
	}
	schema, err := t.schemaDoc()
	if err != nil {
		return FillPlan{}, fmt.Errorf("tool %q: %w", t.Name, err)
	}
	var problems []ParamProblem
	problems = append(problems, unknownKeys(t.InputSchema, obj, "")...)
	problems = append(problems, schemaProblems(schema, obj)...)
	problems = append(problems, t.htmlProblems(obj)...)
	if len(problems) > 0 {
		return reject(t.sortProblems(problems)...)
	}
	return t.fills(obj), nil
}

// unknownKeys reports the members of obj that schema has no property for,
// at every nesting level. It is checked here because the toolname dialect's
// schema is open (as Chromium's) while Chromium still refuses such calls.
func unknownKeys(schema Obj, obj map[string]any, prefix string) []ParamProblem {
	propsV, _ := schema.Get("properties")
	props, _ := propsV.(Obj)
	var out []ParamProblem
	for k, v := range obj {
		sub, ok := props.Get(k)
		if !ok {
			out = append(out, ParamProblem{Param: prefix + k, Reason: "unknown", Message: "no such parameter"})
			continue
		}
		if so, ok := sub.(Obj); ok {
			if typ, _ := so.Get("type"); typ == "object" {
				if m, ok := v.(map[string]any); ok {
					out = append(out, unknownKeys(so, m, prefix+k+".")...)
				}
			}
		}
	}
	return out
}

// paramOf names a parameter from an instance location, dropping array
// indexes: a bad item is a bad parameter.
func paramOf(loc []string) string {
	var parts []string
	for _, s := range loc {
		if _, err := strconv.Atoi(s); err == nil {
			break
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ".")
}

func joinParam(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

// sortProblems orders problems by parameter position, then reason, and
// drops repeats (anyOf and enum fail together on one bad choice).
func (t Tool) sortProblems(ps []ParamProblem) []ParamProblem {
	pos := map[string]int{}
	for i, p := range t.params {
		pos[p.name()] = i
	}
	rank := func(name string) int {
		if i, ok := pos[name]; ok {
			return i
		}
		return len(pos)
	}
	sort.SliceStable(ps, func(i, j int) bool {
		if ri, rj := rank(ps[i].Param), rank(ps[j].Param); ri != rj {
			return ri < rj
		}
		if ps[i].Param != ps[j].Param {
			return ps[i].Param < ps[j].Param
		}
		return ps[i].Reason < ps[j].Reason
	})
	return slices.CompactFunc(ps, func(a, b ParamProblem) bool { return a.Param == b.Param && a.Reason == b.Reason })
}

// lookup returns the argument of p, if given.
func lookup(obj map[string]any, p *param) (any, bool) {
	var cur any = obj
	for _, seg := range p.path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[seg]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// coerce applies the conversions Chromium 156's executeTool makes to
// top-level toolname arguments before it fills the form (observed with
// the browser; TestChromiumExecuteTool keeps them honest): a number or
// boolean given for a string parameter becomes its string; a string given
// for a number parameter counts when it is a valid HTML floating-point
// number; a checkbox takes true/false, "true"/"false" in any case, "1"/"0"
// and whole numbers; array items that are numbers or booleans become
// strings. Anything else is left as given and fails validation: Chromium
// refuses "on", a lone value for an array, and null.
func (t Tool) coerce(obj map[string]any) {
	for _, p := range t.params {
		name := p.path[0]
		v, ok := obj[name]
		if !ok {
			continue
		}
		switch p.kind {
		case kindBool:
			if b, ok := chromiumBool(v); ok {
				obj[name] = b
			}
		case kindCheckboxes, kindSelectMulti:
			if x, ok := v.([]any); ok {
				for i, item := range x {
					x[i] = stringify(item)
				}
			}
		default:
			if !p.number {
				obj[name] = stringify(v)
				continue
			}
			switch x := v.(type) {
			case string:
				if _, ok := parseHTMLFloat(x); ok {
					obj[name] = json.Number(x)
				}
			case json.Number:
				// Chromium writes the number into the control as text,
				// which is the value the form then validates.
				if s, ok := chromiumNumberString(x); ok {
					obj[name] = json.Number(s)
				} else {
					obj[name] = x.String()
				}
			}
		}
	}
}

// chromiumBool is the checkbox state Chromium takes from a JSON value.
func chromiumBool(v any) (checked, ok bool) {
	switch x := v.(type) {
	case bool:
		return x, true
	case json.Number:
		if n, ok := int32Value(x); ok {
			return n != 0, true
		}
	case string:
		switch asciiLower(x) {
		case "true", "1":
			return true, true
		case "false", "0":
			return false, true
		}
	}
	return false, false
}

// int32Value returns n when it is a whole number V8 keeps as an int32
// (Chromium hands those over as integers, other numbers as doubles).
func int32Value(n json.Number) (int64, bool) {
	f, err := strconv.ParseFloat(n.String(), 64)
	if err != nil || f != math.Trunc(f) || f < math.MinInt32 || f > math.MaxInt32 {
		return 0, false
	}
	return int64(f), true
}

// chromiumNumberString is the text Chromium writes for a JSON number: an
// int32 in decimal, any other finite number with six significant digits,
// trailing zeros dropped, in exponent form ("1.23457e+11", "1.00000e-7")
// below 1e-6 or from 1e6 on.
func chromiumNumberString(n json.Number) (string, bool) {
	if i, ok := int32Value(n); ok {
		return strconv.FormatInt(i, 10), true
	}
	f, err := strconv.ParseFloat(n.String(), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return "", false
	}
	e := strconv.FormatFloat(f, 'e', 5, 64)
	mant, expText, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expText)
	if exp < -6 || exp >= 6 {
		sign := "+"
		if exp < 0 {
			sign, exp = "-", -exp
		}
		return mant + "e" + sign + strconv.Itoa(exp), true
	}
	s := strconv.FormatFloat(f, 'f', 5-exp, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s, true
}

// stringify is the string Chromium makes of a scalar JSON value; other
// values are returned as they are.
func stringify(v any) any {
	switch x := v.(type) {
	case json.Number:
		if s, ok := chromiumNumberString(x); ok {
			return s
		}
	case bool:
		return strconv.FormatBool(x)
	}
	return v
}

// HTML value syntaxes: a value outside them is sanitised to "" by the
// browser, so the call would silently lose it.
var htmlValueRE = sync.OnceValue(func() map[string]*regexp.Regexp {
	return map[string]*regexp.Regexp{
		"date":           regexp.MustCompile(`^[0-9]{4,}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$`),
		"time":           regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\.[0-9]{1,3})?)?$`),
		"datetime-local": regexp.MustCompile(`^[0-9]{4,}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])[T ]([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\.[0-9]{1,3})?)?$`),
		"month":          regexp.MustCompile(`^[0-9]{4,}-(0[1-9]|1[0-2])$`),
		"week":           regexp.MustCompile(`^[0-9]{4,}-W(0[1-9]|[1-4][0-9]|5[0-3])$`),
		"color":          regexp.MustCompile(`^#[0-9a-fA-F]{6}$`),
		"email":          regexp.MustCompile(`^[a-zA-Z0-9.!#$%&'*+/=?^_{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$`),
	}
})

// htmlValueValid reports whether v is a valid value string for an input of
// type typ (types without a syntax accept anything).
func htmlValueValid(typ, v string) bool {
	re, ok := htmlValueRE()[typ]
	return !ok || re.MatchString(v)
}

// htmlValue converts a draft-dialect argument to the control's value
// syntax: JSON Schema's date-time and time carry an offset, the HTML
// controls take local time.
func htmlValue(typ, v string) string {
	switch typ {
	case "datetime-local":
		if tm, err := time.Parse(time.RFC3339Nano, v); err == nil {
			return tm.Format("2006-01-02T15:04:05")
		}
	case "time":
		if tm, err := time.Parse("15:04:05Z07:00", v); err == nil {
			return tm.Format("15:04:05")
		}
	}
	return v
}

// htmlProblems checks what the schema cannot say, as the browser's form
// validation does on submit (both dialects: a plan the page would refuse
// on submit is no plan): a required control given "" (or a required
// checkbox false), value syntaxes of date, time, color, email (each address
// of a multiple one) and url controls, the min and max of date-like
// controls and the step of number controls.
func (t Tool) htmlProblems(obj map[string]any) []ParamProblem {
	var out []ParamProblem
	for _, p := range t.params {
		v, ok := lookup(obj, p)
		if !ok {
			continue
		}
		if t.requiredEmpty(p, v) {
			// JSON Schema's required only asks for the key; the form's
			// validation, which Chromium runs, asks for a value.
			out = append(out, ParamProblem{p.name(), "required", "a required control cannot be left empty"})
			continue
		}
		var values []string
		switch x := v.(type) {
		case json.Number:
			if pr, bad := t.stepProblem(p, x); bad {
				out = append(out, pr)
			}
			continue
		case string:
			values = []string{x}
		case []any:
			if p.kind != kindRepeated {
				continue
			}
			for _, item := range x {
				if s, ok := item.(string); ok {
					values = append(values, s)
				}
			}
		default:
			continue
		}
		if p.kind != kindScalar && p.kind != kindRepeated {
			continue
		}
		minV, maxV := t.dateBounds(p)
		for _, s := range values {
			hv := s
			if t.Meta.Dialect == DialectDraft {
				hv = htmlValue(p.typ, s)
			}
			switch {
			case p.typ == "email":
				if bad, ok := t.badEmail(p, hv); ok {
					out = append(out, ParamProblem{p.name(), "format", fmt.Sprintf("%q is not a valid email address", bad)})
				}
			case !htmlValueValid(p.typ, hv):
				out = append(out, ParamProblem{p.name(), "format", fmt.Sprintf("%q is not a valid %s value", s, p.typ)})
			case p.typ == "url" && hv != "" && !absoluteURL(stripURL(hv)):
				out = append(out, ParamProblem{p.name(), "format", fmt.Sprintf("%q is not an absolute URL", s)})
			case hv == "":
			case minV != "" && hv < minV:
				out = append(out, ParamProblem{p.name(), "range", fmt.Sprintf("%q is before %s", s, minV)})
			case maxV != "" && hv > maxV:
				out = append(out, ParamProblem{p.name(), "range", fmt.Sprintf("%q is after %s", s, maxV)})
			}
		}
	}
	return out
}

// dateBounds returns the min and max of p's date-like control when valid
// in its value syntax (HTML ignores others), as the draft schema states
// them and as the browser checks them in both dialects.
func (t Tool) dateBounds(p *param) (minV, maxV string) {
	if p.minDate != "" || p.maxDate != "" || len(p.controls) == 0 {
		return p.minDate, p.maxDate
	}
	switch p.typ {
	case "date", "time", "datetime-local", "month", "week":
	default:
		return "", ""
	}
	k := t.snap.Controls[p.controls[0]].Constraints
	if htmlValueValid(p.typ, k.Min) {
		minV = k.Min
	}
	if htmlValueValid(p.typ, k.Max) {
		maxV = k.Max
	}
	return minV, maxV
}

// badEmail returns the first address of v that an email control refuses
// (typeMismatch), after the browser's value sanitization: newlines
// stripped, surrounding whitespace trimmed, and for a multiple control each
// comma-separated address trimmed. An empty value is valid.
func (t Tool) badEmail(p *param, v string) (string, bool) {
	v = stripURL(v)
	if v == "" {
		return "", false
	}
	addrs := []string{v}
	if len(p.controls) > 0 && t.snap.Controls[p.controls[0]].Multiple {
		addrs = strings.Split(v, ",")
	}
	for _, a := range addrs {
		if a = strings.Trim(a, htmlSpace); !htmlValueValid("email", a) {
			return a, true
		}
	}
	return "", false
}

// htmlSpace is HTML's ASCII whitespace.
const htmlSpace = " \t\n\f\r"

// stripURL is the value sanitization of email and url inputs: newlines
// removed, leading and trailing ASCII whitespace trimmed.
func stripURL(v string) string {
	v = strings.NewReplacer("\n", "", "\r", "").Replace(v)
	return strings.Trim(v, htmlSpace)
}

// stepProblem reports a number that is not base + a whole number of steps
// of p's number control (stepMismatch), which the schema's multipleOf
// cannot say when the step base (min, else value) is no multiple of the
// step.
func (t Tool) stepProblem(p *param, x json.Number) (ParamProblem, bool) {
	if !p.number || len(p.controls) == 0 {
		return ParamProblem{}, false
	}
	b := numericBounds(&t.snap.Controls[p.controls[0]])
	v, err := x.Float64()
	if err != nil || !b.hasStep || isMultiple(b.base, b.step) {
		return ParamProblem{}, false // a multipleOf in the schema checks it
	}
	if !isMultiple(v-b.base, b.step) {
		return ParamProblem{p.name(), "range", fmt.Sprintf("%s is not %v plus a multiple of %v", x, b.base, b.step)}, true
	}
	return ParamProblem{}, false
}

// requiredEmpty reports whether v leaves a required control of p empty:
// "" for a value control, a select or a radio group, false for a checkbox.
func (t Tool) requiredEmpty(p *param, v any) bool {
	required := false
	for _, i := range p.controls {
		// HTML ignores required on a hidden input.
		c := &t.snap.Controls[i]
		required = required || c.Constraints.Required && c.Type != "hidden"
	}
	if !required {
		return false
	}
	switch p.kind {
	case kindScalar, kindSelect, kindRadio:
		return v == ""
	case kindBool:
		return v == false
	case kindFiles:
		x, _ := v.([]any)
		return len(x) == 0
	}
	return false
}

func absoluteURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme != ""
}

// fills turns validated arguments into fills.
func (t Tool) fills(obj map[string]any) FillPlan {
	plan := FillPlan{Tool: t.Name, Fills: []Fill{}, Submit: t.Meta.Autosubmit}
	if t.href != "" {
		plan.Navigate = t.navigate(obj)
		return plan
	}
	str := func(s string) *string { return &s }
	boolean := func(b bool) *bool { return &b }
	for _, p := range t.params {
		v, ok := lookup(obj, p)
		if !ok {
			continue
		}
		fill := func(i int) Fill {
			c := &t.snap.Controls[i]
			return Fill{Ref: c.Ref, Index: c.Index, Param: p.name()}
		}
		switch p.kind {
		case kindBool:
			f := fill(p.controls[0])
			f.Checked = boolean(v == true)
			plan.Fills = append(plan.Fills, f)
		case kindRadio:
			for _, i := range p.controls {
				if radioValue(&t.snap.Controls[i]) == v {
					f := fill(i)
					f.Checked = boolean(true)
					plan.Fills = append(plan.Fills, f)
					break
				}
			}
		case kindCheckboxes:
			want := map[string]bool{}
			for _, item := range v.([]any) {
				want[item.(string)] = true
			}
			for _, i := range p.controls {
				f := fill(i)
				f.Checked = boolean(want[radioValue(&t.snap.Controls[i])])
				plan.Fills = append(plan.Fills, f)
			}
		case kindSelectMulti:
			f := fill(p.controls[0])
			f.Selected = []string{}
			for _, item := range v.([]any) {
				f.Selected = append(f.Selected, item.(string))
			}
			plan.Fills = append(plan.Fills, f)
		case kindFiles:
			f := fill(p.controls[0])
			f.Files = []string{}
			for _, item := range v.([]any) {
				f.Files = append(f.Files, item.(string))
			}
			plan.Fills = append(plan.Fills, f)
		case kindRepeated:
			items := v.([]any)
			for j, i := range p.controls {
				f := fill(i)
				val := ""
				if j < len(items) {
					val = scalarString(p, items[j], t.Meta.Dialect)
				}
				f.Value = str(val)
				plan.Fills = append(plan.Fills, f)
			}
		default:
			f := fill(p.controls[0])
			f.Value = str(scalarString(p, v, t.Meta.Dialect))
			plan.Fills = append(plan.Fills, f)
		}
	}
	return plan
}

// scalarString is the control value of a validated scalar argument.
func scalarString(p *param, v any, dialect string) string {
	switch x := v.(type) {
	case json.Number:
		return x.String()
	case string:
		if dialect == DialectDraft {
			return htmlValue(p.typ, x)
		}
		return x
	}
	return fmt.Sprint(v)
}

// navigate builds the URL of an <a> tool call: the href with the given
// query parameters replaced.
func (t Tool) navigate(obj map[string]any) string {
	u, err := url.Parse(t.href)
	if err != nil || len(obj) == 0 {
		return t.href
	}
	var parts []string
	done := map[string]bool{}
	for _, kv := range splitQuery(u.RawQuery) {
		val := kv.Value.(string)
		if v, ok := obj[kv.Key].(string); ok {
			if done[kv.Key] {
				continue
			}
			val = v
		}
		done[kv.Key] = true
		parts = append(parts, url.QueryEscape(kv.Key)+"="+url.QueryEscape(val))
	}
	u.RawQuery = strings.Join(parts, "&")
	return u.String()
}

// DefaultArgs returns the arguments that reproduce the form's current
// values: what the page would submit if nobody touched it. Empty values
// and number values that are not numbers are left out, as browsers drop
// them.
func (t Tool) DefaultArgs() json.RawMessage {
	obj := map[string]any{}
	set := func(p *param, v any) {
		m := obj
		for _, seg := range p.path[:len(p.path)-1] {
			next, ok := m[seg].(map[string]any)
			if !ok {
				next = map[string]any{}
				m[seg] = next
			}
			m = next
		}
		m[p.path[len(p.path)-1]] = v
	}
	for _, p := range t.params {
		if p.kind == kindQuery {
			continue
		}
		c := &t.snap.Controls[p.controls[0]]
		switch p.kind {
		case kindBool:
			set(p, c.Checked)
		case kindFiles:
			// A file input starts empty: its value attribute is ignored.
		case kindRadio:
			for _, i := range p.controls {
				if rc := &t.snap.Controls[i]; rc.Checked {
					set(p, radioValue(rc))
					break
				}
			}
		case kindCheckboxes:
			values := []any{}
			for _, i := range p.controls {
				if rc := &t.snap.Controls[i]; rc.Checked && !slices.Contains(values, any(radioValue(rc))) {
					values = append(values, radioValue(rc))
				}
			}
			set(p, values)
		case kindSelectMulti:
			values := []any{}
			for _, o := range c.Options {
				if o.Selected && !o.Disabled && !slices.Contains(values, any(o.Value)) {
					values = append(values, o.Value)
				}
			}
			set(p, values)
		case kindRepeated:
			var values []any
			for _, i := range p.controls {
				if v := t.snap.Controls[i].Value; v != "" {
					values = append(values, v)
				}
			}
			if len(values) > 0 {
				set(p, values)
			}
		case kindSelect:
			// A disabled option is never submitted, even when selected.
			if hasEnabledOption(c, c.Value) {
				set(p, c.Value)
			}
		default:
			if c.Value == "" || !htmlValueValid(c.Type, c.Value) {
				continue
			}
			if p.number {
				if v, ok := parseHTMLFloat(c.Value); ok {
					set(p, v)
				}
				continue
			}
			set(p, c.Value)
		}
	}
	b, _ := json.Marshal(obj)
	return b
}

func hasEnabledOption(c *Control, v string) bool {
	for _, o := range c.Options {
		if o.Value == v && !o.Disabled {
			return true
		}
	}
	return false
}
