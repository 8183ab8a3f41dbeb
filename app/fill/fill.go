package fill

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/net/publicsuffix"

	"github.com/tessera-app/tessera/app/broker"
	"github.com/tessera-app/tessera/app/confirm"
	"github.com/tessera-app/tessera/form"
	"github.com/tessera-app/tessera/heuristics"
	"github.com/tessera-app/tessera/matcher"
	"github.com/tessera-app/tessera/nativemsg"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

// Limits on what a page snapshot may hold (PROTOCOL.md §4.1). The frame
// limit on the wire bounds the HTML; these bound the rest.
const (
	maxFrames    = 64
	MaxURLLen    = 8 << 10
	maxValues    = 20000
	maxAttention = 40 // attention rows shown; more are counted, not listed
	maxContinues = 3
	continueFor  = 60 * time.Second
	// lowConfidence: rows whose match confidence is under it start
	// unchecked. The match confidence comes from the classifier's own
	// confidence (heuristics.Result.DecisionConfidence), before the
	// calibration that turns it into the odds the dialog shows
	// (Result.Shown): calibration changes what the dialog says, not what
	// is filled.
	lowConfidence = 0.6
)

// fillVault is what the fill methods need of the vault.
type fillVault interface {
	Profiles() ([]profile.UserProfile, error)
	RecordRelease(vault.Release) error
	Learn(profileID string, obs []vault.Observation) ([]vault.LearnResult, error)
}

func (a *Service) fillVault() (fillVault, *nativemsg.Error) {
	v, ok := a.cfg.Vault, a.cfg.Vault != nil
	if !ok {
		return nil, nativemsg.NewError(nativemsg.CodeVaultUninitialized, "no vault yet: set one up in the Tessera app")
	}
	return v, nil
}

// PageInfo names the tab a snapshot comes from.
type PageInfo struct {
	Tab   int    `json:"tab"`
	URL   string `json:"url"`
	Title string `json:"title,omitempty"`
}

// FrameSnapshot is one frame as the extension measured it.
type FrameSnapshot struct {
	Frame    int                  `json:"frame"`
	Parent   int                  `json:"parent"`
	Origin   string               `json:"origin"`
	URL      string               `json:"url"`
	Nonce    string               `json:"nonce"`
	HTML     string               `json:"html"`
	Controls int                  `json:"controls"`
	Values   map[string]LiveValue `json:"values,omitempty"`
}

// LiveValue is a control's value as the page holds it now.
type LiveValue struct {
	Value   string `json:"value"`
	Checked bool   `json:"checked,omitempty"`
}

// Page are the params common to the fill methods.
type Page struct {
	Fill    string          `json:"fill,omitempty"`
	Page    PageInfo        `json:"page"`
	Frames  []FrameSnapshot `json:"frames"`
	Profile string          `json:"profile,omitempty"`
}

var nonceRE = regexp.MustCompile(`^[A-Za-z0-9_-]{16,128}$`)

// ParsePage decodes the params of a page method (strictly) and checks
// them (CheckPage).
func ParsePage(method string, params json.RawMessage) (Page, *nativemsg.Error) {
	var p Page
	if err := broker.DecodeParams(params, &p); err != nil {
		return p, nativemsg.NewError(nativemsg.CodeInvalidParams, "%s: %v", method, err)
	}
	return CheckPage(method, p)
}

// CheckPage checks page p against the limits of PROTOCOL.md §4.1.
func CheckPage(method string, p Page) (Page, *nativemsg.Error) {
	bad := func(format string, args ...any) (Page, *nativemsg.Error) {
		return p, nativemsg.NewError(nativemsg.CodeInvalidParams, method+": "+format, args...)
	}
	if len(p.Frames) == 0 || len(p.Frames) > maxFrames {
		return bad("between 1 and %d frames required, got %d", maxFrames, len(p.Frames))
	}
	if len(p.Page.URL) > MaxURLLen || !WebURL(p.Page.URL) {
		return bad("page.url must be an http(s) URL of at most %d bytes", MaxURLLen)
	}
	seen := map[int]bool{}
	nvalues := 0
	for i, f := range p.Frames {
		if seen[f.Frame] {
			return bad("frame %d given twice", f.Frame)
		}
		seen[f.Frame] = true
		if !nonceRE.MatchString(f.Nonce) {
			return bad("frames[%d].nonce must be 16-128 characters of [A-Za-z0-9_-]", i)
		}
		if len(f.Origin) > MaxURLLen || len(f.URL) > MaxURLLen {
			return bad("frames[%d]: origin or url too long", i)
		}
		nvalues += len(f.Values)
	}
	if nvalues > maxValues {
		return bad("more than %d live values", maxValues)
	}
	return p, nil
}

