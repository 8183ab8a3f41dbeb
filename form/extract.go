package form

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/tessera-app/tessera/internal/parallel"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Default limits of Extract; ExtractOptions may override them.
const (
	DefaultMaxBytes    = 8 << 20
	DefaultMaxControls = 20000
	DefaultMaxDepth    = 512
)

// Errors returned (wrapped) by Extract for input beyond its limits.
var (
	// ErrTooLarge reports an HTML document longer than the byte limit.
	ErrTooLarge = errors.New("html document too large")
	// ErrTooManyControls reports a document with more controls than allowed.
	ErrTooManyControls = errors.New("too many form controls")
	// ErrTooDeep reports an element tree nested deeper than allowed.
	ErrTooDeep = errors.New("html nesting too deep")
)

// ExtractOptions configures Extract. Zero values select the defaults.
type ExtractOptions struct {
	// URL is recorded as Snapshot.URL.
	URL string
	// Frame is recorded as Control.Frame of every control.
	Frame string
	// StampNonce, when set, is the nonce of the extension's snapshot: only
	// data-tessera-ref and data-tessera-hidden values of the form
	// "<nonce>:<ref>" and "<nonce>:<reason>" are honoured (the nonce is
	// removed). A page cannot know the nonce, so it cannot forge a stamp; a
	// control without a valid stamp is hidden for the reason "unmeasured".
	StampNonce string
	// MaxBytes caps the input size (DefaultMaxBytes when 0).
	MaxBytes int64
	// MaxControls caps the number of controls (DefaultMaxControls when 0).
	MaxControls int
	// MaxDepth caps the element nesting depth (DefaultMaxDepth when 0).
	MaxDepth int
	// LiveDOM reports that the input is the extension's serialisation of a
	// live document with scripting on. There <noscript> holds text, not
	// elements, so controls re-parsed from it are not counted; for a static
	// page they are (a browser without scripts shows them, and the labelled
	// corpora count them).
	LiveDOM bool
}

// maxIndexHint caps the sizes Extract guesses for its maps.
const maxIndexHint = 1 << 14

// maxLabelRunes bounds inferred label texts: a label is a phrase, and a
// whole paragraph picked up as "nearby text" only adds noise downstream.
const maxLabelRunes = 200

// Extract parses an HTML document (a static page, or the live DOM serialised
// by the extension with data-tessera-* stamps and open shadow roots as
// <template shadowrootmode="open">) into a Snapshot. Input beyond the limits
// of opts yields an error wrapping ErrTooLarge, ErrTooManyControls or
// ErrTooDeep; any other malformed HTML is parsed as a browser would.
func Extract(r io.Reader, opts ExtractOptions) (*Snapshot, error) {
	maxBytes := opts.MaxBytes
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	maxControls := opts.MaxControls
	if maxControls <= 0 {
		maxControls = DefaultMaxControls
	}
	maxDepth := opts.MaxDepth
	if maxDepth <= 0 {
		maxDepth = DefaultMaxDepth
	}
	var buf bytes.Buffer
	if l, ok := r.(interface{ Len() int }); ok {
		// A bytes or strings reader says how much is coming: one
		// allocation instead of growing by doubling.
		buf.Grow(int(min(int64(l.Len()), maxBytes)) + 1)
	}
	if _, err := buf.ReadFrom(io.LimitReader(r, maxBytes+1)); err != nil {
		return nil, fmt.Errorf("extract: read html: %w", err)
	}
	data := buf.Bytes()
	if int64(len(data)) > maxBytes {
		return nil, fmt.Errorf("extract: %w (limit %d bytes)", ErrTooLarge, maxBytes)
	}
	if !utf8.Valid(data) {
		// A browser's decoder turns each byte that is not UTF-8 into
		// U+FFFD before any name or value reaches the DOM; doing the same
		// keeps every name and option value a string JSON can carry, so
		// tool parameters can be named by arguments and what is planned
		// for a control matches it back (regression: a control named
		// "\xff" gave a parameter no argument could match, found by
		// FuzzTools).
		data = []byte(string([]rune(string(data))))
	}
	// Parsing as a browser with scripting disabled makes <noscript> content
	// elements: the controls inside count, as in the labelled corpora and in
	// what a person without scripts sees.
	doc, err := html.ParseWithOptions(bytes.NewReader(closeStraySelects(data)), html.ParseOptionEnableScripting(false))
	if err != nil {
		return nil, fmt.Errorf("extract: parse html: %w", err)
	}
	sv := survey(doc, maxDepth)
	if sv.depth > maxDepth {
		return nil, fmt.Errorf("extract: %w (limit %d)", ErrTooDeep, maxDepth)
	}
	x := &extractor{
		snap:        &Snapshot{URL: opts.URL, Forms: []Form{}, Controls: []Control{}},
		frame:       opts.Frame,
		nonce:       opts.StampNonce,
		live:        opts.LiveDOM,
		maxControls: maxControls,
		formIndex:   map[*html.Node]int{},
		scopes:      map[*html.Node]*scope{},
		texts:       nodeCache[string]{m: map[*html.Node]string{}},
		sets:        nodeCache[Fieldset]{m: map[*html.Node]Fieldset{}},
		headingForm: -1,
	}
	// The document's maps are sized from the survey's counts (capped):
	// growing them entry by entry rehashed them over and over on big
	// pages.
	ids := min(sv.ids, maxIndexHint)
	labels := min(sv.labels, maxIndexHint)
	x.scopes[doc] = newScope(ids, labels)
	x.order = make(map[*html.Node]int, labels+min(sv.fieldsets, maxIndexHint))
	x.index(doc, doc)
	// One allocation for every control the walk will find (controls are
	// large: growing the slice by doubling copied them over and over).
	x.snap.Controls = make([]Control, 0, min(x.controls, maxControls))
	x.unfinished = make([]unfinished, 0, cap(x.snap.Controls))
	if err := x.walk(doc, doc); err != nil {
		return nil, fmt.Errorf("extract: %w", err)
	}
	x.finish()
	for _, b := range x.buttons {
		f := &x.snap.Forms[b.form]
		f.ButtonNames = append(f.ButtonNames, b.name)
	}
	// Owners are linked once every form exists: form= may point forward.
	for i := range x.snap.Controls {
		if c := &x.snap.Controls[i]; c.FormIndex >= 0 {
			f := &x.snap.Forms[c.FormIndex]
			f.Controls = append(f.Controls, c.Index)
		}
	}
	return x.snap, nil
}

