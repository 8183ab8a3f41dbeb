package form

import (
	"iter"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// maxClimb bounds how many ancestors nearby-text inference climbs: text
// further away than this belongs to the layout, not to the control.
const maxClimb = 6

// label fills the label facts of c, in the order a person's eye and the
// browser's accessibility tree agree on: the label element first, then ARIA,
// then the text laid out next to the control.
func (x *extractor) label(n, root *html.Node, c *Control) {
	sc := x.scopes[root]
	var forTexts []string
	if c.ID != "" && sc.ids[c.ID] == n && !sharedLabels(sc, c.ID) {
		// Several labels for an id several controls share ("<label
		// for=f>First name</label><input id=f> <label for=f>Last
		// name</label><input id=f>") are each read beside their control
		// (nearby), not all on the first.
		for _, l := range sc.labelsFor[c.ID] {
			if t := collapse(text(l, nil)); t != "" {
				forTexts = append(forTexts, t)
			}
		}
	}
	var wrapText string
	labels := []*html.Node(nil)
	if c.ID != "" && sc.ids[c.ID] == n {
		labels = append(labels, sc.labelsFor[c.ID]...)
	}
	if l := wrappingLabel(n, root); l != nil {
		wrapText = collapse(text(l, nil))
		// The wrapping label takes its place among the for= labels in
		// document order, as control.labels lists them.
		at := len(labels)
		for i, fl := range labels {
			if x.order[l] < x.order[fl] {
				at = i
				break
			}
		}
		labels = append(labels[:at], append([]*html.Node{l}, labels[at:]...)...)
	}
	for _, l := range labels {
		c.LabelTexts = append(c.LabelTexts, trimASCII(labelOwnText(l)))
	}
	nearbyText, nearbyLabel, nearbySource := nearby(n, root, sc)
	c.NearbyText = nearbyText
	switch {
	case len(forTexts) > 0:
		c.LabelElementText = clip(strings.Join(forTexts, " "))
		c.Label, c.LabelSource = c.LabelElementText, "label-for"
	case wrapText != "":
		c.LabelElementText = clip(wrapText)
		c.Label, c.LabelSource = c.LabelElementText, "label-wrap"
	case c.AriaLabelledBy != "":
		c.Label, c.LabelSource = c.AriaLabelledBy, "aria-labelledby"
	case c.AriaLabel != "":
		c.Label, c.LabelSource = clip(c.AriaLabel), "aria-label"
	case nearbyLabel != "":
		c.Label, c.LabelSource = nearbyLabel, nearbySource
	case collapse(c.Placeholder) != "":
		c.Label, c.LabelSource = clip(collapse(c.Placeholder)), "placeholder"
	case collapse(c.Title) != "":
		c.Label, c.LabelSource = clip(collapse(c.Title)), "title"
	}
}

// wrappingLabel returns the label element that labels n by containing it:
// the nearest ancestor label without a for attribute whose first labelable
// descendant is n.
func wrappingLabel(n, root *html.Node) *html.Node {
	for p := n.Parent; p != nil && p != root; p = p.Parent {
		if p.Type != html.ElementNode || p.DataAtom != atom.Label {
			continue
		}
		if _, ok := attrOK(p, "for"); ok {
			return nil
		}
		if firstLabelable(p) == n {
			return p
		}
		return nil
	}
	return nil
}

func firstLabelable(n *html.Node) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || skipped(c) {
			continue
		}
		switch c.DataAtom {
		case atom.Input:
			if !strings.EqualFold(strings.TrimSpace(attr(c, "type")), "hidden") {
				return c
			}
		case atom.Select, atom.Textarea, atom.Button, atom.Meter, atom.Output, atom.Progress:
			return c
		}
		if f := firstLabelable(c); f != nil {
			return f
		}
	}
	return nil
}

