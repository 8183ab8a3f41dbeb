package heuristics

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/tessera-app/tessera/form"
	"github.com/tessera-app/tessera/heuristics/internal/linear"
	"github.com/tessera-app/tessera/internal/parallel"
	"github.com/tessera-app/tessera/profile"
)

// MinConfidence is the confidence below which Classify predicts no token:
// filling the wrong data is worse than filling nothing.
const MinConfidence = 0.5

// A Result is the classification of one control.
type Result struct {
	// Index is the control's index in Snapshot.Controls.
	Index int `json:"index"`
	// Token is the WHATWG autofill field name, or "" when the control is
	// not (confidently) a known field.
	Token string `json:"token,omitempty"`
	// Concept is the concept IRI of Token, or "".
	Concept string `json:"concept,omitempty"`
	// Confidence is how sure the classification is, from 0 to 1. With the
	// learned model it is calibrated per kind of verdict (Verdict): of the
	// fills shown at 0.9, about nine in ten were right on sites the model
	// did not learn from. Boxes the page does not show keep a discounted,
	// uncalibrated confidence, and no fill is shown under MinConfidence.
	Confidence float64 `json:"confidence"`
	// Decision is the confidence that decides what is offered and what
	// starts ticked (MinConfidence here, the matcher's threshold, the
	// dialog's ticks): the classifier's own, before calibration, and the
	// rules' own where the learned model doubts them without overruling
	// them (the rules' verdict stands; the model's doubt shows in
	// Confidence).
	// Calibration changes what the dialog shows (Confidence), never what
	// is filled. Use DecisionConfidence, which also serves a Result made
	// without it.
	Decision float64 `json:"-"`
	// Section and Mode carry the autocomplete section ("section-*") and
	// shipping/billing mode when the page declared them.
	Section string `json:"section,omitempty"`
	Mode    string `json:"mode,omitempty"`
	// Part names the part of the token's value the field holds, when a
	// form splits it: "first-surname" and "second-surname" for the two
	// family names of Spanish-speaking forms (apellido paterno and
	// materno), "postal-code-1" and "postal-code-2" for a postcode in two
	// boxes, "postal-code-and-city" and "city-and-postal-code" for a
	// postcode box that asks for the town too ("Postcode / Town"),
	// "city-region-postal-code" for one that asks for the town, the
	// region and the postcode ("City, State, ZIP"),
	// "house-number" and "street-name" for the parts of the first
	// street line, "floor", "apartment", "building" and "staircase" for
	// the parts of the second (address-line2 boxes labelled for one of
	// them), "international" for a whole phone number asked for with its
	// calling code ("Phone (with country code)"). Empty when the field
	// holds the whole value.
	Part string `json:"part,omitempty"`
	// Optional marks a box to be offered unticked, never filled without
	// the person choosing it, though recognised: one the page itself says
	// is optional that asks for data forms seldom need (an employer, a
	// title; see optionalData), or one asking for data given only by
	// choice (a gender, byChoiceData), whatever the page says. Evidence
	// says which: rule "optional" or "by-choice".
	Optional bool `json:"optional,omitempty"`
	// Evidence lists the signals that decided, strongest first.
	Evidence []Evidence `json:"evidence,omitempty"`
	// verdict is set by the learned model where it weighed the rules'
	// token ("agree" or "doubted"), and to "hidden" for a box the page
	// does not show (see Verdict).
	verdict string
}

// DecisionConfidence is the confidence that decides what is offered and
// ticked: Decision, or Confidence for a Result made without one.
func (r Result) DecisionConfidence() float64 {
	if r.Decision > 0 {
		return r.Decision
	}
	return r.Confidence
}

// Shown scales a confidence computed from DecisionConfidence (a match's,
// which multiplies it by how sure the value's adaptation is) to the one
// the dialog shows, by the ratio calibration applied to this Result.
func (r Result) Shown(c float64) float64 {
	d := r.DecisionConfidence()
	if d <= 0 || r.Confidence == d {
		return c
	}
	return min(max(c*r.Confidence/d, 0), 1)
}

// Verdict names who decided the token, the kind of verdict whose
// confidence one calibration map reads: "autocomplete" (the page declared
// it), "model" (the learned model overrode the rules or spoke where they
// were silent), "agree" (the model's likeliest class is the rules'),
// "doubted" (the rules' token stands though the model is unsure of it),
// "rule" (the rules alone), or "hidden" for a box the page does not show
// (whoever decided: its confidence is discounted, not calibrated).
func (r Result) Verdict() string {
	switch {
	case r.verdict == "hidden":
		return r.verdict
	case declared(r):
		return "autocomplete"
	case len(r.Evidence) > 0 && r.Evidence[0].Signal == "model":
		return "model"
	case r.verdict != "":
		return r.verdict
	}
	return "rule"
}

// Evidence is one signal that contributed to a Result.
type Evidence struct {
	// Signal names where the evidence came from: "autocomplete", "type",
	// "tool-param", "label", "name", "id", "placeholder", "aria-label",
	// "aria-labelledby", "aria-describedby", "title", "nearby", "legend",
	// "options", a structural pass ("pass:name-pair", ...) or "policy"
	// (rule ByChoice: offered unticked whatever the page says).
	Signal string `json:"signal"`
	// Rule is the id of the keyword rule or pass that fired.
	Rule string `json:"rule"`
	// Text is the normalized text the rule matched, when there was one.
	Text string `json:"text,omitempty"`
}

// A source is one place a control carries text evidence, with the weight
// that evidence has. Sources are ordered from the strongest signal to the
// weakest; the first that matches a rule decides.
type source struct {
	signal string
	weight float64
	text   func(c *form.Control) string
	// ident marks identifiers (name, id), read from the right.
	ident bool
}

var sources = []source{
	{"tool-param", 0.95, toolParamText, false},
	{"label", 0.9, func(c *form.Control) string { return labelText(c, true) }, false},
	{"aria-label", 0.9, func(c *form.Control) string { return c.AriaLabel }, false},
	{"aria-labelledby", 0.85, func(c *form.Control) string { return c.AriaLabelledBy }, false},
	{"name", 0.85, func(c *form.Control) string { return c.Name }, true},
	{"id", 0.85, func(c *form.Control) string { return c.ID }, true},
	{"placeholder", 0.85, placeholderText, false},
	{"label", 0.8, func(c *form.Control) string { return labelText(c, false) }, false},
	{"title", 0.75, func(c *form.Control) string { return c.Title }, false},
	{"aria-describedby", 0.6, func(c *form.Control) string { return c.AriaDescribedBy }, false},
	{"nearby", 0.6, func(c *form.Control) string { return c.NearbyText }, false},
}

