package fill

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/tessera-app/tessera/app/broker"
	"github.com/tessera-app/tessera/app/confirm"
	"github.com/tessera-app/tessera/formspec"
	"github.com/tessera-app/tessera/heuristics"
	"github.com/tessera-app/tessera/matcher"
	"github.com/tessera-app/tessera/nativemsg"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

// Limits on the formspec.* methods (PROTOCOL.md §4.4).
const (
	maxFormspecFields = 5000
	maxFormspecValue  = 64 << 10
)

// formspecDocs are the definition and sidecars of one live form, in load
// order.
type formspecDocs struct {
	Definition json.RawMessage   `json:"definition"`
	References []json.RawMessage `json:"references,omitempty"`
	Ontologies []json.RawMessage `json:"ontologies,omitempty"`
	Registries []json.RawMessage `json:"registries,omitempty"`
}

func (d formspecDocs) sources() formspec.Sources {
	src := formspec.Sources{Definition: d.Definition}
	for _, r := range d.References {
		src.References = append(src.References, r)
	}
	for _, o := range d.Ontologies {
		src.Ontologies = append(src.Ontologies, o)
	}
	for _, r := range d.Registries {
		src.Registries = append(src.Registries, r)
	}
	return src
}

// toolError turns a formspec error into the wire error with the same code.
func toolError(method string, err error) *nativemsg.Error {
	var fe *formspec.Error
	if errors.As(err, &fe) {
		e := nativemsg.NewError(fe.Code, "%s: %s", method, fe.Message)
		e.Data.Path = fe.Path
		return e
	}
	return nativemsg.NewError(nativemsg.CodeInvalidParams, "%s: %v", method, err)
}

// pageToolCalls are the agents' runs of a page's own tools in flight, by
// the browser session and tab they run in. Tessera's Formspec bootstrap
// provider is such a page tool: its profile.apply asks formspec.apply from
// the browser, and while an agent's call runs there, that is the agent
// asking, which the dialog and the audit must say (issue 23). The agent
// path notes each run (callRegisteredTool: begin around browser.execute).
type pageToolCalls struct {
	mu sync.Mutex
	m  map[pageToolKey][]*broker.Session
}

type pageToolKey struct {
	browser *broker.Session
	tab     int
}

// begin notes that agent runs a page tool in browser's tab until end is
// called.
func (p *pageToolCalls) begin(browser *broker.Session, tab int, agent *broker.Session) (end func()) {
	k := pageToolKey{browser, tab}
	p.mu.Lock()
	if p.m == nil {
		p.m = map[pageToolKey][]*broker.Session{}
	}
	p.m[k] = append(p.m[k], agent)
	p.mu.Unlock()
	return func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		list := p.m[k]
		for i, s := range list {
			if s == agent {
				list = append(list[:i:i], list[i+1:]...)
				break
			}
		}
		if len(list) == 0 {
			delete(p.m, k)
		} else {
			p.m[k] = list
		}
	}
}

// agentIn returns the agent whose page-tool run in browser's tab began
// last and has not ended, or nil.
func (p *pageToolCalls) agentIn(browser *broker.Session, tab int) *broker.Session {
	p.mu.Lock()
	defer p.mu.Unlock()
	list := p.m[pageToolKey{browser, tab}]
	if len(list) == 0 {
		return nil
	}
	return list[len(list)-1]
}

// formspecAsker is who asks a Formspec apply or learn from browser s: an
// agent running the page's tools in that tab, else the browser itself.
func (a *Service) formspecAsker(s *broker.Session, tab int) (requester *broker.Session, agent bool) {
	if ag := a.pageCalls.agentIn(s, tab); ag != nil {
		return ag, true
	}
	return s, false
}

// FormspecHelp is formspec.help's result.
type FormspecHelp struct {
	Help     *formspec.FieldHelp `json:"help"`
	Warnings []string            `json:"warnings"`
}

