package app

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tessera-app/tessera/app/fill"
)

func TestFrameToolNames(t *testing.T) {
	for _, tc := range []struct {
		id     int
		origin string
		want   string
	}{
		{3, "https://shop.example", "webmcp.frame3.shop.example.form."},
		{12, "http://127.0.0.1:8081", "webmcp.frame12.127.0.0.1_8081.form."},
		{4, "null", "webmcp.frame4.null.form."},
		{15032385538, "http://127.0.0.1:44259", "webmcp.frame15032385538.127.0.0.1_44259.form."}, // Firefox's frame ids
		{5, "https://" + strings.Repeat("a", 80) + ".example", "webmcp.frame5." + strings.Repeat("a", maxFrameHost) + ".form."},
	} {
		if got := frameFormPrefix(tc.id, tc.origin); got != tc.want {
			t.Errorf("frameFormPrefix(%d, %q) = %q, want %q", tc.id, tc.origin, got, tc.want)
		}
		if id, ok := frameOfTool(tc.want + "x"); !ok || id != tc.id {
			t.Errorf("frameOfTool(%q) = %d %v, want %d", tc.want+"x", id, ok, tc.id)
		}
	}
	// Names of other kinds, or malformed frame ids, name no frame.
	for _, name := range []string{"webmcp.form.frame3.x", "webmcp.page.frame3", "tessera.frame3.x", "webmcp.frame.x", "webmcp.frame03.a.form.x", "webmcp.frame0.a.form.x", "webmcp.frame-1.a.form.x", "webmcp.frame3", "webmcp.frame99999999999999999.a.form.x", "webmcp.frame9007199254740993.a.form.x"} {
		if id, ok := frameOfTool(name); ok {
			t.Errorf("frameOfTool(%q) = %d, want none", name, id)
		}
	}
	// A frame's tools can pass neither for the top frame's, nor for
	// registered ones, nor for Tessera's, whatever the form calls itself
	// and whatever host the frame is on.
	taken := map[string]bool{}
	for _, d := range ownToolDefs {
		taken[d.mcp.Name] = true
	}
	top := toolName(prefixForm, "pay", taken)
	evil := toolName(frameFormPrefix(4, "https://tessera.fill.apply"), "../../tessera.fill.apply", taken)
	same := toolName(frameFormPrefix(5, "https://shop.example"), "pay", taken)
	other := toolName(frameFormPrefix(6, "https://shop.example"), "pay", taken)
	for _, n := range []string{evil, same, other} {
		if !strings.HasPrefix(n, prefixFrame) || n == top || taken[n] != true || len(n) > maxToolName {
			t.Errorf("frame tool name %q", n)
		}
	}
	if same == other {
		t.Errorf("two frames' forms share the name %q", same)
	}
}

