package form

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
)

// The two declarative WebMCP dialects.
const (
	// DialectToolname is the explainer's dialect (toolname, tooldescription,
	// toolautosubmit, toolparamdescription), implemented natively by
	// Chromium. Tessera synthesises exactly what Chromium does.
	DialectToolname = "toolname"
	// DialectDraft is the tool-attrs draft (tool-name, tool-title,
	// tool-param-*, tool-elicit), synthesised after the draft's §3.
	DialectDraft = "tool-name"
)

// Errors of a tool catalog, wrapped in *ToolError values.
var (
	// ErrDuplicateTool reports two elements declaring the same tool name.
	ErrDuplicateTool = errors.New("duplicate tool name")
	// ErrInvalidToolName reports a tool name outside its dialect's
	// alphabet or length limit; the element declares no tool.
	ErrInvalidToolName = errors.New("invalid tool name")
	// ErrParamConflict reports two controls mapping to the same parameter
	// path in incompatible ways (a leaf and an object); the later one is
	// left out of the schema.
	ErrParamConflict = errors.New("conflicting parameter paths")
)

// A ToolError is one problem of a page's tool catalog. Refs name the
// elements involved (both of them for a duplicate).
type ToolError struct {
	Name string
	Refs []string
	Err  error
}

// Error names the tool, the elements and the problem.
func (e *ToolError) Error() string {
	return fmt.Sprintf("tool %q (%s): %v", e.Name, strings.Join(e.Refs, ", "), e.Err)
}

// Unwrap returns the sentinel error (ErrDuplicateTool, ...).
func (e *ToolError) Unwrap() error { return e.Err }

// lazyRE returns a function that compiles expr on its first call and
// returns the same expression on every call.
func lazyRE(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

var (
	toolnameRE = lazyRE(`^[A-Za-z0-9_.-]{1,128}$`)
	draftRE    = lazyRE(`^[A-Za-z0-9_.-]{1,64}$`)
)

// A Catalog is the set of declarative tools of one document, in document
// order (ModelContextTools lists the toolname ones by name, as Chromium's
// getTools does).
type Catalog struct {
	Tools []Tool `json:"tools"`
}

// Tool returns the tool called name.
func (c Catalog) Tool(name string) (Tool, bool) {
	for _, t := range c.Tools {
		if t.Name == name {
			return t, true
		}
	}
	return Tool{}, false
}

// A Tool is one declarative WebMCP tool as an MCP Tool object, plus the
// bindings from its parameters to the page's controls that Plan needs.
type Tool struct {
	Name        string
	Title       string
	Description string
	// HasDescription reports whether the element declared a description
	// (an empty tooldescription still makes a toolname tool).
	HasDescription bool
	InputSchema    Obj
	Annotations    *Annotations
	Meta           ToolMeta

	snap   *Snapshot
	params []*param
	href   string
	// order is the declaring element's Form.Order or ToolElement.Order.
	order int
}

// Annotations are MCP ToolAnnotations, from the draft's hint attributes.
type Annotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    bool   `json:"readOnlyHint"`
	DestructiveHint bool   `json:"destructiveHint"`
	IdempotentHint  bool   `json:"idempotentHint"`
	OpenWorldHint   bool   `json:"openWorldHint"`
}

// ToolMeta is the _meta block Tessera adds to a tool: where it comes from
// and how a call is carried out.
type ToolMeta struct {
	Dialect string `json:"dialect"`
	// Element is the declaring element's reference; Tag its tag name.
	Element string `json:"element"`
	Tag     string `json:"tag"`
	// Autosubmit reports whether the page lets an agent submit without the
	// person pressing submit (toolname dialect's toolautosubmit).
	Autosubmit bool `json:"autosubmit"`
	// Elicit lists the parameters (dotted paths) that must be confirmed or
	// entered by the person (draft dialect's tool-elicit).
	Elicit []string `json:"elicit,omitempty"`
	Action string   `json:"action,omitempty"`
	Method string   `json:"method,omitempty"`
}