// WebURL reports whether s is an http(s) URL with a host.
func WebURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// OriginOf returns scheme://host[:port] of an http(s) URL.
func OriginOf(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return ""
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host)
}

// SiteOf returns the registrable domain of an origin ("shop.example.co.uk"
// → "example.co.uk"); hosts without one (IP addresses, localhost) are
// returned whole.
func SiteOf(origin string) string {
	u, err := url.Parse(origin)
	if err != nil {
		return origin
	}
	host := u.Hostname()
	if d, err := publicsuffix.EffectiveTLDPlusOne(host); err == nil {
		return d
	}
	return host
}

// AnalysedFrame is one frame after extraction and classification.
type AnalysedFrame struct {
	In     FrameSnapshot
	Cross  bool
	Snap   *form.Snapshot
	Cls    []heuristics.Result
	Fields []matcher.Field
}

// Analysed is a page after extraction and classification.
type Analysed struct {
	Page   PageInfo
	Origin string // of the top-level page
	Site   string
	Frames []*AnalysedFrame
}

// Analyse extracts and classifies every frame. It needs no vault.
func Analyse(p Page) (*Analysed, *nativemsg.Error) {
	an := &Analysed{Page: p.Page, Origin: OriginOf(p.Page.URL)}
	an.Site = SiteOf(an.Origin)
	for _, f := range p.Frames {
		s, err := form.Extract(strings.NewReader(f.HTML), form.ExtractOptions{
			URL: f.URL, Frame: strconv.Itoa(f.Frame), LiveDOM: true, StampNonce: f.Nonce,
		})
		if err != nil {
			return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "frame %d: %v", f.Frame, err)
		}
		fa := &AnalysedFrame{In: f, Cross: f.Origin != an.Origin, Snap: s}
		for i := range s.Controls {
			c := &s.Controls[i]
			if !c.Visibility.Measured {
				continue
			}
			if v, ok := f.Values[c.Ref]; ok {
				c.Value = v.Value
				c.Checked = v.Checked
			}
		}
		fa.Cls = heuristics.Classify(s)
		fa.Fields = matcher.FieldsFromSnapshot(s, fa.Cls)
		an.Frames = append(an.Frames, fa)
	}
	return an, nil
}

// attentionReason says why control c of fa may only be filled when the
// person ticks it, or "" when it may be offered normally.
func attentionReason(fa *AnalysedFrame, c *form.Control) string {
	switch {
	case c.Visibility.Hidden:
		return c.Visibility.Reason
	case !c.Visibility.Measured:
		return "unmeasured"
	case fa.Cross:
		return "cross-origin-frame"
	}
	return ""
}

// An AnalysedField is one field of form.analyse's result.
type AnalysedField struct {
	Frame      int      `json:"frame"`
	Ref        string   `json:"ref"`
	Label      string   `json:"label,omitempty"`
	Concept    string   `json:"concept,omitempty"`
	Token      string   `json:"token,omitempty"`
	Confidence float64  `json:"confidence"`
	Evidence   []string `json:"evidence,omitempty"`
	Hidden     bool     `json:"hidden"`
	Reason     string   `json:"reason,omitempty"`
}

// Analysis is the result of form.analyse.
type Analysis struct {
	Site   string          `json:"site"`
	Fields []AnalysedField `json:"fields"`
}

func analyseForm(ctx context.Context, a *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	p, e := ParsePage("form.analyse", params)
	if e != nil {
		return nil, e
	}
	return AnalyseFields(p)
}

// AnalyseFields is what Tessera understands of page p's fields: labels,
// concepts, confidence, whether the person can see them; no value.
func AnalyseFields(p Page) (Analysis, *nativemsg.Error) {
	an, e := Analyse(p)
	if e != nil {
		return Analysis{}, e
	}
	out := Analysis{Site: an.Site, Fields: []AnalysedField{}}
	for _, fa := range an.Frames {
		for i := range fa.Snap.Controls {
			c := &fa.Snap.Controls[i]
			if c.Type == "hidden" || fa.Cls[i].Concept == "" {
				continue
			}
			reason := attentionReason(fa, c)
			out.Fields = append(out.Fields, AnalysedField{
				Frame: fa.In.Frame, Ref: c.Ref, Label: FieldLabel(c), Concept: fa.Cls[i].Concept,
				Token: fa.Cls[i].Token, Confidence: fa.Cls[i].Confidence, Evidence: evidenceLines(c, fa.Cls[i]),
				Hidden: reason != "", Reason: reason,
			})
		}
	}
	return out, nil
}