// A pageSurvey is what one walk over a parsed page counts before it is
// read: its element nesting depth (up to the limit that stopped the walk)
// and how many elements carry an id, and how many are labels and
// fieldsets, to size the maps that index them.
type pageSurvey struct {
	depth, ids, labels, fieldsets int
}

// survey walks n's elements, stopping early once their nesting exceeds
// limit. It is iterative so that hostile nesting cannot exhaust the
// stack.
func survey(n *html.Node, limit int) pageSurvey {
	type item struct {
		n *html.Node
		d int
	}
	var sv pageSurvey
	stack := []item{{n, 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.d > sv.depth {
			sv.depth = it.d
			if sv.depth > limit {
				return sv
			}
		}
		for c := it.n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch c.DataAtom {
			case atom.Label:
				sv.labels++
			case atom.Fieldset:
				sv.fieldsets++
			}
			for _, a := range c.Attr {
				if a.Key == "id" && a.Namespace == "" {
					sv.ids++
					break
				}
			}
			stack = append(stack, item{c, it.d + 1})
		}
	}
	return sv
}

// A scope is one node tree (the document or an open shadow root): ids and
// label[for] only resolve within their own tree.
type scope struct {
	ids       map[string]*html.Node
	labelsFor map[string][]*html.Node
	// dupIDs are the ids several elements share: a label for= one of
	// them labels, to a browser, the first; to the eye, the control it
	// sits beside (label, sharedLabels).
	dupIDs map[string]bool
}

type extractor struct {
	snap        *Snapshot
	frame       string
	nonce       string
	live        bool
	maxControls int
	formIndex   map[*html.Node]int
	scopes      map[*html.Node]*scope
	// order is the place in document order, among all elements, of the
	// elements whose order is read: labels and fieldsets. elements counts
	// the elements indexed so far.
	order    map[*html.Node]int
	elements int
	// declarers counts the forms and tool elements added so far: the next
	// one's Form.Order or ToolElement.Order.
	declarers int
	// buttons are the named, enabled <button> elements with a form owner.
	buttons []namedButton
	// texts caches the text of elements referenced by ARIA id lists.
	texts nodeCache[string]
	// pointerForm emulates the parser's form element pointer for a <form>
	// that the HTML parser emptied out of a table: browsers still associate
	// the controls that follow it in the same table with that form.
	pointerForm  int
	pointerTable *html.Node
	// controls counts the input, select and textarea elements index saw.
	controls int
	// sets caches each fieldset's facts (its legend's text is read once,
	// not once per control inside it).
	sets nodeCache[Fieldset]
	// unfinished are the controls the walk found, to be finished after it
	// (finish).
	unfinished []unfinished
	// heading is the text of the last heading the walk passed, and
	// headingForm the index of the form it sits in (-1: none).
	heading     string
	headingForm int
}

