package app

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tessera-app/tessera/app/agents"
	"github.com/tessera-app/tessera/app/fill"
)

// framedPage is a form in a frame: a declarative tool named name whose
// first field is "first".
func framedPage(name string) string {
	return `<!DOCTYPE html><html lang="en"><body><form toolname="` + name + `" tooldescription="A form in a frame.">
<label for=fn>First name</label><input id=fn name=first ` + stamp("t1", "") + `>
<label for=em>Email</label><input id=em type=email name=email autocomplete=email ` + stamp("t2", "") + `>
</form></body></html>`
}

// The forms of child frames: a same-origin frame's listed with the page's,
// a cross-origin frame's only once the person opened its own site (asked
// in a dialog naming the frame's site and the page), an opaque frame's
// never; a call naming a frame the person did not open is refused before
// anything is asked or written; calls land in the frame they name.
func TestAgentFrameForms(t *testing.T) {
	w := newAgentWorld(t, approveDefaults)
	w.browser.mu.Lock()
	w.browser.frames = []fill.FrameSnapshot{
		{Frame: 3, Parent: 0, Origin: "https://shop.example", URL: "https://shop.example/widget", Nonce: testNonce, HTML: framedPage("subscribe")},
		{Frame: 5, Parent: 0, Origin: "https://pay.example", URL: "https://pay.example/card", Nonce: testNonce, HTML: framedPage("pay")},
		{Frame: 6, Parent: 0, Origin: "null", URL: "about:srcdoc", Nonce: testNonce, HTML: framedPage("sandboxed")},
		// The page's own origin, framed by the sandboxed frame: closed with it.
		{Frame: 9, Parent: 6, Origin: "https://shop.example", URL: "https://shop.example/nested", Nonce: testNonce, HTML: framedPage("nested")},
	}
	w.browser.mu.Unlock()
	w.selectTab(t)
	tools := w.tools(t)
	sameName := "webmcp.frame3.shop.example.form.subscribe"
	payName := "webmcp.frame5.pay.example.form.pay"
	if _, ok := tools["webmcp.form.subscribe"]; !ok {
		t.Fatalf("the top frame's form is not listed: %v", keys(tools))
	}
	same, ok := tools[sameName]
	if !ok {
		t.Fatalf("the same-origin frame's form is not listed: %v", keys(tools))
	}
	if !strings.Contains(same.Description, "frame 3, a same-origin frame of the page on https://shop.example") {
		t.Errorf("frame tool description = %q, want it to name the frame", same.Description)
	}
	for name := range tools {
		if strings.Contains(name, "pay") || strings.Contains(name, "sandboxed") || strings.Contains(name, "nested") {
			t.Errorf("a frame on a site the person did not open is listed: %q", name)
		}
	}
	// The agent cannot read the unopened frame's fields either.
	// The agent cannot read the unopened frames' fields either, only
	// which frames there are and their origins, to ask the person.
	if res, text := w.call(t, "tessera.form.read", map[string]any{}); res.IsError || strings.Contains(text, `"frame":5,"ref"`) || !strings.Contains(text, `"frame":3,"ref"`) ||
		!strings.Contains(text, `"closedFrames":[{"frame":5,"origin":"https://pay.example"},{"frame":6,"origin":"null"},{"frame":9,"origin":"https://shop.example"}]`) {
		t.Errorf("form.read = %v %s, want frames 0 and 3 only, 5, 6 and 9 (inside 6) named as closed", res.IsError, text)
	}

	// Attack: a call naming the unopened frame reaches neither the person
	// nor the page (tessera mcp serves only the tools listed).
	asked := w.pres.count()
	if _, err := w.client.CallTool(t.Context(), &mcp.CallToolParams{Name: payName, Arguments: map[string]any{"first": "Mallory"}}); err == nil {
		t.Error("a call of a tool in an unopened frame was served")
	}
	if w.pres.count() != asked || len(w.browser.appliedCalls()) != 0 {
		t.Fatal("a call into an unopened frame was shown to the person or reached the page")
	}

	// A same-origin frame's form: the values land in that frame.
	if res, text := w.call(t, sameName, map[string]any{"first": "Grace"}); res.IsError || !strings.Contains(text, `"outcome":"filled"`) {
		t.Fatalf("same-origin frame call = %v %q", res.IsError, text)
	}
	c := w.pres.last()
	if c.Kind != agents.ConfirmAgentCall || c.Agent == nil || c.Agent.Frame == nil || c.Agent.Frame.ID != 3 || c.Agent.Frame.CrossOrigin || c.Site != "shop.example" {
		t.Errorf("same-origin frame call dialog = %+v %+v", c, c.Agent)
	}
	if got := w.browser.appliedCalls(); len(got) != 1 || len(got[0]) != 1 || got[0][0].Frame != 3 || got[0][0].Value != "Grace" {
		t.Errorf("applied = %+v, want Grace in frame 3", got)
	}

	// The person opens the payment frame's site: the dialog names it, and
	// the page it is shown in.
	res, text := w.call(t, "tessera.tabs.select", map[string]any{"frame": 5})
	if res.IsError || !strings.Contains(text, `"frameOrigin":"https://pay.example"`) {
		t.Fatalf("select frame 5 = %v %q", res.IsError, text)
	}
	c = w.pres.last()
	if c.Kind != agents.ConfirmAgentAccess || c.Site != "pay.example" || c.Origin != "https://shop.example" || c.Agent == nil || c.Agent.Frame == nil ||
		c.Agent.Frame.Origin != "https://pay.example" || c.Agent.Frame.Page != "https://shop.example" || !c.Agent.Frame.CrossOrigin ||
		!slices.Contains(c.Frames, FrameInfo{ID: 5, Origin: "https://pay.example", CrossOrigin: true}) {
		t.Errorf("frame access dialog = %+v %+v", c, c.Agent)
	}
	if _, ok := w.tools(t)[payName]; !ok {
		t.Fatalf("the opened frame's form is not listed")
	}
	if res, text := w.call(t, payName, map[string]any{"first": "Ada"}); res.IsError {
		t.Fatalf("opened frame call = %q", text)
	}
	c = w.pres.last()
	if c.Kind != agents.ConfirmAgentCall || c.Site != "pay.example" || c.Agent.Frame == nil || c.Agent.Frame.Origin != "https://pay.example" || !c.Agent.Frame.CrossOrigin {
		t.Errorf("cross-origin frame call dialog = site %q %+v", c.Site, c.Agent)
	}
	got := w.browser.appliedCalls()
	if len(got) != 2 || len(got[1]) != 1 || got[1][0].Frame != 5 {
		t.Errorf("applied = %+v, want the second call in frame 5", got)
	}
	w.browser.mu.Lock()
	events := slices.Clone(w.browser.events)
	w.browser.mu.Unlock()
	if !slices.Contains(events, "toolactivated:pay@https://pay.example") {
		t.Errorf("tool events = %v, want toolactivated fired in the pay.example frame", events)
	}
	// Attack: the person closes the frame's site in Settings; the agent
	// still holds the tool's name. Refused by the app, unasked.
	w.a.agents.CloseSite("https://pay.example")
	refused := func(why string) {
		t.Helper()
		asked, applied := w.pres.count(), len(w.browser.appliedCalls())
		// Two refusals are right, depending on whether tessera mcp has
		// relisted the page's tools since the change (the app tells it to,
		// and it does so in the background): the app refuses the call it
		// still forwards, or the server no longer serves the name.
		res, err := w.client.CallTool(t.Context(), &mcp.CallToolParams{Name: payName, Arguments: map[string]any{"first": "Mallory"}})
		switch {
		case err != nil:
			if !strings.Contains(err.Error(), "unknown tool") {
				t.Errorf("%s: call failed with %v, want a refusal or an unknown tool", why, err)
			}
		default:
			var text strings.Builder
			for _, c := range res.Content {
				if tc, ok := c.(*mcp.TextContent); ok {
					text.WriteString(tc.Text)
				}
			}
			if !res.IsError || !strings.Contains(text.String(), "refused") {
				t.Errorf("%s: call = %v %q, want a refusal", why, res.IsError, text.String())
			}
		}
		if w.pres.count() != asked || len(w.browser.appliedCalls()) != applied {
			t.Errorf("%s: the call was shown to the person or reached the page", why)
		}
	}
	refused("site closed")
	// Attack: the frame navigates to another site (same frame id, same
	// form name) while its old site is open.
	w.a.agents.OpenSite("https://pay.example")
	w.browser.mu.Lock()
	w.browser.frames[1].Origin, w.browser.frames[1].URL = "https://evil.example", "https://evil.example/card"
	w.browser.mu.Unlock()
	refused("frame navigated to another site")
	// An opaque frame cannot be opened.
	if res, text := w.call(t, "tessera.tabs.select", map[string]any{"frame": 6}); !res.IsError || !strings.Contains(text, "not on a web origin") {
		t.Errorf("select an opaque frame = %v %q", res.IsError, text)
	}
}