// placeholderText returns the words of a box's placeholder, none when it
// is an example e-mail address: "name@example.com" says the box takes an
// e-mail (exampleShape), not a name.
func placeholderText(c *form.Control) string {
	if strings.IndexByte(c.Placeholder, '@') >= 0 && exampleEmail().MatchString(strings.TrimSpace(c.Placeholder)) {
		return ""
	}
	return c.Placeholder
}

// maxSources bounds len(sources): classifyWords keeps a control's texts
// in an array of that size (a source more and every classification
// panics, which any test shows).
const maxSources = 16

// raw returns the source's text of control c, an identifier's last
// maxIdentBytes bytes: identifiers name the field last
// ("panel.mainContent:...:card:firstName"), and normalize keeps a text's
// beginning.
func (src source) raw(c *form.Control) string {
	t := src.text(c)
	if !src.ident || len(t) <= maxIdentBytes {
		return t
	}
	t = t[len(t)-maxIdentBytes:]
	// Start at a separator, not inside a word or a rune.
	if i := strings.IndexFunc(t, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != utf8.RuneError }); i >= 0 {
		t = t[i:]
	}
	return t
}

// maxIdentBytes bounds the identifier text rules read: its normalized
// words stay under maxTextLen.
const maxIdentBytes = maxTextLen * 3 / 4

// toolParamText is the declarative WebMCP description of a control, in
// either dialect.
func toolParamText(c *form.Control) string {
	for _, k := range []string{"toolparamdescription", "tool-param-description", "toolparamtitle", "tool-param-title"} {
		if v := c.Attrs[k]; v != "" {
			return v
		}
	}
	return ""
}

// labelText returns the control's visible label. explicit selects labels a
// page tied to the control (label elements, aria-labelledby); otherwise it
// returns labels inferred from layout (preceding text, table headers, dt).
// Labels taken from the placeholder, title or aria-label are left to those
// sources, which carry their own weights.
func labelText(c *form.Control, explicit bool) string {
	switch c.LabelSource {
	case "label-for", "label-wrap", "aria-labelledby":
		if explicit {
			if c.LabelElementText != "" {
				return c.LabelElementText
			}
			return c.Label
		}
	case "preceding-text", "following-label", "table-header", "dt":
		if !explicit {
			return c.Label
		}
	}
	return ""
}

// controlKind maps a control to the rule kinds that apply to it; 0 means the
// control holds no profile data at all (buttons, files, checkboxes).
func controlKind(c *form.Control) controlKinds {
	switch c.Tag {
	case "select":
		return ckSelect
	case "textarea":
		return ckTextarea
	}
	switch c.Type {
	case "hidden", "submit", "button", "image", "reset", "file", "checkbox",
		"color", "range":
		return 0
	case "radio":
		return ckChoice
	}
	return ckText
}

// Classify classifies every control of a snapshot, returning one Result per
// control in Snapshot.Controls order. Hidden controls are classified too
// (the page may reveal them) with lower confidence.
func Classify(s *form.Snapshot) []Result {
	return classify(s, model())
}

// ClassifyWithModel is Classify with the learned model read from a model
// file (as heuristics/cmd/train writes) instead of the one built in: the
// training command measures models it has not shipped with it.
func ClassifyWithModel(s *form.Snapshot, modelFile []byte) ([]Result, error) {
	lm, err := linear.Decode(modelFile)
	if err != nil {
		return nil, err
	}
	return classify(s, lm), nil
}

// classify is Classify with the learned model lm (nil: the rules alone).
func classify(s *form.Snapshot, lm *linear.Model) []Result {
	if s == nil {
		return nil
	}
	// Pages repeat their words (the same labels in a shipping and a billing
	// form, placeholders equal to labels): match each text once.
	memo := newMemo(len(s.Controls))
	defer memo.release()
	out := classifyRules(s, memo)
	if lm != nil {
		applyModel(s, out, memo, lm)
		afterModel(s, out)
	}
	parallel.Chunks(len(out), controlChunk, func(lo, hi int) { settle(s, out, lo, hi, lm, memo) })
	combinePostcodeCity(s, out, memo)
	return out
}

// settle gives the results of the controls lo to hi-1 what the page and
// the calibration say of them beyond their token: the discount of a
// hidden box, optional data offered unticked, the least confidence
// filled, the confidence shown, the part of a line a box takes, and the
// concept filled.
func settle(s *form.Snapshot, out []Result, lo, hi int, lm *linear.Model, memo *memo) {
	for i := lo; i < hi; i++ {
		r := &out[i]
		if s.Controls[i].Visibility.Hidden {
			// Invisible controls are often decoys or duplicates of a visible
			// field: the same words are weaker evidence there.
			r.Confidence *= 0.75
			r.Decision *= 0.75
			r.verdict = "hidden"
		}
		if c := &s.Controls[i]; c.ReadOnly && c.Visibility.Hidden && !IsGuardToken(r.Token) {
			// Neither shown nor editable: a stand-in for a field that lives
			// elsewhere (a payment provider's frame), never filled itself.
			r.Confidence *= 0.5
			r.Decision *= 0.5
		}
		if c := &s.Controls[i]; optionalData[r.Token] && !c.Constraints.Required && labelSays(c, optionalWord(), memo) {
			// A box the page itself marks optional that asks for data no
			// order or sign-up needs (an employer on a shipping address,
			// a gender) is one people leave empty: volunteering profile
			// data there discloses more than the site asked for. It is
			// still recognised, so that a person who wants it filled can
			// tick it; callers offer it unticked.
			r.Optional = true
			r.Evidence = append(r.Evidence, Evidence{Signal: "label", Rule: "optional"})
		} else if byChoiceData[r.Token] {
			// A gender is the person's to give, box by box: offered with
			// its value, never ticked for them, required or not (the
			// browsers' own autofill never fills one).
			r.Optional = true
			r.Evidence = append(r.Evidence, Evidence{Signal: "policy", Rule: ByChoice})
		}
		if r.Decision == 0 {
			r.Decision = r.Confidence
		}
		if r.Decision < MinConfidence && r.Token != "" && !IsGuardToken(r.Token) {
			r.Token = ""
		}
		if lm != nil && r.Token != "" && !IsGuardToken(r.Token) && r.verdict != "hidden" {
			// Show how often fills shown so were right on sites neither
			// the rules nor the model were tuned on (heuristics/cmd/train,
			// the corpus's calibration quarter), by who
			// decided (Verdict: the same number means other odds from
			// the page's autocomplete, the rules or the model), at least
			// the least confidence filled: calibration changes what the
			// dialog shows, not what is filled. Hidden boxes keep their
			// discount: on a live page they are decoys more often than
			// on the corpus's captures (there they were right about 9
			// times in 10, shown at about 2 in 3: the safe side).
			r.Confidence = max(float64(lm.Calibrate(r.Verdict(), float32(r.Confidence))), MinConfidence)
		}
		if r.Token == "address-line2" && r.Part == "" {
			// A box for one part of the second line (a floor, a door)
			// takes that part, not the whole line.
			r.Part = linePartM(&s.Controls[i], memo)
		}
		if r.Token == "tel" && r.Part == "" && labelSays(&s.Controls[i], withCallingCode(), memo) {
			// "Phone (with country code)": the whole number, spelled
			// with its calling code whatever country the form is for.
			r.Part = "international"
		}
		if r.Token == "" {
			r.Concept, r.Optional = "", false
		} else {
			r.Concept, _ = profile.ConceptForToken(r.Token)
		}
	}
}