// A candidate is one value the app could offer for one control.
type fillCandidate struct {
	row confirm.Row
	// target is the control, its Value left for the gate to give.
	target Field
	// value is what would be filled; key the approval key: concept and
	// value.
	value, key string
	// remember is what a remembered site rule must hold to fill the row
	// without asking (rememberKey).
	remember string
}

// rememberKey is what a remembered site rule must hold for a box of
// concept, filled as part, to be filled without asking: the concept, and
// for a part whose value carries other concepts too (matcher.CarriesOthers:
// a postcode box filled with the town and the region) the concept with
// that part. A site remembered for a postcode was never shown the town.
func rememberKey(concept, part string) string {
	if matcher.CarriesOthers(part) {
		return concept + "#" + part
	}
	return concept
}

// candidates matches profile p against every frame of an and returns what
// could be offered, fill-section rows first in page order, then the
// attention rows. skip reports controls not to offer again (a continuation).
func candidates(an *Analysed, p *profile.UserProfile, skip func(frame int, ref string) bool) (fill, attention []fillCandidate, more int) {
	for _, fa := range an.Frames {
		// Hidden and cross-frame fields are matched as if they were shown, so
		// the dialog can say what they would receive; they only become
		// attention rows.
		fields := slices.Clone(fa.Fields)
		for i := range fields {
			fields[i].Hidden = false
		}
		props := matcher.Match(fields, p, matcher.Options{})
		for i, pr := range props {
			if pr.Value == nil || pr.Skip != "" {
				continue
			}
			c := &fa.Snap.Controls[pr.Index]
			if c.Type == "hidden" || skip != nil && skip(fa.In.Frame, c.Ref) {
				continue
			}
			fc := newCandidate(fa, c, &fields[i], fa.Cls[pr.Index], pr)
			if fc.row.Section == confirm.SectionFill {
				fill = append(fill, fc)
			} else if len(attention) < maxAttention {
				attention = append(attention, fc)
			} else {
				more++
			}
		}
	}
	return fill, attention, more
}

func newCandidate(fa *AnalysedFrame, c *form.Control, f *matcher.Field, cls heuristics.Result, pr matcher.Proposal) fillCandidate {
	value := *pr.Value
	kind := "text"
	shown := value
	switch c.Type {
	case "select-one":
		kind = "select"
		for _, o := range c.Options {
			if o.Value == value {
				shown = o.Text
				break
			}
		}
	case "radio":
		kind = "radio"
		if len(c.Options) > 0 && c.Options[0].Text != "" {
			shown = c.Options[0].Text
		}
	case "checkbox":
		kind = "checkbox"
	}
	token := cls.Token
	advisory := true
	for _, e := range f.Evidence {
		if e.Concept == pr.Concept && e.Kind != matcher.EvidenceHeuristic {
			advisory = false
			if e.Token != "" {
				token = e.Token
			}
		}
	}
	if f.Part != "" && token == "" {
		token = f.Part
	}
	// A box for part of a value (a floor, a house number) is named after
	// its part.
	labelToken := token
	if f.Part != "" && profile.HasPartLabel(f.Part) {
		labelToken = f.Part
	}
	r := confirm.Row{
		Frame: fa.In.Frame, Ref: c.Ref, Label: FieldLabel(c), Value: shown,
		Sensitive: sensitiveToken(token), Concept: pr.Concept, ConceptLabel: ConceptLabel(labelToken, pr.Concept),
		Confidence: cls.Shown(pr.Confidence), Advisory: advisory, Evidence: evidenceLines(c, cls), Section: confirm.SectionFill,
	}
	if reason := attentionReason(fa, c); reason != "" {
		r.Section, r.Reason = confirm.SectionAttention, reason
	} else {
		r.Checked = pr.Confidence >= lowConfidence
		switch {
		case cls.Optional && byChoice(cls):
			// Data given only by choice (a gender): offered, never
			// filled unless the person ticks it.
			r.Checked, r.Reason = false, reasonByChoice
		case cls.Optional:
			// The page marks the box optional and it asks for data forms
			// seldom need (an employer, a title): offered, never filled
			// unless the person ticks it.
			r.Checked, r.Reason = false, "optional on this page"
		case !r.Checked:
			r.Reason = "low confidence"
		case kind == "text" && c.Value != "" && c.Value != value:
			// Like the browsers' autofill, never overwrite what the person
			// typed unless they ask to.
			r.Checked, r.Reason = false, "already filled in"
		}
	}
	return fillCandidate{
		row:      r,
		target:   Field{Frame: fa.In.Frame, Ref: c.Ref, Kind: kind, Expect: Expect{Name: c.Name, ID: c.ID, Type: c.Type}},
		value:    value,
		key:      pr.Concept + "\x00" + value,
		remember: rememberKey(pr.Concept, f.Part),
	}
}

