//go:build e2e && firefox && linux

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tessera-app/tessera/nativemsg"
)

// ffPopupUUID is the moz-extension uuid the trigger test gives the add-on
// (extensions.webextensions.uuids), so that it can open the popup's page.
const ffPopupUUID = "6d0f3c1e-5b7a-4c2d-9e8f-1a2b3c4d5e6f"

// TestFirefoxTriggers: the three ways a person starts a fill, in Firefox
// ESR, each on its own checkout tab, approved in the app:
//   - the toolbar popup: its real page (popup.html, the shipped code)
//     opened in a background tab so that the checkout stays the active
//     tab, and its "Fill this page" button clicked; the popup then says
//     the page was filled;
//   - the context menu: a real right-click on the email box opens
//     Firefox's own context menu, whose "Fill with Tessera" item (made by
//     the extension for editable fields) is chosen;
//   - the keyboard shortcut: Ctrl+Shift+L pressed as key events in the
//     browser window while the email box has the focus, so that Firefox's
//     shortcut handling runs the extension's fill-page command.
//
// Not exercised: pressing the toolbar button itself (the popup's panel),
// and the pointer over the menu item (the item is chosen as a click does).
// Reaching the browser window needs --remote-allow-system-access (run.mjs).
func TestFirefoxTriggers(t *testing.T) {
	f, home := ffWorld(t, "approve")
	triggers := []string{"popup", "menu", "shortcut"}
	cfg := ffConfig{Home: home, AddonID: nativemsg.FirefoxAddonID, UUID: ffPopupUUID}
	for _, tr := range triggers {
		cfg.Pages = append(cfg.Pages, ffPage{Name: tr, URL: f.pages.URL + "/checkout.html", Trigger: tr, Field: "#email"})
	}
	r := runFirefox(t, cfg, f.w.Env())
	if len(r.Pages) != len(triggers) {
		t.Fatalf("run.mjs reported %d pages, want %d", len(r.Pages), len(triggers))
	}
	want := map[string]string{
		"email": email, "phone": tel, "fullname": name, "addr1": line1, "addr2": line2, "city": city,
		"region": region, "postcode": postcode, "country": country,
		"ccname": "", "ccnumber": "", "ccexp": "", "cvc": "",
	}
	for i, tr := range triggers {
		t.Run(tr, func(t *testing.T) {
			p := r.Pages[i]
			if p.Error != "" {
				t.Fatalf("%s: %s", tr, p.Error)
			}
			t.Logf("fill result: %+v; popup %q, menu item %q, keys to %q", p.Result, p.Popup, p.Menu, p.Keys)
			if p.Result.Status != "filled" {
				t.Errorf("fill status = %q (reason %q), want filled", p.Result.Status, p.Result.Reason)
			}
			if n := p.Result.Count("filled"); n != filledWant(want) {
				t.Errorf("fill reported %d fields filled, want %d: %+v", n, filledWant(want), p.Result.Fields)
			}
			checkPage(t, p.State, want)
			switch tr {
			case "popup":
				if w := fmt.Sprintf("%d of %d fields filled.", p.Result.Count("filled"), len(p.Result.Fields)); !strings.HasPrefix(p.Popup, w) {
					t.Errorf("the popup says %q of the fill, want %q", p.Popup, w)
				}
			case "menu":
				if !strings.Contains(p.Menu, "tessera-fill") {
					t.Errorf("context menu item chosen = %q, want the extension's tessera-fill item", p.Menu)
				}
			case "shortcut":
				if p.Keys != "browser" {
					t.Errorf("the keys went to %q, want the page's <browser>", p.Keys)
				}
			}
		})
	}
	if got, err := f.app.WaitEvent("decided", "fill", len(triggers), 10*time.Second); err != nil {
		t.Errorf("the app decided fewer than %d fill dialogs: %v (%v)", len(triggers), err, got)
	}
}
