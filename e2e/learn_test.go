//go:build e2e && linux

package e2e

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// waitReceived waits for tab's form to have been submitted (the test
// server's answer page).
func waitReceived(t *testing.T, tab context.Context) {
	t.Helper()
	// The submit navigates: evaluations fail while it does.
	for deadline := time.Now().Add(15 * time.Second); ; {
		ok, err := Eval[bool](tab, `document.getElementById('received') !== null`)
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the form was not submitted (%v)", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestLearnOnlyTheirSubmit guards against a page that submits a form by
// script — requestSubmit() from a timer (whose submit event is trusted), a
// scripted click on the submit button, a synthetic submit event — getting a
// learn dialog that says "You submitted…" with its own values ticked: one
// Approve put a phishing URL and a company name into the profile (issue
// 23). Real Chromium: no learn dialog for any of them and the profile
// unchanged; the person's own click on the submit button, and their Enter
// in a field, still get one.
func TestLearnOnlyTheirSubmit(t *testing.T) {
	f := newFillEnv(t, "approve", "")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	before, err := f.w.ProfileJSON(ctx, "home")
	if err != nil {
		t.Fatalf("profile show through the app: %v", err)
	}
	for _, how := range []string{"request", "click", "event"} {
		tab, _ := f.open(t, "/learn-scripted.html?how="+how)
		waitReceived(t, tab)
	}
	// The learn would have been asked for within moments of the submits.
	time.Sleep(3 * time.Second)
	evs, err := f.app.ReadEvents()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		if e.Kind == "learn" {
			t.Errorf("a page's own submit got a learn dialog: %+v", e)
		}
	}
	after, err := f.w.ProfileJSON(ctx, "home")
	if err != nil {
		t.Fatal(err)
	}
	if !sameJSON(before, after) || bytes.Contains(after, []byte("evil")) {
		t.Errorf("a page's own submit changed the profile:\nbefore %s\nafter  %s", before, after)
	}

	// The person's own click on the submit button: a learn dialog.
	tab, _ := f.open(t, "/learn.html")
	if err := chromedp.Do(tab,
		chromedp.SendKeys("#company", "Analytical Engines Ltd"),
		chromedp.Click("#save"),
	); err != nil {
		t.Fatal(err)
	}
	waitReceived(t, tab)
	if _, err := f.app.WaitEvent("presented", "learn", 1, 30*time.Second); err != nil {
		t.Fatalf("the person's submit got no learn dialog: %v", err)
	}

	// The person's Enter in a field (implicit submission): a learn dialog.
	tab, _ = f.open(t, "/learn.html")
	if err := chromedp.Do(tab,
		chromedp.SendKeys("#email", "ada.king@example.org"),
		chromedp.SendKeys("#email", kb.Enter),
	); err != nil {
		t.Fatal(err)
	}
	waitReceived(t, tab)
	if _, err := f.app.WaitEvent("presented", "learn", 2, 30*time.Second); err != nil {
		t.Fatalf("the person's Enter got no learn dialog: %v", err)
	}
}
