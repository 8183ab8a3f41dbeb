package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	maxURLLen    = 8 << 10
	maxValues    = 20000
	maxAttention = 40 // attention rows shown; more are counted, not listed
	maxContinues = 3
	continueFor  = 60 * time.Second
	// lowConfidence: rows under it start unchecked. Confidences are
	// calibrated on held-out sites (heuristics' calibration map): fills
	// shown at 0.60–0.70 were right 85% of the time, at 0.50–0.60 44%.
	lowConfidence = 0.6
)

// registerFillMethods adds the fill-with-consent methods (PROTOCOL.md §4.1).
func (a *App) registerFillMethods() {
	a.handle("vault.status", vaultStatus)
	a.handle("form.analyse", analyseForm)
	a.handle("fill.propose", proposeFill)
	a.handle("fill.request", requestFill)
	a.handle("fill.continue", continueFill)
	a.handle("fill.report", reportFill)
	a.handle("learn.request", requestLearn)
	// vault.unlock, shared with the CLI, is registered in cli_methods.go.
}

// fillVault is what the fill methods need of the vault.
type fillVault interface {
	Profiles() ([]profile.UserProfile, error)
	RecordRelease(vault.Release) error
	Learn(profileID string, obs []vault.Observation) ([]vault.LearnResult, error)
}

func (a *App) fillVault() (fillVault, *nativemsg.Error) {
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

// pageParams are the params common to the fill methods.
type pageParams struct {
	Fill    string          `json:"fill,omitempty"`
	Page    PageInfo        `json:"page"`
	Frames  []FrameSnapshot `json:"frames"`
	Profile string          `json:"profile,omitempty"`
}

var nonceRE = regexp.MustCompile(`^[A-Za-z0-9_-]{16,128}$`)

func parsePage(method string, params json.RawMessage) (pageParams, *nativemsg.Error) {
	var p pageParams
	if err := strictUnmarshal(params, &p); err != nil {
		return p, nativemsg.NewError(nativemsg.CodeInvalidParams, "%s: %v", method, err)
	}
	return checkPage(method, p)
}

// checkPage checks page p against the limits of PROTOCOL.md §4.1.
func checkPage(method string, p pageParams) (pageParams, *nativemsg.Error) {
	bad := func(format string, args ...any) (pageParams, *nativemsg.Error) {
		return p, nativemsg.NewError(nativemsg.CodeInvalidParams, method+": "+format, args...)
	}
	if len(p.Frames) == 0 || len(p.Frames) > maxFrames {
		return bad("between 1 and %d frames required, got %d", maxFrames, len(p.Frames))
	}
	if len(p.Page.URL) > maxURLLen || !webURL(p.Page.URL) {
		return bad("page.url must be an http(s) URL of at most %d bytes", maxURLLen)
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
		if len(f.Origin) > maxURLLen || len(f.URL) > maxURLLen {
			return bad("frames[%d]: origin or url too long", i)
		}
		nvalues += len(f.Values)
	}
	if nvalues > maxValues {
		return bad("more than %d live values", maxValues)
	}
	return p, nil
}

func webURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// originOf returns scheme://host[:port] of an http(s) URL.
func originOf(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return ""
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host)
}

// siteOf returns the registrable domain of an origin ("shop.example.co.uk"
// → "example.co.uk"); hosts without one (IP addresses, localhost) are
// returned whole.
func siteOf(origin string) string {
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

// frameAnalysis is one frame after extraction and classification.
type frameAnalysis struct {
	in     FrameSnapshot
	cross  bool
	snap   *form.Snapshot
	cls    []heuristics.Result
	fields []matcher.Field
}

// analysis is a page after extraction and classification.
type analysis struct {
	page   PageInfo
	origin string // of the top-level page
	site   string
	frames []*frameAnalysis
}

// analyse extracts and classifies every frame. It needs no vault.
func analyse(p pageParams) (*analysis, *nativemsg.Error) {
	an := &analysis{page: p.Page, origin: originOf(p.Page.URL)}
	an.site = siteOf(an.origin)
	for _, f := range p.Frames {
		s, err := form.Extract(strings.NewReader(f.HTML), form.ExtractOptions{
			URL: f.URL, Frame: strconv.Itoa(f.Frame), LiveDOM: true, StampNonce: f.Nonce,
		})
		if err != nil {
			return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "frame %d: %v", f.Frame, err)
		}
		fa := &frameAnalysis{in: f, cross: f.Origin != an.origin, snap: s}
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
		fa.cls = heuristics.Classify(s)
		fa.fields = matcher.FieldsFromSnapshot(s, fa.cls)
		an.frames = append(an.frames, fa)
	}
	return an, nil
}

