package agents

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tessera-app/tessera/app/fill"
)

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