func TestFrameOpenRules(t *testing.T) {
	h := &agentHub{}
	top := "https://shop.example"
	h.expose(top)
	h.expose("https://pay.example")
	for _, tc := range []struct {
		origin string
		want   bool
	}{
		{"https://shop.example", true},    // same origin as the page
		{"https://pay.example", true},     // opened by the person
		{"https://ads.example", false},    // another site, not opened
		{"http://shop.example", false},    // another scheme is another origin
		{"https://a.shop.example", false}, // another host of the same site
		{"null", false},                   // sandboxed or data: frames
		{"", false},
		{"https://pay.example/path", false}, // not an origin
		{"HTTPS://PAY.EXAMPLE", false},      // never how a browser spells an origin
		{"chrome-extension://abc", false},
	} {
		if got := h.frameOpen(top, tc.origin); got != tc.want {
			t.Errorf("frameOpen(%q, %q) = %v, want %v", top, tc.origin, got, tc.want)
		}
	}
}

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
	if c.Kind != ConfirmAgentCall || c.Agent == nil || c.Agent.Frame == nil || c.Agent.Frame.ID != 3 || c.Agent.Frame.CrossOrigin || c.Site != "shop.example" {
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
	if c.Kind != ConfirmAgentAccess || c.Site != "pay.example" || c.Origin != "https://shop.example" || c.Agent == nil || c.Agent.Frame == nil ||
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
	if c.Kind != ConfirmAgentCall || c.Site != "pay.example" || c.Agent.Frame == nil || c.Agent.Frame.Origin != "https://pay.example" || !c.Agent.Frame.CrossOrigin {
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
	w.a.agents.closeSite("https://pay.example")
	refused := func(why string) {
		t.Helper()
		asked, applied := w.pres.count(), len(w.browser.appliedCalls())
		res, text := w.call(t, payName, map[string]any{"first": "Mallory"})
		if !res.IsError || !strings.Contains(text, "refused") {
			t.Errorf("%s: call = %v %q, want a refusal", why, res.IsError, text)
		}
		if w.pres.count() != asked || len(w.browser.appliedCalls()) != applied {
			t.Errorf("%s: the call was shown to the person or reached the page", why)
		}
	}
	refused("site closed")
	// Attack: the frame navigates to another site (same frame id, same
	// form name) while its old site is open.
	w.a.agents.expose("https://pay.example")
	w.browser.mu.Lock()
	w.browser.frames[1].Origin, w.browser.frames[1].URL = "https://evil.example", "https://evil.example/card"
	w.browser.mu.Unlock()
	refused("frame navigated to another site")
	// An opaque frame cannot be opened.
	if res, text := w.call(t, "tessera.tabs.select", map[string]any{"frame": 6}); !res.IsError || !strings.Contains(text, "not on a web origin") {
		t.Errorf("select an opaque frame = %v %q", res.IsError, text)
	}
}

// FuzzFrameToolNames feeds an agent's tool name (untrusted) to the parser
// that finds the frame it names, and a frame's origin (the page's word) to
// the naming: neither may panic; a name parsed names a frame id > 0 that
// the naming gives back, and every name made is MCP-safe and bounded.
func FuzzFrameToolNames(f *testing.F) {
	f.Add("webmcp.frame3.shop.example.form.pay", 3, "https://shop.example")
	f.Add("webmcp.frame0.x.form.y", 0, "null")
	f.Add("webmcp.frame99999999999999999999.x", 1, "http://127.0.0.1:8080")
	f.Add("webmcp.frame-1.", -1, "https://ex\u00e4mple.org:1/")
	f.Add("webmcp.frame", 7, "")
	f.Fuzz(func(t *testing.T, name string, id int, origin string) {
		if got, ok := frameOfTool(name); ok {
			if got <= 0 || !strings.HasPrefix(name, fmt.Sprintf("%s%d.", prefixFrame, got)) {
				t.Fatalf("frameOfTool(%q) = %d", name, got)
			}
		}
		if id <= 0 || id > maxFrameID {
			return
		}
		n := toolName(frameFormPrefix(id, origin), name, map[string]bool{})
		if len(n) > maxToolName || unsafeNameRE.MatchString(n) {
			t.Fatalf("frame tool name %q", n)
		}
		if got, ok := frameOfTool(n); !ok || got != id {
			t.Fatalf("frameOfTool(%q) = %d %v, want %d", n, got, ok, id)
		}
	})
}

// A frame is given to agents only when its origin is open and every frame
// around it is too.
func TestSplitFramesFollowsNesting(t *testing.T) {
	h := &agentHub{}
	top := "https://shop.example"
	h.expose(top)
	h.expose("https://pay.example")
	fr := func(id, parent int, origin string) fill.FrameSnapshot {
		return fill.FrameSnapshot{Frame: id, Parent: parent, Origin: origin}
	}
	p := fill.Page{Frames: []fill.FrameSnapshot{
		fr(5, 4, top), // listed before its parent
		fr(0, -1, top),
		fr(1, 0, top),
		fr(2, 0, "https://ads.example"),
		fr(3, 2, top), // the page's own origin inside an unopened frame
		fr(4, 1, "https://pay.example"),
		fr(6, 99, top), // a parent the browser did not list
	}}
	got, closed := h.splitFrames(p, top)
	var kept []int
	for _, f := range got.Frames {
		kept = append(kept, f.Frame)
	}
	if !slices.Equal(kept, []int{5, 0, 1, 4}) {
		t.Errorf("kept %v, want [5 0 1 4]", kept)
	}
	want := []ClosedFrame{{2, "https://ads.example"}, {3, top}, {6, top}}
	if !slices.Equal(closed, want) {
		t.Errorf("closed %v, want %v", closed, want)
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
