package agents

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tessera-app/tessera/app/broker"
	"github.com/tessera-app/tessera/app/confirm"
	"github.com/tessera-app/tessera/app/fill"
	"github.com/tessera-app/tessera/form"
	"github.com/tessera-app/tessera/nativemsg"
	"github.com/tessera-app/tessera/vault"
)

// Methods and notifications of §4.3.
const (
	// browserChangedMethod is the browser's notification that a tab
	// navigated, closed or changed its tools.
	browserChangedMethod = "browser.changed"
	// agentToolsChangedMethod tells an agent session to list tools again.
	agentToolsChangedMethod = "agent.toolsChanged"
)

// Confirmation kinds an agent causes.
const (
	ConfirmAgentAccess = "agent-access" // let an agent use a site's pages
	ConfirmAgentCall   = "agent-call"   // run a page's tool with the agent's arguments
)

// Timeouts on what the app asks the browser.
const (
	browserTimeout = 20 * time.Second
	executeTimeout = 60 * time.Second
)

// Limits on what a browser answers for an agent.
const (
	maxTabs       = 500
	maxPageTools  = 128
	maxToolName   = 128
	maxToolText   = 4 << 10
	maxToolResult = 512 << 10
)

// agentHub is what the app keeps for agent sessions.
type agentHub struct {
	mu   sync.Mutex
	byS  map[*broker.Session]*agentState
	open map[string]bool // origins the person exposed to agents
	// trusted are the read-only page tools (origin NUL page's name) the
	// person let run without asking.
	trusted map[string]bool
	// file keeps open and trusted across runs (agent_access.go).
	file accessFile
}

func (h *agentHub) isTrusted(origin, tool string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.trusted[origin+"\x00"+tool]
}

func (h *agentHub) trust(origin, tool string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.trusted == nil {
		h.trusted = map[string]bool{}
	}
	h.trusted[origin+"\x00"+tool] = true
	h.saveLocked()
}

// agentState is one agent session's choices.
type agentState struct {
	tab    int
	hasTab bool
	// browser is the session id of the browser the tab is in, pair its
	// paired key, which finds it again after it reconnects
	// (agent_browsers.go).
	browser, pair string
}

func (h *agentHub) state(s *broker.Session) *agentState {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.byS == nil {
		h.byS = map[*broker.Session]*agentState{}
	}
	st := h.byS[s]
	if st == nil {
		st = &agentState{}
		h.byS[s] = st
	}
	return st
}

func (h *agentHub) drop(s *broker.Session) {
	h.mu.Lock()
	delete(h.byS, s)
	h.mu.Unlock()
}

func (h *agentHub) selected(s *broker.Session) (int, bool) {
	st := h.state(s)
	h.mu.Lock()
	defer h.mu.Unlock()
	return st.tab, st.hasTab
}

func (h *agentHub) sel(s *broker.Session, tab int, b *broker.Session) {
	st := h.state(s)
	h.mu.Lock()
	st.tab, st.hasTab = tab, true
	st.browser, st.pair = b.ID(), b.PairID()
	h.mu.Unlock()
}

func (h *agentHub) exposed(origin string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.open[origin]
}

func (h *agentHub) expose(origin string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.open == nil {
		h.open = map[string]bool{}
	}
	h.open[origin] = true
	h.saveLocked()
}

// watching returns the agent sessions whose tab is tab of browser b, and
// those that follow the active tab.
func (h *agentHub) watching(b *broker.Session, tab int) []*broker.Session {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []*broker.Session
	for s, st := range h.byS {
		if !st.hasTab || st.tab == tab && st.inBrowser(b) {
			out = append(out, s)
		}
	}
	return out
}

// Register adds agent.tools and agent.call to b, served to agent sessions
// only.
func (a *Service) Register(b *broker.Broker) error {
	only := func(h func(context.Context, *Service, *broker.Session, json.RawMessage) (any, *nativemsg.Error)) broker.Handler {
		return func(ctx context.Context, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
			if s.Kind() != broker.KindAgent {
				return nil, nativemsg.NewError(nativemsg.CodeForbidden, "agent methods are served to agents only")
			}
			return h(ctx, a, s, params)
		}
	}
	return errors.Join(b.Handle("agent.tools", only(listAgentTools)), b.Handle("agent.call", only(callAgentTool)))
}