// nearby infers the text laid out next to n: text before it in its own
// container, then the definition term of its dd, then its table row and
// column headers.
func nearby(n, root *html.Node, sc *scope) (txt, label, source string) {
	tm := &trailMemo{sc: sc, self: n}
	if t := followingLabel(n, tm); t != "" {
		return t, t, "following-label"
	}
	t, l, stop := precedingText(n, root, tm)
	if t != "" && (stop == nil || hasLetter(t)) {
		// A section's heading before the box is nearby text, not its
		// label (l holds the words after the heading, if any).
		return t, l, "preceding-text"
	}
	// withSign puts the text without a letter read in the box's own cell
	// ("+1") after the cell's label.
	withSign := func(label string) string {
		if t == "" {
			return label
		}
		return clip(label + " " + t)
	}
	if stop != nil {
		switch stop.DataAtom {
		case atom.Dd:
			for s := stop.PrevSibling; s != nil; s = s.PrevSibling {
				if s.Type == html.ElementNode && s.DataAtom == atom.Dt {
					if dt := clipEnd(collapse(text(s, nil))); dt != "" {
						dt = withSign(dt)
						return dt, dt, "dt"
					}
					break
				}
			}
		case atom.Td, atom.Th:
			if tt, src := tableText(stop, sc); tt != "" {
				tt = withSign(tt)
				return tt, tt, src
			}
		}
	}
	if t != "" {
		return t, l, "preceding-text"
	}
	return "", "", ""
}

// followingLabel returns the text of a label element that comes right
// after n in its container and labels nothing else, when nothing but such
// a label is laid out beside n there: the floating-label pattern
// "<div><input><label>Email</label></div>", written without for=. The
// input may sit alone in a wrapper of its own.
func followingLabel(n *html.Node, tm *trailMemo) string {
	sc := tm.sc
	cur := n
	for level := 0; level < 3; level++ {
		for s := cur.PrevSibling; s != nil; s = s.PrevSibling {
			t, had := tm.trailing(s)
			if had {
				break // the text after another control is that control's
			}
			if strings.TrimSpace(t) != "" {
				return "" // text before n: precedingText reads it
			}
		}
		for s := cur.NextSibling; s != nil; s = s.NextSibling {
			if s.Type == html.TextNode {
				if strings.TrimSpace(s.Data) != "" {
					return ""
				}
				continue
			}
			if s.Type != html.ElementNode || skipped(s) || invisible(s) {
				continue
			}
			if s.DataAtom != atom.Label {
				t, had := tm.trailing(s)
				if !had && strings.TrimSpace(t) == "" {
					continue // an empty decoration ("<span class=bar>")
				}
				if had || !floats(n) && !echoesPlaceholder(n, t) || wordsOnly(t) == "" {
					return ""
				}
				// A CSS-only floating label written as a span: the
				// box's blank placeholder (" ", for :placeholder-shown)
				// is the tell, or a span that says the placeholder
				// again (shown once the box is typed in).
			} else {
				if labelsOther(s, sc, n) || firstLabelable(s) != nil {
					return ""
				}
				if f, ok := attrOK(s, "for"); ok && sc.ids[f] != nil && sc.ids[f] != n && !sharedFor(s, sc, n) {
					return ""
				}
			}
			for f := s.NextSibling; f != nil; f = f.NextSibling {
				if first := leading(f, sc, n); first == leadControl {
					// "<input><label>B</label><input>": the label
					// introduces the control after it.
					return ""
				} else if first == leadText {
					break
				}
			}
			return clipEnd(collapse(text(s, nil)))
		}
		p := cur.Parent
		if p == nil || p.Type != html.ElementNode || labelBoundary(p) {
			return ""
		}
		cur = p
	}
	return ""
}

// What a node shows first, in document order.
const (
	leadNothing = iota
	leadText
	leadControl
)

// leading reports whether n shows a control or text first (or nothing).
func leading(n *html.Node, sc *scope, self *html.Node) int {
	switch n.Type {
	case html.TextNode:
		if strings.TrimSpace(n.Data) != "" {
			return leadText
		}
		return leadNothing
	case html.ElementNode:
		if skipped(n) || invisible(n) {
			return leadNothing
		}
		if isVisibleControl(n) || labelsOther(n, sc, self) {
			return leadControl
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if l := leading(c, sc, self); l != leadNothing {
				return l
			}
		}
	}
	return leadNothing
}