// A nodeCache keeps one fact per element, read once: the controls that
// share the element are finished on several cores at once (finish).
type nodeCache[V any] struct {
	mu sync.Mutex
	m  map[*html.Node]V
}

// get returns n's fact, read by read the first time. It reads without
// the lock: two cores may both read one element, and keep the same fact.
func (c *nodeCache[V]) get(n *html.Node, read func() V) V {
	c.mu.Lock()
	v, ok := c.m[n]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = read()
	c.mu.Lock()
	c.m[n] = v
	c.mu.Unlock()
	return v
}

type namedButton struct {
	form int
	name string
}

// isShadowRoot reports whether n is a serialised open shadow root.
func isShadowRoot(n *html.Node) bool {
	return n.Type == html.ElementNode && n.DataAtom == atom.Template && n.Namespace == "" &&
		strings.EqualFold(attr(n, "shadowrootmode"), "open")
}

// skipped reports whether n's subtree is not part of the rendered document:
// inert templates and elements whose content is not text a person reads.
func skipped(n *html.Node) bool {
	if n.Type != html.ElementNode {
		return false
	}
	switch n.DataAtom {
	case atom.Template:
		return !isShadowRoot(n)
	case atom.Script, atom.Style, atom.Noscript:
		return true
	}
	return false
}

// newScope returns an empty scope whose maps have room for about ids ids
// and labels labels.
func newScope(ids, labels int) *scope {
	return &scope{ids: make(map[string]*html.Node, ids), labelsFor: make(map[string][]*html.Node, labels), dupIDs: map[string]bool{}}
}

// index records the ids and label[for] of every scope.
func (x *extractor) index(n, root *html.Node) {
	sc := x.scopes[root]
	if sc == nil {
		sc = newScope(0, 0)
		x.scopes[root] = sc
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if c.DataAtom == atom.Template && !isShadowRoot(c) {
			continue
		}
		if c.DataAtom == atom.Label || c.DataAtom == atom.Fieldset {
			x.order[c] = x.elements
		}
		x.elements++
		switch c.DataAtom {
		case atom.Input, atom.Select, atom.Textarea:
			x.controls++
		}
		if c.DataAtom == atom.Form && c.Namespace == "" {
			// Numbered up front so that a form= attribute may name a form
			// that comes later in the document.
			x.formIndex[c] = len(x.formIndex)
		}
		if id, ok := attrOK(c, "id"); ok && id != "" {
			if _, dup := sc.ids[id]; !dup {
				sc.ids[id] = c
			} else {
				sc.dupIDs[id] = true
			}
		}
		if c.DataAtom == atom.Label {
			if f, ok := attrOK(c, "for"); ok {
				sc.labelsFor[f] = append(sc.labelsFor[f], c)
			}
		}
		if isShadowRoot(c) {
			x.index(c, c)
		} else {
			x.index(c, root)
		}
	}
}

func (x *extractor) walk(n, root *html.Node) error {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if c.DataAtom == atom.Template && !isShadowRoot(c) || x.live && c.DataAtom == atom.Noscript {
			continue
		}
		switch c.DataAtom {
		case atom.Html:
			if c.Namespace == "" {
				x.snap.Lang = attr(c, "lang")
			}
		case atom.Title:
			if x.snap.Title == "" && c.Namespace == "" {
				x.snap.Title = collapse(rawText(c))
			}
		case atom.Form:
			if c.Namespace == "" {
				x.addForm(c, root)
			}
		case atom.Input, atom.Select, atom.Textarea:
			if c.Namespace == "" {
				if err := x.addControl(c, root); err != nil {
					return err
				}
			}
		case atom.A, atom.Button:
			if c.Namespace != "" {
				break
			}
			if _, ok := attrOK(c, "tool-name"); ok {
				x.addToolElement(c, root)
			}
			if name := attr(c, "name"); c.DataAtom == atom.Button && name != "" {
				_, disabled := attrOK(c, "disabled")
				if f := x.owner(c, root); f >= 0 && !disabled && !disabledByFieldset(c) {
					x.buttons = append(x.buttons, namedButton{f, name})
				}
			}
		case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
			if c.Namespace == "" {
				x.setHeading(c)
			}
		case atom.Div, atom.Span, atom.P:
			if role, ok := attrOK(c, "role"); ok && c.Namespace == "" && strings.EqualFold(strings.TrimSpace(role), "heading") {
				x.setHeading(c)
			}
		case atom.Link:
			if rel := attr(c, "rel"); strings.Contains(strings.ToLower(rel), "formspec") {
				x.snap.Links = append(x.snap.Links, Link{Rel: rel, Href: attr(c, "href")})
			}
		}
		next := root
		if isShadowRoot(c) {
			next = c
		}
		if err := x.walk(c, next); err != nil {
			return err
		}
	}
	return nil
}