func formspecHelp(ctx context.Context, a *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	var p struct {
		formspecDocs
		Path     string `json:"path"`
		Audience string `json:"audience,omitempty"`
	}
	if err := broker.DecodeParams(params, &p); err != nil {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "formspec.help: %v", err)
	}
	r, err := formspec.Load(p.sources())
	if err != nil {
		return nil, toolError("formspec.help", err)
	}
	h, err := r.Help(p.Path, p.Audience)
	if err != nil {
		return nil, toolError("formspec.help", err)
	}
	if r.Warnings == nil {
		r.Warnings = []string{}
	}
	return FormspecHelp{Help: h, Warnings: r.Warnings}, nil
}

// LiveField is one field as the live engine reports it.
type LiveField struct {
	Path     string          `json:"path"`
	Label    string          `json:"label,omitempty"`
	Readonly bool            `json:"readonly,omitempty"`
	Relevant *bool           `json:"relevant,omitempty"`
	Value    json.RawMessage `json:"value,omitempty"`
}

// FormspecMeasure is the extension's measurement of the control that shows
// one Formspec field, taken in its isolated world (never the page's word):
// whether a control for the path was found (by name, data-name or id) and,
// when it was, whether the person can see it, and why not.
type FormspecMeasure struct {
	Path    string `json:"path"`
	Found   bool   `json:"found"`
	Visible bool   `json:"visible"`
	// Reason is content/visibility.ts's reason for a control found hidden.
	Reason string `json:"reason,omitempty"`
}

type formspecPageParams struct {
	formspecDocs
	Page   PageInfo    `json:"page"`
	Fields []LiveField `json:"fields"`
	// Paths narrows apply to these paths (the page's matches/entries).
	Paths []string `json:"paths,omitempty"`
	// Measured is, for apply, the bridge's measurement of each path's
	// control; a path it does not list is a field the person cannot be
	// shown, and its row is never ticked.
	Measured []FormspecMeasure `json:"measured,omitempty"`
	// Provider is "page" when the values go through the page's own Assist
	// provider (mode 1), "tessera" through Tessera's bootstrap provider.
	Provider string `json:"provider,omitempty"`
}

// formspecPage is a parsed formspecPageParams: the live fields as matcher
// fields, their concepts resolvable from the sidecars.
type formspecPage struct {
	p      formspecPageParams
	res    *formspec.Resolver
	sc     *matcher.Sidecars
	fields []matcher.Field
	live   []LiveField
	origin string
	site   string
	// measured is p.Measured by path.
	measured map[string]FormspecMeasure
}

// plainReason reports whether a measurement's reason is a short token of
// visibility.ts (letters, digits, '-', ':' and spaces), nothing a page
// could dress as a sentence of Tessera's.
func plainReason(s string) bool {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == ':' || c == ' ') {
			return false
		}
	}
	return true
}