// MarshalJSON writes the MCP Tool object with its _meta block.
func (t Tool) MarshalJSON() ([]byte, error) {
	var desc *string
	if t.HasDescription {
		desc = &t.Description
	}
	return marshalNoEscape(struct {
		Name        string       `json:"name"`
		Title       string       `json:"title,omitempty"`
		Description *string      `json:"description,omitempty"`
		InputSchema Obj          `json:"inputSchema"`
		Annotations *Annotations `json:"annotations,omitempty"`
		Meta        ToolMeta     `json:"_meta"`
	}{t.Name, t.Title, desc, t.InputSchema, t.Annotations, t.Meta})
}

// Tools discovers the declarative tools of a snapshot in both dialects and
// synthesises their schemas. The catalog holds every valid tool (the first
// of duplicates) in document order across <form>, <a> and <button>, a form's
// toolname tool before its tool-* tool; the error, when not nil, joins a
// *ToolError for every duplicate or invalid name, in document order too.
//
// Toolname forms claim their names before any tool-* declaration, so that a
// draft tool never hides a tool Chromium lists.
func Tools(s *Snapshot) (Catalog, error) {
	var tools []Tool
	var errs []error
	seen := map[string]string{}
	add := func(t Tool, order int) {
		if first, dup := seen[t.Name]; dup {
			errs = append(errs, &ToolError{Name: t.Name, Refs: []string{first, t.Meta.Element}, Err: ErrDuplicateTool})
			return
		}
		seen[t.Name] = t.Meta.Element
		t.order = order
		tools = append(tools, t)
	}
	for i := range s.Forms {
		f := &s.Forms[i]
		if name, ok := f.Attrs["toolname"]; ok && name != "" {
			if _, hasDesc := f.Attrs["tooldescription"]; hasDesc {
				if !toolnameRE().MatchString(name) {
					errs = append(errs, &ToolError{Name: name, Refs: []string{f.Ref}, Err: ErrInvalidToolName})
				} else {
					add(toolnameTool(s, f), f.Order)
				}
			}
		}
	}
	// The tool-* declarations in document order: forms and elements merged
	// by their Order.
	fi, ei := 0, 0
	for fi < len(s.Forms) || ei < len(s.Tools) {
		if ei == len(s.Tools) || fi < len(s.Forms) && s.Forms[fi].Order < s.Tools[ei].Order {
			f := &s.Forms[fi]
			fi++
			name, ok := f.Attrs["tool-name"]
			if !ok {
				continue
			}
			if !draftRE().MatchString(name) {
				errs = append(errs, &ToolError{Name: name, Refs: []string{f.Ref}, Err: ErrInvalidToolName})
				continue
			}
			t, perrs := draftFormTool(s, f)
			errs = append(errs, perrs...)
			add(t, f.Order)
			continue
		}
		e := &s.Tools[ei]
		ei++
		name := e.Attrs["tool-name"]
		if !draftRE().MatchString(name) {
			errs = append(errs, &ToolError{Name: name, Refs: []string{e.Ref}, Err: ErrInvalidToolName})
			continue
		}
		add(draftElementTool(s, e), e.Order)
	}
	sort.SliceStable(tools, func(i, j int) bool { return tools[i].order < tools[j].order })
	return Catalog{Tools: tools}, errors.Join(errs...)
}

// A ModelContextTool is a toolname-dialect tool exactly as Chromium's
// document.modelContext.getTools() and the CDP WebMCP domain report it.
type ModelContextTool struct {
	Name        string                   `json:"name"`
	Title       string                   `json:"title"`
	Description string                   `json:"description"`
	InputSchema Obj                      `json:"inputSchema"`
	Annotations *ModelContextAnnotations `json:"annotations,omitempty"`
}

// ModelContextAnnotations are the annotations of Chromium's CDP WebMCP
// tools; Chromium reports them only for autosubmit tools.
type ModelContextAnnotations struct {
	ReadOnly         bool `json:"readOnly"`
	UntrustedContent bool `json:"untrustedContent"`
	Consequential    bool `json:"consequential"`
	Debugging        bool `json:"debugging"`
	Autosubmit       bool `json:"autosubmit"`
}