// setHeading records heading n (h1 to h6, or role=heading) as the section
// of the controls after it in its form (Control.Heading).
func (x *extractor) setHeading(n *html.Node) {
	x.heading = clip(collapse(text(n, nil)))
	x.headingForm = -1
	if f := ancestor(n, atom.Form); f != nil {
		x.headingForm = x.formIndex[f]
	}
}

func (x *extractor) addForm(n, root *html.Node) {
	i := len(x.snap.Forms)
	f := Form{
		Index:    i,
		Order:    x.declarers,
		Ref:      ref(n, "f", i),
		ID:       attr(n, "id"),
		Name:     attr(n, "name"),
		Action:   attr(n, "action"),
		Method:   strings.ToLower(strings.TrimSpace(attr(n, "method"))),
		Attrs:    toolAttrs(n, false),
		Controls: []int{},
	}
	x.snap.Forms = append(x.snap.Forms, f)
	x.declarers++
	x.pointerTable = nil
	if n.FirstChild == nil && n.Parent != nil && isTablePart(n.Parent) {
		if t := ancestor(n, atom.Table); t != nil {
			x.pointerForm, x.pointerTable = i, t
		}
	}
}

func isTablePart(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Table, atom.Tbody, atom.Thead, atom.Tfoot, atom.Tr:
		return true
	}
	return false
}

// owner returns the index of the form that owns the form-associated element
// n, or -1.
func (x *extractor) owner(n, root *html.Node) int {
	if f, ok := attrOK(n, "form"); ok {
		if el := x.scopes[root].ids[f]; el != nil && el.DataAtom == atom.Form {
			return x.formIndex[el]
		}
		return -1
	}
	for p := n.Parent; p != nil && p != root; p = p.Parent {
		if p.Type == html.ElementNode && p.DataAtom == atom.Form && p.Namespace == "" {
			return x.formIndex[p]
		}
	}
	if x.pointerTable != nil && root.DataAtom != atom.Template && isAncestor(x.pointerTable, n) {
		return x.pointerForm
	}
	return -1
}

func (x *extractor) addToolElement(n, root *html.Node) {
	t := ToolElement{
		Order:     x.declarers,
		Ref:       ref(n, "t", len(x.snap.Tools)),
		Tag:       n.Data,
		Href:      attr(n, "href"),
		Text:      clip(collapse(text(n, nil))),
		Attrs:     toolAttrs(n, false),
		FormIndex: -1,
	}
	if n.DataAtom == atom.Button {
		t.FormIndex = x.owner(n, root)
		t.FormAction = attr(n, "formaction")
		t.FormMethod = strings.ToLower(strings.TrimSpace(attr(n, "formmethod")))
	}
	x.snap.Tools = append(x.snap.Tools, t)
	x.declarers++
}

// inputTypes are the input types browsers know; others read as "text".
var inputTypes = map[string]bool{
	"hidden": true, "text": true, "search": true, "tel": true, "url": true,
	"email": true, "password": true, "date": true, "month": true, "week": true,
	"time": true, "datetime-local": true, "number": true, "range": true,
	"color": true, "checkbox": true, "radio": true, "file": true, "submit": true,
	"image": true, "reset": true, "button": true,
}

func (x *extractor) addControl(n, root *html.Node) error {
	i := len(x.snap.Controls)
	if i >= x.maxControls {
		return fmt.Errorf("%w (limit %d)", ErrTooManyControls, x.maxControls)
	}
	// The control is written in its place in the snapshot (controls are
	// large: building one aside and appending it copied it whole). The
	// room make gave is zero and nothing else writes there.
	if i < cap(x.snap.Controls) {
		x.snap.Controls = x.snap.Controls[:i+1]
	} else {
		x.snap.Controls = append(x.snap.Controls, Control{})
	}
	c := &x.snap.Controls[i]
	c.Index = i
	c.Ref = x.controlRef(n, i)
	c.FormIndex = x.owner(n, root)
	if c.FormIndex >= 0 && c.FormIndex == x.headingForm {
		c.Heading = x.heading
	}
	c.Tag = n.Data
	a := readControlAttrs(n)
	c.Name = a.name
	c.ID = a.id
	c.Autocomplete = a.autocomplete
	c.Placeholder = a.placeholder
	c.AriaLabel = collapse(a.ariaLabel)
	c.AriaDescription = a.ariaDescription
	c.Title = a.title
	c.InputMode = a.inputMode
	c.Frame = x.frame
	c.Disabled, c.ReadOnly = a.disabled, a.readOnly
	c.Constraints = Constraints{
		Required:  a.required,
		Pattern:   a.pattern,
		Min:       strings.TrimSpace(a.min),
		Max:       strings.TrimSpace(a.max),
		Step:      strings.TrimSpace(a.step),
		MinLength: nonNegInt(a.minLength),
		MaxLength: nonNegInt(a.maxLength),
	}
	switch n.DataAtom {
	case atom.Input:
		c.Type = strings.ToLower(strings.TrimSpace(a.typ))
		if !inputTypes[c.Type] {
			c.Type = "text"
		}
		c.Value = a.value
		c.Checked, c.Multiple = a.checked, a.multiple
	case atom.Select:
		c.Multiple = a.multiple
		c.Type = "select-one"
		if c.Multiple {
			c.Type = "select-multiple"
		}
	case atom.Textarea:
		c.Type = "textarea"
		if a.hasValue {
			c.Value = a.value // live value stamped by the extension
		}
	}
	// The rest is read once the walk is done, on every core (finish).
	v := a.value
	if !a.hasValue {
		v = "on"
	}
	x.unfinished = append(x.unfinished, unfinished{i, n, root, v, a.hasValue, a.labelledBy, a.describedBy})
	return nil
}

