package app

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tessera-app/tessera/app/agents"
)

// Two browsers connected to one app: the agent lists the tabs of both,
// each naming its browser; a tab id both browsers have must be chosen
// with its browser; choosing a tab chooses the browser the agent's page
// tools, fills and notifications come from.
func TestAgentTwoBrowsers(t *testing.T) {
	w := newAgentWorld(t, approveDefaults)
	first := w.browser
	second := newFakeBrowser(t, w.dial)
	second.mu.Lock()
	second.url = "https://library.example/reserve"
	second.page = framedPage("reserve")
	second.mu.Unlock()

	tabs, text := w.listTabs(t)
	byURL := map[string]agents.AgentTab{}
	browsers := map[string]string{}
	for _, tb := range tabs {
		byURL[tb.URL] = tb
		browsers[tb.Browser] = tb.BrowserName
	}
	// No site is open to agents yet: tabs show their origins only.
	shop, lib := byURL["https://shop.example"], byURL["https://library.example"]
	if len(tabs) != 4 || len(browsers) != 2 || shop.Browser == "" || lib.Browser == "" || shop.Browser == lib.Browser ||
		!strings.HasPrefix(shop.BrowserName, "chromium (") || !strings.HasSuffix(lib.BrowserName, "("+lib.Browser+")") || shop.Tab != lib.Tab {
		t.Fatalf("tabs of two browsers = %s", text)
	}
	// The test world pairs every fake browser with one key; two browsers
	// (two profiles, or Chromium and Firefox) have an install key each.
	for _, b := range w.a.broker.Browsers() {
		if b.ID() == lib.Browser {
			w.a.broker.MarkPaired(b, "second-install")
		}
	}
	// The browser that connected last comes first.
	if tabs[0].Browser != lib.Browser {
		t.Errorf("first tab listed is in %q, want the browser that connected last (%q)", tabs[0].Browser, lib.Browser)
	}

	// Tab 7 is in both browsers: the agent must say which.
	asked := w.pres.count()
	if res, text := w.call(t, "tessera.tabs.select", map[string]any{"tab": 7}); !res.IsError || !strings.Contains(text, shop.Browser) || !strings.Contains(text, lib.Browser) {
		t.Errorf("select an ambiguous tab = %v %q, want an error naming both browsers", res.IsError, text)
	}
	if w.pres.count() != asked {
		t.Error("an ambiguous select asked the person")
	}
	// Choosing the second browser's tab: its page's tools, its writes.
	if res, text := w.call(t, "tessera.tabs.select", map[string]any{"tab": 7, "browser": lib.Browser}); res.IsError || !strings.Contains(text, `"browser":"`+lib.Browser+`"`) {
		t.Fatalf("select in the second browser = %v %q", res.IsError, text)
	}
	if c := w.pres.last(); c.Site != "library.example" {
		t.Errorf("access dialog site = %q, want library.example", c.Site)
	}
	tools := w.tools(t)
	if _, ok := tools["webmcp.form.reserve"]; !ok {
		t.Fatalf("tools of the second browser's tab missing: %v", keys(tools))
	}
	if _, ok := tools["webmcp.form.subscribe"]; ok {
		t.Error("the first browser's page tools are listed for the second browser's tab")
	}
	if res, text := w.call(t, "webmcp.form.reserve", map[string]any{"first": "Grace"}); res.IsError {
		t.Fatalf("call in the second browser: %s", text)
	}
	if len(second.appliedCalls()) != 1 || len(first.appliedCalls()) != 0 {
		t.Errorf("applied: second browser %d, first %d; want the call in the second only", len(second.appliedCalls()), len(first.appliedCalls()))
	}
	tabs, _ = w.listTabs(t)
	for _, tb := range tabs {
		if want := tb.Browser == lib.Browser && tb.Tab == 7; tb.Selected != want {
			t.Errorf("tab %d of %s selected = %v, want %v", tb.Tab, tb.Browser, tb.Selected, want)
		}
	}
	// The first browser's tab 7 navigating is not the agent's tab.
	settle := func() {
		// The notifications of the agent's own select may still be on
		// their way.
		for {
			select {
			case <-w.changed:
			case <-time.After(300 * time.Millisecond):
				return
			}
		}
	}
	settle()
	first.navigate("https://shop.example/next")
	select {
	case <-w.changed:
		t.Error("a change in the other browser's tab of the same id told the agent to list again")
	case <-time.After(500 * time.Millisecond):
	}
	// The active tab: of the browser given, else of the one connected last.
	if res, text := w.call(t, "tessera.tabs.select", map[string]any{"browser": shop.Browser}); res.IsError || !strings.Contains(text, "https://shop.example/next") {
		t.Errorf("select the active tab of the first browser = %v %q", res.IsError, text)
	}
	if res, text := w.call(t, "webmcp.form.subscribe", map[string]any{"first": "Ada"}); res.IsError {
		t.Fatalf("call in the first browser: %s", text)
	}
	if len(first.appliedCalls()) != 1 || len(second.appliedCalls()) != 1 {
		t.Errorf("applied: first browser %d, second %d; want one each", len(first.appliedCalls()), len(second.appliedCalls()))
	}
	if res, text := w.call(t, "tessera.tabs.select", map[string]any{}); res.IsError || !strings.Contains(text, "https://library.example/reserve") {
		t.Errorf("select the active tab = %v %q, want the browser that connected last", res.IsError, text)
	}
	// The chosen browser goes away: the agent is told, not moved to another.
	second.conn.Close()
	deadline := time.Now().Add(5 * time.Second)
	for len(w.a.broker.Browsers()) != 1 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if res, text := w.call(t, "tessera.form.read", map[string]any{}); !res.IsError || !strings.Contains(text, "no longer connected") {
		t.Errorf("form.read after the chosen browser left = %v %q, want an error saying so", res.IsError, text)
	}
}

// listTabs calls tessera.tabs.list and returns its tabs and its text.
func (w *agentWorld) listTabs(t *testing.T) ([]agents.AgentTab, string) {
	t.Helper()
	res, text := w.call(t, "tessera.tabs.list", map[string]any{})
	if res.IsError {
		t.Fatalf("tabs.list: %s", text)
	}
	var list struct {
		Tabs []agents.AgentTab `json:"tabs"`
	}
	if err := json.Unmarshal([]byte(text), &list); err != nil {
		t.Fatal(err)
	}
	return list.Tabs, text
}