// ModelContextTools returns the toolname-dialect tools of s as Chromium 156
// lists them: sorted by name, duplicates and invalid names silently dropped.
func ModelContextTools(s *Snapshot) []ModelContextTool {
	cat, _ := Tools(s)
	slices.SortStableFunc(cat.Tools, func(a, b Tool) int { return strings.Compare(a.Name, b.Name) })
	out := []ModelContextTool{}
	for _, t := range cat.Tools {
		if t.Meta.Dialect != DialectToolname {
			continue
		}
		m := ModelContextTool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema}
		if t.Meta.Autosubmit {
			m.Annotations = &ModelContextAnnotations{Autosubmit: true}
		}
		out = append(out, m)
	}
	return out
}

// marshalNoEscape encodes v as JSON without escaping <, > and &, which
// descriptions and patterns contain verbatim.
func marshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// An Obj is a JSON object that keeps its keys in insertion order, so that
// schemas list parameters in control order as Chromium does.
type Obj []KV

// A KV is one member of an Obj.
type KV struct {
	Key   string
	Value any
}

// Get returns the value of key.
func (o Obj) Get(key string) (any, bool) {
	for _, kv := range o {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return nil, false
}

// MarshalJSON writes the members in order.
func (o Obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, kv := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := marshalNoEscape(kv.Key)
		if err != nil {
			return nil, err
		}
		v, err := marshalNoEscape(kv.Value)
		if err != nil {
			return nil, fmt.Errorf("member %q: %w", kv.Key, err)
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// paramKind says how a parameter's value reaches its controls.
type paramKind int

const (
	kindScalar      paramKind = iota // one text-like, number, date... control
	kindBool                         // one checkbox
	kindRadio                        // a radio group: a value selects one radio
	kindCheckboxes                   // same-name checkboxes: an array of values
	kindSelect                       // a single select
	kindSelectMulti                  // a select[multiple]: an array of values
	kindRepeated                     // same-name scalar controls: an array
	kindFiles                        // an input[type=file][multiple]: an array of contents
	kindQuery                        // a query parameter of an <a> tool's href
)

// A param binds one schema property to the controls it fills.
type param struct {
	path     []string
	kind     paramKind
	controls []int
	typ      string // the controls' Type
	number   bool   // the JSON value is a number
	// minDate and maxDate bound date-like values (draft dialect).
	minDate, maxDate string
}

func (p *param) name() string { return strings.Join(p.path, ".") }

// fillable reports whether a control can take a value at all: buttons have
// no value to fill and disabled controls are never submitted.
func fillable(c *Control) bool {
	switch c.Type {
	case "submit", "reset", "button", "image":
		return false
	}
	return c.Name != "" && !c.Disabled
}

// readonlyApplies reports whether the readonly attribute has an effect on
// a control of type typ (HTML ignores it on the others).
func readonlyApplies(typ string) bool {
	switch typ {
	case "text", "search", "url", "tel", "email", "password", "date", "month",
		"week", "time", "datetime-local", "number", "textarea":
		return true
	}
	return false
}

// joinLabels joins the non-empty label texts as Chromium does.
func joinLabels(texts []string) string {
	var parts []string
	for _, t := range texts {
		if t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, "; ")
}

// formMeta fills the action and method of a form tool.
func formMeta(f *Form) (action, method string) {
	method = f.Method
	if method == "" {
		method = "get"
	}
	return f.Action, strings.ToUpper(method)
}

// buildSchema turns bound parameters into the object schema, nesting
// dotted paths. leaf gives each parameter's own schema and whether it is
// required; closed adds additionalProperties:false to every object.
func buildSchema(params []*param, leaf func(*param) (Obj, bool), closed bool, groups map[string]Obj, ref string) (Obj, []*param, []error) {
	type node struct {
		props    []string
		children map[string]*node
		leaves   map[string]Obj
		required []string
		path     string
	}
	newNode := func(path string) *node {
		return &node{children: map[string]*node{}, leaves: map[string]Obj{}, path: path}
	}
	root := newNode("")
	var kept []*param
	var errs []error
	for _, p := range params {
		schema, req := leaf(p)
		n := root
		ok := true
		for i, seg := range p.path[:len(p.path)-1] {
			if _, isLeaf := n.leaves[seg]; isLeaf {
				ok = false
				break
			}
			child := n.children[seg]
			if child == nil {
				child = newNode(strings.Join(p.path[:i+1], "."))
				n.children[seg] = child
				n.props = append(n.props, seg)
			}
			n = child
		}
		last := p.path[len(p.path)-1]
		if _, isObj := n.children[last]; isObj || !ok {
			ok = false
		}
		if _, dup := n.leaves[last]; dup {
			ok = false
		}
		if !ok {
			errs = append(errs, &ToolError{Name: p.name(), Refs: []string{ref}, Err: ErrParamConflict})
			continue
		}
		n.leaves[last] = schema
		n.props = append(n.props, last)
		if req {
			n.required = append(n.required, last)
		}
		kept = append(kept, p)
	}
	var render func(n *node) (Obj, bool)
	render = func(n *node) (Obj, bool) {
		props := Obj{}
		required := append([]string{}, n.required...)
		for _, k := range n.props {
			if s, ok := n.leaves[k]; ok {
				props = append(props, KV{k, s})
				continue
			}
			child, req := render(n.children[k])
			props = append(props, KV{k, child})
			if req {
				required = append(required, k)
			}
		}
		o := Obj{{"type", "object"}}
		if closed {
			o = append(o, KV{"additionalProperties", false})
		}
		o = append(o, KV{"properties", props})
		if len(required) > 0 || !closed {
			o = append(o, KV{"required", required})
		}
		if g, ok := groups[n.path]; ok && n.path != "" {
			o = append(o, g...)
		}
		return o, len(required) > 0
	}
	o, _ := render(root)
	return o, kept, errs
}

// draftFormTool synthesises a draft-dialect form tool per the draft's §3.
func draftFormTool(s *Snapshot, f *Form) (Tool, []error) {
	t := Tool{Name: f.Attrs["tool-name"], snap: s}
	t.Title = f.Attrs["tool-title"]
	t.Description, t.HasDescription = f.Attrs["tool-description"]
	t.Annotations = draftAnnotations(f.Attrs)
	t.Meta = ToolMeta{Dialect: DialectDraft, Element: f.Ref, Tag: "form"}
	t.Meta.Action, t.Meta.Method = formMeta(f)

	// Group the controls by parameter path, keeping the first control's
	// position: a radio group or a repeated name is one parameter.
	byPath := map[string]*param{}
	var params []*param
	groups := map[string]Obj{}
	for _, i := range f.Controls {
		c := &s.Controls[i]
		if !fillable(c) {
			continue
		}
		var path []string
		for j := len(c.Fieldsets) - 1; j >= 0; j-- {
			fs := c.Fieldsets[j]
			if fs.Name == "" {
				continue
			}
			path = append(path, strings.Split(fs.Name, ".")...)
			key := strings.Join(path, ".")
			if _, ok := groups[key]; !ok {
				var g Obj
				if v := fs.Attrs["tool-param-title"]; v != "" {
					g = append(g, KV{"title", v})
				}
				if v := fs.Attrs["tool-param-description"]; v != "" {
					g = append(g, KV{"description", v})
				}
				groups[key] = g
			}
		}
		path = append(path, strings.Split(c.Name, ".")...)
		key := strings.Join(path, "\x00")
		if p := byPath[key]; p != nil {
			p.controls = append(p.controls, i)
			continue
		}
		p := &param{path: path, controls: []int{i}, typ: c.Type}
		byPath[key] = p
		params = append(params, p)
	}
	for _, p := range params {
		first := &s.Controls[p.controls[0]]
		switch {
		case first.Type == "radio":
			p.kind = kindRadio
		case first.Type == "checkbox" && len(p.controls) == 1:
			p.kind = kindBool
		case first.Type == "checkbox":
			p.kind = kindCheckboxes
		case first.Type == "select-multiple":
			p.kind = kindSelectMulti
		case first.Type == "file" && first.Multiple && len(p.controls) == 1:
			p.kind = kindFiles
		case first.Type == "select-one" && len(p.controls) == 1:
			p.kind = kindSelect
		case len(p.controls) > 1:
			p.kind = kindRepeated
		default:
			p.kind = kindScalar
		}
		for _, i := range p.controls {
			c := &s.Controls[i]
			interactive := c.Type != "hidden" && !c.Disabled && !(c.ReadOnly && readonlyApplies(c.Type))
			if _, ok := c.Attrs["tool-elicit"]; ok && interactive {
				t.Meta.Elicit = append(t.Meta.Elicit, p.name())
				break
			}
		}
	}
	schema, kept, errs := buildSchema(params, func(p *param) (Obj, bool) { return draftParam(s, p) }, true, groups, f.Ref)
	t.InputSchema, t.params = schema, kept
	return t, errs
}

// draftAnnotations maps the draft's hint attributes to MCP annotations.
func draftAnnotations(attrs map[string]string) *Annotations {
	flag := func(name string, def bool) bool {
		v, ok := attrs[name]
		if !ok {
			return def
		}
		return !strings.EqualFold(strings.TrimSpace(v), "false")
	}
	return &Annotations{
		Title:           attrs["tool-title"],
		ReadOnlyHint:    flag("tool-readonly", false),
		DestructiveHint: flag("tool-destructive", false),
		IdempotentHint:  flag("tool-idempotent", false),
		OpenWorldHint:   flag("tool-openworld", true),
	}
}

// draftParam returns the schema of one draft-dialect parameter and whether
// it is required.
func draftParam(s *Snapshot, p *param) (Obj, bool) {
	first := &s.Controls[p.controls[0]]
	required := false
	var title, desc string
	for _, i := range p.controls {
		c := &s.Controls[i]
		// HTML ignores required on a hidden input (it is barred from
		// constraint validation): the page would submit without it.
		required = required || c.Constraints.Required && c.Type != "hidden"
		if title == "" {
			title = c.Attrs["tool-param-title"]
		}
		if desc == "" {
			desc = c.Attrs["tool-param-description"]
		}
	}
	// A label names an input; a select's or radio group's choices speak
	// through its enum (the draft's TL;DR gives its labelled select no
	// description).
	if desc == "" && p.kind != kindSelect && p.kind != kindSelectMulti && p.kind != kindRadio {
		desc = first.LabelElementText
	}
	var o Obj
	switch p.kind {
	case kindRadio, kindCheckboxes:
		var values []any
		for _, i := range p.controls {
			values = appendUnique(values, radioValue(&s.Controls[i]))
		}
		o = Obj{{"type", "string"}, {"enum", values}}
		if p.kind == kindCheckboxes {
			o = Obj{{"type", "array"}, {"items", o}, {"uniqueItems", true}}
		}
	case kindBool:
		o = Obj{{"type", "boolean"}}
	case kindSelect, kindSelectMulti:
		values := []any{}
		for _, opt := range first.Options {
			if !opt.Disabled {
				values = appendUnique(values, opt.Value)
			}
		}
		o = Obj{{"type", "string"}, {"enum", values}}
		if p.kind == kindSelectMulti {
			o = Obj{{"type", "array"}, {"items", o}, {"uniqueItems", true}}
		}
	case kindRepeated:
		o = Obj{{"type", "array"}, {"items", draftScalar(first, p)}, {"maxItems", len(p.controls)}}
	case kindFiles:
		// One file's content per item, as the draft gives a single file.
		o = Obj{{"type", "array"}, {"items", draftScalar(first, p)}}
	default:
		o = draftScalar(first, p)
	}
	if title != "" {
		o = append(o, KV{"title", title})
	}
	if desc != "" {
		o = append(o, KV{"description", desc})
	}
	return o, required
}

func appendUnique(values []any, v string) []any {
	for _, have := range values {
		if have == v {
			return values
		}
	}
	return append(values, v)
}

// radioValue is the value a checked radio or checkbox submits.
func radioValue(c *Control) string {
	if len(c.Options) > 0 {
		return c.Options[0].Value
	}
	return "on"
}

// draftScalar is the draft's §3 schema of one value-bearing control.
func draftScalar(c *Control, p *param) Obj {
	o := Obj{{"type", "string"}}
	k := c.Constraints
	switch c.Type {
	case "email":
		o = append(o, KV{"format", "email"})
	case "url":
		o = append(o, KV{"format", "uri"})
	case "date", "datetime-local", "time":
		o = append(o, KV{"format", map[string]string{"date": "date", "datetime-local": "date-time", "time": "time"}[c.Type]})
		// JSON Schema's minimum/maximum only apply to numbers, so date bounds
		// use the formatMinimum/formatMaximum keywords (and Plan checks them).
		if htmlValueValid(c.Type, k.Min) {
			o = append(o, KV{"formatMinimum", k.Min})
			p.minDate = k.Min
		}
		if htmlValueValid(c.Type, k.Max) {
			o = append(o, KV{"formatMaximum", k.Max})
			p.maxDate = k.Max
		}
		return o
	case "file":
		return append(o, KV{"contentEncoding", "base64"})
	case "number", "range":
		return draftNumber(c, p)
	}
	if k.MinLength > 0 {
		o = append(o, KV{"minLength", k.MinLength})
	}
	if k.MaxLength > 0 {
		o = append(o, KV{"maxLength", k.MaxLength})
	}
	if k.Pattern != "" {
		// HTML anchors the pattern to the whole value; JSON Schema does not.
		o = append(o, KV{"pattern", "^(?:" + k.Pattern + ")$"})
	}
	return o
}

// draftNumber is the schema of a number or range input: integer when the
// step (explicit or the default 1) and the step base are whole, or when
// tool-param-type says so.
func draftNumber(c *Control, p *param) Obj {
	p.number = true
	b := numericBounds(c)
	integer := b.hasStep && isWhole(b.step) && isWhole(b.base)
	switch strings.ToLower(strings.TrimSpace(c.Attrs["tool-param-type"])) {
	case "integer":
		integer = true
	case "number":
		integer = false
	}
	typ := "number"
	if integer {
		typ = "integer"
	}
	o := Obj{{"type", typ}}
	if b.hasMin {
		o = append(o, KV{"minimum", b.min})
	}
	if b.hasMax {
		o = append(o, KV{"maximum", b.max})
	}
	if b.hasStep && isMultiple(b.base, b.step) && !(integer && b.step == 1) {
		o = append(o, KV{"multipleOf", b.step})
	}
	return o
}

// draftElementTool synthesises an <a> or <button> tool.
func draftElementTool(s *Snapshot, e *ToolElement) Tool {
	t := Tool{Name: e.Attrs["tool-name"], snap: s}
	t.Title = e.Attrs["tool-title"]
	t.Description, t.HasDescription = e.Attrs["tool-description"]
	t.Annotations = draftAnnotations(e.Attrs)
	t.Meta = ToolMeta{Dialect: DialectDraft, Element: e.Ref, Tag: e.Tag}
	props := Obj{}
	switch e.Tag {
	case "a":
		t.href = e.Href
		t.Meta.Action, t.Meta.Method = e.Href, "GET"
		// The href's query parameters are the call's defaults; an agent may
		// override them but add none.
		if u, err := url.Parse(e.Href); err == nil {
			for _, kv := range splitQuery(u.RawQuery) {
				if _, dup := props.Get(kv.Key); dup {
					continue
				}
				props = append(props, KV{kv.Key, Obj{{"type", "string"}, {"default", kv.Value}}})
				t.params = append(t.params, &param{path: []string{kv.Key}, kind: kindQuery})
			}
		}
	case "button":
		if e.FormIndex >= 0 {
			t.Meta.Action, t.Meta.Method = formMeta(&s.Forms[e.FormIndex])
		}
		if e.FormAction != "" {
			t.Meta.Action = e.FormAction
		}
		if e.FormMethod != "" {
			t.Meta.Method = strings.ToUpper(e.FormMethod)
		}
	}
	t.InputSchema = Obj{{"type", "object"}, {"additionalProperties", false}, {"properties", props}}
	return t
}

// splitQuery splits a raw query into its decoded pairs, in order.
func splitQuery(raw string) []KV {
	var out []KV
	for _, part := range strings.Split(raw, "&") {
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		dk, err1 := url.QueryUnescape(k)
		dv, err2 := url.QueryUnescape(v)
		if err1 != nil || err2 != nil || dk == "" {
			continue
		}
		out = append(out, KV{dk, dv})
	}
	return out
}