// FieldLabel is what a control is called, for people: the first of its
// label, aria-label, placeholder, title, name and id.
func FieldLabel(c *form.Control) string {
	for _, l := range []string{c.Label, c.AriaLabel, c.Placeholder, c.Title, c.Name, c.ID} {
		if l = strings.TrimSpace(l); l != "" {
			return ClipRunes(l, 120)
		}
	}
	return "(no label)"
}

// ClipRunes cuts s to at most n characters, never inside one.
func ClipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// evidenceLines says in words why c was read as its concept.
func evidenceLines(c *form.Control, r heuristics.Result) []string {
	var out []string
	if ai := c.AutocompleteInfo; ai != nil && ai.Field != "" && !ai.Off {
		out = append(out, fmt.Sprintf("the page declares autocomplete=%q", c.Autocomplete))
	}
	for _, e := range r.Evidence {
		var line string
		switch {
		case e.Signal == "autocomplete":
			continue
		case strings.HasPrefix(e.Signal, "pass:"):
			line = "its neighbours (" + strings.TrimPrefix(e.Signal, "pass:") + ")"
		case e.Text != "":
			line = fmt.Sprintf("%s %q", e.Signal, ClipRunes(e.Text, 60))
		default:
			line = e.Signal
		}
		if e.Rule != "" {
			line += " → rule " + e.Rule
		}
		out = append(out, line)
		if len(out) == 4 {
			break
		}
	}
	return out
}

// ConceptLabel names what a field asks for, for people: the label of its
// autocomplete token (a part such as "Phone area code"), else of its
// concept (profile.Label).
func ConceptLabel(token, concept string) string { return profile.Label(token, concept) }

// reasonByChoice is the dialog's reason for a row of data given only by
// choice (a gender), offered unticked on every page.
const reasonByChoice = "given only if you tick it"

// byChoice reports whether a result is offered unticked because its data
// is given only by choice (heuristics.ByChoice), not because the page marks
// it optional.
func byChoice(r heuristics.Result) bool {
	for _, e := range r.Evidence {
		if e.Rule == heuristics.ByChoice {
			return true
		}
	}
	return false
}

// sensitiveToken reports whether the dialog masks a value of this kind
// until the person reveals it.
func sensitiveToken(token string) bool {
	return strings.HasPrefix(token, "bday") || token == "sex"
}

// Choose returns the profile to fill from: the one asked for, else the
// first, plus the summaries for the dialog's picker.
func (a *Service) Choose(v fillVault, method, id string) (*profile.UserProfile, []confirm.ProfileSummary, *nativemsg.Error) {
	ps, err := v.Profiles()
	if err != nil {
		return nil, nil, VaultError(method, err)
	}
	if len(ps) == 0 {
		return nil, nil, nativemsg.NewError(nativemsg.CodeNotFound, "%s: the vault has no profile yet: add one in the Tessera app", method)
	}
	sums := Summaries(ps)
	if id == "" {
		return &ps[0], sums, nil
	}
	for i := range ps {
		if ps[i].ID == id {
			return &ps[i], sums, nil
		}
	}
	return nil, nil, nativemsg.NewError(nativemsg.CodeNotFound, "%s: no profile %q", method, id)
}

// ProposedField is one field of fill.propose's result: that the profile
// holds a value of the kind the field asks for, never the value or its
// shape (SECURITY.md, "What a preview is").
type ProposedField struct {
	Frame        int     `json:"frame"`
	Ref          string  `json:"ref"`
	Label        string  `json:"label"`
	Concept      string  `json:"concept"`
	ConceptLabel string  `json:"conceptLabel"`
	Confidence   float64 `json:"confidence"`
	Section      string  `json:"section"`
	Reason       string  `json:"reason,omitempty"`
}

// Proposal is the result of fill.propose.
type Proposal struct {
	Site    string          `json:"site"`
	Profile string          `json:"profile"`
	Fields  []ProposedField `json:"fields"`
}

// pageRequest is a page request parsed, its profile chosen and its page
// analysed: what propose, request and learn all start from.
type pageRequest struct {
	v    fillVault
	prof *profile.UserProfile
	sums []confirm.ProfileSummary
	an   *Analysed
}

