package matcher

// EvidenceKind says where a field's concept came from.
type EvidenceKind string

// The kinds of concept evidence, strongest first.
const (
	EvidenceOntology     EvidenceKind = "ontology"
	EvidenceRegistry     EvidenceKind = "registry"
	EvidenceSemanticType EvidenceKind = "semanticType"
	EvidenceAutocomplete EvidenceKind = "autocomplete"
	EvidenceHeuristic    EvidenceKind = "heuristic"
)

// Evidence is one claim about a field's concept.
type Evidence struct {
	Kind EvidenceKind `json:"kind"`
	// Concept is the concept IRI (or, for semanticType, the literal).
	Concept string `json:"concept"`
	// Token is the autocomplete field name the claim came with ("tel-area-code",
	// "address-line2", ...); it names the part of the concept the field wants.
	Token string `json:"token,omitempty"`
	// Strength is the classifier's confidence for heuristic evidence; the
	// other kinds have fixed strengths (see the package doc) and ignore it.
	Strength float64 `json:"strength,omitempty"`
}

// Option is one choice of a select, or one radio button of a group.
type Option struct {
	Value    string `json:"value"`
	Text     string `json:"text,omitempty"`
	Disabled bool   `json:"disabled,omitempty"`
}

// Constraints are a field's validation rules, as written on the page.
type Constraints struct {
	Pattern   string `json:"pattern,omitempty"`
	Min       string `json:"min,omitempty"`
	Max       string `json:"max,omitempty"`
	Step      string `json:"step,omitempty"`
	MinLength int    `json:"minLength,omitempty"`
	MaxLength int    `json:"maxLength,omitempty"`
}

// A Field is one fillable thing of a form, as the matcher sees it: an HTML
// control (see FieldsFromSnapshot) or a Formspec item (see
// FieldsFromDefinition).
type Field struct {
	// Index is the caller's position of the field (the control index for
	// HTML forms); Match keeps it in its results.
	Index int `json:"index"`
	// Path is the Formspec field path, or for HTML the control's name (id
	// when it has none); it keys Ontology bindings and profile.fields.
	Path  string `json:"path,omitempty"`
	Label string `json:"label,omitempty"`
	// DataType is the Formspec dataType ("string", "date", "choice", ...);
	// empty for HTML controls, whose InputType says it.
	DataType string `json:"dataType,omitempty"`
	// InputType is the HTML input type ("text", "tel", "date", "select-one",
	// "radio", "textarea", ...); empty for Formspec items.
	InputType    string `json:"inputType,omitempty"`
	SemanticType string `json:"semanticType,omitempty"`
	// Evidence lists the non-Formspec concept claims (autocomplete, heuristic).
	Evidence []Evidence `json:"evidence,omitempty"`
	// Part overrides the part of the concept the field wants when no token
	// says it: "house-number", "street-name", or any autocomplete field name.
	Part        string      `json:"part,omitempty"`
	Placeholder string      `json:"placeholder,omitempty"`
	Constraints Constraints `json:"constraints,omitempty"`
	Options     []Option    `json:"options,omitempty"`
	// Group joins radio buttons of one group (same form and name).
	Group       string `json:"group,omitempty"`
	ReadOnly    bool   `json:"readonly,omitempty"`
	Disabled    bool   `json:"disabled,omitempty"`
	Hidden      bool   `json:"hidden,omitempty"`
	NonRelevant bool   `json:"nonRelevant,omitempty"`
	InputMode   string `json:"inputmode,omitempty"`
	// Lang is the language of the page or form (BCP 47).
	Lang string `json:"lang,omitempty"`
	// Country is the ISO 3166-1 code of the country the form is for, when
	// the page says it (the option chosen in the form's country select, or
	// the site's country-code domain); "" when it does not.
	Country string `json:"country,omitempty"`
}