// classifyRules classifies every control by the rules alone: each
// control's own evidence, then the structural passes over each form.
func classifyRules(s *form.Snapshot, m *memo) []Result {
	out := make([]Result, len(s.Controls))
	// Each control's own words first, on every core (parallel.Chunks); the
	// passes then read the form as a whole.
	parallel.Chunks(len(out), controlChunk, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			out[i] = classifyControl(&s.Controls[i], m, m.ownOf(i))
		}
	})
	applyPasses(s, out)
	return out
}

// optionalData lists the tokens of data a form seldom needs: offered
// unticked (Result.Optional) when the page marks the box optional.
var optionalData = map[string]bool{
	"organization": true, "organization-title": true, "sex": true, "honorific-prefix": true,
	"honorific-suffix": true, "nickname": true, "address-line3": true, "url": true,
}

// byChoiceData lists the tokens of data offered unticked on every page
// (Result.Optional): what a person discloses only by choosing to.
var byChoiceData = map[string]bool{"sex": true}

// GivenByChoice reports whether the data of a profile concept is given only
// by choice (byChoiceData): what a Formspec or declared field of that
// concept is offered unticked for, like a box of its token.
func GivenByChoice(concept string) bool {
	for tok := range byChoiceData {
		if c, ok := profile.ConceptForToken(tok); ok && c == concept {
			return true
		}
	}
	return false
}

// ByChoice is the Evidence rule of a box offered unticked because the data
// it asks for is given only by choice (byChoiceData), not because the page
// marks it optional.
const ByChoice = "by-choice"

// optionalWord matches the words that mark a box optional, in the supported
// languages, over normalized text.
var optionalWord = lazyRE(`(?:^| )(?:optional|freiwillig|facultati[fv]|optionnel|opcional|facoltativo|opzionale|optioneel|facultatief|opcjonaln\S*|valfri(tt)?|frivillig(t)?|valgfri(tt?)?|valinnainen|vapaaehtoinen|nepovinn\S*|nem kotelezo|προαιρετικ\S*|необязательн\S*|необов'язков\S*|opsional|tidak wajib|istege bagli|opsiyonel|khong bat buoc|niet verplicht|nicht erforderlich|non obbligatorio|no obligatorio|nao obrigatorio|اختیاری|לא חובה|אופציונלי)(?: |$)|任意|选填|可选|選填|선택`)

// labelSays reports whether a control's label, aria-label or placeholder
// holds words re matches (over normalized text): a box marked optional
// (optionalWord), a phone box asking for its calling code
// (withCallingCode).
func labelSays(c *form.Control, re *regexp.Regexp, m *memo) bool {
	for _, t := range []string{c.Label, c.LabelElementText, c.AriaLabel, c.Placeholder} {
		if t != "" && re.MatchString(m.normalize(t)) {
			return true
		}
	}
	return false
}

// withCallingCode matches the words that ask for a number with its
// calling code ("with country code", "mit Ländervorwahl", "com DDI"),
// over normalized text.
var withCallingCode = lazyRE(`(?:^| )(?:with|incl\w*|including|plus|mit|einschliesslich|con|incluyendo|incluido|com|incluindo|avec|y compris|incluso|compreso|met|inclusief) (?:the |your |der |el |o |l |il |het )?(?:country ?(?:code|prefix)|dial(?:l?ing)? code|calling code|international (?:code|prefix)|landervorwahl|landesvorwahl|codigo (?:de |del )?pais|codigo do pais|ddi|indicatif|prefisso internazionale|prefijo internacional|landcode)(?: |$)`)

// IsGuardToken reports whether a token names a credential or one-time code:
// such fields are recognised so that profile data never goes into them.
func IsGuardToken(token string) bool {
	switch token {
	case "username", "current-password", "new-password", "one-time-code":
		return true
	}
	return false
}

// classifyControl applies the per-control rules: a valid autocomplete field
// name (unless it is a known misuse), else the words.
//
// own, when not nil, keeps the control's normalized texts (ownTexts).
func classifyControl(c *form.Control, memo *memo, own *ownTexts) Result {
	r := Result{Index: c.Index}
	if controlKind(c) == 0 {
		r.Evidence = []Evidence{{Signal: "type", Rule: "not-fillable", Text: c.Type}}
		return r
	}
	kw := classifyWords(c, memo, own)
	if len(kw.Evidence) > 0 && kw.Evidence[0].Rule == "address" {
		kw.Token = numberedAddressLine(kw.Token, kw.Evidence[0].Text)
	}
	ac := c.AutocompleteInfo
	if ac == nil || ac.Field == "" {
		return kw
	}
	if _, ok := profile.ConceptForToken(ac.Field); !ok {
		return kw
	}
	if tok, ok := overrides(ac.Field, kw.Token, c); ok {
		// The page's token contradicts plainer evidence in a way pages are
		// known to get wrong; keep what the words say.
		kw.Token = tok
		kw.Evidence = append(kw.Evidence, Evidence{Signal: "autocomplete", Rule: "overridden", Text: c.Autocomplete})
		return kw
	}
	r.Token, r.Confidence = ac.Field, 0.99
	r.Section, r.Mode = ac.Section, ac.Mode
	r.Evidence = []Evidence{{Signal: "autocomplete", Rule: "autocomplete", Text: c.Autocomplete}}
	return r
}