// preparePage picks the profile (pick names it from the
// params; "" is the first) and analyses the page.
func (a *Service) preparePage(method string, p Page, pick func(Page) string) (pageRequest, *nativemsg.Error) {
	var r pageRequest
	var e *nativemsg.Error
	if r.v, e = a.fillVault(); e != nil {
		return r, e
	}
	if r.prof, r.sums, e = a.Choose(r.v, method, pick(p)); e != nil {
		return r, e
	}
	r.an, e = Analyse(p)
	return r, e
}

// askedProfile picks the profile the params name.
func askedProfile(p Page) string { return p.Profile }

func proposeFill(ctx context.Context, a *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	p, e := ParsePage("fill.propose", params)
	if e != nil {
		return nil, e
	}
	return a.Propose(s, p)
}

// Propose says which fields of page p the profile holds a value for (by
// kind only), for s: a browser's fill.propose, an agent's
// tessera.fill.propose.
func (a *Service) Propose(s *broker.Session, p Page) (Proposal, *nativemsg.Error) {
	r, e := a.preparePage("fill.propose", p, askedProfile)
	if e != nil {
		return Proposal{}, e
	}
	v, prof, an := r.v, r.prof, r.an
	out := Proposal{Site: an.Site, Profile: prof.ID, Fields: []ProposedField{}}
	for _, fa := range an.Frames {
		for _, pr := range presence(fa.Fields, prof) {
			c := &fa.Snap.Controls[pr.Index]
			if c.Type == "hidden" {
				continue
			}
			pf := ProposedField{Frame: fa.In.Frame, Ref: c.Ref, Label: FieldLabel(c), Concept: pr.Concept,
				ConceptLabel: ConceptLabel(fa.Cls[pr.Index].Token, pr.Concept), Confidence: fa.Cls[pr.Index].Shown(pr.Confidence), Section: confirm.SectionFill}
			if reason := attentionReason(fa, c); reason != "" {
				pf.Section, pf.Reason = confirm.SectionAttention, reason
			}
			out.Fields = append(out.Fields, pf)
		}
	}
	a.audit(v, vault.Release{Event: vault.EventProposal, Origin: an.Origin, Site: an.Site, ProfileID: prof.ID, Client: s.Client().Name})
	return out, nil
}

// FillField is one approved value for one control. Its Value comes from
// the release gate only (confirm.Gate): no other code can make one.
type Field struct {
	Frame  int           `json:"frame"`
	Ref    string        `json:"ref"`
	Kind   string        `json:"kind"`
	Value  confirm.Value `json:"value"`
	Expect Expect        `json:"expect"`
}

// Expect is what a control was when measured; the extension fills it only
// while it still is.
type Expect struct {
	Name string `json:"name"`
	ID   string `json:"id"`
	Type string `json:"type"`
}

// FillResult is the result of fill.request and fill.continue.
type Result struct {
	Fill    string  `json:"fill"`
	Profile string  `json:"profile"`
	Fields  []Field `json:"fields"`
}

// fillState is an approved fill that may still be continued and reported.
type fillState struct {
	id        string
	sess      *broker.Session
	profile   string
	origin    string
	site      string
	approved  time.Time
	continues int
	// grant is what the person approved, for fields the page shows later
	// with the same concept and value.
	grant *confirm.Released
	// seen are the controls (frame and ref) already shown visible.
	seen map[string]bool
}

// FrameRef keys a control by its frame and ref.
func FrameRef(frame int, ref string) string { return strconv.Itoa(frame) + "\x00" + ref }

// fills holds the fills in progress, by id.
type fills struct {
	mu   sync.Mutex
	next uint64
	byID map[string]*fillState
}

func (f *fills) add(st *fillState) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.byID == nil {
		f.byID = map[string]*fillState{}
	}
	f.next++
	st.id = "f" + strconv.FormatUint(f.next, 10)
	f.byID[st.id] = st
}

// get returns fill id when it belongs to session s.
func (f *fills) get(id string, s *broker.Session) (*fillState, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	st, ok := f.byID[id]
	if !ok || st.sess != s {
		return nil, false
	}
	return st, true
}

func (f *fills) remove(id string) {
	f.mu.Lock()
	delete(f.byID, id)
	f.mu.Unlock()
}

// dropSession forgets the fills of a session that ended.
func (f *fills) dropSession(s *broker.Session) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for id, st := range f.byID {
		if st.sess == s {
			delete(f.byID, id)
		}
	}
}

// pendingFill is a confirmation waiting for the person, with what each of
// its rows would fill; a profile switch in the dialog replaces both.
type pendingFill struct {
	an      *Analysed
	skip    func(int, string) bool
	targets map[string]fillCandidate // by row id
	profile string
}

