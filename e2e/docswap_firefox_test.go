//go:build e2e && firefox && linux

package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFirefoxApplyPinnedToDocument guards against values approved for one
// document reaching the document that replaced it in the same frame
// (issue 23). Firefox addresses frames by id alone, and refs restart in
// each document: an agent's fill measured the frame's first document, the
// frame then replaced it with a second holding the same form, a second
// agent's measurement gave the second document refs of the same names, and
// the approved values, applied to the frame, landed in the second document.
// Apply must name the token of the document measured.
func TestFirefoxApplyPinnedToDocument(t *testing.T) {
	// Every dialog answered after a while: the frame swaps and is measured
	// again while the fill dialog waits.
	t.Setenv("TESSERA_TEST_DECISION_DELAY", "5s")
	f, home := ffWorld(t, "approve")
	hold := filepath.Join(t.TempDir(), "docswap")
	url := f.pages.URL + "/docswap.html"
	wait, ready, finished := holdFirefox(t, home, f, []ffPage{{Name: "docswap", URL: url, Hold: hold,
		Probe: `(() => { const w = document.getElementById('details').contentWindow; return w.__doc + ':' + w.document.getElementById('name').value + ':' + w.document.getElementById('email').value; })()`}})
	ready(hold)
	e := connectAgent(t, f)
	if isErr, text := e.selectPage(t, url); isErr {
		finished(hold)
		t.Fatalf("select: %s", text)
	}
	if isErr, text := e.call(t, "webmcp.page.arm", map[string]any{}); isErr || !strings.Contains(text, "armed") {
		finished(hold)
		t.Fatalf("arm = %v %s", isErr, text)
	}

	// The fill measures the first document, which then swaps itself; its
	// dialog waits.
	type result struct {
		isErr bool
		text  string
	}
	filled := make(chan result, 1)
	go func() {
		isErr, text := e.call(t, "tessera.fill.apply", map[string]any{})
		filled <- result{isErr, text}
	}()
	if _, err := e.app.WaitEvent("presented", "fill", 1, 30*time.Second); err != nil {
		finished(hold)
		t.Fatalf("no fill dialog: %v", err)
	}
	// Another agent measures the frame's second document while the dialog waits.
	time.Sleep(time.Second)
	e2 := connectAgent(t, f)
	if isErr, text := e2.selectPage(t, url); isErr {
		finished(hold)
		t.Fatalf("second agent's select: %s", text)
	}
	if isErr, text := e2.call(t, "tessera.form.read", map[string]any{}); isErr || !strings.Contains(text, "Email") {
		finished(hold)
		t.Fatalf("second agent's read = %v %s, want the second document's form", isErr, text)
	}
	var r result
	select {
	case r = <-filled:
	case <-time.After(60 * time.Second):
		finished(hold)
		t.Fatal("the fill never ended")
	}
	finished(hold)
	run := wait(t)
	t.Logf("fill = %v %s", r.isErr, r.text)
	if strings.Contains(r.text, `"outcome":"filled"`) {
		t.Errorf("values approved for the first document were filled into the one that replaced it: %s", r.text)
	}
	if len(run.Pages) != 1 {
		t.Fatalf("run.mjs read %d pages", len(run.Pages))
	}
	if p := run.Pages[0].Probe; p != "second::" {
		t.Errorf("the frame's document and its values = %v, want the second document, empty", p)
	}
}
