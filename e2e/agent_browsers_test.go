//go:build e2e && linux

package e2e

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Two headless Chromium profiles, each with the real extension paired on
// its own, connected to one app: the agent lists the tabs of both, each
// naming its browser, and choosing a tab chooses the browser it acts in —
// a form tool called after choosing the second browser's tab lands in
// that browser's page, and after choosing the first's, in the first's.
func TestAgentTwoBrowsers(t *testing.T) {
	e := newAgentEnv(t, "approve")
	tab1, url1 := e.open(t, "/agent.html")
	b2 := e.startAnotherBrowser(t, "connected")
	url2 := e.pages.URL + "/agent-respond.html"
	tab2, cancel, err := b2.Tab(url2)
	if err != nil {
		t.Fatal(err)
	}
	defer cancel()
	if _, err := chromedp.Run(tab2, chromedp.Poll[bool](`document.readyState === 'complete'`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("%s never loaded: %v", url2, err)
	}

	isErr, text := e.call(t, "tessera.tabs.list", map[string]any{})
	var list struct {
		Tabs []struct {
			Tab         int    `json:"tab"`
			URL         string `json:"url"`
			Browser     string `json:"browser"`
			BrowserName string `json:"browserName"`
			Selected    bool   `json:"selected"`
		} `json:"tabs"`
	}
	if err := json.Unmarshal([]byte(text), &list); isErr || err != nil {
		t.Fatalf("tabs.list = %v %s (%v)", isErr, text, err)
	}
	type where struct {
		tab     int
		browser string
	}
	// No site is open to agents yet, so a tab shows its origin only (both
	// pages have the same); the browser that connected last (the second)
	// is listed first.
	origin := originOf(url1)
	if originOf(url2) != origin {
		t.Fatalf("pages of two origins: %s, %s", url1, url2)
	}
	found := map[string]where{}
	browsers := map[string]bool{}
	for _, tb := range list.Tabs {
		browsers[tb.Browser] = true
		if tb.URL == origin {
			if _, ok := found[url2]; !ok {
				found[url2] = where{tb.Tab, tb.Browser}
			} else if _, ok := found[url1]; !ok {
				found[url1] = where{tb.Tab, tb.Browser}
			}
		}
		if !strings.Contains(tb.BrowserName, tb.Browser) {
			t.Errorf("tab %d names its browser %q, want its id %q in the name", tb.Tab, tb.BrowserName, tb.Browser)
		}
	}
	first, second := found[url1], found[url2]
	if len(browsers) != 2 || first.browser == "" || second.browser == "" || first.browser == second.browser {
		t.Fatalf("tabs.list = %s, want the tabs of two browsers, each page in its own", text)
	}

	// The second browser's tab: its form tool, its page.
	if isErr, text := e.call(t, "tessera.tabs.select", map[string]any{"tab": second.tab, "browser": second.browser}); isErr {
		t.Fatalf("select in the second browser: %s", text)
	}
	tools := e.tools(t)
	if _, ok := tools["webmcp.form.reserve"]; !ok {
		t.Fatalf("the second browser's page tools are not listed: %v", toolNames(tools))
	}
	if _, ok := tools["webmcp.form.subscribe"]; ok {
		t.Error("the first browser's page tools are listed while the agent works in the second")
	}
	if isErr, text := e.call(t, "webmcp.form.reserve", map[string]any{"title": "Middlemarch"}); isErr || !strings.Contains(text, "R-42") {
		t.Errorf("call in the second browser = %v %q", isErr, text)
	}
	if ev, err := Eval[string](tab2, "toolEvents.join(',')"); err != nil || ev != "activated:Middlemarch,submit:true" {
		t.Errorf("second browser's page events = %q %v", ev, err)
	}

	// The first browser's tab: the call lands there, not in the second.
	if isErr, text := e.call(t, "tessera.tabs.select", map[string]any{"tab": first.tab, "browser": first.browser}); isErr {
		t.Fatalf("select in the first browser: %s", text)
	}
	if isErr, text := e.call(t, "webmcp.form.subscribe", map[string]any{"first": "Grace"}); isErr || !strings.Contains(text, `"outcome":"filled"`) {
		t.Errorf("call in the first browser = %v %q", isErr, text)
	}
	if st := readPage(t, tab1); st.Values["first"] != "Grace" {
		t.Errorf("first browser's page = %v", st.Values)
	}
	if ev, err := Eval[string](tab2, "toolEvents.join(',')"); err != nil || ev != "activated:Middlemarch,submit:true" {
		t.Errorf("the second browser's page heard the first's call: %q %v", ev, err)
	}
}

// startAnotherBrowser starts a second Chromium profile with the extension,
// installed for e's app and paired with it (its own key), and waits until
// it is connected.
// startAnotherBrowser starts a second Chromium profile with the extension
// and waits for its service worker to reach state ("connected" once
// paired; "unpaired" when the pairing is declined).
func (e *agentEnv) startAnotherBrowser(t *testing.T, state string) *Browser {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	udd, err := os.MkdirTemp("", "tsr-u2-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(udd) })
	if err := Install(ctx, e.w.Tessera, udd); err != nil {
		t.Fatal(err)
	}
	var blog syncBuffer
	b, err := StartBrowser(context.Background(), BrowserConfig{Extension: art.Extension, UserDataDir: udd, Env: e.w.Env(), Log: &blog})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		b.Close()
		if t.Failed() {
			t.Logf("second browser output:\n%s", blog.String())
		}
	})
	waitState(t, serviceWorker(t, b), state)
	return b
}
