// Package form owns what a form is: the snapshot model that every other part
// reasons over, the extraction of a snapshot from HTML (static pages and the
// serialized live DOM the extension sends), and the synthesis of declarative
// WebMCP tools from annotated forms.
package form

// A Snapshot is everything Tessera knows about the forms of one document (or
// one frame of it). It is plain data: it is built from HTML by Extract, sent
// over the wire by the extension, and read by heuristics and matcher.
type Snapshot struct {
	// URL is the document URL, when known (empty for a local file).
	URL string `json:"url,omitempty"`
	// Lang is the document language (the html element's lang attribute).
	Lang string `json:"lang,omitempty"`
	// Title is the document title.
	Title string `json:"title,omitempty"`
	// Forms lists the <form> elements in document order.
	Forms []Form `json:"forms"`
	// Controls lists every input, select and textarea element in document
	// order, hidden ones included: Controls[i].Index == i. Controls outside
	// any form have FormIndex -1.
	Controls []Control `json:"controls"`
	// Tools lists the non-form elements (<a>, <button>) that carry a draft
	// dialect tool-name attribute, in document order.
	Tools []ToolElement `json:"tools,omitempty"`
	// Links lists <link rel=...> elements relevant to forms (formspec
	// sidecars), in document order.
	Links []Link `json:"links,omitempty"`
}

// A Form is one <form> element.
type Form struct {
	Index int `json:"index"`
	// Order is the form's place in document order among the elements that
	// may declare a tool (forms and ToolElements), counted from 0.
	Order  int    `json:"order"`
	Ref    string `json:"ref"`
	ID     string `json:"id,omitempty"`
	Name   string `json:"name,omitempty"`
	Action string `json:"action,omitempty"`
	Method string `json:"method,omitempty"`
	// Attrs holds the form's tool-related attributes verbatim (toolname,
	// tooldescription, toolautosubmit, tool-name, tool-title, ...), keyed by
	// lower-case attribute name. Present-but-empty attributes map to "".
	Attrs map[string]string `json:"attrs,omitempty"`
	// Controls are the indexes into Snapshot.Controls of the controls that
	// belong to this form (descendants and form= owners), in document order.
	Controls []int `json:"controls"`
	// ButtonNames are the names of the form's enabled <button> elements,
	// in document order. They are no parameters, but Chromium drops a
	// toolname parameter whose name a button shares.
	ButtonNames []string `json:"buttonNames,omitempty"`
}

// A ToolElement is an <a> or <button> that declares a draft-dialect tool.
type ToolElement struct {
	// Order is the element's place in document order among the elements
	// that may declare a tool (forms and ToolElements), counted from 0.
	Order int               `json:"order"`
	Ref   string            `json:"ref"`
	Tag   string            `json:"tag"`
	Href  string            `json:"href,omitempty"`
	Text  string            `json:"text,omitempty"`
	Attrs map[string]string `json:"attrs,omitempty"`
	// FormIndex is the form a <button> submits (-1 when none).
	FormIndex int `json:"formIndex"`
	// FormAction and FormMethod are a <button>'s formaction and formmethod
	// attributes, which override its form's action and method.
	FormAction string `json:"formAction,omitempty"`
	FormMethod string `json:"formMethod,omitempty"`
}

// A Link is a <link> element (rel and href as written).
type Link struct {
	Rel  string `json:"rel"`
	Href string `json:"href"`
}