func parseFormspecPage(method string, params json.RawMessage) (*formspecPage, *nativemsg.Error) {
	fp := &formspecPage{}
	bad := func(format string, args ...any) (*formspecPage, *nativemsg.Error) {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, method+": "+format, args...)
	}
	if err := broker.DecodeParams(params, &fp.p); err != nil {
		return bad("%v", err)
	}
	if len(fp.p.Page.URL) > MaxURLLen || !WebURL(fp.p.Page.URL) {
		return bad("page.url must be an http(s) URL of at most %d bytes", MaxURLLen)
	}
	if len(fp.p.Fields) > maxFormspecFields || len(fp.p.Paths) > maxFormspecFields || len(fp.p.Measured) > maxFormspecFields {
		return bad("more than %d fields", maxFormspecFields)
	}
	switch fp.p.Provider {
	case "", "page", "tessera":
	default:
		return bad("provider must be page or tessera")
	}
	fp.measured = make(map[string]FormspecMeasure, len(fp.p.Measured))
	for _, m := range fp.p.Measured {
		if len(m.Path) > 1024 || len(m.Reason) > 64 || !plainReason(m.Reason) {
			return bad("a measurement is malformed")
		}
		if _, dup := fp.measured[m.Path]; dup {
			return bad("path %q measured twice", broker.Truncate(m.Path, 64))
		}
		fp.measured[m.Path] = m
	}
	res, err := formspec.Load(fp.p.sources())
	if err != nil {
		return nil, toolError(method, err)
	}
	fp.res = res
	fp.sc = &matcher.Sidecars{}
	for _, o := range fp.p.Ontologies {
		ont, err := matcher.ParseOntology(o)
		if err != nil {
			return nil, toolError(method, err)
		}
		fp.sc.Ontologies = append(fp.sc.Ontologies, ont)
	}
	for _, r := range fp.p.Registries {
		reg, err := matcher.ParseRegistry(r)
		if err != nil {
			return nil, toolError(method, err)
		}
		fp.sc.Registries = append(fp.sc.Registries, reg)
	}
	// Options come from the definition's own parse.
	opts := map[string][]matcher.Option{}
	if md, err := matcher.ParseDefinition(fp.p.Definition, ""); err == nil {
		for _, f := range md.Fields {
			opts[stripPath(f.Path)] = f.Options
		}
	}
	seen := map[string]bool{}
	for _, lf := range fp.p.Fields {
		if seen[lf.Path] {
			return bad("field %q given twice", broker.Truncate(lf.Path, 64))
		}
		seen[lf.Path] = true
		if len(lf.Value) > maxFormspecValue {
			return bad("the value of %q is over %d bytes", broker.Truncate(lf.Path, 64), maxFormspecValue)
		}
		// A path the definition does not have is the page lying.
		if _, err := res.Help(lf.Path, "both"); err != nil {
			return nil, toolError(method, err)
		}
		it, _ := res.Def.Item(lf.Path)
		if it.Type != "field" {
			continue
		}
		label := lf.Label
		if label == "" {
			label = it.Label
		}
		f := matcher.Field{Index: len(fp.fields), Path: lf.Path, Label: ClipRunes(label, 200), DataType: it.DataType,
			SemanticType: it.SemanticType, ReadOnly: lf.Readonly, NonRelevant: lf.Relevant != nil && !*lf.Relevant,
			Options: opts[stripPath(lf.Path)]}
		fp.fields = append(fp.fields, f)
		fp.live = append(fp.live, lf)
	}
	fp.origin = OriginOf(fp.p.Page.URL)
	fp.site = SiteOf(fp.origin)
	return fp, nil
}

func stripPath(p string) string {
	var b strings.Builder
	in := false
	for _, c := range p {
		switch {
		case c == '[':
			in = true
		case c == ']':
			in = false
		case !in:
			b.WriteRune(c)
		}
	}
	return b.String()
}

// FormspecPreview is all a preview says of a value: that there is one.
// The page and agents that ask formspec.match choose the fields, their
// options and constraints; whatever of the value a preview showed would be
// theirs to choose to learn (issue 23), so it shows nothing of it.
const FormspecPreview = "•••"

// FormspecMatch is one entry of formspec.match's result: that the vault
// has a value of the field's kind, never anything of the value.
type FormspecMatch struct {
	Path         string  `json:"path"`
	Label        string  `json:"label"`
	Concept      string  `json:"concept,omitempty"`
	Relationship string  `json:"relationship,omitempty"`
	Confidence   float64 `json:"confidence"`
	// Preview is always FormspecPreview.
	Preview string `json:"preview"`
}

// FormspecMatches is formspec.match's result. It names no profile: a
// profile id would be the same on every site.
type FormspecMatches struct {
	Matches []FormspecMatch `json:"matches"`
}

// proposals matches the profile against the writable, relevant fields.
func (fp *formspecPage) proposals(prof *profile.UserProfile) []matcher.Proposal {
	return fp.proposalsFor(fp.fields, prof)
}

