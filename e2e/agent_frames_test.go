//go:build e2e && linux

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Forms in iframes, in the real browser: a page on one origin embeds the
// same declarative form from its own origin and from another (the second
// page server). The agent sees the same-origin frame's form with the
// page's; the other origin's only once the person opened that origin too,
// in a dialog about the frame; values land in the frame the tool names.
// Attacks: a call of the other origin's form before it was opened, and a
// frame the agent was given that the page then swaps for the other
// origin's, are refused without asking the person or writing anything.
func TestAgentFrameForms(t *testing.T) {
	e := newAgentEnv(t, "approve")
	tab, url := e.open(t, "/agent-frames.html")
	waitFrames(t, tab, map[string]string{"same/": e.pages.URL, "cross/": e.pages.CrossURL})
	if isErr, text := e.selectPage(t, url); isErr {
		t.Fatalf("select: %s", text)
	}
	mainHost := strings.ReplaceAll(strings.TrimPrefix(e.pages.URL, "http://"), ":", "_")
	crossHost := strings.ReplaceAll(strings.TrimPrefix(e.pages.CrossURL, "http://"), ":", "_")
	tools := e.tools(t)
	sameName := ""
	for name := range tools {
		if strings.HasPrefix(name, "webmcp.frame") && strings.HasSuffix(name, "."+mainHost+".form.reserve") {
			sameName = name
		}
		if strings.Contains(name, crossHost) {
			t.Errorf("a frame of an origin the person did not open is listed: %q", name)
		}
	}
	if sameName == "" {
		t.Fatalf("the same-origin frame's form is not listed: %v", toolNames(tools))
	}
	if d := tools[sameName].Description; !strings.Contains(d, "a same-origin frame of the page on "+e.pages.URL) {
		t.Errorf("frame tool description = %q", d)
	}
	if isErr, text := e.call(t, sameName, map[string]any{"title": "Emma"}); isErr || !strings.Contains(text, `"outcome":"filled"`) {
		t.Fatalf("same-origin frame call = %v %q", isErr, text)
	}
	if st := readPage(t, tab); st.Values["same/title"] != "Emma" || st.Values["cross/title"] != "" {
		t.Errorf("after the same-origin frame call: %v", st.Values)
	}

	// The other origin's frame is named (id and origin only), not read.
	isErr, text := e.call(t, "tessera.form.read", map[string]any{})
	var read struct {
		Fields []struct {
			Frame int `json:"frame"`
		} `json:"fields"`
		ClosedFrames []struct {
			Frame  int    `json:"frame"`
			Origin string `json:"origin"`
		} `json:"closedFrames"`
	}
	if err := json.Unmarshal([]byte(text), &read); isErr || err != nil || len(read.ClosedFrames) != 1 || read.ClosedFrames[0].Origin != e.pages.CrossURL {
		t.Fatalf("form.read = %v %s (%v), want the cross-origin frame named as closed", isErr, text, err)
	}
	crossID := read.ClosedFrames[0].Frame
	for _, f := range read.Fields {
		if f.Frame == crossID {
			t.Errorf("form.read shows a field of the closed frame: %s", text)
		}
	}
	crossName := fmt.Sprintf("webmcp.frame%d.%s.form.reserve", crossID, crossHost)

	// Attack 1: the agent guesses the closed frame's tool name.
	calls := e.agentCalls(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if res, err := e.mc.CallTool(ctx, &mcp.CallToolParams{Name: crossName, Arguments: map[string]any{"title": "Mallory"}}); err == nil && !res.IsError {
		t.Errorf("a call into a frame the person did not open was served: %+v", res.Content)
	}
	// Attack 2: the page swaps the frame the agent was given for the other
	// origin's (same frame, same form name). The frame's navigation tells
	// the agent to list again, and its tools are gone; a call of the old
	// name is refused (by tessera mcp, which no longer has it, or, when
	// the call comes first, by the app, which finds the frame closed).
	for quiet := false; !quiet; {
		select {
		case <-e.changed:
		case <-time.After(500 * time.Millisecond):
			quiet = true
		}
	}
	if _, err := Eval[bool](tab, `document.getElementById('same').src = `+jsString(e.pages.CrossURL+"/agent-frame-form.html?swapped")+`, true`); err != nil {
		t.Fatal(err)
	}
	waitFrames(t, tab, map[string]string{"same/": e.pages.CrossURL, "cross/": e.pages.CrossURL})
	if res, err := e.mc.CallTool(ctx, &mcp.CallToolParams{Name: sameName, Arguments: map[string]any{"title": "Mallory"}}); err == nil {
		text := ""
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				text += tc.Text
			}
		}
		if !res.IsError || !strings.Contains(text, "refused") || !strings.Contains(text, e.pages.CrossURL) {
			t.Errorf("a call into a frame swapped for another origin = %v %q, want a refusal naming the origin", res.IsError, text)
		}
	}
	select {
	case <-e.changed:
	case <-time.After(15 * time.Second):
		t.Error("no notifications/tools/list_changed after a frame of the agent's tab navigated")
	}
	if tools := e.tools(t); tools[sameName] != nil {
		t.Errorf("%s is still listed after its frame went to another origin: %v", sameName, toolNames(tools))
	}
	if n := e.agentCalls(t); n != calls {
		t.Errorf("the refused calls were shown to the person (%d agent-call dialogs, want %d)", n, calls)
	}
	if st := readPage(t, tab); st.Values["cross/title"] != "" || st.Values["same/title"] != "" {
		t.Errorf("a refused call wrote to a frame: %v", st.Values)
	}

	// The person opens the other origin for its frame: the dialog is
	// about that frame's origin.
	isErr, text = e.call(t, "tessera.tabs.select", map[string]any{"frame": crossID})
	if isErr || !strings.Contains(text, `"frameOrigin":"`+e.pages.CrossURL+`"`) {
		t.Fatalf("select frame %d = %v %q", crossID, isErr, text)
	}
	if ev, err := e.app.WaitEvent("presented", "agent-access", 2, 10*time.Second); err != nil || ev.FrameOrigin != e.pages.CrossURL {
		t.Errorf("frame access dialog = %+v %v, want it about %s", ev, err, e.pages.CrossURL)
	}
	if _, ok := e.tools(t)[crossName]; !ok {
		t.Fatalf("the opened frame's form is not listed as %s", crossName)
	}
	if isErr, text := e.call(t, crossName, map[string]any{"title": "Middlemarch"}); isErr || !strings.Contains(text, `"outcome":"filled"`) {
		t.Fatalf("cross-origin frame call = %v %q", isErr, text)
	}
	if ev, err := e.app.WaitEvent("presented", "agent-call", calls+1, 10*time.Second); err != nil || ev.FrameOrigin != e.pages.CrossURL {
		t.Errorf("cross-origin frame call dialog = %+v %v, want it about %s", ev, err, e.pages.CrossURL)
	}
	// A form the frame lets agents submit: submitted in that frame, whose
	// respondWith() answer (its own origin) is the agent's result.
	lookup := strings.TrimSuffix(crossName, "reserve") + "lookup"
	if isErr, text := e.call(t, lookup, map[string]any{"q": "Emma"}); isErr || !strings.Contains(text, `{"found":"Emma","at":"`+e.pages.CrossURL+`"}`) ||
		!strings.Contains(text, "The page on "+e.pages.CrossURL+" answered") {
		t.Errorf("cross-origin frame submit = %v %q, want the frame's respondWith answer", isErr, text)
	}
	if st := readPage(t, tab); st.Values["cross/title"] != "Middlemarch" || st.Values["same/title"] != "" {
		t.Errorf("after the cross-origin frame call: %v", st.Values)
	}
}

// agentCalls counts the agent-call dialogs presented so far.
func (e *agentEnv) agentCalls(t *testing.T) int {
	t.Helper()
	evs, err := e.app.ReadEvents()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ev := range evs {
		if ev.Event == "presented" && ev.Kind == "agent-call" {
			n++
		}
	}
	return n
}

// waitFrames waits until the tab's iframes (by PageState key) are on the
// origins want and answer the reader.
func waitFrames(t *testing.T, tab context.Context, want map[string]string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	var st PageState
	for time.Now().Before(deadline) {
		var err error
		if st, err = ReadPage(tab); err == nil {
			ok := true
			for k, o := range want {
				ok = ok && st.Frames[k] == o
			}
			if ok {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("the frames never reached %v: %v", want, st.Frames)
}