// precedingText returns the text just before n, climbing from n through its
// ancestors until some text is found, another control intervenes, or a
// container boundary (cell, row, definition, form) is reached. List items
// and fieldsets are crossed: "<li>Name</li><li><input></li>" and a heading
// before a legend-less fieldset are common labels. It also returns the
// boundary element where the climb stopped (nil when it stopped at another
// control or found text).
func precedingText(n, root *html.Node, tm *trailMemo) (text, label string, stop *html.Node) {
	cur := n
	// parts are the texts read so far, nearest first: a level whose text
	// holds no letter (an input group's "+1" or "€" addon) passes them on
	// to the next, where the words that label the box sit ("Phone").
	var parts []string
	size := 0
	for level := 0; level < maxClimb; level++ {
		// underHeading counts the parts read before the nearest section
		// heading (sectionHeading) among them, -1 while there is none.
		underHeading := -1
		done := func() (string, string) {
			t := clipEnd(wordsOnly(joinReversed(parts)))
			if underHeading < 0 {
				return t, t
			}
			return t, clipEnd(wordsOnly(joinReversed(parts[:underHeading])))
		}
		for s := cur.PrevSibling; s != nil && size < maxLabelRunes; s = s.PrevSibling {
			if underHeading < 0 && sectionHeading(s) {
				underHeading = len(parts)
			}
			t, hadControl := tm.trailing(s)
			parts = append(parts, t)
			size += len(strings.TrimSpace(t))
			if hadControl {
				text, label = done()
				return text, label, nil
			}
		}
		if text, label = done(); hasLetter(text) {
			return text, label, nil
		}
		p := cur.Parent
		if p == nil || p == root || p.Type != html.ElementNode {
			return text, label, nil
		}
		if labelBoundary(p) {
			// The cell's or definition's own label may be read beside
			// it (nearby); text without a letter goes after it.
			return text, label, p
		}
		cur = p
	}
	return text, label, nil
}

// hasLetter reports whether s holds a letter of any script.
func hasLetter(s string) bool {
	return strings.IndexFunc(s, unicode.IsLetter) >= 0
}

// sectionHeading reports whether n is a heading of a page's sections (h1
// to h3: "New customer", "Déjà client ?"), which heads the boxes after it
// and labels none of them; h4 to h6 are set as field labels often enough
// to stay labels.
func sectionHeading(n *html.Node) bool {
	return n.Type == html.ElementNode && (n.DataAtom == atom.H1 || n.DataAtom == atom.H2 || n.DataAtom == atom.H3)
}

// labelBoundary reports whether nearby-text inference stops at container
// n rather than climb past it: cells, rows, definitions, forms, labels.
func labelBoundary(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Td, atom.Th, atom.Dd, atom.Dt, atom.Tr, atom.Table,
		atom.Form, atom.Body, atom.Label, atom.Template:
		return true
	}
	return false
}

// wordsOnly returns t, or "" when t has no letter or digit: the "(", ")"
// and "-" between the boxes of a split telephone number, or a lone "*",
// label nothing, and the climb goes on to the row's heading.
func wordsOnly(t string) string {
	if strings.ContainsFunc(t, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
		return t
	}
	return ""
}

func joinReversed(parts []string) string {
	var b strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		b.WriteString(parts[i])
		b.WriteByte(' ')
	}
	return collapse(b.String())
}

// trailMemo keeps the trailing texts one control's nearby-text inference
// has read: following-label and preceding-text read the same siblings.
type trailMemo struct {
	sc    *scope
	self  *html.Node
	n     int
	nodes [maxTrailMemo]*html.Node
	texts [maxTrailMemo]string
	had   [maxTrailMemo]bool
}

// maxTrailMemo bounds the texts a trailMemo keeps (and searches).
const maxTrailMemo = 8

// trailing is trailing(n, tm.sc, tm.self), read once per node.
func (tm *trailMemo) trailing(n *html.Node) (string, bool) {
	for i := range tm.n {
		if tm.nodes[i] == n {
			return tm.texts[i], tm.had[i]
		}
	}
	t, had := trailing(n, tm.sc, tm.self)
	if tm.n < maxTrailMemo {
		tm.nodes[tm.n], tm.texts[tm.n], tm.had[tm.n] = n, t, had
		tm.n++
	}
	return t, had
}