// An unfinished control is one the walk found whose other facts are
// still to be read (finish): its index, its element and tree, the value
// a radio button or checkbox sends, whether the extension stamped its
// live value, and its ARIA id lists.
type unfinished struct {
	i                       int
	n, root                 *html.Node
	value                   string
	hasValue                bool
	labelledBy, describedBy string
}

// finish reads what the walk left of every control it found, sharing them
// among the cores (parallel.Chunks): these facts (its options, its
// fieldsets, whether it is seen, its label) depend only on the page,
// which the walk has indexed and no longer changes, and are written to
// that control alone (the caches they share are locked). A radio
// button or checkbox then offers its one option under its label.
func (x *extractor) finish() {
	parallel.Chunks(len(x.unfinished), finishChunk, func(lo, hi int) {
		for _, u := range x.unfinished[lo:hi] {
			c, n := &x.snap.Controls[u.i], u.n
			c.Attrs = toolAttrs(n, true)
			c.AutocompleteInfo = ParseAutocomplete(c.Autocomplete)
			c.Disabled = c.Disabled || disabledByFieldset(n)
			switch n.DataAtom {
			case atom.Select:
				c.Options = options(n)
				c.Value = selectValue(c.Options, c.Multiple)
			case atom.Textarea:
				if !u.hasValue {
					c.Value = rawText(n)
				}
			}
			sc := x.scopes[u.root]
			c.AriaLabelledBy = clip(x.resolveIDs(sc, u.labelledBy))
			c.AriaDescribedBy = clip(x.resolveIDs(sc, u.describedBy))
			c.Legends, c.Fieldsets = x.fieldsets(n, u.root)
			c.Visibility = x.visibility(n, c.Type)
			if c.Type == "hidden" {
				continue
			}
			x.label(n, u.root, c)
			if c.Type == "radio" || c.Type == "checkbox" {
				c.Options = []Option{{Value: u.value, Text: c.LabelElementText, Selected: c.Checked}}
				if c.Options[0].Text == "" {
					c.Options[0].Text = c.Label
				}
			}
		}
	})
}

// finishChunk is how many controls one core finishes at a time.
const finishChunk = 32

// controlAttrs are the attributes addControl reads from a control.
type controlAttrs struct {
	name, id, autocomplete, placeholder, ariaLabel, ariaDescription, title, inputMode string
	typ, value, labelledBy, describedBy                                               string
	pattern, min, max, step, minLength, maxLength                                     string
	hasValue, disabled, readOnly, checked, multiple, required                         bool
}

// readControlAttrs reads a control's attributes in one pass over them
// (a control is read for some twenty: one scan each was a tenth of
// extraction). The first of two attributes of one name counts, as attrOK.
func readControlAttrs(n *html.Node) controlAttrs {
	var a controlAttrs
	for i := len(n.Attr) - 1; i >= 0; i-- {
		at := &n.Attr[i]
		if at.Namespace != "" {
			continue
		}
		switch v := at.Val; at.Key {
		case "name":
			a.name = v
		case "id":
			a.id = v
		case "autocomplete":
			a.autocomplete = v
		case "placeholder":
			a.placeholder = v
		case "aria-label":
			a.ariaLabel = v
		case "aria-description":
			a.ariaDescription = v
		case "title":
			a.title = v
		case "inputmode":
			a.inputMode = v
		case "type":
			a.typ = v
		case "value":
			a.value, a.hasValue = v, true
		case "aria-labelledby":
			a.labelledBy = v
		case "aria-describedby":
			a.describedBy = v
		case "pattern":
			a.pattern = v
		case "min":
			a.min = v
		case "max":
			a.max = v
		case "step":
			a.step = v
		case "minlength":
			a.minLength = v
		case "maxlength":
			a.maxLength = v
		case "disabled":
			a.disabled = true
		case "readonly":
			a.readOnly = true
		case "checked":
			a.checked = true
		case "multiple":
			a.multiple = true
		case "required":
			a.required = true
		}
	}
	return a
}