// newConfirmation is a dialog of kind about page an, asked by s, with the
// rows still to add.
func newConfirmation(kind string, an *Analysed, s *broker.Session, profileID string, sums []confirm.ProfileSummary) confirm.Confirmation {
	c := confirm.Confirmation{
		Kind: kind, Site: an.Site, Origin: an.Origin, URL: an.Page.URL, Title: ClipRunes(an.Page.Title, 200),
		Client:         s.ClientInfo(),
		Profiles:       sums,
		Profile:        profileID,
		ApproveDelayMs: int(confirm.DefaultApproveDelay / time.Millisecond),
	}
	for _, fa := range an.Frames {
		c.Frames = append(c.Frames, confirm.FrameInfo{ID: fa.In.Frame, Origin: fa.In.Origin, CrossOrigin: fa.Cross})
	}
	return c
}

// numberRows gives each candidate its row id and returns the rows and what
// each row would fill.
func numberRows(cands []fillCandidate) ([]confirm.Row, map[string]fillCandidate) {
	rows := make([]confirm.Row, 0, len(cands))
	targets := make(map[string]fillCandidate, len(cands))
	for i, fc := range cands {
		fc.row.ID = "r" + strconv.Itoa(i+1)
		rows = append(rows, fc.row)
		targets[fc.row.ID] = fc
	}
	return rows, targets
}

// fillConfirmation is a fill or continuation dialog offering cands.
func fillConfirmation(kind string, an *Analysed, s *broker.Session, profileID string, sums []confirm.ProfileSummary, cands []fillCandidate) (confirm.Confirmation, map[string]fillCandidate) {
	c := newConfirmation(kind, an, s, profileID, sums)
	var targets map[string]fillCandidate
	c.Rows, targets = numberRows(cands)
	return c, targets
}

// Rematch recomputes waiting confirmation id from another profile, for the
// dialog's profile picker.
func (a *Service) Rematch(id, profileID string) (confirm.Confirmation, error) {
	a.mu.Lock()
	pf := a.pending[id]
	a.mu.Unlock()
	if pf == nil {
		return confirm.Confirmation{}, confirm.ErrNoConfirmation
	}
	v, e := a.fillVault()
	if e != nil {
		return confirm.Confirmation{}, errors.New(e.Message)
	}
	prof, _, e := a.Choose(v, "switch profile", profileID)
	if e != nil {
		return confirm.Confirmation{}, errors.New(e.Message)
	}
	fill, attention, _ := candidates(pf.an, prof, pf.skip)
	var targets map[string]fillCandidate
	c, err := a.confirms.Replace(id, func(c *confirm.Confirmation) error {
		c.Rows, targets = numberRows(append(fill, attention...))
		c.Profile = prof.ID
		return nil
	})
	if err != nil {
		return confirm.Confirmation{}, err
	}
	a.mu.Lock()
	pf.targets, pf.profile = targets, prof.ID
	a.mu.Unlock()
	return c, nil
}

// pendingKey carries the pending fill of a dialog to Ask, so the dialog's
// profile picker finds it.
type pendingKey struct{}

func withPending(ctx context.Context, pf *pendingFill) context.Context {
	return context.WithValue(ctx, pendingKey{}, pf)
}

// Ask shows c and waits for the person: the release gate's asker. A fill
// dialog (its pending fill in ctx) can switch profiles while it waits.
// Without anything to show it on (a headless app) the answer is a decline.
func (a *Service) Ask(ctx context.Context, c confirm.Confirmation) confirm.Decision {
	pf, _ := ctx.Value(pendingKey{}).(*pendingFill)
	var id string
	d := a.confirms.Ask(ctx, c, a.cfg.ConfirmTimeout(), func(qid string) {
		// Registered before the dialog shows, so a profile switch finds it.
		id = qid
		a.mu.Lock()
		a.pending[qid] = pf
		a.mu.Unlock()
	})
	a.mu.Lock()
	delete(a.pending, id)
	a.mu.Unlock()
	return d
}

// Declined is the protocol error of a request the person declined.
func Declined(method string, d confirm.Decision) *nativemsg.Error {
	e := nativemsg.NewError(nativemsg.CodeDeclined, "%s: declined (%s)", method, d.Reason)
	e.Data.Reason = d.Reason
	return e
}

func requestFill(ctx context.Context, a *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	p, e := ParsePage("fill.request", params)
	if e != nil {
		return nil, e
	}
	return a.Fill(ctx, s, s, p)
}