// overrides decides the known misuses of autocomplete: a password token on
// a box that is not a password (a trick to stop browsers filling it), and
// card-holder or full-name tokens on boxes whose words say "first name" or
// "last name" (billing names marked as card names). It returns the token to
// use instead and whether to use it.
func overrides(acTok, kwTok string, c *form.Control) (string, bool) {
	switch acTok {
	case "new-password", "current-password":
		if c.Type != "password" {
			return kwTok, true
		}
	case "cc-given-name", "cc-family-name", "name":
		if kwTok == "given-name" || kwTok == "family-name" {
			return kwTok, true
		}
	}
	return "", false
}

// classifyWords classifies a control from everything but its autocomplete
// attribute: the input type, then keyword rules over each text source.
func classifyWords(c *form.Control, memo *memo, own *ownTexts) Result {
	r := Result{Index: c.Index}
	kind := controlKind(c)
	if c.Type == "search" {
		if m, src, t := shownPlace(c, kind, memo); m != nil {
			// A search box the person sees labelled "Postcode" or
			// "City": a list of places to pick one's own from as one
			// types (see postcode-lookup), not a site search.
			r.Token, r.Confidence = m.token, src.weight*m.weight
			r.Evidence = []Evidence{{Signal: src.signal, Rule: m.id, Text: t}, {Signal: "type", Rule: "search", Text: c.Type}}
			return r
		}
		if src, t := shownCountry(c, memo); t != "" {
			// A combobox showing the country picked ("Japan").
			r.Token, r.Confidence = "country", src.weight*shownCountryWeight
			r.Evidence = []Evidence{{Signal: src.signal, Rule: "country", Text: t}, {Signal: "type", Rule: "search", Text: c.Type}}
			return r
		}
		r.Evidence = []Evidence{{Signal: "type", Rule: "search", Text: c.Type}}
		return r
	}

	var decided *rule
	var ev Evidence
	weight, from := 0.0, -1
	var textsBuf [maxSources]string // on the stack: one per control
	texts := textsBuf[:len(sources)]
	if own != nil {
		texts = own.texts
	}
	for i, src := range sources {
		texts[i] = memo.normalize(src.raw(c))
		if decided != nil {
			continue
		}
		if m := memo.match(texts[i], kind, src.ident); m != nil && !m.neutral {
			decided, weight, from = m, src.weight*m.weight, i
			ev = Evidence{Signal: src.signal, Rule: m.id, Text: texts[i]}
		}
	}
	if own != nil {
		own.kept = true
	}
	// shownEmail reports whether a text the person sees (a label, an
	// aria-label, a placeholder; not a name or id) says e-mail: then the
	// box asks for the e-mail address the site uses as the login, which on
	// a sign-up or checkout form is the person's e-mail, whatever the
	// name ("username", "login") says.
	// The same holds for a shown "Full name", "Name and surname": the
	// person's name, not a login.
	shownEmail := func() (int, *rule) {
		for i, src := range sources {
			if src.ident || src.weight < 0.8 || texts[i] == "" {
				continue
			}
			if m := memo.match(texts[i], kind, false); m != nil && (m.token == "email" || wholeName(m.id)) {
				return i, m
			}
		}
		return -1, nil
	}
	if decided != nil && sources[from].ident && (decided.token == "username" || decided.kind == kindVeto && !decided.qualifies && c.Type == "email") {
		// An e-mail box whose name a word vetoes in passing
		// ("emailType") that the person sees labelled "Email" asks for
		// the address all the same; a name that says whose it is
		// ("giftcard_email") still decides.
		if i, m := shownEmail(); m != nil && (decided.token == "username" || m.token == "email") {
			decided, weight, from = m, sources[i].weight*m.weight, i
			ev = Evidence{Signal: sources[i].signal, Rule: m.id, Text: texts[i]}
		}
	}
	if decided != nil && sources[from].ident {
		// A name or id overruled by the first text the person sees
		// after it (shownOverrules): sites reuse their field names.
		for i := from + 1; i < len(sources); i++ {
			if sources[i].ident || sources[i].weight < 0.8 || texts[i] == "" {
				continue
			}
			if m := memo.match(texts[i], kind, false); m != nil && shownOverrules(decided, ev.Text, m) {
				decided, weight, from = m, sources[i].weight*m.weight, i
				ev = Evidence{Signal: sources[i].signal, Rule: m.id, Text: texts[i]}
			}
			break
		}
	}
	if decided != nil && sources[from].ident && numberedAddress(decided, ev.Text, kind, memo) {
		// A numbered name that says only "address" ("addr01",
		// "addr02", "addr1", the boxes of Japanese shops) under a label
		// or placeholder the person reads as one part of it ("市区町村",
		// "番地", "建物名"): the shown words say which part, whatever
		// the number.
		for i, src := range sources[from+1:] {
			t := texts[from+1+i]
			if src.ident || src.weight < 0.8 || t == "" {
				continue
			}
			if m := memo.match(t, kind, false); m != nil && m.kind == kindTarget && !m.weak && m.id != "address" && (strings.HasPrefix(m.token, "address-") || m.token == "postal-code") {
				decided, weight, from = m, src.weight*m.weight, from+1+i
				ev = Evidence{Signal: src.signal, Rule: m.id, Text: t}
				break
			}
		}
	}
	if decided != nil && addressPart[decided.id] && sources[from].ident {
		// A row label that names several address parts ("Code postal /
		// Ville", "PLZ / Ort") says which box is which by its order; an
		// identifier the site gave every box of the row ("cp_ville_1")
		// does not.
		for i, src := range sources {
			if src.ident || src.weight < 0.8 || texts[i] == "" || len(labelParts(texts[i])) < 2 {
				continue
			}
			if m := memo.match(texts[i], kind, false); m != nil && addressPart[m.id] {
				decided, weight, from = m, src.weight*m.weight, i
				ev = Evidence{Signal: src.signal, Rule: m.id, Text: texts[i]}
			}
			break
		}
	}
	if decided != nil && decided.kind == kindTarget {
		// A name, id or label that says "password", "search" or "coupon"
		// outweighs a weaker source that looks like profile data.
		for i, src := range sources {
			if src.weight < 0.8 || texts[i] == "" || texts[i] == ev.Text {
				continue
			}
			m := memo.match(texts[i], kind, src.ident)
			if m != nil && m.token == "username" && src.ident && decided.token == "email" && !sources[from].ident {
				continue // see shownEmail
			}
			if m != nil && src.ident && !sources[from].ident && (c.Type == "email" || c.Type == "tel") && decided.token == c.Type {
				// The box's type and the words the person sees agree
				// ("Email" on an e-mail box): a name such as "emailType"
				// does not outweigh both.
				continue
			}
			if m != nil && m.id == "address-lookup" && src.signal == "placeholder" && src.weight <= sources[from].weight && !identSays(texts, kind, memo, m) {
				// A placeholder "Start typing your address" under a label
				// that names the street line, or on a box whose name does
				// ("addr1"), says how the box helps, not what it holds; a
				// finder the site itself names so ("address_lookup", a
				// label "Address lookup") stays one.
				continue
			}
			if m != nil && streetPart[m.id] && src.ident && !sources[from].ident {
				// A name such as "houseNumber" or "address.number" on a
				// box whose label asks for the flat or the floor
				// ("Apartment number", "Appartement, étage, porte"): sites
				// reuse the names of their street parts, and the words
				// the person sees say what the box holds.
				continue
			}
			if m != nil && src.ident && !sources[from].ident && decided.id == "address-line2" && m.id == "not-profile" {
				// "Ponto de referência", "Apartamento" shown on a box
				// named "reference" or "notes": the landmark or the flat
				// the label asks for, part of the second line.
				continue
			}
			if m != nil && src.ident && !sources[from].ident && wholeName(decided.id) && (m.id == "address-label" || m.token == "username") {
				// "Full name", "Name and surname" shown on a box named
				// "address_name" or "user_name": the recipient's or the
				// person's name, not a label for the address or a login.
				continue
			}
			if m != nil && src.ident && !sources[from].ident && shownOutweighs[m.id][decided.token] {
				continue
			}
			if m != nil && src.ident && !sources[from].ident && lookupFor(decided, m) {
				// A box the person sees labelled "Postcode" whose name
				// says "search" or "autocomplete" (a store finder, an
				// address finder keyed by postcode: see postcode-lookup)
				// asks for the postcode all the same.
				continue
			}
			if m != nil && m.kind != kindTarget && !m.neutral {
				decided, weight = m, src.weight*m.weight
				ev = Evidence{Signal: src.signal, Rule: m.id, Text: texts[i]}
				break
			}
		}
	}

	if decided != nil && decided.id == "search" && ev.Signal == "placeholder" {
		// "Search..." in a box a short label names a town, a region or
		// a postcode: a list to pick one's own from as one types, not a
		// site search.
		for i, src := range sources[from+1:] {
			if t := texts[from+1+i]; src.signal == "label" && t != "" {
				if strings.Count(t, " ") >= 4 {
					break
				}
				if m := memo.match(t, kind, false); m != nil && (addressPart[m.id] || m.id == "address-level3") {
					decided, weight = m, src.weight*m.weight
					ev = Evidence{Signal: src.signal, Rule: m.id, Text: t}
				}
				break
			}
		}
	}
	if decided != nil && findsBy[decided.id] {
		// A finder or a search box whose words name the postcode as
		// what to type ("Type your address or postcode", "Search for
		// city, neighborhood, zip", "autocomplete_zip"): the person types
		// their postcode there, as in a "Postcode search"
		// (postcode-lookup). One that asks for the street and the
		// postcode together ("Search by street and postcode") wants the
		// address, not the postcode alone.
		for i, src := range sources {
			if t := texts[i]; t != "" && src.weight >= 0.8 && postcodeKey(t) {
				decided, weight = ruleByID("postcode-lookup"), src.weight*0.8
				ev = Evidence{Signal: src.signal, Rule: decided.id, Text: t}
				break
			}
		}
	}
	if decided != nil && sentenceVeto[decided.id] && ev.Signal != "name" && ev.Signal != "id" && strings.Count(ev.Text, " ") >= 4 {
		// A word met in a sentence ("Sign up for sale and new arrivals",
		// "Subscribe to find out first about our offers", "Send password
		// reset instructions to this email") says less than a box that
		// asks for an e-mail address by its type or its other words: a
		// newsletter's or a reset form's box for the person's address.
		if c.Type == "email" {
			decided = nil
		} else {
			for i, src := range sources {
				if texts[i] == "" || texts[i] == ev.Text || src.weight < 0.8 {
					continue
				}
				if m := memo.match(texts[i], kind, src.ident); m != nil && m.token == "email" {
					decided, weight = m, src.weight*m.weight
					ev = Evidence{Signal: src.signal, Rule: m.id, Text: texts[i]}
					break
				}
			}
		}
	}

	switch c.Type {
	case "password":
		tok := "current-password"
		if decided != nil {
			switch decided.token {
			case "new-password", "one-time-code", "cc-csc", "cc-number":
				// Masked boxes also hold card codes and one-time codes.
				tok = decided.token
			}
		}
		r.Token, r.Confidence = tok, 0.95
		r.Evidence = append(r.Evidence, Evidence{Signal: "type", Rule: tok, Text: c.Type})
		if decided != nil {
			r.Evidence = append(r.Evidence, ev)
		}
		return r
	case "email":
		if decided == nil || (decided.kind == kindTarget && decided.token != "email") {
			r.Token, r.Confidence = "email", 0.9
			r.Evidence = []Evidence{{Signal: "type", Rule: "email", Text: c.Type}}
			return r
		}
	case "tel":
		if decided == nil {
			r.Token, r.Confidence = "tel", 0.8
			r.Evidence = []Evidence{{Signal: "type", Rule: "tel", Text: c.Type}}
			return r
		}
	}
	if decided == nil && kind == ckText {
		if tok := exampleShape(c.Placeholder); tok != "" {
			// No word says what the box holds, but its example does: an
			// e-mail address ("jane@example.com"), a phone number's
			// mask ("(555) 555-5555", "+44 7700 900123").
			r.Token, r.Confidence = tok, 0.7
			r.Evidence = []Evidence{{Signal: "placeholder", Rule: "example:" + tok, Text: c.Placeholder}}
			return r
		}
		if src, t := shownCountry(c, memo); t != "" {
			// A box whose only words are a country's name ("Brazil",
			// "Italia"): the text box of a country combobox, showing the
			// country picked, as a select shows its selected option.
			r.Token, r.Confidence = "country", src.weight*shownCountryWeight
			r.Evidence = []Evidence{{Signal: src.signal, Rule: "country", Text: t}}
			return r
		}
	}
	if decided == nil && c.Tag == "select" && areaCodeList(c) {
		// "휴대전화" (mobile phone) over 010, 011, 016, ...: the list
		// that starts a phone number split in boxes (Korea's mobile
		// prefixes, an area code list), which the phone-split pass
		// pairs with the boxes after it. A phone rule reads only text
		// boxes: no list holds a whole number.
		for i, src := range sources {
			if src.weight < 0.8 || texts[i] == "" {
				continue
			}
			if m := memo.match(texts[i], ckText, src.ident); m != nil && m.id == "tel" {
				r.Token, r.Confidence = "tel-area-code", src.weight*m.weight
				r.Evidence = []Evidence{{Signal: src.signal, Rule: "tel", Text: texts[i]}, {Signal: "options", Rule: "options:area-code"}}
				return r
			}
		}
	}
	sh := shapeNone
	if c.Tag == "select" || c.Type == "radio" {
		// Read the options once, for the checks and fromShape below.
		sh = optionShape(c)
	}
	if decided != nil && c.Tag == "select" && datePart[sh] && !dateToken(decided.token) {
		// A list of months or years is no town, name or street,
		// whatever its name says ("by", a birth year's, is a town in
		// Danish): the options say what the box holds, and the birth
		// date pass reads them with the lists around it.
		decided = nil
	}
	if decided == nil {
		if tok, conf, rule := fromShape(c, "", sh); tok != "" {
			r.Token, r.Confidence = tok, conf
			r.Evidence = []Evidence{{Signal: "options", Rule: rule}}
		}
		return r
	}
	r.Evidence = []Evidence{ev}
	if decided.kind == kindVeto {
		if decided.id == "not-profile" && c.Tag == "select" && sh == shapeCardBrand {
			// "Type" or "Card type" over Visa, Mastercard, ...: the
			// generic "... type" the veto knows is the card's brand here.
			tok, conf, rule := fromShape(c, "cc-type", sh)
			r.Token, r.Confidence = tok, conf
			r.Evidence = []Evidence{{Signal: "options", Rule: rule}, ev}
		}
		return r
	}
	r.Token, r.Confidence = decided.token, weight
	if c.Type == "radio" && decided.token == "cc-type" && !brandChoice(c) {
		// A button of a "payment_method" group that picks PayPal, cash
		// on delivery or "Credit card": the way to pay, not the card's
		// brand, which only buttons naming a brand choose.
		r.Token, r.Confidence = "", 0
		r.Evidence = append(r.Evidence, Evidence{Signal: "options", Rule: "options:no-card-brand"})
		return r
	}
	if c.Tag == "select" {
		if tok, conf, rule := fromShape(c, decided.token, sh); tok != "" {
			r.Evidence = append(r.Evidence, Evidence{Signal: "options", Rule: rule})
			r.Token, r.Confidence = tok, max(conf, weight)
		}
	}
	return r
}

