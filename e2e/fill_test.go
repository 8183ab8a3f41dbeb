//go:build e2e && linux

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

// fillArt holds what TestMain built for the fill tests.
var fillArt struct {
	// tessera is built with -tags testhooks: its dialogs are answered by
	// TESSERA_TEST_DECISION.
	tessera string
	// bundles holds the built framework pages (React, Vue); pages the
	// static test pages.
	bundles, pages string
	profile        string
	passphrase     string
}

// buildFill builds the testhooks app and the framework test pages into dir.
func buildFill(ctx context.Context, root, dir string) error {
	// Named tessera, in a directory of its own, to get tessera-host beside.
	fillArt.tessera = filepath.Join(dir, "testhooks", "tessera")
	if err := BuildTessera(ctx, root, fillArt.tessera, "testhooks"); err != nil {
		return err
	}
	fillArt.bundles = filepath.Join(dir, "pages")
	if err := BuildPages(ctx, root, fillArt.bundles); err != nil {
		return err
	}
	td := filepath.Join(root, "e2e", "testdata")
	fillArt.pages = filepath.Join(td, "pages")
	fillArt.profile = filepath.Join(td, "profile.json")
	fillArt.passphrase = filepath.Join(td, "passphrase.txt")
	return nil
}

// syncBuffer is a bytes.Buffer safe for the app's writes and the test's reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// fillEnv is one test's world for fills: a vault holding the test profile,
// the testhooks app answering dialogs with one decision, the test pages,
// and a browser with the extension connected to the app.
type fillEnv struct {
	w      *World
	app    *App
	appLog *syncBuffer
	b      *Browser
	sw     context.Context
	pages  *Pages
	// status is the extension's connection status once set up.
	status status
}

// newFillEnv sets the world up, starts the testhooks app with decision (and
// the dialog timeout confirmTimeout, "" for the default), unlocks the vault
// through the app and connects a browser.
func newFillEnv(t *testing.T, decision, confirmTimeout string) *fillEnv {
	t.Helper()
	return newFillEnvWith(t, fillArt.tessera, decision, confirmTimeout)
}

// newFillEnvWith is newFillEnv with the tessera binary to run.
func newFillEnvWith(t *testing.T, tessera, decision, confirmTimeout string) *fillEnv {
	t.Helper()
	return newFillEnvOpts(t, tessera, AppOptions{Decision: decision, ConfirmTimeout: confirmTimeout}, "connected")
}

// newFillEnvOpts is newFillEnv with the tessera binary to run, the app's
// options, and the connection state to wait for: "connected" once the
// extension install is paired (a testhooks app approves the pairing
// dialog unless TESSERA_TEST_PAIR says otherwise), "unpaired" when it is not.
func newFillEnvOpts(t *testing.T, tessera string, opts AppOptions, state string) *fillEnv {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	base, err := os.MkdirTemp("", "tsr-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	f := &fillEnv{appLog: &syncBuffer{}}
	if f.w, err = NewWorld(tessera, base, fillArt.passphrase); err != nil {
		t.Fatal(err)
	}
	if err := f.w.Setup(ctx, fillArt.profile); err != nil {
		t.Fatalf("vault set-up: %v", err)
	}
	if f.pages, err = ServePages(fillArt.bundles, fillArt.pages); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.pages.Close)
	opts.Log = f.appLog
	if f.app, err = f.w.StartApp(opts); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		f.app.Stop()
		if t.Failed() {
			t.Logf("app log:\n%s", f.appLog.String())
			if evs, err := f.app.ReadEvents(); err == nil {
				t.Logf("app dialog events: %+v", evs)
			}
		}
	})
	if err := f.w.Unlock(ctx); err != nil {
		t.Fatalf("unlock the vault through the running app: %v", err)
	}
	udd, err := os.MkdirTemp(base, "u")
	if err != nil {
		t.Fatal(err)
	}
	if err := Install(ctx, f.w.Tessera, udd); err != nil {
		t.Fatal(err)
	}
	var blog syncBuffer
	if f.b, err = StartBrowser(context.Background(), BrowserConfig{Extension: art.Extension, UserDataDir: udd, Env: f.w.Env(), Log: &blog}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		f.b.Close()
		if t.Failed() {
			t.Logf("browser output:\n%s", blog.String())
		}
	})
	f.sw = serviceWorker(t, f.b)
	f.status = waitState(t, f.sw, state)
	return f
}