// A Control is one input, select or textarea element.
type Control struct {
	// Index is the control's position among all input/select/textarea
	// elements of the document, in document order, hidden ones included.
	Index int `json:"index"`
	// Ref is a stable reference to the element: the extension's data
	// attribute stamp when present (data-tessera-ref), else a path
	// synthesised from the document position.
	Ref       string `json:"ref"`
	FormIndex int    `json:"formIndex"`
	// Tag is "input", "select" or "textarea".
	Tag string `json:"tag"`
	// Type is the lower-cased input type ("text" when absent or unknown),
	// "select-one"/"select-multiple" for selects, "textarea" for textareas.
	Type string `json:"type"`
	Name string `json:"name,omitempty"`
	ID   string `json:"id,omitempty"`
	// Autocomplete is the raw autocomplete attribute; AutocompleteInfo is
	// its parse.
	Autocomplete     string            `json:"autocomplete,omitempty"`
	AutocompleteInfo *AutocompleteInfo `json:"autocompleteInfo,omitempty"`
	Placeholder      string            `json:"placeholder,omitempty"`
	AriaLabel        string            `json:"ariaLabel,omitempty"`
	// AriaLabelledBy and AriaDescribedBy are the resolved texts of the
	// referenced elements.
	AriaLabelledBy  string `json:"ariaLabelledBy,omitempty"`
	AriaDescribedBy string `json:"ariaDescribedBy,omitempty"`
	AriaDescription string `json:"ariaDescription,omitempty"`
	Title           string `json:"title,omitempty"`
	// Label is the label a person sees (label[for], wrapping label,
	// aria-labelledby, then nearby text), whitespace-collapsed.
	Label string `json:"label,omitempty"`
	// LabelSource says where Label came from: "label-for", "label-wrap",
	// "aria-labelledby", "aria-label", "following-label" (a label element
	// after the control that labels nothing else), "preceding-text",
	// "table-header", "dt", "placeholder", "title" or "".
	LabelSource string `json:"labelSource,omitempty"`
	// LabelElementText is the text of a <label> element associated with the
	// control (for= or wrapping) excluding text of nested controls; it
	// feeds WebMCP descriptions ("label text").
	LabelElementText string `json:"labelElementText,omitempty"`
	// LabelTexts are the texts of every label element of the control
	// (label[for] and the wrapping label, as the DOM's control.labels lists
	// them, in document order), each its text content without the text of
	// the controls inside it (a select's options, a textarea's or a
	// button's text), trimmed of white space but otherwise as written:
	// Chromium builds toolname parameter descriptions and option titles
	// from exactly these.
	LabelTexts []string `json:"labelTexts,omitempty"`
	// NearbyText is text immediately before the control in its container,
	// even when a label exists (a second opinion for heuristics).
	NearbyText string `json:"nearbyText,omitempty"`
	// Heading is the text of the last heading (h1 to h6, or an element
	// with role=heading) before the control inside its form, if any: the section the form puts it in
	// ("Your details", "Send as a gift", "Emergency contact").
	Heading string `json:"heading,omitempty"`
	// Legends lists the enclosing fieldset legends, innermost first.
	Legends []string `json:"legends,omitempty"`
	// Fieldsets lists the enclosing fieldsets, innermost first (name and
	// tool attributes), for WebMCP nesting and group descriptions.
	Fieldsets []Fieldset `json:"fieldsets,omitempty"`
	// Value is the current value (value attribute, selected option, textarea
	// text, or the live value reported by the extension).
	Value   string `json:"value,omitempty"`
	Checked bool   `json:"checked,omitempty"`
	// Options lists a select's options (or, for radio buttons and
	// checkboxes, this one control's own value and label as one option).
	Options     []Option    `json:"options,omitempty"`
	Multiple    bool        `json:"multiple,omitempty"`
	Constraints Constraints `json:"constraints"`
	Disabled    bool        `json:"disabled,omitempty"`
	ReadOnly    bool        `json:"readonly,omitempty"`
	InputMode   string      `json:"inputmode,omitempty"`
	Visibility  Visibility  `json:"visibility"`
	// Attrs holds the control's tool-related and data attributes verbatim
	// (toolparamdescription, toolparamtitle, tool-param-*, tool-elicit,
	// data-name, data-bind, form, ...), keyed by lower-case name.
	Attrs map[string]string `json:"attrs,omitempty"`
	// Frame names the frame the control lives in ("" for the top document).
	Frame string `json:"frame,omitempty"`
}

// An AutocompleteInfo is the parse of an autocomplete attribute according to
// the WHATWG autofill detail tokens.
type AutocompleteInfo struct {
	// Section is the "section-*" token, if any.
	Section string `json:"section,omitempty"`
	// Mode is "shipping" or "billing", if given.
	Mode string `json:"mode,omitempty"`
	// Contact is "home", "work", "mobile", "fax" or "pager", if given.
	Contact string `json:"contact,omitempty"`
	// Field is the autofill field name ("given-name", "tel", ...); empty when
	// the attribute has no valid field name.
	Field string `json:"field,omitempty"`
	// Webauthn reports whether the "webauthn" token was present.
	Webauthn bool `json:"webauthn,omitempty"`
	// Off reports whether the attribute is "off"; On whether it is "on".
	Off bool `json:"off,omitempty"`
	On  bool `json:"on,omitempty"`
}

// An Option is one option of a select, or the value of a radio/checkbox.
type Option struct {
	Value    string `json:"value"`
	Text     string `json:"text"`
	Label    string `json:"label,omitempty"`
	Selected bool   `json:"selected,omitempty"`
	Disabled bool   `json:"disabled,omitempty"`
	// Group is the label of the enclosing <optgroup>, if any.
	Group string `json:"group,omitempty"`
	// TextContent is the option's text as written, white space included,
	// when it differs from Text (Chromium's toolname titles use it).
	TextContent string `json:"textContent,omitempty"`
}

// Constraints are the validation attributes of a control, as written.
// Empty strings mean "absent".
type Constraints struct {
	Required  bool   `json:"required,omitempty"`
	Pattern   string `json:"pattern,omitempty"`
	Min       string `json:"min,omitempty"`
	Max       string `json:"max,omitempty"`
	Step      string `json:"step,omitempty"`
	MinLength int    `json:"minLength,omitempty"` // 0: absent
	MaxLength int    `json:"maxLength,omitempty"` // 0: absent
}

// A Fieldset is one enclosing <fieldset>.
type Fieldset struct {
	// Index identifies the fieldset element within the snapshot (its
	// position among the document's elements), so that controls can be
	// told to share one.
	Index  int               `json:"index"`
	Name   string            `json:"name,omitempty"`
	Legend string            `json:"legend,omitempty"`
	Attrs  map[string]string `json:"attrs,omitempty"`
}

// Visibility holds what is known about whether a person can see a control.
// Static extraction fills the attribute-derived facts; the extension adds
// measured ones (Measured true).
type Visibility struct {
	// Hidden reports whether the control is known to be invisible: type
	// hidden, the hidden attribute, inline display:none or
	// visibility:hidden on it or an ancestor, aria-hidden on it or an
	// ancestor, or (measured) zero size, transparent, off-screen, covered.
	Hidden bool `json:"hidden"`
	// Reason says why Hidden is true ("type-hidden", "hidden-attr",
	// "display-none", "visibility-hidden", "aria-hidden", "zero-size",
	// "transparent", "offscreen", "covered", "cross-origin-frame").
	Reason string `json:"reason,omitempty"`
	// Measured reports whether the facts come from a live layout.
	Measured bool `json:"measured,omitempty"`
}