// personName lists the tokens of a person's name and its parts.
var personName = map[string]bool{
	"name": true, "given-name": true, "family-name": true, "additional-name": true, "nickname": true,
	"honorific-prefix": true, "honorific-suffix": true,
	"phonetic-name": true, "phonetic-given-name": true, "phonetic-family-name": true,
}

// datePart lists the option shapes of a list of a date's parts that
// nothing else offers: months, years (1 to 31 may also be floors).
var datePart = map[shape]bool{shapeMonth: true, shapeYearPast: true, shapeYearFuture: true}

// dateToken reports whether a token asks for a date or a part of one (a
// birth date, a card's expiry), or for a number a list of numbers may
// offer (a card's security code, as some sites' lists are named); ""
// (a veto's) also stands over a list of dates.
func dateToken(tok string) bool {
	return strings.HasPrefix(tok, "bday") || strings.HasPrefix(tok, "cc-") || tok == ""
}

// exampleShape returns the token an example in a placeholder has the
// shape of: "email" for an e-mail address, "tel" for a phone number (10
// to 12 digits or digit marks in groups, or 7 to 15 after a "+" or with
// the area code in brackets), else "".
func exampleShape(ph string) string {
	ph = strings.TrimSpace(ph)
	if len(ph) < 5 || len(ph) > 40 {
		return ""
	}
	if exampleEmail().MatchString(ph) {
		return "email"
	}
	marks, seps := 0, 0
	for i, c := range ph {
		switch {
		case c >= '0' && c <= '9', c == 'x', c == 'X', c == '_', c == '#':
			marks++
		case c == '+' && i == 0, c == '(', c == ')', c == '-', c == '.':
			seps++
		case c == ' ':
		default:
			return ""
		}
	}
	if marks < 7 || marks > 15 || seps == 0 && !strings.Contains(ph, " ") {
		return ""
	}
	if !strings.ContainsAny(ph, "+(") && (marks < 10 || marks > 12) {
		// Fewer digits are a date ("31.12.1990") or a ZIP+4
		// ("12345-6789"); more, a card number.
		return ""
	}
	return "tel"
}