func (fp *formspecPage) proposalsFor(fields []matcher.Field, prof *profile.UserProfile) []matcher.Proposal {
	var out []matcher.Proposal
	for _, pr := range matcher.Match(fields, prof, matcher.Options{Sidecars: fp.sc}) {
		f := &fields[pr.Index]
		if pr.Value == nil || pr.Skip != "" || f.ReadOnly || f.NonRelevant {
			continue
		}
		out = append(out, pr)
	}
	return out
}

// offer is one field apply offers: its proposal, and whether the value
// does not fit what the page wrote of the field (unfit: the proposal is
// the kind-only one, its value as the profile holds it).
type offer struct {
	pr    matcher.Proposal
	unfit bool
}

// offers are the fields apply offers, in the form's order: every field the
// profile holds a value of the right kind for (as formspec.match says),
// with the value adapted to the field when it fits. Which fields are
// offered, and so whether a dialog appears at all, never depends on
// whether the value fits the page's options or rules.
func (fp *formspecPage) offers(prof *profile.UserProfile) []offer {
	all := fp.proposals(prof)
	fitting := map[int]matcher.Proposal{}
	for _, pr := range all {
		fitting[pr.Index] = pr
	}
	var out []offer
	for _, kp := range fp.proposalsFor(kindOnly(fp.fields), prof) {
		if pr, ok := fitting[kp.Index]; ok {
			out = append(out, offer{pr: pr})
			delete(fitting, kp.Index)
		} else {
			out = append(out, offer{pr: kp, unfit: true})
		}
	}
	// A field that matches only with its own shape (none known today)
	// is still offered.
	for _, pr := range all {
		if _, ok := fitting[pr.Index]; ok {
			out = append(out, offer{pr: pr})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].pr.Index < out[j].pr.Index })
	return out
}

func formspecMatch(ctx context.Context, a *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	fp, e := parseFormspecPage("formspec.match", params)
	if e != nil {
		return nil, e
	}
	v, e := a.fillVault()
	if e != nil {
		return nil, e
	}
	prof, _, e := a.Choose(v, "formspec.match", "")
	if e != nil {
		return nil, e
	}
	out := FormspecMatches{Matches: []FormspecMatch{}}
	fields := kindOnly(fp.fields)
	for _, pr := range fp.proposalsFor(fields, prof) {
		f := &fields[pr.Index]
		out.Matches = append(out.Matches, FormspecMatch{Path: f.Path, Label: f.Label, Concept: pr.Concept,
			Relationship: pr.Relationship, Confidence: pr.Confidence, Preview: FormspecPreview})
	}
	return out, nil
}

func shownValue(f *matcher.Field, v string) string {
	for _, o := range f.Options {
		if o.Value == v && o.Text != "" {
			return o.Text
		}
	}
	return v
}

// FormspecEntry is one approved value; its Value comes from the release
// gate only (confirm.Gate).
type FormspecEntry struct {
	Path  string        `json:"path"`
	Value confirm.Value `json:"value"`
}

// FormspecSkip is a path not filled and why (Assist ProfileApplyResult).
type FormspecSkip struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// FormspecApply is formspec.apply's result: the values the person approved
// (no profile id: see FormspecMatches).
type FormspecApply struct {
	Entries []FormspecEntry `json:"entries"`
	Skipped []FormspecSkip  `json:"skipped"`
}

// helpLines are the form's own help for a field as the dialog shows it:
// the human references' titles and inline text, most important first.
func (fp *formspecPage) helpLines(path string) []string {
	h, err := fp.res.Help(path, "human")
	if err != nil {
		return nil
	}
	var lines []string
	for _, typ := range []string{"documentation", "glossary", "policy", "regulation", "example", "context"} {
		for _, e := range h.References[typ] {
			if e.Target == "#" || len(lines) >= 2 {
				continue
			}
			line := "help: " + e.Title
			var text string
			if json.Unmarshal(e.Content, &text) == nil && text != "" {
				line += ": " + text
			}
			lines = append(lines, ClipRunes(line, 300))
		}
	}
	return lines
}