// nonNegInt parses an HTML non-negative integer attribute; 0 means absent or
// invalid.
func nonNegInt(s string) int {
	if s == "" {
		return 0 // absent: spare Atoi its error value
	}
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || v < 0 {
		return 0
	}
	return v
}

// options lists the options of a select, with their optgroup labels.
func options(sel *html.Node) []Option {
	var out []Option
	var visit func(n *html.Node, group string, groupDisabled bool)
	visit = func(n *html.Node, group string, groupDisabled bool) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode || skipped(c) {
				continue
			}
			switch c.DataAtom {
			case atom.Option:
				raw := textContent(c)
				txt := collapse(raw)
				o := Option{Text: txt, Label: attr(c, "label"), Group: group}
				if raw != txt {
					o.TextContent = raw
				}
				v, ok := attrOK(c, "value")
				if !ok {
					v = txt
				}
				o.Value = v
				_, o.Selected = attrOK(c, "selected")
				_, o.Disabled = attrOK(c, "disabled")
				o.Disabled = o.Disabled || groupDisabled
				out = append(out, o)
			case atom.Optgroup:
				_, d := attrOK(c, "disabled")
				visit(c, attr(c, "label"), d)
			default:
				visit(c, group, groupDisabled)
			}
		}
	}
	visit(sel, "", false)
	return out
}

// selectValue is the value a browser reports for a select: the first
// selected option, or for a single select the first enabled option.
func selectValue(opts []Option, multiple bool) string {
	for _, o := range opts {
		if o.Selected {
			return o.Value
		}
	}
	if !multiple {
		for _, o := range opts {
			if !o.Disabled {
				return o.Value
			}
		}
	}
	return ""
}

// disabledByFieldset reports whether a disabled fieldset disables n (any
// descendant except those inside the fieldset's first legend).
func disabledByFieldset(n *html.Node) bool {
	child := n
	for p := n.Parent; p != nil; child, p = p, p.Parent {
		if p.Type != html.ElementNode || p.DataAtom != atom.Fieldset {
			continue
		}
		if _, ok := attrOK(p, "disabled"); !ok {
			continue
		}
		if child.DataAtom == atom.Legend && child == firstChildElement(p, atom.Legend) {
			continue
		}
		return true
	}
	return false
}

func firstChildElement(n *html.Node, a atom.Atom) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == a {
			return c
		}
	}
	return nil
}

// fieldsets lists the fieldsets enclosing n within its tree, innermost first.
func (x *extractor) fieldsets(n, root *html.Node) ([]string, []Fieldset) {
	var legends []string
	var sets []Fieldset
	for p := n.Parent; p != nil && p != root; p = p.Parent {
		if p.Type != html.ElementNode || p.DataAtom != atom.Fieldset {
			continue
		}
		fs := x.sets.get(p, func() Fieldset {
			// Controls share the Attrs map of their fieldset: nothing
			// writes to a snapshot's maps after extraction.
			fs := Fieldset{Index: x.order[p], Name: attr(p, "name"), Attrs: toolAttrs(p, false)}
			if l := firstChildElement(p, atom.Legend); l != nil {
				fs.Legend = clip(collapse(text(l, nil)))
			}
			return fs
		})
		legends = append(legends, fs.Legend)
		sets = append(sets, fs)
	}
	return legends, sets
}

// visibility derives what static attributes say about whether n is seen,
// then the extension's measurement (data-tessera-hidden) if any.
func (x *extractor) visibility(n *html.Node, typ string) Visibility {
	var v Visibility
	if m, ok := x.stamp(n, "data-tessera-hidden"); ok {
		v.Measured = true
		if m = strings.TrimSpace(m); m != "" {
			v.Hidden, v.Reason = true, m
		}
	} else if x.nonce != "" {
		v.Hidden, v.Reason = true, "unmeasured"
	}
	hide := func(reason string) Visibility {
		return Visibility{Hidden: true, Reason: reason, Measured: v.Measured}
	}
	if typ == "hidden" {
		return hide("type-hidden")
	}
	var display, visHidden, visDecided, aria, hiddenAttr bool
	for p := n; p != nil && p.Type == html.ElementNode; p = p.Parent {
		if _, ok := attrOK(p, "hidden"); ok && !isShadowRoot(p) {
			hiddenAttr = true
		}
		if strings.EqualFold(strings.TrimSpace(attr(p, "aria-hidden")), "true") {
			aria = true
		}
		if s, ok := attrOK(p, "style"); ok {
			d, vis := inlineStyle(s)
			if d == "none" {
				display = true
			}
			if vis != "" && !visDecided {
				// The innermost visibility declaration wins: a child may be
				// visible inside a hidden parent.
				visDecided = true
				visHidden = vis == "hidden" || vis == "collapse"
			}
		}
	}
	switch {
	case hiddenAttr:
		return hide("hidden-attr")
	case display:
		return hide("display-none")
	case visHidden:
		return hide("visibility-hidden")
	case aria:
		return hide("aria-hidden")
	}
	return v
}

