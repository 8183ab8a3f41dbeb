//go:build e2e && linux

package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestPopupShowsFormspecMode opens the real toolbar popup
// (chrome.action.openPopup) over a Formspec form and over a plain form and
// reads its mode line: the Formspec page was detected because its content
// script's probe injected the Formspec scripts; the plain page, which got
// none, is detected on demand when the popup asks. With
// TESSERA_POPUP_SHOTS=DIR it also writes the popup's screenshots (light and
// dark) there.
func TestPopupShowsFormspecMode(t *testing.T) {
	f := newFillEnv(t, "approve", "")
	for _, c := range []struct{ path, mode, title, why string }{
		{"/formspec/grant.html", "2", "Mode 2: Formspec form: Tessera provides Assist", "a <formspec-render> element with getEngine() and no Assist tools"},
		{"/checkout-plain.html", "3", "Plain form: heuristic filling", "no Formspec form: heuristic filling"},
	} {
		tab, _ := f.open(t, c.path)
		if _, err := chromedp.Call(tab, page.BringToFront, cdp.Empty{}); err != nil {
			t.Fatal(err)
		}
		if _, err := Eval[bool](f.sw, `chrome.action.openPopup().then(() => true)`); err != nil {
			t.Fatalf("%s: openPopup: %v", c.path, err)
		}
		popup := popupTarget(t, f.b)
		if _, err := chromedp.Run(popup, chromedp.Poll[bool](`document.getElementById('formspec-why').textContent !== ''`, chromedp.WithPollingTimeout(15*time.Second))); err != nil {
			t.Fatalf("%s: the popup's mode line stayed empty: %v", c.path, err)
		}
		got, err := Eval[map[string]string](popup, `({mode: document.getElementById('formspec-mode').dataset.mode, title: document.getElementById('formspec-mode').textContent, why: document.getElementById('formspec-why').textContent})`)
		if err != nil {
			t.Fatal(err)
		}
		if got["mode"] != c.mode || !strings.Contains(got["title"], c.title) || !strings.Contains(got["why"], c.why) {
			t.Errorf("%s: popup says %+v, want mode %s %q (%q)", c.path, got, c.mode, c.title, c.why)
		}
		if dir := os.Getenv("TESSERA_POPUP_SHOTS"); dir != "" {
			if png, err := chromedp.Run(popup, chromedp.FullScreenshot(100)); err == nil {
				os.WriteFile(filepath.Join(dir, "popup-mode"+c.mode+".png"), png, 0o644)
			}
			dark := emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}}
			if _, err := chromedp.Call(popup, emulation.SetEmulatedMedia, dark); err == nil {
				if png, err := chromedp.Run(popup, chromedp.FullScreenshot(100)); err == nil {
					os.WriteFile(filepath.Join(dir, "popup-mode"+c.mode+"-dark.png"), png, 0o644)
				}
			}
		}
		chromedp.Run(popup, chromedp.Evaluate[any](`window.close()`))
	}
}

// popupTarget attaches to the open toolbar popup.
func popupTarget(t *testing.T, b *Browser) context.Context {
	t.Helper()
	ctx, err := b.Attach("page", ExtensionOrigin+"popup.html", true, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return ctx
}