// trailing returns the readable text of n that comes after its last visible
// form control, and whether n contained (or was) such a control. A label
// element belongs to the control it labels, so one that labels anything but
// the control with id self counts as a control too.
func trailing(n *html.Node, sc *scope, self *html.Node) (string, bool) {
	if n.Type == html.TextNode {
		return n.Data, false
	}
	if n.Type != html.ElementNode || unread(n) {
		return "", false
	}
	if isVisibleControl(n) || labelsOther(n, sc, self) {
		return "", true
	}
	var b strings.Builder
	had, float := false, false
	var last *html.Node // the last control met
	resets := 0         // a control inside c empties b: no icon text then
	var visit func(n *html.Node)
	visit = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch c.Type {
			case html.TextNode:
				b.WriteString(c.Data)
			case html.ElementNode:
				if unread(c) {
					continue
				}
				if isVisibleControl(c) || labelsOther(c, sc, self) {
					had, float, last = true, floats(c), c
					b.Reset()
					resets++
					continue
				}
				if had && (c.DataAtom == atom.Label || float || echoedBy(last, c)) && strings.TrimSpace(b.String()) == "" && firstLabelable(c) == nil {
					// A label right after a control, labelling nothing
					// else, is that control's (floating) label; so is
					// any text element after a box with a blank
					// placeholder.
					if c.DataAtom == atom.Label || !blank(text(c, nil)) {
						float = false
					}
					continue
				}
				at, r := b.Len(), resets
				if !inline[c.DataAtom] {
					b.WriteByte(' ')
				}
				visit(c)
				if r == resets && blank(b.String()[at:]) {
					if t := iconText(c); t != "" {
						b.WriteString(t)
					}
				}
				if !inline[c.DataAtom] {
					b.WriteByte(' ')
				}
			}
		}
	}
	visit(n)
	if !had && blank(b.String()) {
		// An icon standing for the label: "<span title=Phone><i
		// class=icon-phone></i></span>".
		return iconText(n), false
	}
	return b.String(), had
}

// unread reports whether element n's words are no label for the boxes
// around it: not rendered (a script, a hidden element), a widget's pop-up
// list, or a button that is part of a box's widget.
func unread(n *html.Node) bool {
	return skipped(n) || invisible(n) || popup(n) || widgetButton(n) || message(n)
}

// message reports whether element n holds a form's validation message
// ("Please enter a valid e-mail address" after the e-mail box, shown
// once it is wrong): an alert, or an element whose class or id says
// error and that holds no control (a wrapper the page marks as in error
// is no message). It is the box's before it, never a label of the box
// after it.
func message(n *html.Node) bool {
	if n.Type != html.ElementNode {
		return false
	}
	switch n.DataAtom {
	case atom.Input, atom.Select, atom.Textarea:
		return false
	}
	if strings.EqualFold(strings.TrimSpace(attr(n, "role")), "alert") {
		return true
	}
	msg := false
	for c := range strings.FieldsSeq(attr(n, "class")) {
		if messageClass[strings.ToLower(c)] {
			msg = true
			break
		}
	}
	if id := attr(n, "id"); !msg && id != "" {
		id = strings.ToLower(id)
		msg = strings.HasSuffix(id, "-error") || strings.HasSuffix(id, "_error") || strings.HasSuffix(id, "error-message")
	}
	return msg && firstLabelable(n) == nil
}

// messageClass lists the class names validation messages carry (plain
// pages, Bootstrap, jQuery Validate, Parsley, ASP.NET, Magento).
var messageClass = map[string]bool{
	"error": true, "errors": true, "error-message": true, "error-msg": true, "errormessage": true,
	"errormsg": true, "error-text": true, "field-error": true, "form-error": true, "input-error": true,
	"invalid-feedback": true, "validation-error": true, "validation-message": true,
	"field-validation-error": true, "field-validation-valid": true, "parsley-errors-list": true,
	"mage-error": true, "with-errors": true,
}

// heading reports whether cell h of row r is a column heading: a th, or
// any cell of a row in the table's thead.
func heading(r, h *html.Node) bool {
	return h != nil && (h.DataAtom == atom.Th || r.Parent != nil && r.Parent.DataAtom == atom.Thead)
}

