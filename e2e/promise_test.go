//go:build e2e && linux

package e2e

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The consent promise attacked through the real browser (issue 23).

// A clone of the extension — a second Chromium profile loading an unpacked
// copy, which has Tessera's ID because the manifest key is public — whose
// pairing the person declined connects after the person's own browser, and
// opens the page the agent works on. It is never the agent's browser: its
// tabs are not listed, no request reaches it, and the values the person
// approves go to the paired browser only.
func TestUnpairedCloneGetsNothing(t *testing.T) {
	e := connectAgent(t, newFillEnvOpts(t, fillArt.tessera, AppOptions{Decision: "approve", Env: []string{"TESSERA_TEST_PAIR=approve,deny"}}, "connected"))
	tab, url := e.open(t, "/agent.html")

	// Its pairing is declined (the second pairing dialog): it stays unpaired.
	clone := e.startAnotherBrowser(t, "unpaired")
	ctab, ccancel, err := clone.Tab(url)
	if err != nil {
		t.Fatal(err)
	}
	defer ccancel()
	if _, err := chromedp.Run(ctab, chromedp.Poll[bool](`document.readyState === 'complete'`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("%s never loaded in the clone: %v", url, err)
	}

	isErr, text := e.call(t, "tessera.tabs.list", map[string]any{})
	var list struct {
		Tabs []struct {
			Browser string `json:"browser"`
		} `json:"tabs"`
	}
	if err := json.Unmarshal([]byte(text), &list); isErr || err != nil {
		t.Fatalf("tabs.list = %v %s (%v)", isErr, text, err)
	}
	browsers := map[string]bool{}
	for _, tb := range list.Tabs {
		browsers[tb.Browser] = true
	}
	if len(browsers) != 1 {
		t.Errorf("tabs.list lists the tabs of %d browsers, want only the paired one: %s", len(browsers), text)
	}
	if isErr, text := e.call(t, "tessera.tabs.select", map[string]any{}); isErr {
		t.Fatalf("select: %s", text)
	}
	if isErr, text := e.call(t, "tessera.fill.apply", map[string]any{}); isErr {
		t.Fatalf("fill.apply: %s", text)
	}
	if st := readPage(t, ctab); st.Values["email"] != "" || st.Values["first"] != "" {
		t.Errorf("the unpaired clone's page received values: %v", st.Values)
	}
	if st := readPage(t, tab); st.Values["email"] != email {
		t.Errorf("the paired browser's page after the fill = %v, want the approved email", st.Values)
	}
}
