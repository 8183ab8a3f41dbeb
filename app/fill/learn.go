package fill

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/nyaruka/phonenumbers"

	"github.com/tessera-app/tessera/app/broker"
	"github.com/tessera-app/tessera/app/confirm"
	"github.com/tessera-app/tessera/form"
	"github.com/tessera-app/tessera/heuristics"
	"github.com/tessera-app/tessera/matcher"
	"github.com/tessera-app/tessera/nativemsg"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

// LearnResult is the result of learn.request.
type LearnResult struct {
	Saved int  `json:"saved"`
	Asked bool `json:"asked"`
}

// learnRow is one submitted value the profile does not hold yet.
type learnRow struct {
	row     confirm.Row
	concept string
	value   string
}

// errNoGesture is the INVALID_PARAMS message of a learn.request that does
// not carry the extension's word that the person submitted the form.
const errNoGesture = "learn.request: gesture must be true: only a submit the person made (their click or Enter on the form, seen by the extension) is learnt from"

// requestLearn answers learn.request: the values a page submitted that the
// profile does not hold are offered in a learn dialog, and only the rows
// the person approves are saved. A page can submit a form by script
// (requestSubmit() from a timer) with values it chose; a dialog saying
// "You submitted…" after that, rows ticked, would put the page's words
// into the profile as the person's. So learn.request must carry the
// extension's evidence that the person made the submit ("gesture": true,
// content/submit.ts), and is refused without it: the app cannot know of a
// submit otherwise and claims none.
func requestLearn(ctx context.Context, a *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	params, gesture, e := learnGesture(params)
	if e != nil {
		return nil, e
	}
	if !gesture {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, errNoGesture)
	}
	p, e := ParsePage("learn.request", params)
	if e != nil {
		return nil, e
	}
	r, e := a.preparePage("learn.request", p, askedProfile)
	if e != nil {
		return nil, e
	}
	v, prof, an := r.v, r.prof, r.an
	rows := learnRows(an, prof)
	if len(rows) == 0 {
		return LearnResult{}, nil
	}
	byID := map[string]learnRow{}
	var list []confirm.Row
	for i, r := range rows {
		r.row.ID = "r" + strconv.Itoa(i+1)
		list = append(list, r.row)
		byID[r.row.ID] = r
	}
	c := learnConfirmation(an, s, prof.ID, r.sums, list, gesture)
	d := a.Ask(withPending(ctx, &pendingFill{an: an, profile: prof.ID}), c)
	if !d.Approve {
		a.audit(v, vault.Release{Event: vault.EventNoLearn, Origin: an.Origin, Site: an.Site, ProfileID: prof.ID, Client: s.Client().Name, Reason: d.Reason})
		return nil, Declined("learn.request", d)
	}
	var obs []vault.Observation
	var concepts []string
	for _, id := range d.Rows {
		r, ok := byID[id]
		if !ok {
			continue
		}
		val, _ := json.Marshal(r.value)
		obs = append(obs, vault.Observation{
			Concept: r.concept, Value: val,
			Source: profile.Source{Type: "form-fill", FormURL: an.Origin},
		})
		concepts = append(concepts, r.concept)
	}
	if len(obs) == 0 {
		return LearnResult{Asked: true}, nil
	}
	if _, err := v.Learn(prof.ID, obs); err != nil {
		return nil, VaultError("learn.request", err)
	}
	a.audit(v, vault.Release{Event: vault.EventLearn, Origin: an.Origin, Site: an.Site, ProfileID: prof.ID, Client: s.Client().Name, Concepts: concepts})
	return LearnResult{Saved: len(obs), Asked: true}, nil
}

// learnGesture takes "gesture" out of learn.request's params (the rest
// are a page's, parsed strictly) and reports whether it is true.
func learnGesture(params json.RawMessage) (json.RawMessage, bool, *nativemsg.Error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(params, &m); err != nil || m == nil {
		return nil, false, nativemsg.NewError(nativemsg.CodeInvalidParams, "learn.request: params must be an object")
	}
	g, ok := m["gesture"]
	if !ok {
		return params, false, nil
	}
	delete(m, "gesture")
	rest, err := json.Marshal(m)
	if err != nil {
		return nil, false, nativemsg.NewError(nativemsg.CodeInvalidParams, "learn.request: %v", err)
	}
	return rest, string(g) == "true", nil
}

// learnConfirmation is the learn dialog for rows of an. submitted
// reports that the person made the submit the rows come from (the
// extension's evidence): only then does the dialog say so, and only then
// may rows start ticked; values a page offers by itself (Formspec's
// profile.learn) start unticked, under a lede that claims no submit.
func learnConfirmation(an *Analysed, s *broker.Session, profileID string, sums []confirm.ProfileSummary, rows []confirm.Row, SubmittedValue bool) confirm.Confirmation {
	c := newConfirmation(confirm.ConfirmLearn, an, s, profileID, sums)
	c.Submitted = SubmittedValue
	for _, r := range rows {
		if !SubmittedValue {
			r.Checked = false
		}
		c.Rows = append(c.Rows, r)
	}
	return c
}