// inlineStyle returns the display and visibility values of a style
// attribute, lower-cased, without !important.
func inlineStyle(s string) (display, visibility string) {
	for _, decl := range strings.Split(s, ";") {
		prop, val, ok := strings.Cut(decl, ":")
		if !ok {
			continue
		}
		val = strings.ToLower(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(val), "!important")))
		switch strings.ToLower(strings.TrimSpace(prop)) {
		case "display":
			display = val
		case "visibility":
			visibility = val
		}
	}
	return display, visibility
}

// resolveIDs returns the text of the elements named by a space-separated id
// list, joined by spaces.
func (x *extractor) resolveIDs(sc *scope, ids string) string {
	var parts []string
	for _, id := range strings.Fields(ids) {
		if el := sc.ids[id]; el != nil {
			// Memoised: a hostile page may point every control at one huge
			// element.
			t := x.texts.get(el, func() string { return clip(collapse(text(el, nil))) })
			if t != "" {
				parts = append(parts, t)
			}
		}
	}
	return strings.Join(parts, " ")
}

// toolAttrs collects the attributes other parts read verbatim: the WebMCP
// attributes of both dialects and, for controls, the Formspec binding
// attributes and the form owner.
func toolAttrs(n *html.Node, control bool) map[string]string {
	var m map[string]string
	for _, a := range n.Attr {
		if a.Namespace != "" {
			continue
		}
		k := strings.ToLower(a.Key)
		keep := strings.HasPrefix(k, "tool") ||
			control && (k == "data-name" || k == "data-bind" || k == "form")
		if !keep {
			continue
		}
		if m == nil {
			m = map[string]string{}
		}
		if _, dup := m[k]; !dup {
			m[k] = a.Val
		}
	}
	return m
}

// stamp returns the value of the extension's stamp attribute key on n and
// reports whether n has one. With a nonce, only a value carrying it counts,
// and the nonce is removed.
func (x *extractor) stamp(n *html.Node, key string) (string, bool) {
	v, ok := attrOK(n, key)
	if !ok || x.nonce == "" {
		return v, ok
	}
	return strings.CutPrefix(v, x.nonce+":")
}

// controlRef returns the extension's stamp of control n, or a reference
// synthesised from its position.
func (x *extractor) controlRef(n *html.Node, i int) string {
	if r, ok := x.stamp(n, "data-tessera-ref"); ok && r != "" {
		return r
	}
	if refs := positionRefs(); i < len(refs) {
		return refs[i]
	}
	return "c" + strconv.Itoa(i)
}

// positionRefs returns the references of the first controls of a page,
// made once, by the first page read rather than at start-up: "c" +
// strconv.Itoa(i) allocated a string per control of every page read.
var positionRefs = sync.OnceValue(func() []string {
	refs := make([]string, 2048)
	for i := range refs {
		refs[i] = "c" + strconv.Itoa(i)
	}
	return refs
})

// ref returns the extension's stamp of n, or a reference synthesised from
// the element's kind and position.
func ref(n *html.Node, prefix string, i int) string {
	if r, ok := attrOK(n, "data-tessera-ref"); ok && r != "" {
		return r
	}
	return prefix + strconv.Itoa(i)
}

func attr(n *html.Node, key string) string {
	v, _ := attrOK(n, key)
	return v
}

func attrOK(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func ancestor(n *html.Node, a atom.Atom) *html.Node {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Type == html.ElementNode && p.DataAtom == a {
			return p
		}
	}
	return nil
}

func isAncestor(a, n *html.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p == a {
			return true
		}
	}
	return false
}