// open opens path of the test pages in a new tab, loaded; the tab closes
// with the test.
func (f *fillEnv) open(t *testing.T, path string) (tab context.Context, url string) {
	t.Helper()
	url = f.pages.URL + path
	tab, cancel, err := f.b.Tab(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cancel)
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.readyState === 'complete'`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("%s never loaded: %v", url, err)
	}
	return tab, url
}

// fill runs a fill of the tab at url through globalThis.tessera.fill.
func (f *fillEnv) fill(t *testing.T, url string) FillResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(f.sw, 90*time.Second)
	defer cancel()
	r, err := Fill(ctx, url)
	if err != nil {
		t.Fatalf("tessera.fill(%s): %v", url, err)
	}
	t.Logf("fill result: %+v", r)
	return r
}

func readPage(t *testing.T, tab context.Context) PageState {
	t.Helper()
	st, err := ReadPage(tab)
	if err != nil {
		t.Fatalf("read page: %v", err)
	}
	return st
}

// The test profile's values (testdata/profile.json).
const (
	name     = "Ada Lovelace"
	given    = "Ada"
	family   = "Lovelace"
	email    = "ada@example.org"
	line1    = "500 Market St"
	line2    = "Suite 300"
	city     = "San Francisco"
	region   = "CA"
	postcode = "94105"
	country  = "US"
	birth    = "1990-12-10"
	// tel is matched on digits: a page may get the number in its own
	// country's format ("(415) 555-0134", "+1 415-555-0134").
	tel = "tel:4155550134"
	// street is a one-line street address: it starts with line 1 and
	// holds line 2 ("500 Market St, Suite 300").
	street = "street"
)

var nonDigit = regexp.MustCompile(`\D`)

// valueOK reports whether a control's value got is what want asks for.
func valueOK(want, got string) bool {
	switch {
	case strings.HasPrefix(want, "tel:"):
		return strings.HasSuffix(nonDigit.ReplaceAllString(got, ""), strings.TrimPrefix(want, "tel:"))
	case want == street:
		return strings.HasPrefix(got, line1) && strings.Contains(got, line2)
	}
	return got == want
}

// checkPage checks that every control listed in want holds its value, that
// every other control of the page (frames and shadow roots included) is
// still empty, and that no control left empty received an input or change
// event.
func checkPage(t *testing.T, st PageState, want map[string]string) {
	t.Helper()
	keys := make([]string, 0, len(st.Values))
	for k := range st.Values {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for k := range want {
		if _, ok := st.Values[k]; !ok {
			t.Errorf("control %q is not on the page (controls: %d)", k, len(keys))
		}
	}
	touched := map[string]bool{}
	for _, e := range st.Events {
		if _, k, ok := strings.Cut(e, ":"); ok {
			touched[k] = true
		}
	}
	wrong := 0
	for _, k := range keys {
		got := st.Values[k]
		w, listed := want[k]
		switch {
		case listed && w != "" && !valueOK(w, got):
			t.Errorf("%s = %q, want %q", k, got, w)
		case (!listed || w == "") && got != "":
			if wrong++; wrong <= 20 {
				t.Errorf("%s = %q, want it left empty", k, got)
			}
		case (!listed || w == "") && touched[k]:
			if wrong++; wrong <= 20 {
				t.Errorf("%s received input/change events but must not be filled", k)
			}
		}
	}
	if wrong > 20 {
		t.Errorf("… %d controls in all filled or touched that must not be", wrong)
	}
}

// filledWant counts the controls want expects a value in.
func filledWant(want map[string]string) int {
	n := 0
	for _, w := range want {
		if w != "" {
			n++
		}
	}
	return n
}

// TestFillPages fills each test page with the dialog approved as presented
// and checks what the page (and React's state) holds: the profile's values
// in the fields a person sees, nothing anywhere else.
func TestFillPages(t *testing.T) {
	f := newFillEnv(t, "approve", "")
	cases := []struct {
		name, path string
		want       map[string]string
		// outcomes other than "filled" are expected (the page changes
		// approved fields under the fill).
		hostile bool
		// rerendered: the page replaces filled fields with new ones, so
		// more fields are reported filled than the page shows in the end.
		rerendered bool
		// swapsFrame: a frame replaces its document under the fill; its
		// fields may be reported filled (in the document that went away),
		// gone or changed.
		swapsFrame bool
		// check checks more, given the app's dialog events of this fill.
		check func(t *testing.T, tab context.Context, st PageState, events []AppEvent)
	}{
		{name: "checkout", path: "/checkout.html", want: map[string]string{
			"email": email, "phone": tel, "fullname": name, "addr1": line1, "addr2": line2, "city": city,
			"region": region, "postcode": postcode, "country": country,
			// Payment: never from the profile.
			"ccname": "", "ccnumber": "", "ccexp": "", "cvc": "",
		}},
		{name: "checkout without autocomplete", path: "/checkout-plain.html", want: map[string]string{
			"f_name": name, "f_mail": email, "f_street": street, "f_town": city, "f_zip": postcode, "f_tel": tel,
			// A one-time code and payment, recognised by their labels
			// alone: never from the profile.
			"f_code": "", "p_holder": "", "p_number": "", "p_exp": "", "p_cvv": "", "p_promo": "",
		}},
		{name: "boxes for two things or one part", path: "/intl-boxes.html", want: map[string]string{
			// "Postcode / Town" gets both, in the label's order; the
			// phone asked with its calling code gets it; a flat box
			// named houseNumber gets the second line.
			"d_name": name, "d_street": line1, "d_flat": line2, "d_pctown": postcode + " " + city, "d_phone": tel,
			"d_note": "",
		}, check: func(t *testing.T, tab context.Context, st PageState, _ []AppEvent) {
			if got := st.Values["d_phone"]; !strings.HasPrefix(got, "+1") {
				t.Errorf("d_phone = %q, want the number with its calling code (+1 ...)", got)
			}
			if dir := os.Getenv("TESSERA_FILL_SHOTS"); dir != "" {
				if png, err := chromedp.Run(tab, chromedp.FullScreenshot(100)); err == nil {
					os.WriteFile(filepath.Join(dir, "intl-boxes.png"), png, 0o644)
				}
			}
		}},
		{name: "registration", path: "/register.html", want: map[string]string{
			"title": "ms", "first": given, "last": family, "email": email, "dob": birth,
			"password": "", "password2": "", "news": "",
		}},
		{name: "registration with date selects", path: "/register-dob.html", want: map[string]string{
			"name": name, "email": email, "password": "",
			"dob_day": "10", "dob_month": "12", "dob_year": "1990",
		}},
		{name: "country reveals regions", path: "/country-regions.html", want: map[string]string{
			"country": country, "name": name, "street": line1, "street2": line2, "city": city,
			"region": region, "postcode": postcode,
		}},
		{name: "country re-renders the address", path: "/rerender.html", rerendered: true, want: map[string]string{
			"country": country, "name": name, "street": street, "city": city, "postcode": postcode,
		}, check: checkRerender},
		{name: "react", path: "/react.html", want: map[string]string{
			"fullName": name, "email": email, "phone": tel, "street": street, "city": city,
			"postcode": postcode, "country": country, "birthDate": birth,
		}, check: checkState("__reactState")},
		{name: "vue", path: "/vue.html", want: map[string]string{
			"givenName": given, "familyName": family, "email": email, "phone": tel, "city": city,
			"postcode": postcode, "country": country, "newsletter": "",
		}, check: checkState("__vueState")},
		{name: "same-origin iframe", path: "/iframe.html", want: map[string]string{
			"booking/name": name, "booking/email": email, "booking/phone": tel, "booking/street": street,
			"booking/city": city, "booking/state": region, "booking/zip": postcode,
		}},
		{name: "open shadow root", path: "/shadow.html", want: map[string]string{
			"contact/given": given, "contact/family": family, "contact/email": email, "contact/phone": tel,
			"contact/message": "",
		}},
		{name: "hostile", path: "/hostile.html", hostile: true, want: map[string]string{
			// The fields a person sees and the page leaves alone: filled,
			// the country far below the first screen too.
			"name": name, "city": city, "country": country,
		}, check: checkHostile},
		{name: "frame swaps its document", path: "/iframe-swap.html", swapsFrame: true, want: map[string]string{
			"email": email,
		}, check: checkFrameSwap},
		{name: "forged stamps and 5000 decoys", path: "/forged.html", want: map[string]string{
			"name": name, "email": email,
		}},
	}
	ran := 0
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ran++
			tab, url := f.open(t, tc.path)
			if tc.hostile || tc.swapsFrame {
				if _, err := Eval[any](tab, `window.__arm()`); err != nil {
					t.Fatal(err)
				}
			}
			seen, err := f.app.ReadEvents()
			if err != nil {
				t.Fatal(err)
			}
			r := f.fill(t, url)
			// Let late page handlers (React's re-render, the region rows
			// built on change) run before reading.
			if _, err := Eval[bool](tab, `new Promise((r) => setTimeout(() => r(true), 100))`); err != nil {
				t.Fatal(err)
			}
			st := readPage(t, tab)
			if r.Status != "filled" {
				t.Errorf("fill status = %q (reason %q), want filled", r.Status, r.Reason)
			}
			if n := r.Count("filled"); n != filledWant(tc.want) && !(tc.rerendered && n > filledWant(tc.want)) && !tc.swapsFrame {
				t.Errorf("fill reported %d fields filled, want %d: %+v", n, filledWant(tc.want), r.Fields)
			}
			if tc.hostile {
				// The email box turned password: changed; the phone box
				// moved out of sight: hidden.
				if r.Count("changed") != 1 || r.Count("hidden") != 1 {
					t.Errorf("fill outcomes %+v, want one changed (the renamed email) and one hidden (the moved phone)", r.Fields)
				}
			} else if !tc.swapsFrame {
				for _, fo := range r.Fields {
					if fo.Outcome != "filled" && !(tc.rerendered && fo.Outcome == "gone") {
						t.Errorf("field %+v: outcome %q, want filled", fo, fo.Outcome)
					}
				}
			}
			checkPage(t, st, tc.want)
			if tc.check != nil {
				evs, err := f.app.ReadEvents()
				if err != nil {
					t.Fatal(err)
				}
				tc.check(t, tab, st, evs[len(seen):])
			}
		})
	}

	// The audit log: releases to the test site only, never a payment or
	// password concept, and what the pages accepted.
	f.app.Stop()
	rs, err := f.w.Releases()
	if err != nil {
		t.Fatalf("read the audit log: %v", err)
	}
	var releases, reports int
	for _, r := range rs {
		switch r.Event {
		case vault.EventRelease, "":
			releases++
			if r.Origin != f.pages.URL {
				t.Errorf("release to %q, want only %q: %+v", r.Origin, f.pages.URL, r)
			}
			for _, c := range r.Concepts {
				if strings.Contains(c, "password") || strings.Contains(c, "credit") || strings.Contains(c, "cc-") {
					t.Errorf("release of %q: %+v", c, r)
				}
			}
		case vault.EventReport:
			reports++
		case vault.EventDecline:
			t.Errorf("a decline in an approve-only run: %+v", r)
		}
	}
	if releases < ran || reports < ran {
		t.Errorf("audit log has %d releases and %d reports, want at least %d of each: %+v", releases, reports, ran, rs)
	}
}

// checkState returns a check that the framework's own state (window[global],
// also rendered into <pre id="state">) holds what the DOM shows: a fill
// that sets the DOM behind the framework's back leaves it empty.
func checkState(global string) func(*testing.T, context.Context, PageState, []AppEvent) {
	return func(t *testing.T, tab context.Context, st PageState, _ []AppEvent) {
		t.Helper()
		state, err := Eval[map[string]any](tab, `window.`+global)
		if err != nil {
			t.Fatalf("read %s: %v", global, err)
		}
		pre, err := Eval[string](tab, `document.getElementById('state').textContent`)
		if err != nil {
			t.Fatal(err)
		}
		var rendered map[string]any
		if err := json.Unmarshal([]byte(pre), &rendered); err != nil {
			t.Fatalf("rendered state %q: %v", pre, err)
		}
		// asDOM is a state value as the DOM shows it: a box's value
		// when checked, "" when not.
		asDOM := func(v any) string {
			switch v := v.(type) {
			case bool:
				if v {
					return "on"
				}
				return ""
			case string:
				return v
			}
			return fmt.Sprint(v)
		}
		if len(state) == 0 {
			t.Fatalf("%s is empty", global)
		}
		for k, v := range state {
			if got := asDOM(v); got != st.Values[k] {
				t.Errorf("%s.%s = %q, DOM shows %q", global, k, got, st.Values[k])
			}
			if got := asDOM(rendered[k]); got != st.Values[k] {
				t.Errorf("rendered state %s = %q, DOM shows %q", k, got, st.Values[k])
			}
		}
	}
}

// checkRerender checks that the page did rebuild its address rows and that
// the new rows were filled within the approval already given: one dialog,
// no follow-up.
func checkRerender(t *testing.T, tab context.Context, st PageState, events []AppEvent) {
	t.Helper()
	gen, err := Eval[int](tab, `window.__generation()`)
	if err != nil || gen != 2 {
		t.Errorf("the page rendered its address %d times (%v), want 2 (a re-render on the country change)", gen, err)
	}
	var kinds []string
	for _, e := range events {
		if e.Event == "presented" {
			kinds = append(kinds, e.Kind)
		}
	}
	if !slices.Equal(kinds, []string{"fill"}) {
		t.Errorf("dialogs presented: %q, want only the fill's (the re-rendered fields were approved already): %+v", kinds, events)
	}
}

// checkFrameSwap checks that the frame did end on the other origin's
// document (whose fields checkPage found empty).
func checkFrameSwap(t *testing.T, tab context.Context, st PageState, _ []AppEvent) {
	t.Helper()
	top, err := Eval[string](tab, `location.origin`)
	if err != nil {
		t.Fatal(err)
	}
	_, swapped := st.Values["billing/state"] // only the other origin's form asks for a state
	if o := st.Frames["billing/"]; o == "" || o == "unreadable" || o == top || !swapped {
		t.Errorf("the billing frame answered the reader from %q (top %s, state field %v), want the other origin's document", o, top, swapped)
	}
}

// checkHostile checks that the page really changed the approved fields
// under the fill (else the test would not test it).
func checkHostile(t *testing.T, tab context.Context, st PageState, _ []AppEvent) {
	t.Helper()
	swapped, err := Eval[bool](tab, `window.__swapped === true && document.getElementById('swap_email').type === 'password'`)
	if err != nil || !swapped {
		t.Errorf("the page never swapped its fields (the extension's stamps were not seen): %v", err)
	}
	for _, fr := range []string{"xframe/", "lframe/"} {
		if o := st.Frames[fr]; o == "" || o == "unreadable" {
			t.Errorf("cross-origin frame %s did not answer the reader (%q)", fr, o)
		}
	}
}

// TestFillDenied: the person denies; nothing reaches the page and the audit
// log records the decline, with no release.
func TestFillDenied(t *testing.T) {
	testDeclined(t, "deny", "", "denied")
}

// TestFillTimeout: nobody answers; the dialog declines itself.
func TestFillTimeout(t *testing.T) {
	testDeclined(t, "timeout", "2s", "timeout")
}

func testDeclined(t *testing.T, decision, timeout, reason string) {
	f := newFillEnv(t, decision, timeout)
	tab, url := f.open(t, "/checkout.html")
	r := f.fill(t, url)
	if r.Status != "declined" || r.Reason != reason {
		t.Errorf("fill = %+v, want status declined, reason %q", r, reason)
	}
	if n := r.Count("filled"); n != 0 {
		t.Errorf("declined fill reports %d fields filled", n)
	}
	checkPage(t, readPage(t, tab), nil)
	f.app.Stop()
	rs, err := f.w.Releases()
	if err != nil {
		t.Fatalf("read the audit log: %v", err)
	}
	declines := 0
	for _, rel := range rs {
		switch rel.Event {
		case vault.EventDecline:
			declines++
			if rel.Reason != reason || rel.Origin != f.pages.URL || len(rel.Concepts) != 0 {
				t.Errorf("decline record = %+v, want reason %q, origin %s, no concepts", rel, reason, f.pages.URL)
			}
		case vault.EventRelease, "", vault.EventReport:
			t.Errorf("audit log has %q after a decline: %+v", rel.Event, rel)
		}
	}
	if declines != 1 {
		t.Errorf("audit log has %d declines, want 1: %+v", declines, rs)
	}
}

// TestProductionIgnoresDecision: the app built without -tags testhooks
// is given TESSERA_TEST_DECISION=approve and TESSERA_TEST_PAIR=approve;
// nothing answers its dialogs, so a headless app declines the pairing (no
// window), the extension stays unpaired, and the page stays empty.
func TestProductionIgnoresDecision(t *testing.T) {
	f := newFillEnvOpts(t, art.Tessera, AppOptions{Decision: "approve", Env: []string{"TESSERA_TEST_PAIR=approve"}}, "unpaired")
	if !strings.Contains(f.status.Detail, "no-window") {
		t.Errorf("unpaired status = %+v, want the pairing declined for want of a window", f.status)
	}
	tab, url := f.open(t, "/checkout.html")
	r := f.fill(t, url)
	if r.Status != "failed" || r.Reason != "NOT_PAIRED" {
		t.Errorf("fill = %+v, want failed, NOT_PAIRED: the extension is not paired", r)
	}
	checkPage(t, readPage(t, tab), nil)
	if evs, err := f.app.ReadEvents(); err != nil || len(evs) > 0 {
		t.Errorf("a production app logged test dialog events: %+v (%v)", evs, err)
	}
	if strings.Contains(f.appLog.String(), "TEST BUILD") {
		t.Errorf("a production app says it is a test build:\n%s", f.appLog.String())
	}
}

// TestLearn: a person types new details and submits; the app offers to
// learn them. Approved, a value the profile lacked (the company) becomes
// the profile's, and values that differ from the profile's (email, phone)
// are kept beside them as candidates (Assist §6.2: a learnt value never
// replaces one silently); the password never. Declined, nothing changes.
func TestLearn(t *testing.T) {
	const (
		newEmail = "ada.king@example.org"
		newPhone = "+1 415 555 0199"
		company  = "Analytical Engines Ltd"
		secret   = "Analytical-Engine-1843"
	)
	for _, tc := range []struct {
		decision string
		learnt   bool
	}{{"approve", true}, {"deny", false}} {
		t.Run(tc.decision, func(t *testing.T) {
			f := newFillEnv(t, tc.decision, "")
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			before, err := f.w.ProfileJSON(ctx, "home")
			if err != nil {
				t.Fatalf("profile show through the app: %v", err)
			}
			tab, _ := f.open(t, "/learn.html")
			// Typed as a person types: real key events.
			if err := chromedp.Do(tab,
				chromedp.SendKeys("#name", name),
				chromedp.SendKeys("#email", newEmail),
				chromedp.SendKeys("#phone", newPhone),
				chromedp.SendKeys("#company", company),
				chromedp.SendKeys("#password", secret),
				chromedp.Click("#save"),
			); err != nil {
				t.Fatal(err)
			}
			// The submit navigates: evaluations fail while it does.
			for deadline := time.Now().Add(15 * time.Second); ; {
				ok, err := Eval[bool](tab, `document.getElementById('received') !== null`)
				if err == nil && ok {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the form was not submitted (%v)", err)
				}
				time.Sleep(50 * time.Millisecond)
			}
			if _, err := f.app.WaitEvent("decided", "learn", 1, 30*time.Second); err != nil {
				t.Fatalf("no learn dialog was decided: %v", err)
			}
			var after json.RawMessage
			for deadline := time.Now().Add(10 * time.Second); ; {
				if after, err = f.w.ProfileJSON(ctx, "home"); err != nil {
					t.Fatal(err)
				}
				if !tc.learnt || bytes.Contains(after, []byte(company)) || time.Now().After(deadline) {
					break
				}
				time.Sleep(100 * time.Millisecond)
			}
			if tc.learnt && !bytes.Contains(after, []byte(company)) {
				t.Errorf("approved learn: profile show lacks the new company %q: %s", company, after)
			}
			if !tc.learnt && !sameJSON(before, after) {
				t.Errorf("declined learn changed the profile:\nbefore %s\nafter  %s", before, after)
			}
			if bytes.Contains(after, []byte(secret)) {
				t.Errorf("the password was learnt: %s", after)
			}
			f.app.Stop()
			v, err := f.w.OpenVault()
			if err != nil {
				t.Fatal(err)
			}
			defer v.Close()
			for _, c := range []struct{ concept, want string }{
				{"https://schema.org/email", newEmail},
				{"https://schema.org/telephone", "tel:4155550199"},
			} {
				cands, err := v.Candidates("home", vault.ConceptKey(c.concept))
				if err != nil {
					t.Fatalf("candidates of %s: %v", c.concept, err)
				}
				found := slices.ContainsFunc(cands, func(e profile.Entry) bool {
					s, _ := e.StringValue()
					return valueOK(c.want, s)
				})
				if found != tc.learnt {
					t.Errorf("%s: new value %q among the candidates = %v, want %v (candidates %+v)", c.concept, c.want, found, tc.learnt, cands)
				}
			}
			rs, err := v.Releases()
			if err != nil {
				t.Fatalf("read the audit log: %v", err)
			}
			want := vault.EventNoLearn
			if tc.learnt {
				want = vault.EventLearn
			}
			if !slices.ContainsFunc(rs, func(r vault.Release) bool { return r.Event == want }) {
				t.Errorf("audit log has no %q record: %+v", want, rs)
			}
		})
	}
}