// When the agent's page changes (agent.toolsChanged), the tools of the
// page it left are removed from what tessera mcp serves, not only the new
// ones added.
func TestAgentToolsOfALeftPageAreRemoved(t *testing.T) {
	w := newAgentWorld(t, approveDefaults)
	w.selectTab(t)
	if _, ok := w.tools(t)["webmcp.form.subscribe"]; !ok {
		t.Fatal("no declarative tool before the page changed")
	}
	w.browser.mu.Lock()
	w.browser.page = framedPage("reserve")
	w.browser.mu.Unlock()
	for quiet := false; !quiet; {
		select {
		case <-w.changed:
		case <-time.After(300 * time.Millisecond):
			quiet = true
		}
	}
	w.browser.navigate("https://shop.example/other")
	select {
	case <-w.changed:
	case <-time.After(10 * time.Second):
		t.Fatal("no list_changed after the page changed")
	}
	// Listed once tessera mcp has taken the change in (the failure this
	// guards against: tools/list after it kept the left page's tools).
	for quiet := false; !quiet; {
		select {
		case <-w.changed:
		case <-time.After(300 * time.Millisecond):
			quiet = true
		}
	}
	tools := w.tools(t)
	if _, ok := tools["webmcp.form.subscribe"]; ok {
		t.Errorf("the left page's tool is still served: %v", keys(tools))
	}
	if _, ok := tools["webmcp.form.reserve"]; !ok {
		t.Errorf("the new page's tool is not served: %v", keys(tools))
	}
}
