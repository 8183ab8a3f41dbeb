package cli

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tessera-app/tessera/nativemsg"
)

func TestMCPUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	env := testEnv(&out, &errOut, nil)
	if err := Run(context.Background(), []string{"mcp", "extra"}, env); !errors.Is(err, ErrUsage) {
		t.Errorf("mcp extra = %v, want ErrUsage", err)
	}
	if err := Run(context.Background(), []string{"mcp", "--help"}, env); err != nil || !strings.Contains(out.String(), "tessera mcp") {
		t.Errorf("mcp --help = %v, printed %q", err, out.String())
	}
}

// connectMCP runs NewMCPServer with dial and returns a client session.
func connectMCP(t *testing.T, dial AppDialer) *mcp.ClientSession {
	t.Helper()
	srv := NewMCPServer(dial, nil)
	st, ct := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "unit", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// Without an app, initialize still works and tools/list fails with a
// protocol error that says why, rather than an empty list.
func TestMCPWithoutAppFailsClearly(t *testing.T) {
	cs := connectMCP(t, func(ctx context.Context) (net.Conn, error) { return nil, errNoApp })
	if cs.InitializeResult().ServerInfo.Name != "tessera" {
		t.Errorf("server name = %q", cs.InitializeResult().ServerInfo.Name)
	}
	_, err := cs.ListTools(context.Background(), nil)
	if err == nil || !strings.Contains(err.Error(), "not running") {
		t.Errorf("tools/list without an app = %v, want an error saying the app is not running", err)
	}
}

// fakeAgentApp answers an agent session on c: hello, then agent.tools split
// into session.chunk pieces (as the app splits answers over 1 MiB) with a
// tool whose schema the SDK would refuse among good ones, and agent.call.
func fakeAgentApp(t *testing.T, c net.Conn, calls chan<- json.RawMessage) {
	defer c.Close()
	for {
		frame, err := nativemsg.ReadFrame(c, nativemsg.MaxIncoming)
		if err != nil {
			return
		}
		m, _, err := nativemsg.Decode(frame)
		if err != nil || !m.IsRequest() {
			continue
		}
		var res any
		switch m.Method {
		case "session.hello":
			var p struct {
				Client struct{ Kind, Name string }
			}
			json.Unmarshal(m.Params, &p)
			if p.Client.Kind != "agent" || p.Client.Name != "unit" {
				t.Errorf("hello client = %+v, want the agent named after the MCP client", p.Client)
			}
			res = map[string]any{"verified": true}
		case "agent.tools":
			res = map[string]any{"tools": []any{
				map[string]any{"name": "tessera.tabs.list", "description": "d", "inputSchema": map[string]any{"type": "object"}},
				map[string]any{"name": "webmcp.page.bad", "description": "d", "inputSchema": map[string]any{"type": "string"}},
				map[string]any{"name": "webmcp.page.big", "description": strings.Repeat("x", 100_000), "inputSchema": map[string]any{"type": "object"}},
			}}
		case "agent.call":
			calls <- m.Params
			var p struct{ Name string }
			json.Unmarshal(m.Params, &p)
			if p.Name == "webmcp.page.big" {
				e := nativemsg.NewError(nativemsg.CodeNotFound, "gone")
				nativemsg.WriteFrame(c, nativemsg.ErrorResponse(m.ID, e))
				continue
			}
			res = map[string]any{"content": []any{map[string]any{"type": "text", "text": "done"}}}
		}
		b, _ := nativemsg.Response(*m.ID, res)
		if m.Method != "agent.tools" {
			nativemsg.WriteFrame(c, b)
			continue
		}
		const size = 30_000
		n := (len(b) + size - 1) / size
		for i := 0; i < n; i++ {
			part := b[i*size : min((i+1)*size, len(b))]
			ch, _ := nativemsg.Notification("session.chunk", map[string]any{"id": *m.ID, "index": i, "count": n, "data": base64.StdEncoding.EncodeToString(part)})
			nativemsg.WriteFrame(c, ch)
		}
	}
}

func TestMCPBridge(t *testing.T) {
	calls := make(chan json.RawMessage, 4)
	cs := connectMCP(t, func(ctx context.Context) (net.Conn, error) {
		a, b := net.Pipe()
		go fakeAgentApp(t, b, calls)
		return a, nil
	})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	// The chunked answer was put together; the tool the SDK cannot serve is
	// left out instead of taking the server down.
	if strings.Join(names, ",") != "tessera.tabs.list,webmcp.page.big" {
		t.Errorf("tools = %v, want the two servable tools", names)
	}
	r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "tessera.tabs.list", Arguments: map[string]any{"x": 1}})
	if err != nil || r.IsError || r.Content[0].(*mcp.TextContent).Text != "done" {
		t.Fatalf("call = %+v, %v", r, err)
	}
	if got := string(<-calls); got != `{"arguments":{"x":1},"name":"tessera.tabs.list"}` {
		t.Errorf("agent.call params = %s", got)
	}
	// A tool the app no longer has is a protocol error, not a result.
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "webmcp.page.big", Arguments: map[string]any{}}); err == nil {
		t.Error("a call of a tool the app does not know is not a protocol error")
	}
}

// A tool is known to the bridge only once the server serves it: a call
// that finds its name known goes straight to the server, so a name known
// a moment early is an "unknown tool" for a call that lands in between
// (a list_changed sync running while the agent calls a new page tool).
func TestMCPToolKnownOnlyOnceServed(t *testing.T) {
	var early []string
	addHook = func(b *bridge, name string) {
		req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: name}}
		if b.known(req) {
			early = append(early, name)
		}
	}
	t.Cleanup(func() { addHook = nil })
	calls := make(chan json.RawMessage, 4)
	cs := connectMCP(t, func(ctx context.Context) (net.Conn, error) {
		a, b := net.Pipe()
		go fakeAgentApp(t, b, calls)
		return a, nil
	})
	if _, err := cs.ListTools(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if len(early) > 0 {
		t.Errorf("tools known before the server served them: %v", early)
	}
}