// attentionReason says why control c of fa may only be filled when the
// person ticks it, or "" when it may be offered normally.
func attentionReason(fa *frameAnalysis, c *form.Control) string {
	switch {
	case c.Visibility.Hidden:
		return c.Visibility.Reason
	case !c.Visibility.Measured:
		return "unmeasured"
	case fa.cross:
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

func analyseForm(ctx context.Context, a *App, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	p, e := parsePage("form.analyse", params)
	if e != nil {
		return nil, e
	}
	return analyseFields(p)
}

// analyseFields is what Tessera understands of page p's fields: labels,
// concepts, confidence, whether the person can see them; no value.
func analyseFields(p pageParams) (Analysis, *nativemsg.Error) {
	an, e := analyse(p)
	if e != nil {
		return Analysis{}, e
	}
	out := Analysis{Site: an.site, Fields: []AnalysedField{}}
	for _, fa := range an.frames {
		for i := range fa.snap.Controls {
			c := &fa.snap.Controls[i]
			if c.Type == "hidden" || fa.cls[i].Concept == "" {
				continue
			}
			reason := attentionReason(fa, c)
			out.Fields = append(out.Fields, AnalysedField{
				Frame: fa.in.Frame, Ref: c.Ref, Label: fieldLabel(c), Concept: fa.cls[i].Concept,
				Token: fa.cls[i].Token, Confidence: fa.cls[i].Confidence, Evidence: evidenceLines(c, fa.cls[i]),
				Hidden: reason != "", Reason: reason,
			})
		}
	}
	return out, nil
}

// A candidate is one value the app could offer for one control.
type fillCandidate struct {
	row Row
	// target is the control, its Value left for the gate to give.
	target FillField
	// value is what would be filled; key the approval key: concept and
	// value.
	value, key string
}

// candidates matches profile p against every frame of an and returns what
// could be offered, fill-section rows first in page order, then the
// attention rows. skip reports controls not to offer again (a continuation).
func candidates(an *analysis, p *profile.UserProfile, skip func(frame int, ref string) bool) (fill, attention []fillCandidate, more int) {
	for _, fa := range an.frames {
		// Hidden and cross-frame fields are matched as if they were shown, so
		// the dialog can say what they would receive; they only become
		// attention rows.
		fields := slices.Clone(fa.fields)
		for i := range fields {
			fields[i].Hidden = false
		}
		props := matcher.Match(fields, p, matcher.Options{})
		for i, pr := range props {
			if pr.Value == nil || pr.Skip != "" {
				continue
			}
			c := &fa.snap.Controls[pr.Index]
			if c.Type == "hidden" || skip != nil && skip(fa.in.Frame, c.Ref) {
				continue
			}
			fc := newCandidate(fa, c, &fields[i], fa.cls[pr.Index], pr)
			if fc.row.Section == SectionFill {
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

func newCandidate(fa *frameAnalysis, c *form.Control, f *matcher.Field, cls heuristics.Result, pr matcher.Proposal) fillCandidate {
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
	r := Row{
		Frame: fa.in.Frame, Ref: c.Ref, Label: fieldLabel(c), Value: shown,
		Sensitive: sensitiveToken(token), Concept: pr.Concept, ConceptLabel: conceptLabel(token, pr.Concept),
		Confidence: pr.Confidence, Advisory: advisory, Evidence: evidenceLines(c, cls), Section: SectionFill,
	}
	if reason := attentionReason(fa, c); reason != "" {
		r.Section, r.Reason = SectionAttention, reason
	} else {
		r.Checked = pr.Confidence >= lowConfidence
		switch {
		case cls.Optional:
			// The page marks the box optional and it asks for data forms
			// seldom need (an employer, a gender): offered, never filled
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
		row:    r,
		target: FillField{Frame: fa.in.Frame, Ref: c.Ref, Kind: kind, Expect: Expect{Name: c.Name, ID: c.ID, Type: c.Type}},
		value:  value,
		key:    pr.Concept + "\x00" + value,
	}
}

func fieldLabel(c *form.Control) string {
	for _, l := range []string{c.Label, c.AriaLabel, c.Placeholder, c.Title, c.Name, c.ID} {
		if l = strings.TrimSpace(l); l != "" {
			return clipRunes(l, 120)
		}
	}
	return "(no label)"
}

func clipRunes(s string, n int) string {
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
			line = fmt.Sprintf("%s %q", e.Signal, clipRunes(e.Text, 60))
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

// conceptLabel names what a field asks for, for people: the label of its
// autocomplete token (a part such as "Phone area code"), else of its
// concept (profile.Label).
func conceptLabel(token, concept string) string { return profile.Label(token, concept) }

// sensitiveToken reports whether the dialog masks a value of this kind
// until the person reveals it.
func sensitiveToken(token string) bool {
	return strings.HasPrefix(token, "bday") || token == "sex"
}

// choose returns the profile to fill from: the one asked for, else the
// first, plus the summaries for the dialog's picker.
func (a *App) choose(v fillVault, method, id string) (*profile.UserProfile, []ProfileSummary, *nativemsg.Error) {
	ps, err := v.Profiles()
	if err != nil {
		return nil, nil, vaultError(method, err)
	}
	if len(ps) == 0 {
		return nil, nil, nativemsg.NewError(nativemsg.CodeNotFound, "%s: the vault has no profile yet: add one in the Tessera app", method)
	}
	sums := summaries(ps)
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
	sums []ProfileSummary
	an   *analysis
}

// preparePage picks the profile (pick names it from the
// params; "" is the first) and analyses the page.
func (a *App) preparePage(method string, p pageParams, pick func(pageParams) string) (pageRequest, *nativemsg.Error) {
	var r pageRequest
	var e *nativemsg.Error
	if r.v, e = a.fillVault(); e != nil {
		return r, e
	}
	if r.prof, r.sums, e = a.choose(r.v, method, pick(p)); e != nil {
		return r, e
	}
	r.an, e = analyse(p)
	return r, e
}

// askedProfile picks the profile the params name.
func askedProfile(p pageParams) string { return p.Profile }

func proposeFill(ctx context.Context, a *App, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	p, e := parsePage("fill.propose", params)
	if e != nil {
		return nil, e
	}
	return a.propose(s, p)
}

// propose says which fields of page p the profile holds a value for (by
// kind only), for s: a browser's fill.propose, an agent's
// tessera.fill.propose.
func (a *App) propose(s *broker.Session, p pageParams) (Proposal, *nativemsg.Error) {
	r, e := a.preparePage("fill.propose", p, askedProfile)
	if e != nil {
		return Proposal{}, e
	}
	v, prof, an := r.v, r.prof, r.an
	out := Proposal{Site: an.site, Profile: prof.ID, Fields: []ProposedField{}}
	for _, fa := range an.frames {
		for _, pr := range presence(fa.fields, prof) {
			c := &fa.snap.Controls[pr.Index]
			if c.Type == "hidden" {
				continue
			}
			pf := ProposedField{Frame: fa.in.Frame, Ref: c.Ref, Label: fieldLabel(c), Concept: pr.Concept,
				ConceptLabel: conceptLabel(fa.cls[pr.Index].Token, pr.Concept), Confidence: pr.Confidence, Section: SectionFill}
			if reason := attentionReason(fa, c); reason != "" {
				pf.Section, pf.Reason = SectionAttention, reason
			}
			out.Fields = append(out.Fields, pf)
		}
	}
	a.audit(v, vault.Release{Event: vault.EventProposal, Origin: an.origin, Site: an.site, ProfileID: prof.ID, Client: s.Client().Name})
	return out, nil
}

// FillField is one approved value for one control. Its Value comes from
// the release gate only (confirm.Gate): no other code can make one.
type FillField struct {
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
type FillResult struct {
	Fill    string      `json:"fill"`
	Profile string      `json:"profile"`
	Fields  []FillField `json:"fields"`
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

func frameRef(frame int, ref string) string { return strconv.Itoa(frame) + "\x00" + ref }

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
	an      *analysis
	skip    func(int, string) bool
	targets map[string]fillCandidate // by row id
	profile string
}

// newConfirmation is a dialog of kind about page an, asked by s, with the
// rows still to add.
func newConfirmation(kind string, an *analysis, s *broker.Session, profileID string, sums []ProfileSummary) Confirmation {
	c := Confirmation{
		Kind: kind, Site: an.site, Origin: an.origin, URL: an.page.URL, Title: clipRunes(an.page.Title, 200),
		Client:         clientInfo(s),
		Profiles:       sums,
		Profile:        profileID,
		ApproveDelayMs: int(DefaultApproveDelay / time.Millisecond),
	}
	for _, fa := range an.frames {
		c.Frames = append(c.Frames, FrameInfo{ID: fa.in.Frame, Origin: fa.in.Origin, CrossOrigin: fa.cross})
	}
	return c
}

// numberRows gives each candidate its row id and returns the rows and what
// each row would fill.
func numberRows(cands []fillCandidate) ([]Row, map[string]fillCandidate) {
	rows := make([]Row, 0, len(cands))
	targets := make(map[string]fillCandidate, len(cands))
	for i, fc := range cands {
		fc.row.ID = "r" + strconv.Itoa(i+1)
		rows = append(rows, fc.row)
		targets[fc.row.ID] = fc
	}
	return rows, targets
}

// fillConfirmation is a fill or continuation dialog offering cands.
func fillConfirmation(kind string, an *analysis, s *broker.Session, profileID string, sums []ProfileSummary, cands []fillCandidate) (Confirmation, map[string]fillCandidate) {
	c := newConfirmation(kind, an, s, profileID, sums)
	var targets map[string]fillCandidate
	c.Rows, targets = numberRows(cands)
	return c, targets
}

// rematch recomputes waiting confirmation id from another profile, for the
// dialog's profile picker.
func (a *App) rematch(id, profileID string) (Confirmation, error) {
	a.mu.Lock()
	pf := a.pending[id]
	a.mu.Unlock()
	if pf == nil {
		return Confirmation{}, ErrNoConfirmation
	}
	v, e := a.fillVault()
	if e != nil {
		return Confirmation{}, errors.New(e.Message)
	}
	prof, _, e := a.choose(v, "switch profile", profileID)
	if e != nil {
		return Confirmation{}, errors.New(e.Message)
	}
	fill, attention, _ := candidates(pf.an, prof, pf.skip)
	var targets map[string]fillCandidate
	c, err := a.confirms.Replace(id, func(c *Confirmation) error {
		c.Rows, targets = numberRows(append(fill, attention...))
		c.Profile = prof.ID
		return nil
	})
	if err != nil {
		return Confirmation{}, err
	}
	a.mu.Lock()
	pf.targets, pf.profile = targets, prof.ID
	a.mu.Unlock()
	return c, nil
}

// ask shows c and waits for the person. Without anything to show it on (a
// headless app) the answer is a decline.
func (a *App) ask(ctx context.Context, c Confirmation, pf *pendingFill) Decision {
	var id string
	d := a.confirms.Ask(ctx, c, a.confirmTimeout, func(qid string) {
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

func declined(method string, d Decision) *nativemsg.Error {
	e := nativemsg.NewError(nativemsg.CodeDeclined, "%s: declined (%s)", method, d.Reason)
	e.Data.Reason = d.Reason
	return e
}

func requestFill(ctx context.Context, a *App, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	p, e := parsePage("fill.request", params)
	if e != nil {
		return nil, e
	}
	return a.fill(ctx, s, s, p)
}

// fill answers a fill request of requester s for page p whose values go
// to browser session rcpt: the browser itself, or the browser an agent
// acts in.
func (a *App) fill(ctx context.Context, s, rcpt *broker.Session, page pageParams) (FillResult, *nativemsg.Error) {
	var rule vault.SiteRule
	var hasRule bool
	r, e := a.preparePage("fill.request", page, func(p pageParams) string {
		// A remembered site fills from the profile it was remembered with.
		rule, hasRule = a.remembered(originOf(p.Page.URL))
		if p.Profile == "" && hasRule {
			return rule.Profile
		}
		return p.Profile
	})
	if e != nil {
		if e.Data.Code == nativemsg.CodeVaultLocked {
			a.showUnlock()
		}
		return FillResult{}, e
	}
	prof, sums, an := r.prof, r.sums, r.an
	fill, attention, _ := candidates(an, prof, nil)
	st := &fillState{sess: s, origin: an.origin, site: an.site, seen: map[string]bool{}}
	markSeen(an, st.seen)
	if len(fill)+len(attention) == 0 {
		// Nothing to ask about: no dialog, nothing released.
		st.profile = prof.ID
		a.fills.add(st)
		return FillResult{Fill: st.id, Profile: prof.ID, Fields: []FillField{}}, nil
	}
	c, targets := fillConfirmation(ConfirmFill, an, s, prof.ID, sums, append(fill, attention...))
	// An agent's fill is always asked: a site remembered for the browser
	// is not remembered for every program the person runs.
	agent := s.Client().Kind == KindAgent
	c.Rememberable = a.canRemember() && !agent
	pf := &pendingFill{an: an, targets: targets, profile: prof.ID}
	var remembered *Decision
	if hasRule && rule.Profile == prof.ID && !agent {
		if d, ok := rememberedDecision(rule, c); ok {
			remembered = &d
			if st, ok := a.cfg.Vault, a.cfg.Vault != nil; ok {
				st.TouchSiteRule(an.origin)
			}
		}
	}
	a.fills.add(st)
	fields, d, err := a.release(ctx, st, pf, c, s, rcpt, remembered)
	if err != nil || !d.Approve {
		a.fills.remove(st.id)
		if err != nil {
			return FillResult{}, nativemsg.NewError(nativemsg.CodeNotPaired, "fill.request: %v", err)
		}
		return FillResult{}, declined("fill.request", d)
	}
	a.remember(an, pf, d)
	st.profile = pf.profile
	st.approved = a.cfg.Now()
	return FillResult{Fill: st.id, Profile: st.profile, Fields: fields}, nil
}

// release offers the rows of c, pending as pf, through the gate: asked by
// s, received by rcpt. It returns the fields to fill with the values the
// person approved, and adds them to st's grant.
func (a *App) release(ctx context.Context, st *fillState, pf *pendingFill, c Confirmation, s, rcpt *broker.Session, remembered *Decision) ([]FillField, Decision, error) {
	offer := confirm.Offer{
		Requester: peerOf(s), Recipient: peerOf(rcpt), Dialog: c, Remembered: remembered,
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
	out := []FillField{}
	for _, id := range rel.Rows() {
		fc, ok := targets[id]
		vs := rel.Values(id)
		if !ok || len(vs) != 1 {
			continue
		}
		f := fc.target
		f.Value = vs[0]
		a.released.add(f.Value.String())
		out = append(out, f)
	}
	if st.grant == nil {
		st.grant = rel
	} else {
		st.grant.Grow(rel)
	}
	return out, d, nil
}

func markSeen(an *analysis, seen map[string]bool) {
	for _, fa := range an.frames {
		for i := range fa.snap.Controls {
			c := &fa.snap.Controls[i]
			// Only what the person could see counts as seen: a field hidden
			// now is considered again once the page shows it.
			if attentionReason(fa, c) == "" {
				seen[frameRef(fa.in.Frame, c.Ref)] = true
			}
		}
	}
}

func continueFill(ctx context.Context, a *App, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	p, e := parsePage("fill.continue", params)
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
	an, e := analyse(p)
	if e != nil {
		return nil, e
	}
	if an.origin != st.origin {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "fill.continue: the page is no longer on %s", st.origin)
	}
	v, e := a.fillVault()
	if e != nil {
		return nil, e
	}
	prof, sums, e := a.choose(v, "fill.continue", st.profile)
	if e != nil {
		return nil, e
	}
	seen := st.seen
	skip := func(frame int, ref string) bool { return seen[frameRef(frame, ref)] }
	fill, attention, _ := candidates(an, prof, skip)
	markSeen(an, st.seen)
	out := FillResult{Fill: st.id, Profile: st.profile, Fields: []FillField{}}
	var ask []fillCandidate
	for _, fc := range fill {
		// Within the approval already given: the same value for the same
		// concept, offered normally, to the same browser.
		if fc.row.Checked {
			if v, ok := st.grant.Again(peerOf(s), fc.key, fc.value); ok {
				f := fc.target
				f.Value = v
				out.Fields = append(out.Fields, f)
				continue
			}
		}
		ask = append(ask, fc)
	}
	if len(ask) > 0 {
		c, targets := fillConfirmation(ConfirmContinue, an, s, prof.ID, sums, append(ask, attention...))
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

var outcomes = map[string]bool{"filled": true, "rejected": true, "gone": true, "changed": true, "hidden": true}

func reportFill(ctx context.Context, a *App, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	var p struct {
		Fill   string         `json:"fill"`
		Fields []FieldOutcome `json:"fields"`
	}
	if err := strictUnmarshal(params, &p); err != nil {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "fill.report: %v", err)
	}
	if e := a.report(s, p.Fill, p.Fields); e != nil {
		return nil, e
	}
	return struct{}{}, nil
}

// report records what the page did with fill id's values, for s, and ends
// the fill.
func (a *App) report(s *broker.Session, id string, fields []FieldOutcome) *nativemsg.Error {
	if len(fields) > maxValues {
		return nativemsg.NewError(nativemsg.CodeInvalidParams, "fill.report: too many fields")
	}
	counts := map[string]int{}
	for _, f := range fields {
		if !outcomes[f.Outcome] {
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

// audit appends r to the audit log; a failure is logged, not returned: the
// person's decision stands whether or not the log could record it.
func (a *App) audit(v releaseRecorder, r vault.Release) {
	if r.Concepts == nil {
		r.Concepts = []string{}
	}
	if err := v.RecordRelease(r); err != nil {
		fmt.Fprintf(a.cfg.Log, "tessera: audit log: %v\n", err)
	}
}

// VaultStatus is the result of vault.status.
type VaultStatus struct {
	State    string `json:"state"`
	Profiles int    `json:"profiles"`
	Window   bool   `json:"window"`
}

func vaultStatus(ctx context.Context, a *App, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	if len(params) > 0 {
		var p struct{}
		if err := strictUnmarshal(params, &p); err != nil {
			return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "vault.status: %v", err)
		}
	}
	a.mu.Lock()
	st := VaultStatus{State: a.vaultState()}
	a.mu.Unlock()
	st.Window = a.hasWindow()
	if st.State == "unlocked" {
		if v, ok := a.cfg.Vault, a.cfg.Vault != nil; ok {
			if ps, err := v.Profiles(); err == nil {
				st.Profiles = len(ps)
			}
		}
	}
	return st, nil
}

// UnlockShown is the result of a browser's vault.unlock.
type UnlockShown struct {
	State   string `json:"state"`
	Shown   bool   `json:"shown"`
	Message string `json:"message,omitempty"`
}

// requestUnlockScreen brings the window forward on its unlock screen, for
// a browser's vault.unlock.
func (a *App) requestUnlockScreen(s *broker.Session) (any, *nativemsg.Error) {
	a.mu.Lock()
	st := a.vaultState()
	a.mu.Unlock()
	out := UnlockShown{State: st, Shown: a.showUnlock()}
	if !out.Shown {
		out.Message = "Tessera runs without a window: unlock it with `tessera vault unlock --passphrase-file FILE`"
	}
	return out, nil
}

// An unlockShower can bring the unlock screen forward.
type unlockShower interface{ ShowUnlock() }

// showUnlock brings the unlock screen forward and reports whether there is
// a window to do it in.
func (a *App) showUnlock() bool {
	p := a.confirms.Presenter()
	if u, ok := p.(unlockShower); ok {
		u.ShowUnlock()
		return true
	}
	return false
}

// hasWindow reports whether something shows dialogs: without, every
// dialog declines with DeclineNoWindow.
func (a *App) hasWindow() bool { return a.confirms.Presenter() != nil }

// setScriptedPresenter installs the testhooks presenter; the window's own
// presenter does not replace it.
func (a *App) setScriptedPresenter(p Presenter) {
	a.mu.Lock()
	a.scripted = true
	a.mu.Unlock()
	a.confirms.SetPresenter(p)
}

// SetPresenter installs p as what shows dialogs (nil: nothing does, and
// every request is declined), unless a test build's scripted presenter is
// in place.
func (a *App) SetPresenter(p Presenter) {
	a.mu.Lock()
	scripted := a.scripted
	a.mu.Unlock()
	if !scripted {
		a.confirms.SetPresenter(p)
	}
}

// clientInfo names the session's client for a dialog, saying whether the
// app verified it.
func clientInfo(s *broker.Session) ClientInfo {
	name := s.Client().Name
	if s.Client().Browser != "" {
		name = s.Client().Browser
	}
	// An agent's name is what its MCP client said in initialize: the app
	// verified the `tessera mcp` process, never the name, so the dialog
	// shows it as a claim.
	verified := s.Client().Verified && s.Client().Kind != KindAgent
	return ClientInfo{Kind: s.Client().Kind, Name: name, Origin: s.Origin(), Verified: verified}
}