// askBrowser sends method to browser b, bounded by timeout.
func (a *Service) askBrowser(ctx context.Context, b *broker.Session, timeout time.Duration, method string, params, out any) *nativemsg.Error {
	if b == nil {
		return nativemsg.NewError(nativemsg.CodeNoBrowser, "no browser with Tessera's extension is connected")
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return b.Request(ctx, method, params, out)
}

// browserChanged handles the browser's browser.changed: agents working on
// that tab are told to list their tools again.
func (a *Service) browserChanged(s *broker.Session, params json.RawMessage) {
	if !s.MayAct() || s.Kind() != broker.KindBrowser {
		return
	}
	var p struct {
		Tab int `json:"tab"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	for _, as := range a.hub.watching(s, p.Tab) {
		as.Notify(agentToolsChangedMethod, map[string]int{"tab": p.Tab})
	}
}

// BrowserTab is one tab of browser.tabs.
type BrowserTab struct {
	Tab    int    `json:"tab"`
	Window int    `json:"window"`
	URL    string `json:"url"`
	Title  string `json:"title"`
	Active bool   `json:"active"`
	// Browser and BrowserName say which connected browser the tab is in
	// (agent_browsers.go); the extension does not send them.
	Browser     string `json:"browser,omitempty"`
	BrowserName string `json:"browserName,omitempty"`
	b           *broker.Session
}

// tabsOf lists the tabs of browser b.
func (a *Service) tabsOf(ctx context.Context, b *broker.Session) ([]BrowserTab, *nativemsg.Error) {
	var res struct {
		Tabs []BrowserTab `json:"tabs"`
	}
	if e := a.askBrowser(ctx, b, browserTimeout, "browser.tabs", struct{}{}, &res); e != nil {
		return nil, e
	}
	if len(res.Tabs) > maxTabs {
		res.Tabs = res.Tabs[:maxTabs]
	}
	for i := range res.Tabs {
		res.Tabs[i].Title = fill.ClipRunes(res.Tabs[i].Title, 200)
		if len(res.Tabs[i].URL) > fill.MaxURLLen {
			res.Tabs[i].URL = ""
		}
		res.Tabs[i].Browser, res.Tabs[i].BrowserName, res.Tabs[i].b = b.ID(), browserLabel(b), b
	}
	return res.Tabs, nil
}

// pageSnapshot is a tab measured for an agent: the params the fill methods
// take, and the extension's name for the measurement (browser.apply
// refers to it).
type pageSnapshot struct {
	id     string
	params fill.Page
	origin string
	// closed are the frames left out: their origins are not open to agents.
	closed []ClosedFrame
	// browser is the browser measured; every later request about this
	// measurement goes to it.
	browser *broker.Session
}

// snapshot measures the agent's tab, which must be on a site the person
// exposed; the frames on origins the person did not open are left out
// (agent_frames.go).
func (a *Service) snapshot(ctx context.Context, s *broker.Session) (*pageSnapshot, *nativemsg.Error) {
	tab, b, ok := a.agentTab(ctx, s)
	if !ok {
		return nil, nativemsg.NewError(nativemsg.CodeNotExposed, "no tab chosen: call tessera.tabs.select first")
	}
	if b == nil {
		return nil, nativemsg.NewError(nativemsg.CodeNoBrowser, "the browser of the tab this agent chose is no longer connected: call tessera.tabs.list and tessera.tabs.select again")
	}
	var res struct {
		Snapshot string               `json:"snapshot"`
		Page     fill.PageInfo        `json:"page"`
		Frames   []fill.FrameSnapshot `json:"frames"`
	}
	if e := a.askBrowser(ctx, b, browserTimeout, "browser.snapshot", map[string]int{"tab": tab}, &res); e != nil {
		return nil, e
	}
	p, e := fill.CheckPage("browser.snapshot", fill.Page{Page: res.Page, Frames: res.Frames})
	if e != nil {
		return nil, e
	}
	origin := fill.OriginOf(p.Page.URL)
	if !a.hub.exposed(origin) {
		return nil, nativemsg.NewError(nativemsg.CodeNotExposed, "the tab is now on %s, which the person has not opened to agents: call tessera.tabs.select again", origin)
	}
	p, closed := a.hub.splitFrames(p, origin)
	if len(p.Frames) == 0 {
		return nil, nativemsg.NewError(nativemsg.CodeNotFound, "the tab's top frame could not be read")
	}
	return &pageSnapshot{id: res.Snapshot, params: p, origin: origin, closed: closed, browser: b}, nil
}

// agentTab is the tab an agent works on and its browser: the one it chose
// (its browser nil when that browser is gone), else a browser's active
// tab when the person already opened its site to agents, the browser that
// connected last first (so the active tab needs one approval, and a client
// that starts a new session per call, as the MCP Inspector CLI does, finds
// it again).
func (a *Service) agentTab(ctx context.Context, s *broker.Session) (int, *broker.Session, bool) {
	if tab, ok := a.hub.selected(s); ok {
		return tab, a.agentBrowser(s), true
	}
	tabs, _ := a.tabs(ctx)
	for _, t := range tabs {
		if t.Active && fill.WebURL(t.URL) && a.hub.exposed(fill.OriginOf(t.URL)) {
			return t.Tab, t.b, true
		}
	}
	return 0, nil, false
}

// withProfile adds the agent's profile choice to a snapshot's params.
func (ps *pageSnapshot) withProfile(profile string) fill.Page {
	p := ps.params
	p.Profile = profile
	return p
}

// An MCPTool is one tool as MCP's tools/list shows it.
type MCPTool struct {
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
	Annotations *ToolHints      `json:"annotations,omitempty"`
}

// ToolHints are MCP ToolAnnotations.
type ToolHints struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    bool   `json:"readOnlyHint"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  bool   `json:"idempotentHint"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
}

// AgentTools is the result of agent.tools.
type AgentTools struct {
	Tools []MCPTool `json:"tools"`
	// Tab and URL say which tab the page tools come from (none: 0, "").
	Tab int    `json:"tab,omitempty"`
	URL string `json:"url,omitempty"`
	// Problems says why page tools are missing, when they are.
	Problems []string `json:"problems,omitempty"`
}

// A ToolResult is an MCP CallToolResult.
type ToolResult struct {
	Content           []TextContent `json:"content"`
	StructuredContent any           `json:"structuredContent,omitempty"`
	IsError           bool          `json:"isError,omitempty"`
}

// TextContent is MCP text content.
type TextContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

func textResult(text string, structured any) ToolResult {
	return ToolResult{Content: []TextContent{{Type: "text", Text: text}}, StructuredContent: structured}
}

func errorResult(format string, args ...any) ToolResult {
	return ToolResult{Content: []TextContent{{Type: "text", Text: fmt.Sprintf(format, args...)}}, IsError: true}
}

// jsonResult returns v as structured content and as its JSON text.
func jsonResult(v any) ToolResult {
	b, _ := json.Marshal(v)
	return textResult(string(b), v)
}

func listAgentTools(ctx context.Context, a *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	if len(params) > 0 {
		var p struct{}
		if err := broker.DecodeParams(params, &p); err != nil {
			return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "agent.tools: %v", err)
		}
	}
	out := AgentTools{Tools: ownTools()}
	if _, _, ok := a.agentTab(ctx, s); !ok {
		return out, nil
	}
	pt, e := a.pageTools(ctx, s, true)
	if e != nil {
		out.Problems = append(out.Problems, e.Message)
		return out, nil
	}
	out.Tab, out.URL = pt.tab, pt.snap.params.Page.URL
	for _, t := range pt.tools {
		out.Tools = append(out.Tools, t.mcp)
	}
	out.Problems = append(out.Problems, pt.problems...)
	// A page's tool names and descriptions are its words: the values it
	// was filled with are withheld from them too.
	var scrubbed AgentTools
	switch err := scrub(out, &scrubbed, a.secretValues(), nil); {
	case err == nil:
		return scrubbed, nil
	case !errors.Is(err, errUnchanged):
		return AgentTools{Tools: ownTools(), Problems: []string{"the page's tools were withheld by Tessera: they held the person's data"}}, nil
	}
	return out, nil
}

// AgentCall is the params of agent.call.
type AgentCall struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

func callAgentTool(ctx context.Context, a *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	var p AgentCall
	if err := broker.DecodeParams(params, &p); err != nil {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "agent.call: %v", err)
	}
	if p.Name == "" || len(p.Name) > maxToolName {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "agent.call: name must be 1..%d bytes", maxToolName)
	}
	if len(p.Arguments) > form.MaxArgsBytes {
		return nil, nativemsg.NewError(nativemsg.CodeTooLarge, "agent.call: arguments over %d bytes", form.MaxArgsBytes)
	}
	if st := a.vaultState(); st != "unlocked" {
		// Nothing runs that the audit log cannot hold (agent_audit.go).
		a.auditAgent(s, "", p.Name, nativemsg.CodeVaultLocked)
		return nil, nativemsg.NewError(nativemsg.CodeVaultLocked, "Tessera's vault is %s: the person must unlock Tessera before agents can act; nothing was done", st)
	}
	args, problem := argumentObject(p.Arguments)
	var (
		res    ToolResult
		e      *nativemsg.Error
		origin string
	)
	if own, ok := ownTool(p.Name); ok {
		if problem == "" {
			problem = checkArgs(own.mcp.InputSchema, args)
		}
		if problem != "" {
			res = errorResult("%s: %s", p.Name, problem)
		} else {
			res, origin, e = own.run(ctx, a, s, args)
		}
	} else {
		res, origin, e = a.callPageTool(ctx, s, p.Name, args, problem)
	}
	outcome := "ok"
	switch {
	case e != nil:
		outcome = e.Data.Code
	case res.IsError:
		outcome = "error"
	}
	a.auditAgent(s, origin, p.Name, outcome)
	if e != nil {
		return nil, e
	}
	return withhold(res, a.secretValues(), args), nil
}

// argumentObject decodes a call's arguments (absent: {}); problem says
// why they are not a JSON object.
func argumentObject(raw json.RawMessage) (map[string]any, string) {
	if len(strings.TrimSpace(string(raw))) == 0 || string(raw) == "null" {
		return map[string]any{}, ""
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, "arguments are not valid JSON"
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, "arguments must be a JSON object"
	}
	return m, ""
}

// auditAgent records an agent's call in the audit log; it holds the tool's
// name and what came of it, never an argument.
// A record the vault cannot take now waits for the unlock (agent_audit.go).
func (a *Service) auditAgent(s *broker.Session, origin, tool, outcome string) {
	site := ""
	if origin != "" {
		site = fill.SiteOf(origin)
	}
	r := vault.Release{Event: vault.EventAgent, Origin: origin, Site: site, Concepts: []string{}, Client: s.Client().Name, Tool: tool, Reason: outcome}
	a.recordAgent(r, outcome != nativemsg.CodeVaultLocked)
}

// askAgent shows an agent's question and waits for the person.
func (a *Service) askAgent(ctx context.Context, c confirm.Confirmation) confirm.Decision {
	return a.cfg.Ask(ctx, c)
}

// agentConfirmation is a dialog of kind about page (url, title), asked by s.
func agentConfirmation(kind, url, title string, s *broker.Session, ask *confirm.AgentAsk, rows []confirm.Row) confirm.Confirmation {
	origin := fill.OriginOf(url)
	return confirm.Confirmation{
		Kind: kind, Site: fill.SiteOf(origin), Origin: origin, URL: url, Title: fill.ClipRunes(title, 200),
		Frames: []confirm.FrameInfo{{ID: 0, Origin: origin}}, Client: s.ClientInfo(), Profiles: []confirm.ProfileSummary{},
		Rows: rows, ApproveDelayMs: int(confirm.DefaultApproveDelay / time.Millisecond), Agent: ask,
	}
}

// argumentRows shows an agent's arguments, one row each, as they will be
// passed.
func argumentRows(args map[string]any, order []string) []confirm.Row {
	rows := []confirm.Row{}
	for _, k := range order {
		v, ok := args[k]
		if !ok {
			continue
		}
		text, isString := v.(string)
		if !isString {
			b, _ := json.Marshal(v)
			text = string(b)
		}
		rows = append(rows, confirm.Row{
			ID: "r" + strconv.Itoa(len(rows)+1), Label: fill.ClipRunes(k, 120), Value: fill.ClipRunes(text, 2000),
			ConceptLabel: "from the agent", Section: confirm.SectionFill, Checked: true, Confidence: 1, Evidence: []string{},
		})
	}
	return rows
}

func declinedResult(d confirm.Decision) ToolResult {
	return errorResult("The person declined this call in Tessera (%s). Nothing was done.", d.Reason)
}