func formspecApply(ctx context.Context, a *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	fp, e := parseFormspecPage("formspec.apply", params)
	if e != nil {
		return nil, e
	}
	v, e := a.fillVault()
	if e != nil {
		if e.Data.Code == nativemsg.CodeVaultLocked {
			a.cfg.ShowUnlock()
		}
		return nil, e
	}
	prof, sums, e := a.Choose(v, "formspec.apply", "")
	if e != nil {
		return nil, e
	}
	want := map[string]bool{}
	for _, p := range fp.p.Paths {
		want[p] = true
	}
	out := FormspecApply{Entries: []FormspecEntry{}, Skipped: []FormspecSkip{}}
	known := map[string]*matcher.Field{}
	for i := range fp.fields {
		known[fp.fields[i].Path] = &fp.fields[i]
	}
	for _, p := range fp.p.Paths {
		f, ok := known[p]
		switch {
		case !ok:
			out.Skipped = append(out.Skipped, FormspecSkip{Path: p, Reason: "NOT_FOUND"})
		case f.ReadOnly:
			out.Skipped = append(out.Skipped, FormspecSkip{Path: p, Reason: "READONLY"})
		case f.NonRelevant:
			out.Skipped = append(out.Skipped, FormspecSkip{Path: p, Reason: "NOT_RELEVANT"})
		}
	}
	an := &Analysed{Page: fp.p.Page, Origin: fp.origin, Site: fp.site}
	c := newConfirmation(confirm.ConfirmFill, an, s, prof.ID, onlyProfile(sums, prof.ID))
	c.Frames = []confirm.FrameInfo{{ID: 0, Origin: fp.origin}}
	c.PageInitiated = fp.p.Provider != "page"
	requester, byAgent := a.formspecAsker(s, fp.p.Page.Tab)
	switch {
	case byAgent:
		c.Notice = fmt.Sprintf("The agent asked through the page's Formspec tools: the values go to the page in %s, where its scripts can read them.", s.ClientInfo().Name)
	case fp.p.Provider == "page":
		c.Notice = "The page's own Formspec provider fills these fields: the values go to the page's scripts, and the page chose the fields."
	default:
		c.Notice = "A script in the page (the page's own, or an agent using the page's tools) asked Tessera (Formspec) to fill these fields."
	}
	paths, raw := map[string]string{}, map[string]string{}
	for _, o := range fp.offers(prof) {
		pr, f := o.pr, &fp.fields[o.pr.Index]
		if len(want) > 0 && !want[f.Path] {
			continue
		}
		id := "r" + strconv.Itoa(len(c.Rows)+1)
		ev := []string{fmt.Sprintf("Formspec field %s", f.Path)}
		if pr.Concept != "" {
			ev = append(ev, fmt.Sprintf("concept %s (%s)", pr.Concept, orExact(pr.Relationship)))
		}
		ev = append(ev, fp.helpLines(f.Path)...)
		r := confirm.Row{ID: id, Frame: 0, Ref: f.Path, Label: f.Label, Value: shownValue(f, *pr.Value),
			Sensitive: profile.IsSensitiveToken(f.SemanticType) || heuristics.GivenByChoice(pr.From), Concept: pr.Concept, ConceptLabel: ConceptLabel("", pr.Concept),
			Confidence: pr.Confidence, Evidence: ev, Section: confirm.SectionFill, Checked: pr.Confidence >= lowConfidence}
		switch reason := fp.unseen(f.Path); {
		case reason != "":
			r.Section, r.Reason, r.Checked = confirm.SectionAttention, reason, false
		case o.unfit:
			r.Section, r.Reason, r.Checked = confirm.SectionAttention, "does not fit: the form's options or rules do not take this value", false
		case heuristics.GivenByChoice(pr.From):
			// A gender, whatever the form calls it: offered, never ticked
			// for the person (as on any page).
			r.Checked, r.Reason = false, reasonByChoice
		case !r.Checked:
			r.Reason = "low confidence"
		}
		c.Rows = append(c.Rows, r)
		paths[id], raw[id] = f.Path, *pr.Value
	}
	if len(c.Rows) == 0 {
		return out, nil
	}
	// The values go to the page in browser s, whoever asked: through the
	// gate, which names both.
	rel, d, err := a.gate.Release(ctx, confirm.Offer{
		Requester: requester.Peer(), Recipient: s.Peer(), Dialog: c,
		Values: func(id string) ([]string, string) {
			if v, ok := raw[id]; ok {
				return []string{v}, ""
			}
			return nil, ""
		},
		Audit: func() vault.Release {
			return vault.Release{Origin: fp.origin, Site: fp.site, Frame: "0", ProfileID: prof.ID}
		},
	})
	if err != nil {
		return nil, nativemsg.NewError(nativemsg.CodeNotPaired, "formspec.apply: %v", err)
	}
	if !d.Approve {
		if d.Reason == confirm.DeclineNoWindow {
			return nil, nativemsg.NewError(nativemsg.CodeConfirmRequired, "formspec.apply: no window to confirm in")
		}
		return nil, Declined("formspec.apply", d)
	}
	approved := map[string]bool{}
	for _, id := range rel.Rows() {
		vs := rel.Values(id)
		if len(vs) != 1 {
			continue
		}
		approved[id] = true
		a.cfg.Released(vs[0].String())
		out.Entries = append(out.Entries, FormspecEntry{Path: paths[id], Value: vs[0]})
	}
	for _, r := range c.Rows {
		if !approved[r.ID] {
			out.Skipped = append(out.Skipped, FormspecSkip{Path: paths[r.ID], Reason: "DECLINED"})
		}
	}
	return out, nil
}