// exampleEmail matches an e-mail address written as an example.
var exampleEmail = lazyRE(`^[^\s@]+@[^\s@]+\.[A-Za-z]{2,}$`)

// shownOverrules reports whether rule shown, read in the first text the
// person sees, overrules rule ident read in a box's name or id:
//   - a name or id that says "name" or "FirstName" under a label that
//     reads "Full name" or "Name (company)": the label says which name;
//   - a box named only "name" (identText, normalized) under a label
//     that names other data ("Email:", "City:"): the label says what;
//   - a box named "suburb" shown as "Address line 2": the second street
//     line;
//   - a box named "title" shown as "Job title": the job title.
func shownOverrules(ident *rule, identText string, shown *rule) bool {
	switch ident.token {
	case "name", "given-name", "family-name":
		if identText == "name" && shown.kind == kindTarget && !strings.HasPrefix(shown.token, "cc-") && !personName[shown.token] {
			// A box named only "name" that the person sees labelled as
			// another kind of data ("Email:", "City:", "Country:"):
			// "name" names the box, not what it holds.
			return true
		}
		if personName[shown.token] && shown.token != ident.token && withoutDigits(identText) == "name" {
			// Boxes named "name1", "name2" (or "name" alone) shown as
			// "姓", "名", "Last name": the shown words say which name.
			return true
		}
		return wholeName(shown.id) || shown.id == "organization"
	case "address-level2":
		return shown.id == "address-line2"
	case "honorific-prefix":
		// A box named "title" the person sees labelled "Job title".
		return shown.id == "organization-title"
	}
	return false
}

// numberedAddress reports whether a box's name or id (text, which rule
// decided matched) is a number and the word "address" alone: "addr01"
// (rule address), "addr1", "billing_address_2" (a street line). "floor 2"
// is a street line too, and says which part itself.
func numberedAddress(decided *rule, text string, kind controlKinds, memo *memo) bool {
	if !strings.ContainsAny(text, "0123456789") {
		return false
	}
	if decided.id == "address" {
		return true
	}
	if !strings.HasPrefix(decided.id, "address-line") {
		return false
	}
	m := memo.match(withoutDigits(text), kind, true)
	return m != nil && m.id == "address"
}

