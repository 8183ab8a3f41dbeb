package app

import (
	"strings"
	"testing"

	"github.com/tessera-app/tessera/vault"
)

// "Remember for this site": the next fill of the same origin is approved
// without a dialog for the concepts approved, a fill that would give more
// asks again, and forgetting the site brings the dialog back.
func TestRememberForThisSite(t *testing.T) {
	remember := true
	w := newFillWorld(t, func(c Confirmation) *Decision {
		if !c.Rememberable {
			t.Errorf("dialog does not offer remember")
		}
		d := approveDefaults(c)
		d.Remember = remember
		return d
	})
	nameEmail := `<html><body><form><label for=fn>First name</label><input id=fn name=first ` + stamp("t1", "") + `>
<label for=em>Email</label><input id=em name=email type=email ` + stamp("t2", "") + `></form></body></html>`
	withPhone := strings.Replace(nameEmail, "</form>", `<label for=tel>Phone</label><input id=tel type=tel name=phone autocomplete=tel `+stamp("t3", "")+`></form>`, 1)
	fillPage := func(html string) map[string]string {
		return fieldsOf(t, w.call(t, pageJSON(t, "fill.request", "", frameJSON(0, "https://shop.example.co.uk", html, nil))))
	}
	fillPage(nameEmail)
	if n := len(w.pres.shown); n != 1 {
		t.Fatalf("first fill showed %d dialogs, want 1", n)
	}
	remember = false
	got := fillPage(nameEmail)
	if len(w.pres.shown) != 1 || got["t1"] != "Ada" || got["t2"] != "ada@example.org" {
		t.Fatalf("remembered fill: %d dialogs, fields %v; want no new dialog and both values", len(w.pres.shown), got)
	}
	rs, _ := w.v.Releases()
	if last := rs[len(rs)-1]; last.Event != vault.EventRelease || last.Reason != "remembered" {
		t.Errorf("audit = %+v, want a release marked remembered", last)
	}
	// A phone was never approved for this site: the dialog comes back.
	fillPage(withPhone)
	if len(w.pres.shown) != 2 {
		t.Fatalf("a fill with a new concept showed %d dialogs in all, want 2", len(w.pres.shown))
	}
	// Another origin of the same site is another rule.
	fieldsOf(t, w.call(t, strings.Replace(pageJSON(t, "fill.request", "", frameJSON(0, "https://www.example.co.uk", nameEmail, nil)), "https://shop.example.co.uk/checkout", "https://www.example.co.uk/checkout", 1)))
	if len(w.pres.shown) != 3 {
		t.Fatalf("another origin showed %d dialogs in all, want 3", len(w.pres.shown))
	}
	u := newUI(w.a)
	rules, err := u.SiteRules()
	if err != nil || len(rules) != 1 || rules[0].Origin != "https://shop.example.co.uk" || rules[0].Site != "example.co.uk" {
		t.Fatalf("SiteRules = %+v, %v", rules, err)
	}
	if err := u.ForgetSite("https://shop.example.co.uk"); err != nil {
		t.Fatal(err)
	}
	fillPage(nameEmail)
	if len(w.pres.shown) != 4 {
		t.Fatalf("after ForgetSite the fill showed %d dialogs in all, want 4", len(w.pres.shown))
	}
}

// A site remembered for the postcode is not remembered for the town: a box
// filled with both ("City, State, ZIP", "Postcode / Town") asks again, and
// once approved with remember, is remembered as such.
func TestRememberedPostcodeIsNotTheTown(t *testing.T) {
	w := newFillWorld(t, func(c Confirmation) *Decision {
		d := approveDefaults(c)
		d.Remember = true
		return d
	})
	zip := `<html><body><form><label for=s>Street address</label><input id=s name=street ` + stamp("t1", "") + `>
<label for=z>ZIP code</label><input id=z name=zip ` + stamp("t2", "") + `></form></body></html>`
	combined := strings.Replace(zip, "ZIP code", "City, State, ZIP", 1)
	fillPage := func(html string) map[string]string {
		return fieldsOf(t, w.call(t, pageJSON(t, "fill.request", "", frameJSON(0, "https://shop.example.co.uk", html, nil))))
	}
	if got := fillPage(zip); got["t2"] != "SW1A 1AA" {
		t.Fatalf("postcode box = %q, want SW1A 1AA", got["t2"])
	}
	got := fillPage(combined)
	if n := len(w.pres.shown); n != 2 {
		t.Fatalf("a box that takes the town with the postcode showed %d dialogs in all, want 2 (the site was remembered for the postcode alone)", n)
	}
	if !strings.Contains(got["t2"], "London") {
		t.Fatalf("combined box = %q, want the town with the postcode", got["t2"])
	}
	fillPage(combined)
	if n := len(w.pres.shown); n != 2 {
		t.Fatalf("the combined box remembered showed %d dialogs in all, want 2", n)
	}
}