// Fill answers a fill request of requester s for page p whose values go
// to browser session rcpt: the browser itself, or the browser an agent
// acts in.
func (a *Service) Fill(ctx context.Context, s, rcpt *broker.Session, page Page) (Result, *nativemsg.Error) {
	var rule vault.SiteRule
	var hasRule bool
	r, e := a.preparePage("fill.request", page, func(p Page) string {
		// A remembered site fills from the profile it was remembered with.
		rule, hasRule = a.Remembered(OriginOf(p.Page.URL))
		if p.Profile == "" && hasRule {
			return rule.Profile
		}
		return p.Profile
	})
	if e != nil {
		if e.Data.Code == nativemsg.CodeVaultLocked {
			a.cfg.ShowUnlock()
		}
		return Result{}, e
	}
	prof, sums, an := r.prof, r.sums, r.an
	fill, attention, _ := candidates(an, prof, nil)
	st := &fillState{sess: s, origin: an.Origin, site: an.Site, seen: map[string]bool{}}
	markSeen(an, st.seen)
	if len(fill)+len(attention) == 0 {
		// Nothing to ask about: no dialog, nothing released.
		st.profile = prof.ID
		a.fills.add(st)
		return Result{Fill: st.id, Profile: prof.ID, Fields: []Field{}}, nil
	}
	c, targets := fillConfirmation(confirm.ConfirmFill, an, s, prof.ID, sums, append(fill, attention...))
	// An agent's fill is always asked: a site remembered for the browser
	// is not remembered for every program the person runs.
	agent := s.Client().Kind == broker.KindAgent
	c.Rememberable = a.CanRemember() && !agent
	pf := &pendingFill{an: an, targets: targets, profile: prof.ID}
	var remembered *confirm.Decision
	if hasRule && rule.Profile == prof.ID && !agent {
		if d, ok := rememberedDecision(rule, c, targets); ok {
			remembered = &d
			if st, ok := a.cfg.Vault, a.cfg.Vault != nil; ok {
				st.TouchSiteRule(an.Origin)
			}
		}
	}
	a.fills.add(st)
	fields, d, err := a.release(ctx, st, pf, c, s, rcpt, remembered)
	if err != nil || !d.Approve {
		a.fills.remove(st.id)
		if err != nil {
			return Result{}, nativemsg.NewError(nativemsg.CodeNotPaired, "fill.request: %v", err)
		}
		return Result{}, Declined("fill.request", d)
	}
	a.Remember(an, pf, d)
	st.profile = pf.profile
	st.approved = a.cfg.Now()
	return Result{Fill: st.id, Profile: st.profile, Fields: fields}, nil
}

// release offers the rows of c, pending as pf, through the gate: asked by
// s, received by rcpt. It returns the fields to fill with the values the
// person approved, and adds them to st's grant.
func (a *Service) release(ctx context.Context, st *fillState, pf *pendingFill, c confirm.Confirmation, s, rcpt *broker.Session, remembered *confirm.Decision) ([]Field, confirm.Decision, error) {
	offer := confirm.Offer{
		Requester: s.Peer(), Recipient: rcpt.Peer(), Dialog: c, Remembered: remembered,
		Values: func(id string) ([]string, string) {
			a.mu.Lock()
			fc, ok := pf.targets[id]
			a.mu.Unlock()
			if !ok {
				return nil, ""
			}
			return []string{fc.value}, fc.key
		},
		Audit: func() vault.Release {
			a.mu.Lock()
			defer a.mu.Unlock()
			return vault.Release{Origin: st.origin, Site: st.site, ProfileID: pf.profile, Fill: st.id}
		},
	}
	rel, d, err := a.gate.Release(withPending(ctx, pf), offer)
	if err != nil || !d.Approve {
		return nil, d, err
	}
	a.mu.Lock()
	targets := pf.targets
	a.mu.Unlock()
	out := []Field{}
	for _, id := range rel.Rows() {
		fc, ok := targets[id]
		vs := rel.Values(id)
		if !ok || len(vs) != 1 {
			continue
		}
		f := fc.target
		f.Value = vs[0]
		a.cfg.Released(f.Value.String())
		out = append(out, f)
	}
	if st.grant == nil {
		st.grant = rel
	} else {
		st.grant.Grow(rel)
	}
	return out, d, nil
}

func markSeen(an *Analysed, seen map[string]bool) {
	for _, fa := range an.Frames {
		for i := range fa.Snap.Controls {
			c := &fa.Snap.Controls[i]
			// Only what the person could see counts as seen: a field hidden
			// now is considered again once the page shows it.
			if attentionReason(fa, c) == "" {
				seen[FrameRef(fa.In.Frame, c.Ref)] = true
			}
		}
	}
}