// withoutDigits is a normalized text without its digits: "addr 1" is
// "addr".
func withoutDigits(text string) string {
	return strings.Join(strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r >= '0' && r <= '9' }), " ")
}

// lookupFor reports whether veto v, read in a box's name or id, names a
// look-up (a site search, an address finder) that the part of an address
// the box's shown words name (rule decided) is the key of: a postcode for
// either, a town for an address finder.
func lookupFor(decided, v *rule) bool {
	switch v.id {
	case "search", "search-form":
		return decided.id == "postal-code"
	case "address-lookup":
		return decided.id == "postal-code" || decided.id == "address-level2"
	}
	return false
}

// shownOutweighs lists, by veto, the tokens whose words a person sees on a
// box outweigh that veto read in the box's name or id: the veto names a
// kind of box those words say this one is not.
var shownOutweighs = map[string]map[string]bool{
	// "First name" shown on a box named "deliveryAddress.name" (the
	// delivery address object's name field): the recipient's first name,
	// not a name for the address.
	"address-label": {"given-name": true, "family-name": true},
	// "Telephone number" shown on a box named autocompleteHandler (some
	// script completes it): an address finder is never where a phone
	// number, an e-mail or a name goes.
	"address-lookup": {"tel": true, "email": true, "name": true, "given-name": true, "family-name": true},
	// "Cardholder's first name" shown on a box whose id ends
	// "…ViewModel.name" (a framework's model, not a product model): the
	// words name whose name it is. A bare "Name" on a box named
	// product_name stays the product's.
	"thing-name": {"given-name": true, "family-name": true, "cc-name": true, "cc-given-name": true, "cc-family-name": true},
	// "Pincode" shown on a box named "pin": India's postal code, which
	// the label names, not a PIN the name's guard keeps profile data out
	// of (a box labelled so is read as the postcode whatever its name).
	"one-time-code": {"postal-code": true},
}

// findsBy lists the vetoes of boxes that find a place from what one
// types (an address finder, a site search): the postcode is one key.
var findsBy = map[string]bool{"address-lookup": true, "search": true, "search-form": true}

// postcodeKey reports whether a finder's normalized text names the
// postcode as what to type: it names the postcode, and the street only
// as an alternative to it ("address or postcode"), if at all.
func postcodeKey(t string) bool {
	if table().find(ruleByID("postal-code"), t) < 0 {
		return false
	}
	if alternative().MatchString(t) {
		return true
	}
	for _, id := range []string{"address-line1", "address", "street-with-number"} {
		if table().find(ruleByID(id), t) >= 0 {
			return false
		}
	}
	return true
}

// sentenceVeto lists the vetoes whose words a sentence may hold in
// passing (an "arrival", an "offer", "find out"): read in a sentence, they
// do not outweigh a box's e-mail type or words.
var sentenceVeto = map[string]bool{"not-profile": true, "coupon": true, "search": true}

// shownPlace returns the rule of the postcode, the town or the region
// that the first text the person sees of a control (a label, an
// aria-label, a placeholder) matches, with its source and normalized
// text; nil when that text names something else or there is none.
func shownPlace(c *form.Control, kind controlKinds, memo *memo) (*rule, source, string) {
	src, t := firstShown(c, memo)
	if m := memo.match(t, kind, false); m != nil && (m.id == "postal-code" || m.id == "address-level2" || m.id == "address-level1") {
		return m, src, t
	}
	return nil, source{}, ""
}

// firstShown returns the first text the person sees of a control (a
// label, an aria-label, a placeholder), normalized, with its source; ""
// when there is none.
func firstShown(c *form.Control, memo *memo) (source, string) {
	for _, src := range sources {
		if src.ident || src.weight < 0.8 {
			continue
		}
		if t := memo.normalize(src.raw(c)); t != "" {
			return src, t
		}
	}
	return source{}, ""
}

// shownCountry returns the first text the person sees of a control
// (firstShown) with its source when that text is a country's name and
// nothing else (and no region's); "" otherwise. Its evidence names the country rule, whose words
// ("united states") it extends to every country's name.
func shownCountry(c *form.Control, memo *memo) (source, string) {
	// "Georgia" may be the state a state picker shows.
	if src, t := firstShown(c, memo); countryNames()[t] && len(regionIndex()[t]) == 0 {
		return src, t
	}
	return source{}, ""
}

// shownCountryWeight scales the weight of the source that shows a
// country's name alone: the name is the box's value, not a word that
// names the field.
const shownCountryWeight = 0.8

// identSays reports whether a control's name or id (texts by source)
// matches rule r.
func identSays(texts []string, kind controlKinds, memo *memo, r *rule) bool {
	for i, src := range sources {
		if src.ident && texts[i] != "" && memo.match(texts[i], kind, true) == r {
			return true
		}
	}
	return false
}

// matchControl matches one normalized text against the rules that apply to
// the control, resolving combined address labels ("City, State, ZIP") to
// their first part: the row pass assigns the rest to the neighbours.
func matchControl(text string, kind controlKinds, ident bool) *rule {
	r := match(text, kind, ident)
	if r != nil && r.id == "address-level3" && !ident {
		// "City/District": the town, named first; the district rule
		// comes first in the table only to win over a bare "district".
		if city := ruleByID("address-level2"); city.kinds&kind != 0 {
			if p := table().find(city, text); p >= 0 && p < table().find(r, text) {
				return city
			}
		}
	}
	if r != nil && r.id == "organization" && !ident {
		// "Street address, P.O. box, company name, c/o": a street line
		// that also takes a company names the street first; "Company
		// name (street address if none)" stays the company's.
		// A bare "address" before the company ("Détail adresse,
		// bâtiment, société") is a further line's details, not the street.
		// So does "Address addition (e.g. company, c/o)": the second
		// line, which may hold a company.
		at := table().find(r, text)
		for _, id := range []string{"address-line1", "address-line2"} {
			if st := ruleByID(id); st.kinds&kind != 0 {
				if p := table().find(st, text); p >= 0 && p < at {
					return st
				}
			}
		}
	}
	if r == nil || ident || !addressPart[r.id] {
		return r
	}
	// The part named first wins; on a tie, the rule the table put first
	// (r): addressParts is ordered, so the answer never depends on a map's
	// order.
	best, at := r, table().find(r, text)
	if at < 0 {
		at = len(text) + 1
	}
	postal := false
	for _, id := range addressParts {
		rr := ruleByID(id)
		if rr.kinds&kind == 0 {
			continue
		}
		p := table().find(rr, text)
		if p >= 0 && p < at {
			best, at = rr, p
		}
		postal = postal || p >= 0 && id == "postal-code"
	}
	if postal && best.id != "postal-code" && alternative().MatchString(text) {
		// "City or ZIP code", "PLZ oder Ort": one box that takes either
		// (a store finder, a delivery check) takes the postcode, the
		// more precise of the two.
		return ruleByID("postal-code")
	}
	return best
}