// learnRows returns the submitted values of an that profile p lacks or
// holds otherwise: visible, measured, same-origin, non-sensitive fields with
// a concept, one row per concept and value.
func learnRows(an *Analysed, p *profile.UserProfile) []learnRow {
	var out []learnRow
	seen := map[string]bool{}
	for _, fa := range an.Frames {
		if fa.Cross {
			continue
		}
		props := matcher.Match(fa.Fields, p, matcher.Options{})
		for i := range fa.Snap.Controls {
			c := &fa.Snap.Controls[i]
			cls := fa.Cls[i]
			// The page's own autocomplete token outranks the classifier,
			// whose confidence a label like "(optional)" may pull down.
			if ai := c.AutocompleteInfo; ai != nil && !ai.Off && ai.Field != "" {
				if concept, ok := profile.ConceptForToken(ai.Field); ok {
					cls.Concept, cls.Token = concept, ai.Field
					cls.Confidence, cls.Decision = max(cls.Confidence, 0.95), max(cls.DecisionConfidence(), 0.95)
				}
			}
			if cls.Concept == "" || cls.Part != "" || attentionReason(fa, c) != "" || !learnable(c, cls) {
				continue
			}
			value := SubmittedValue(c)
			if value == "" {
				continue
			}
			if props[i].Value != nil && *props[i].Value == value {
				continue // the profile already gives this value here
			}
			concept := matcher.CanonicalConcept(cls.Concept)
			norm := normalise(cls.Token, value, p)
			prev := StoredValue(p, concept)
			if sameText(prev, norm) || seen[concept+"\x00"+norm] {
				continue
			}
			seen[concept+"\x00"+norm] = true
			out = append(out, learnRow{
				concept: concept, value: norm,
				row: confirm.Row{
					Frame: fa.In.Frame, Ref: c.Ref, Label: FieldLabel(c), Value: norm, Previous: prev,
					Sensitive: sensitiveToken(cls.Token), Concept: concept, ConceptLabel: ConceptLabel(cls.Token, concept),
					Confidence: cls.Confidence, Advisory: c.AutocompleteInfo == nil || c.AutocompleteInfo.Field == "",
					Evidence: evidenceLines(c, cls), Section: confirm.SectionFill, Checked: cls.DecisionConfidence() >= lowConfidence,
				},
			})
		}
	}
	return out
}

// learnable reports whether a submitted value of c may be saved: never a
// password, one-time code, payment or username field, nor a choice that
// was not made.
func learnable(c *form.Control, cls heuristics.Result) bool {
	if profile.IsSensitiveToken(cls.Token) || c.Type == "password" || c.Type == "hidden" || c.Type == "file" {
		return false
	}
	switch c.Type {
	case "checkbox", "submit", "button", "reset", "image":
		return false
	case "radio":
		return c.Checked
	}
	return true
}

// SubmittedValue is the value c was submitted with, in the form a profile
// stores: a select's option text, except for countries whose option values
// are codes.
func SubmittedValue(c *form.Control) string {
	v := strings.TrimSpace(c.Value)
	if c.Type == "radio" && len(c.Options) > 0 {
		return strings.TrimSpace(c.Options[0].Value)
	}
	if c.Type == "select-one" {
		for _, o := range c.Options {
			if o.Value == c.Value && len(o.Value) != 2 {
				return strings.TrimSpace(o.Text)
			}
		}
	}
	return v
}

// normalise puts a submitted value in the profile's canonical shape where
// one exists: E.164 phone numbers.
func normalise(token, v string, p *profile.UserProfile) string {
	if token != "tel" {
		return v
	}
	region := strings.ToUpper(StoredValue(p, matcher.CanonicalConcept(profile.ConceptAddressCountry)))
	if len(region) != 2 {
		region = ""
	}
	num, err := phonenumbers.Parse(v, region)
	if err != nil || !phonenumbers.IsValidNumber(num) {
		return v
	}
	return phonenumbers.Format(num, phonenumbers.E164)
}

// StoredValue is the text p holds for the canonical concept, "" when none.
func StoredValue(p *profile.UserProfile, concept string) string {
	for k, e := range p.Concepts {
		if matcher.CanonicalConcept(k) == concept {
			if s, ok := e.StringValue(); ok {
				return s
			}
		}
	}
	return ""
}

func sameText(a, b string) bool {
	return strings.EqualFold(strings.Join(strings.Fields(a), " "), strings.Join(strings.Fields(b), " "))
}