// unseen says why the person cannot see the control of path ("" when they
// can), from the bridge's measurement: whichever provider writes, and
// whatever it says of its fields, a field is ticked only when Tessera
// found its control on the page and measured it visible.
func (fp *formspecPage) unseen(path string) string {
	m, ok := fp.measured[path]
	switch {
	case !ok:
		return "unmeasured: no measurement of this field's control"
	case !m.Found:
		return "no control: Tessera found no field on the page for this one"
	case !m.Visible:
		if m.Reason == "" {
			return "hidden"
		}
		return "hidden: " + m.Reason
	}
	return ""
}

func orExact(rel string) string {
	if rel == "" {
		return "exact"
	}
	return rel
}

func onlyProfile(sums []confirm.ProfileSummary, id string) []confirm.ProfileSummary {
	for _, s := range sums {
		if s.ID == id {
			return []confirm.ProfileSummary{s}
		}
	}
	return sums
}

func (fp *formspecPage) concept(path string) string {
	for i := range fp.fields {
		if fp.fields[i].Path == path {
			if id, ok := fp.sc.Resolve(&fp.fields[i]); ok {
				return matcher.CanonicalConcept(id.Concept)
			}
		}
	}
	return ""
}

// FormspecLearned is formspec.learn's result (Assist profile.learn).
type FormspecLearned struct {
	SavedConcepts int `json:"savedConcepts"`
	SavedFields   int `json:"savedFields"`
}