// popup reports whether n is a list a widget pops up (intl-tel-input's
// countries, an address finder's suggestions, a custom select's options):
// its items are values to choose, like a select's options, not a label.
func popup(n *html.Node) bool {
	switch strings.ToLower(strings.TrimSpace(attr(n, "role"))) {
	case "listbox", "menu", "tooltip":
		return true
	}
	return false
}

// widgetButton reports whether n is a button that submits nothing (a
// flag, a date picker's calendar, a password's eye): part of the box's
// widget, neither a field that owns the text after it nor a label.
func widgetButton(n *html.Node) bool {
	return n.DataAtom == atom.Button && strings.EqualFold(strings.TrimSpace(attr(n, "type")), "button")
}

// floats reports whether control n has a blank but present placeholder
// (" "): the CSS-only floating-label pattern, whose label is the element
// laid out right after the box.
func floats(n *html.Node) bool {
	p, ok := attrOK(n, "placeholder")
	return ok && p != "" && blank(p)
}

func blank(s string) bool { return strings.TrimSpace(s) == "" }

// echoesPlaceholder reports whether text t says control n's placeholder
// again, as a floating label written after the box does ("<input
// placeholder='First name:'><span>First name:</span>"): then t is the
// box's label, not the next box's.
func echoesPlaceholder(n *html.Node, t string) bool {
	p := placeholder(n)
	return p != "" && strings.EqualFold(collapse(p), collapse(t))
}

// echoedBy is echoesPlaceholder(n, the text of element e) for an e that
// holds no control of its own (a row of boxes echoes nothing), reading
// e's text only when n has a placeholder to echo.
func echoedBy(n, e *html.Node) bool {
	return placeholder(n) != "" && firstLabelable(e) == nil && echoesPlaceholder(n, text(e, nil))
}

// placeholder returns control n's placeholder, "" when n is nil or its
// placeholder is blank.
func placeholder(n *html.Node) string {
	if n == nil {
		return ""
	}
	if p := attr(n, "placeholder"); !blank(p) {
		return p
	}
	return ""
}

// iconText is the text alternative of an element that shows no text: an
// image's alt, an icon's aria-label or title.
func iconText(n *html.Node) string {
	switch n.DataAtom {
	case atom.Img:
		if t, ok := attrOK(n, "alt"); ok && !blank(t) {
			return t
		}
	case atom.I, atom.Span, atom.Svg:
	default:
		return "" // a frame's title names a document, not a field
	}
	for _, k := range []string{"aria-label", "title"} {
		if t, ok := attrOK(n, k); ok && !blank(t) {
			return t
		}
	}
	return ""
}

// labelsOther reports whether n is a label element that labels some
// control other than self. A label whose for= names no element labels
// nothing: its text is plain nearby text (a common authoring slip).
func labelsOther(n *html.Node, sc *scope, self *html.Node) bool {
	if n.DataAtom != atom.Label {
		return false
	}
	if f, ok := attrOK(n, "for"); ok {
		if sharedFor(n, sc, self) {
			return false
		}
		target := sc.ids[f]
		return target != nil && target != self && isVisibleControl(target)
	}
	l := firstLabelable(n)
	return l != nil && l != self
}

// sharedFor reports whether label n is one of several for= an id that
// control self shares with other elements: then it labels the control it
// sits beside, self's neighbour or not.
func sharedFor(n *html.Node, sc *scope, self *html.Node) bool {
	f, ok := attrOK(n, "for")
	return ok && self != nil && attr(self, "id") == f && sharedLabels(sc, f)
}

// sharedLabels reports whether the labels for= id are several, saying
// different things, for an id several elements share: one label per copy
// of a repeated control ("First name", "Last name" over boxes that all
// have id=input), each beside its own. Labels that say the same (a form
// repeated whole) label the first, as a browser reads them.
func sharedLabels(sc *scope, id string) bool {
	ls := sc.labelsFor[id]
	if !sc.dupIDs[id] || len(ls) < 2 {
		return false
	}
	first := collapse(text(ls[0], nil))
	for _, l := range ls[1:] {
		if collapse(text(l, nil)) != first {
			return true
		}
	}
	return false
}