// collapse trims s and collapses its runs of white space to single spaces.
func collapse(s string) string {
	// Most texts are collapsed already (one word, or words and single
	// spaces): they are returned as they are, without the slice of
	// words and the new string strings.Fields and Join would make.
	clean, space := true, true // space: the last rune was a space (or none was read)
	for _, r := range s {
		if unicode.IsSpace(r) {
			if r != ' ' || space {
				clean = false
				break
			}
			space = true
		} else {
			space = false
		}
	}
	if clean && !space {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for w := range strings.FieldsSeq(s) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	return b.String()
}

// clip bounds a label-like text to maxLabelRunes, keeping its start.
func clip(s string) string {
	r := []rune(s)
	if len(r) <= maxLabelRunes {
		return s
	}
	return strings.TrimSpace(string(r[:maxLabelRunes]))
}

// clipEnd bounds text found before a control to maxLabelRunes, keeping its
// end, which is the part next to the control.
func clipEnd(s string) string {
	r := []rune(s)
	if len(r) <= maxLabelRunes {
		return s
	}
	return strings.TrimSpace(string(r[len(r)-maxLabelRunes:]))
}

// rawText concatenates the text nodes directly under n.
func rawText(n *html.Node) string {
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return b.String()
}

// text returns the text a person reads in n: text nodes outside scripts,
// styles, inert templates, elements hidden by attribute or inline style, and
// form controls (their option and textarea text is a value, not a label).
// Element boundaries of block-ish elements separate words. exclude, when
// non-nil, is a subtree left out.
func text(n *html.Node, exclude *html.Node) string {
	var b strings.Builder
	var visit func(n *html.Node)
	visit = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch c.Type {
			case html.TextNode:
				b.WriteString(c.Data)
			case html.ElementNode:
				if c == exclude || skipped(c) || invisible(c) || message(c) {
					continue
				}
				switch c.DataAtom {
				case atom.Select, atom.Textarea, atom.Input, atom.Button:
					continue
				case atom.Br:
					b.WriteByte(' ')
					continue
				}
				at := b.Len()
				if !inline[c.DataAtom] {
					b.WriteByte(' ')
				}
				visit(c)
				if blank(b.String()[at:]) {
					// An icon standing for words: "<label><i
					// title=E-mail></i></label>".
					b.WriteString(iconText(c))
				}
				if !inline[c.DataAtom] {
					b.WriteByte(' ')
				}
			}
		}
	}
	if n.Type == html.TextNode {
		return n.Data
	}
	visit(n)
	return b.String()
}

// labelOwnText is the text of a label element as Chromium 156 reads it
// for WebMCP descriptions: its text content without the text inside the
// controls it holds (a select's options, a textarea's text, a button's
// label), white space kept as written (testdata/webmcp-chromium/
// implicit-labels.*).
func labelOwnText(n *html.Node) string {
	var b strings.Builder
	var visit func(n *html.Node)
	visit = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				b.WriteString(c.Data)
			case c.Type != html.ElementNode:
			case c.DataAtom == atom.Template:
			case c.DataAtom == atom.Select, c.DataAtom == atom.Textarea, c.DataAtom == atom.Button,
				c.DataAtom == atom.Datalist, c.DataAtom == atom.Input:
			default:
				visit(c)
			}
		}
	}
	visit(n)
	return b.String()
}

// textContent is the DOM's textContent of n: every text node below it,
// hidden or not, except inert template contents and shadow trees, which the
// DOM keeps out of the light tree.
func textContent(n *html.Node) string {
	var b strings.Builder
	var visit func(n *html.Node)
	visit = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				b.WriteString(c.Data)
			case c.Type == html.ElementNode && c.DataAtom == atom.Template:
			default:
				visit(c)
			}
		}
	}
	visit(n)
	return b.String()
}

// trimASCII trims ASCII white space, as the DOM's strip-and-trim does.
func trimASCII(s string) string { return strings.Trim(s, " \t\n\f\r") }

// inline lists the phrasing elements that do not separate words.
var inline = map[atom.Atom]bool{
	atom.A: true, atom.Abbr: true, atom.B: true, atom.Bdi: true, atom.Bdo: true,
	atom.Cite: true, atom.Code: true, atom.Data: true, atom.Dfn: true,
	atom.Em: true, atom.Font: true, atom.I: true, atom.Kbd: true, atom.Mark: true,
	atom.Q: true, atom.S: true, atom.Samp: true, atom.Small: true,
	atom.Span: true, atom.Strong: true, atom.Sub: true, atom.Sup: true,
	atom.Time: true, atom.U: true, atom.Var: true, atom.Label: true,
}

// invisible reports whether an element is statically hidden by its own
// attributes.
func invisible(n *html.Node) bool {
	if _, ok := attrOK(n, "hidden"); ok && !isShadowRoot(n) {
		return true
	}
	if s, ok := attrOK(n, "style"); ok {
		d, v := inlineStyle(s)
		return d == "none" || v == "hidden"
	}
	return false
}