func formspecLearn(ctx context.Context, a *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	fp, e := parseFormspecPage("formspec.learn", params)
	if e != nil {
		return nil, e
	}
	v, e := a.fillVault()
	if e != nil {
		return nil, e
	}
	prof, sums, e := a.Choose(v, "formspec.learn", "")
	if e != nil {
		return nil, e
	}
	an := &Analysed{Page: fp.p.Page, Origin: fp.origin, Site: fp.site}
	c := newConfirmation(confirm.ConfirmLearn, an, s, prof.ID, onlyProfile(sums, prof.ID))
	c.Frames = []confirm.FrameInfo{{ID: 0, Origin: fp.origin}}
	// formspec.learn is the page's script asking, never a submit the
	// person made: the text says so and no row starts ticked.
	c.PageInitiated = true
	asker, byAgent := a.formspecAsker(s, fp.p.Page.Tab)
	c.Client = asker.ClientInfo()
	client := s.Client().Name
	if byAgent {
		client = asker.Client().Name + " via " + s.ClientInfo().Name
	}
	c.Notice = "The page's script asks Tessera (Formspec) to save these values from the form. You did not necessarily submit anything."
	if byAgent {
		c.Notice = fmt.Sprintf("The agent asked through the page's Formspec tools, in %s, to save these values from the form. You did not necessarily submit anything.", s.ClientInfo().Name)
	}
	type obsRow struct {
		concept, path, value string
	}
	rows := map[string]obsRow{}
	seen := map[string]bool{}
	for i := range fp.fields {
		f := &fp.fields[i]
		val := liveText(fp.live[i].Value)
		if val == "" || f.ReadOnly || f.NonRelevant || profile.IsSensitiveToken(f.SemanticType) {
			continue
		}
		concept := ""
		if id, ok := fp.sc.Resolve(f); ok {
			concept = matcher.CanonicalConcept(id.Concept)
			if profile.IsSensitiveToken(id.Token) {
				continue
			}
		}
		prev := ""
		if concept != "" {
			prev = StoredValue(prof, concept)
		} else if en, ok := prof.Fields[f.Path]; ok {
			prev, _ = en.StringValue()
		}
		key := concept
		if key == "" {
			key = "field:" + f.Path
		}
		if sameText(prev, val) || seen[key] {
			continue
		}
		seen[key] = true
		id := "r" + strconv.Itoa(len(c.Rows)+1)
		c.Rows = append(c.Rows, confirm.Row{ID: id, Frame: 0, Ref: f.Path, Label: f.Label, Value: shownValue(f, val), Previous: prev,
			Concept: concept, ConceptLabel: ConceptLabel("", concept), Confidence: 1, Section: confirm.SectionFill, Reason: "the page asked",
			Evidence: append([]string{"Formspec field " + f.Path}, fp.helpLines(f.Path)...)})
		rows[id] = obsRow{concept: concept, path: f.Path, value: val}
	}
	if len(c.Rows) == 0 {
		return FormspecLearned{}, nil
	}
	d := a.confirms.Ask(ctx, c, a.cfg.ConfirmTimeout(), nil)
	if !d.Approve {
		a.audit(v, vault.Release{Event: vault.EventNoLearn, Origin: fp.origin, Site: fp.site, ProfileID: prof.ID, Client: client, Reason: d.Reason})
		if d.Reason == confirm.DeclineNoWindow {
			return nil, nativemsg.NewError(nativemsg.CodeConfirmRequired, "formspec.learn: no window to confirm in")
		}
		return nil, Declined("formspec.learn", d)
	}
	var obs []vault.Observation
	var out FormspecLearned
	var concepts []string
	for _, id := range d.Rows {
		r, ok := rows[id]
		if !ok {
			continue
		}
		delete(rows, id)
		val, _ := json.Marshal(r.value)
		o := vault.Observation{Concept: r.concept, Value: val, Source: profile.Source{Type: "form-fill", FormURL: fp.origin, FieldPath: r.path}}
		if r.concept == "" {
			o.FieldPath = r.path
			out.SavedFields++
		} else {
			out.SavedConcepts++
			concepts = append(concepts, r.concept)
		}
		obs = append(obs, o)
	}
	if len(obs) == 0 {
		return out, nil
	}
	if _, err := v.Learn(prof.ID, obs); err != nil {
		return nil, VaultError("formspec.learn", err)
	}
	a.audit(v, vault.Release{Event: vault.EventLearn, Origin: fp.origin, Site: fp.site, ProfileID: prof.ID, Client: client, Concepts: concepts})
	return out, nil
}

// liveText is a live value as text: strings as they are, numbers and
// booleans as JSON writes them, anything else (arrays, objects) not learnt.
func liveText(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return strings.TrimSpace(s)
	}
	var n json.Number
	if json.Unmarshal(v, &n) == nil {
		return n.String()
	}
	var b bool
	if json.Unmarshal(v, &b) == nil {
		return strconv.FormatBool(b)
	}
	return ""
}