// isVisibleControl reports whether n is a control a person would see as a
// separate field (hidden inputs are not).
func isVisibleControl(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Select, atom.Textarea, atom.Button:
		return true
	case atom.Input:
		return !strings.EqualFold(strings.TrimSpace(attr(n, "type")), "hidden")
	}
	return false
}

// tableText infers a label for a control in cell from the preceding cells
// of its row and the header of its column.
func tableText(cell *html.Node, sc *scope) (string, string) {
	row := cell.Parent
	if row == nil || row.DataAtom != atom.Tr {
		return "", ""
	}
	for s := cell.PrevSibling; s != nil; s = s.PrevSibling {
		if s.Type != html.ElementNode || (s.DataAtom != atom.Td && s.DataAtom != atom.Th) {
			continue
		}
		t, hadControl := trailing(s, sc, nil)
		if t = clipEnd(wordsOnly(collapse(t))); t != "" {
			if h := gridHeader(cell, s, row); h != "" {
				// A grid: the row's heading says whose, the column's
				// which field ("Passenger 1" / "First name").
				t = clip(t + " " + h)
			}
			if s.DataAtom == atom.Th {
				return t, "table-header"
			}
			return t, "preceding-text"
		}
		if hadControl {
			break
		}
	}
	col := column(cell)
	table := ancestor(row, atom.Table)
	if table == nil {
		return "", ""
	}
	for r := range rows(table) {
		if r == row {
			break
		}
		h := cellAt(r, col)
		if !heading(r, h) {
			continue
		}
		if t := clip(collapse(text(h, nil))); t != "" {
			return t, "table-header"
		}
	}
	return "", ""
}

// maxHeaderRows bounds how many rows at a table's top gridHeader reads
// as its header rows.
const maxHeaderRows = 3

// gridHeader returns the heading of cell's column when the table is a
// grid: a header row at its top names cell's column with a heading of its
// own, not one spanning the column of the row heading head.
func gridHeader(cell, head, row *html.Node) string {
	table := ancestor(row, atom.Table)
	if table == nil {
		return ""
	}
	col, headCol := column(cell), column(head)
	n := 0
	for r := range rows(table) {
		if r == row || n == maxHeaderRows {
			break
		}
		n++
		h := cellAt(r, col)
		if !heading(r, h) {
			continue
		}
		if cellAt(r, headCol) == h {
			return "" // a heading over the whole form ("Your details")
		}
		if firstLabelable(h) != nil {
			return "" // a control in the heading ("select all")
		}
		return clip(wordsOnly(collapse(text(h, nil))))
	}
	return ""
}

// rows yields the rows of table in order, not those of nested tables.
func rows(table *html.Node) iter.Seq[*html.Node] {
	return func(yield func(*html.Node) bool) {
		for c := table.FirstChild; c != nil; c = c.NextSibling {
			switch c.DataAtom {
			case atom.Tr:
				if !yield(c) {
					return
				}
			case atom.Thead, atom.Tbody, atom.Tfoot:
				for r := c.FirstChild; r != nil; r = r.NextSibling {
					if r.DataAtom == atom.Tr && !yield(r) {
						return
					}
				}
			}
		}
	}
}

// column returns the column index of cell, counting colspans.
func column(cell *html.Node) int {
	col := 0
	for s := cell.PrevSibling; s != nil; s = s.PrevSibling {
		if s.DataAtom == atom.Td || s.DataAtom == atom.Th {
			col += colspan(s)
		}
	}
	return col
}

func colspan(cell *html.Node) int {
	s := attr(cell, "colspan")
	if s == "" {
		return 1 // absent: spare Atoi its error value
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 1 {
		return 1
	}
	return min(n, 1000)
}

// cellAt returns the cell of row covering column col.
func cellAt(row *html.Node, col int) *html.Node {
	at := 0
	for c := row.FirstChild; c != nil; c = c.NextSibling {
		if c.DataAtom != atom.Td && c.DataAtom != atom.Th {
			continue
		}
		at += colspan(c)
		if col < at {
			return c
		}
	}
	return nil
}