// alternative matches the words that join alternatives in a label ("or"),
// in the supported languages, over normalized text. Greek "ή" is left
// out: normalized it is "η", the article "the".
var alternative = lazyRE(`(?:^| )(?:or|oder|ou|o|of|eller|tai|vagy|lub|nebo|alebo|sau|ili|или|або|veya|atau|hoac)(?: |$)`)

// A memo caches normalize and matchControl by their arguments for one
// Classify call: pages repeat their words. The controls of a page are
// classified on several cores (parallel.Chunks), which share what each
// has matched: the texts are spread over memoShards maps, each with its
// own lock, so that two cores seldom wait for the same one (one lock for
// all had them spinning on it for a tenth of the time).
type memo struct {
	shards [memoShards]memoShard
	// own holds what classifyWords read of each control: its texts,
	// normalized, source by source (sources), for featuresOf to read
	// again without the shards' locks.
	own     []ownTexts
	backing []string
}

// ownTexts are one control's normalized texts, by source; kept tells
// whether classifyWords read them (it returns before that for some
// boxes).
type ownTexts struct {
	texts []string
	kept  bool
}

// ownOf returns control i's slot in m.own, nil without one.
func (m *memo) ownOf(i int) *ownTexts {
	if m == nil || i < 0 || i >= len(m.own) {
		return nil
	}
	return &m.own[i]
}

// memoShards is how many locked maps a memo's texts are spread over.
const memoShards = 16

type memoShard struct {
	mu      sync.Mutex
	matches map[memoKey]*rule
	texts   map[string]string
	// pad keeps two shards' locks off one cache line.
	_ [40]byte
}

type memoKey struct {
	text  string
	kind  controlKinds
	ident bool
}

// shard returns the shard of a text, by its length and its last two
// bytes: cheaper than hashing the text, and enough to spread a page's
// texts (on the benchmark page the cores' spinning on the locks fell from
// 8.6 % of the CPU with one lock to 2.2 %).
func (m *memo) shard(s string) *memoShard {
	h := len(s)
	if len(s) > 0 {
		h = h*31 + int(s[len(s)-1])
	}
	if len(s) > 1 {
		h = h*31 + int(s[len(s)-2])
	}
	return &m.shards[h%memoShards]
}

// memos keeps released memos: a page's maps, grown to its size, are
// reused by the next page rather than made and collected each time.
var memos sync.Pool

// newMemo returns a memo sized for n controls.
func newMemo(n int) *memo {
	m, ok := memos.Get().(*memo)
	if !ok {
		m = &memo{}
		for i := range m.shards {
			sh := &m.shards[i]
			sh.matches = make(map[memoKey]*rule, 2*n/memoShards)
			sh.texts = make(map[string]string, 2*n/memoShards)
		}
	}
	k := len(sources)
	if cap(m.own) < n {
		m.own, m.backing = make([]ownTexts, n), make([]string, n*k)
	}
	m.own, m.backing = m.own[:n], m.backing[:n*k]
	for i := range m.own {
		m.own[i].texts = m.backing[i*k : (i+1)*k : (i+1)*k]
	}
	return m
}

// release empties m (it holds the page's texts) and keeps it for reuse.
func (m *memo) release() {
	for i := range m.shards {
		clear(m.shards[i].matches)
		clear(m.shards[i].texts)
	}
	clear(m.own)
	clear(m.backing)
	memos.Put(m)
}

func (m *memo) match(text string, kind controlKinds, ident bool) *rule {
	if text == "" {
		return nil
	}
	k := memoKey{text, kind, ident}
	sh := m.shard(text)
	sh.mu.Lock()
	r, ok := sh.matches[k]
	sh.mu.Unlock()
	if ok {
		return r
	}
	// Matched without the lock: two cores may both match a text that
	// neither had, and store the same answer.
	r = matchControl(text, kind, ident)
	sh.mu.Lock()
	sh.matches[k] = r
	sh.mu.Unlock()
	return r
}

// normalize is normalize(s), once per text a page holds; a nil memo
// keeps nothing.
func (m *memo) normalize(s string) string {
	if s == "" {
		return ""
	}
	if m == nil {
		return normalize(s)
	}
	sh := m.shard(s)
	sh.mu.Lock()
	n, ok := sh.texts[s]
	sh.mu.Unlock()
	if ok {
		return n
	}
	n = normalize(s)
	sh.mu.Lock()
	sh.texts[s] = n
	sh.mu.Unlock()
	return n
}

// addressPart names the rules of address parts that one combined label may
// list together.
var addressPart = map[string]bool{}

// addressParts are addressPart's rules in a fixed order.
var addressParts = []string{"postal-code", "address-level2", "address-level1", "country"}

func init() {
	for _, id := range addressParts {
		addressPart[id] = true
	}
}

// streetPart lists the rules for the parts of a street line the person
// types in boxes of their own (the house number, the street name): what
// they say, not "this is no profile data".
var streetPart = map[string]bool{"house-number": true, "street-name": true}

// numberedAddressLine reads the line a text the plain "address" words
// matched numbers ("Адресная строка 2", "Linia adresu 2", "住所 2",
// "Adresse 3 (optional)"): the second or third line, in any language,
// when the number ends the text or only a word marking the box optional
// follows it ("Address (2 lines max)" numbers no line); token otherwise.
func numberedAddressLine(token, text string) string {
	for rest := text; rest != ""; {
		var w string
		w, rest, _ = strings.Cut(rest, " ")
		line := ""
		switch w {
		case "2", "ii":
			line = "address-line2"
		case "3", "iii":
			line = "address-line3"
		default:
			continue
		}
		if rest == "" || len(strings.Fields(rest)) <= 2 && optionalWord().MatchString(rest) {
			return line
		}
		return token
	}
	return token
}

// controlChunk is how many controls one core takes at a time
// (parallel.Chunks): enough that handing out work costs nothing
// measurable, few enough that the cores finish together on a page of a
// few hundred controls.
const controlChunk = 32