func continueFill(ctx context.Context, a *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	p, e := ParsePage("fill.continue", params)
	if e != nil {
		return nil, e
	}
	st, ok := a.fills.get(p.Fill, s)
	if !ok || st.approved.IsZero() {
		return nil, nativemsg.NewError(nativemsg.CodeNotFound, "fill.continue: no fill %q in progress", p.Fill)
	}
	if st.continues >= maxContinues || a.cfg.Now().Sub(st.approved) > continueFor {
		return nil, nativemsg.NewError(nativemsg.CodeNotFound, "fill.continue: fill %q can no longer be continued", p.Fill)
	}
	st.continues++
	an, e := Analyse(p)
	if e != nil {
		return nil, e
	}
	if an.Origin != st.origin {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "fill.continue: the page is no longer on %s", st.origin)
	}
	v, e := a.fillVault()
	if e != nil {
		return nil, e
	}
	prof, sums, e := a.Choose(v, "fill.continue", st.profile)
	if e != nil {
		return nil, e
	}
	seen := st.seen
	skip := func(frame int, ref string) bool { return seen[FrameRef(frame, ref)] }
	fill, attention, _ := candidates(an, prof, skip)
	markSeen(an, st.seen)
	out := Result{Fill: st.id, Profile: st.profile, Fields: []Field{}}
	var ask []fillCandidate
	for _, fc := range fill {
		// Within the approval already given: the same value for the same
		// concept, offered normally, to the same browser.
		if fc.row.Checked {
			if v, ok := st.grant.Again(s.Peer(), fc.key, fc.value); ok {
				f := fc.target
				f.Value = v
				out.Fields = append(out.Fields, f)
				continue
			}
		}
		ask = append(ask, fc)
	}
	if len(ask) > 0 {
		c, targets := fillConfirmation(confirm.ConfirmContinue, an, s, prof.ID, sums, append(ask, attention...))
		c.Profiles = nil // the profile was chosen for this fill
		pf := &pendingFill{an: an, targets: targets, profile: prof.ID, skip: skip}
		fields, _, err := a.release(ctx, st, pf, c, s, s, nil)
		if err != nil {
			return nil, nativemsg.NewError(nativemsg.CodeNotPaired, "fill.continue: %v", err)
		}
		out.Fields = append(out.Fields, fields...)
	}
	return out, nil
}

// FieldOutcome is what the page did with one approved value.
type FieldOutcome struct {
	Frame   int    `json:"frame"`
	Ref     string `json:"ref"`
	Outcome string `json:"outcome"`
}

var Outcomes = map[string]bool{"filled": true, "rejected": true, "gone": true, "changed": true, "hidden": true}

func reportFill(ctx context.Context, a *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	var p struct {
		Fill   string         `json:"fill"`
		Fields []FieldOutcome `json:"fields"`
	}
	if err := broker.DecodeParams(params, &p); err != nil {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "fill.report: %v", err)
	}
	if e := a.Report(s, p.Fill, p.Fields); e != nil {
		return nil, e
	}
	return struct{}{}, nil
}

// Report records what the page did with fill id's values, for s, and ends
// the fill.
func (a *Service) Report(s *broker.Session, id string, fields []FieldOutcome) *nativemsg.Error {
	if len(fields) > maxValues {
		return nativemsg.NewError(nativemsg.CodeInvalidParams, "fill.report: too many fields")
	}
	counts := map[string]int{}
	for _, f := range fields {
		if !Outcomes[f.Outcome] {
			return nativemsg.NewError(nativemsg.CodeInvalidParams, "fill.report: unknown outcome %q", f.Outcome)
		}
		counts[f.Outcome]++
	}
	st, ok := a.fills.get(id, s)
	if !ok {
		return nativemsg.NewError(nativemsg.CodeNotFound, "fill.report: no fill %q in progress", id)
	}
	a.fills.remove(st.id)
	if v, e := a.fillVault(); e == nil && len(fields) > 0 {
		a.audit(v, vault.Release{Event: vault.EventReport, Origin: st.origin, Site: st.site, ProfileID: st.profile, Client: s.Client().Name, Fill: st.id, Outcomes: counts})
	}
	return nil
}

// Audit appends r to the audit log of v; a failure is written to log, not
// returned: the person's decision stands whether or not the log could
// record it.
func Audit(log io.Writer, v Recorder, r vault.Release) {
	if r.Concepts == nil {
		r.Concepts = []string{}
	}
	if err := v.RecordRelease(r); err != nil {
		fmt.Fprintf(log, "tessera: audit log: %v\n", err)
	}
}

// audit appends r to the audit log of v (Audit).
func (a *Service) audit(v Recorder, r vault.Release) { Audit(a.cfg.Log, v, r) }

// A Recorder keeps the audit log.
type Recorder interface {
	RecordRelease(vault.Release) error
}
