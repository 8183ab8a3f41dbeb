//go:build e2e && linux

package e2e

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

var codeRE = regexp.MustCompile(`^\d{3} \d{3}$`)

// TestPairingCodesMatch pairs the real extension in real Chromium: while
// the app's pairing dialog waits (the testhooks presenter answers it after
// a few seconds, as a person would), the popup shows the same code as the
// dialog, which names the verified browser; approved, the popup shows
// Connected.
func TestPairingCodesMatch(t *testing.T) {
	f := newFillEnvOpts(t, fillArt.tessera, AppOptions{Decision: "approve", Env: []string{"TESSERA_TEST_PAIR_DELAY=6s"}}, "pairing")
	tab, cancel, err := f.b.Tab(ExtensionOrigin + "popup.html")
	if err != nil {
		t.Fatal(err)
	}
	defer cancel()
	var code string
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.getElementById('status').dataset.state === 'pairing' && !document.getElementById('code').hidden`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("popup never showed the pairing code: %v", err)
	}
	if code, err = chromedp.Run(tab, chromedp.Text(`#code`)); err != nil {
		t.Fatal(err)
	}
	ev, err := f.app.WaitEvent("presented", "pair", 1, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if !codeRE.MatchString(code) || code != ev.Code || f.status.Code != ev.Code {
		t.Errorf("popup code %q, worker code %q, app dialog code %q: want the same six digits", code, f.status.Code, ev.Code)
	}
	if ev.Browser != "chromium" {
		t.Errorf("pairing dialog names browser %q, want the verified chromium", ev.Browser)
	}
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.getElementById('status').dataset.state === 'connected' && document.getElementById('code').hidden`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("popup never showed connected after the approval: %v", err)
	}
	if _, err := Eval[any](f.sw, `tesseraTest.call('profile.list', {})`); err != nil {
		t.Errorf("profile.list after pairing: %v", err)
	}

	// Every later session proves the pairing, with no dialog: the app
	// stops, the host starts another one (without the test presenter:
	// nothing could approve a pairing there), and the extension is served.
	f.app.StopLettingHostsRestart()
	t.Cleanup(func() { StopStrays(fillArt.tessera) })
	s, err := Eval[status](f.sw, `(async () => {
		const sleep = () => new Promise((r) => setTimeout(r, 10));
		for (let i = 0; i < 1000 && tesseraTest.status().state === 'connected'; i++) await sleep();
		if (tesseraTest.status().state === 'connected') return { state: 'never-dropped' };
		for (let i = 0; i < 3000; i++) {
			const s = tesseraTest.status();
			if (s.state === 'connected' || s.state === 'unpaired' || s.state === 'pairing') return s;
			await sleep();
		}
		return tesseraTest.status();
	})()`)
	if err != nil || s.State != "connected" {
		t.Fatalf("after the app restarted: status %+v (%v), want connected by proof alone", s, err)
	}
}

// TestPairingDeclined: the person declines the pairing; the extension
// stays unpaired, says so, and fills nothing.
func TestPairingDeclined(t *testing.T) {
	f := newFillEnvOpts(t, fillArt.tessera, AppOptions{Decision: "approve", Env: []string{"TESSERA_TEST_PAIR=deny"}}, "unpaired")
	if !strings.Contains(f.status.Detail, "declined") {
		t.Errorf("status = %+v, want unpaired, declined", f.status)
	}
	tab, url := f.open(t, "/checkout.html")
	if r := f.fill(t, url); r.Status != "failed" || r.Reason != "NOT_PAIRED" {
		t.Errorf("fill of an unpaired install = %+v, want failed, NOT_PAIRED", r)
	}
	checkPage(t, readPage(t, tab), nil)
	if evs, _ := f.app.ReadEvents(); len(evs) == 0 || evs[len(evs)-1].Kind != "pair" {
		t.Errorf("app events = %+v, want the pairing dialog only (no fill dialog)", evs)
	}
}
