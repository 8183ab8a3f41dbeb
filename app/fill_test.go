package app

import (
	"encoding/json"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tessera-app/tessera/app/fill"
	"github.com/tessera-app/tessera/app/fill/filltest"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

// decider is a Presenter for tests: it records what it was shown and
// answers with decide (nil: never answers).
type decider struct {
	mu     sync.Mutex
	a      *App
	shown  []Confirmation
	decide func(c Confirmation) *Decision
}

func (d *decider) Present(c Confirmation) {
	d.mu.Lock()
	d.shown = append(d.shown, c)
	f := d.decide
	d.mu.Unlock()
	if f == nil {
		return
	}
	if dec := f(c); dec != nil {
		go d.a.confirms.Decide(*dec)
	}
}

func (d *decider) Withdraw(string) {}
func (d *decider) ShowUnlock()     {}

func (d *decider) last() Confirmation {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.shown) == 0 {
		return Confirmation{}
	}
	return d.shown[len(d.shown)-1]
}

// approveDefaults presses Approve with the dialog as presented.
func approveDefaults(c Confirmation) *Decision {
	d := &Decision{ID: c.ID, Approve: true}
	for _, r := range c.Rows {
		if r.Checked {
			d.Rows = append(d.Rows, r.ID)
		}
	}
	return d
}

// approveAll ticks every row, attention ones included.
func approveAll(c Confirmation) *Decision {
	d := &Decision{ID: c.ID, Approve: true}
	for _, r := range c.Rows {
		d.Rows = append(d.Rows, r.ID)
	}
	return d
}

const testNonce = filltest.Nonce

var (
	stamp        = filltest.Stamp
	checkoutHTML = filltest.CheckoutHTML
)

// frameJSON is one frame of a page param.
func frameJSON(frame int, origin, html string, values map[string]fill.LiveValue) fill.FrameSnapshot {
	return fill.FrameSnapshot{Frame: frame, Parent: -1, Origin: origin, URL: origin + "/checkout", Nonce: testNonce, HTML: html, Values: values}
}

func pageJSON(t *testing.T, method, fillID string, frames ...fill.FrameSnapshot) string {
	t.Helper()
	p := fill.Page{Fill: fillID, Page: fill.PageInfo{Tab: 1, URL: "https://shop.example.co.uk/checkout", Title: "Checkout"}, Frames: frames}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":"r1","method":%q,"params":%s}`, method, b)
}

// fillWorld is an app with a real vault holding one profile, serving on a
// real socket, with a test presenter.
type fillWorld struct {
	a    *App
	v    *vault.Vault
	pres *decider
	dial func() net.Conn
	pid  string
}

func newFillWorld(t *testing.T, decide func(Confirmation) *Decision) *fillWorld {
	t.Helper()
	return newFillWorldCfg(t, Config{}, decide)
}

// newFillWorldCfg is newFillWorld with cfg's data directory and log.
func newFillWorldCfg(t *testing.T, cfg Config, decide func(Confirmation) *Decision) *fillWorld {
	t.Helper()
	v, err := vault.Create(t.TempDir(), vault.Options{ScryptWorkFactor: testWorkFactor}, vault.InitOptions{Passphrase: []byte("fill test passphrase")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	p, err := v.CreateProfile("", "Home")
	if err != nil {
		t.Fatal(err)
	}
	for concept, val := range map[string]string{
		profile.ConceptGivenName: "Ada", profile.ConceptFamilyName: "Lovelace",
		profile.ConceptEmail: "ada@example.org", profile.ConceptTelephone: "+442079460000",
		profile.ConceptAddressLocality: "London", profile.ConceptAddressCountry: "GB",
		profile.ConceptPostalCode: "SW1A 1AA",
	} {
		b, _ := json.Marshal(val)
		if err := v.SetEntry(p.ID, vault.ConceptKey(concept), profile.Entry{Value: b, Confidence: 1, Source: profile.Source{Type: "manual"}}); err != nil {
			t.Fatal(err)
		}
	}
	w := &fillWorld{v: v, pid: p.ID}
	cfg.Version, cfg.Vault = "test", v
	w.a, w.dial = serveBrowser(t, cfg)
	w.pres = &decider{a: w.a, decide: decide}
	w.a.SetPresenter(w.pres)
	return w
}

func sayHello(t *testing.T, c net.Conn, kind string) {
	t.Helper()
	send(t, c, `{"jsonrpc":"2.0","id":"h","method":"session.hello","params":{"protocol":[1],"client":{"kind":"`+kind+`","name":"Chromium"}}}`)
	if m := recv(t, c); m["error"] != nil {
		t.Fatalf("hello: %v", m["error"])
	}
}

// call sends msg on a fresh session and returns the answer.
func (w *fillWorld) call(t *testing.T, msg string) map[string]any {
	t.Helper()
	c := w.dial()
	sayHello(t, c, "browser")
	send(t, c, msg)
	return recv(t, c)
}

func fieldsOf(t *testing.T, m map[string]any) map[string]string {
	t.Helper()
	if m["error"] != nil {
		t.Fatalf("error: %v", m["error"])
	}
	var r struct {
		Fields []wireField `json:"fields"`
	}
	b, _ := json.Marshal(m["result"])
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range r.Fields {
		out[f.Ref] = f.Value
	}
	return out
}

func TestFillRequestApprovedDefaults(t *testing.T) {
	w := newFillWorld(t, approveDefaults)
	cross := `<html><body><form><label for=a>Street address</label><input id=a name=address autocomplete=street-address ` + stamp("x1", "") + `>
<label for=c>City</label><input id=c name=city autocomplete=address-level2 ` + stamp("x2", "") + `></form></body></html>`
	m := w.call(t, pageJSON(t, "fill.request", "",
		frameJSON(0, "https://shop.example.co.uk", checkoutHTML, map[string]fill.LiveValue{"t9": {Value: "Paris"}}),
		frameJSON(7, "https://evil.example", cross, nil)))
	got := fieldsOf(t, m)
	want := map[string]string{"t1": "Ada", "t2": "Lovelace", "t3": "ada@example.org"}
	for ref, v := range want {
		if got[ref] != v {
			t.Errorf("fill[%s] = %q, want %q", ref, got[ref], v)
		}
	}
	// Never: the password, the card, the transparent honeypot, the control
	// the page stamped itself, the field the person already filled in, the
	// cross-origin frame.
	for _, ref := range []string{"t5", "t6", "t7", "t8", "c7", "t9", "x1", "x2"} {
		if v, ok := got[ref]; ok {
			t.Errorf("fill[%s] = %q, want nothing", ref, v)
		}
	}
	c := w.pres.last()
	if c.Site != "example.co.uk" || c.Origin != "https://shop.example.co.uk" || c.Kind != ConfirmFill {
		t.Errorf("dialog names site %q origin %q kind %q", c.Site, c.Origin, c.Kind)
	}
	if len(c.Frames) != 2 || c.Frames[0].CrossOrigin || !c.Frames[1].CrossOrigin {
		t.Errorf("frames = %+v, want the second marked cross-origin", c.Frames)
	}
	reasons := map[string]string{}
	for _, r := range c.Rows {
		if r.Section == SectionAttention {
			if r.Checked {
				t.Errorf("attention row %s (%s) checked by default", r.Ref, r.Reason)
			}
			reasons[r.Ref] = r.Reason
		}
		if r.Ref == "t5" || r.Ref == "t6" {
			t.Errorf("row offered for %s (password or card)", r.Ref)
		}
	}
	for ref, reason := range map[string]string{"t7": "transparent", "c7": "unmeasured", "x2": "cross-origin-frame"} {
		if reasons[ref] != reason {
			t.Errorf("attention row %s reason %q, want %q (rows %v)", ref, reasons[ref], reason, reasons)
		}
	}
	rs, err := w.v.Releases()
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) == 0 || rs[len(rs)-1].Event != vault.EventRelease || rs[len(rs)-1].Site != "example.co.uk" {
		t.Fatalf("audit = %+v, want a release for example.co.uk", rs)
	}
	for _, r := range rs {
		b, _ := json.Marshal(r)
		if strings.Contains(string(b), "Ada") || strings.Contains(string(b), "ada@") {
			t.Errorf("audit record carries a value: %s", b)
		}
	}
}

// A row the person ticks in the attention section is filled; the app still
// never offers the password or the card.
func TestFillAttentionRowsOnlyWhenTicked(t *testing.T) {
	w := newFillWorld(t, approveAll)
	got := fieldsOf(t, w.call(t, pageJSON(t, "fill.request", "", frameJSON(0, "https://shop.example.co.uk", checkoutHTML, nil))))
	if got["t7"] != "ada@example.org" {
		t.Errorf("ticked honeypot row t7 = %q, want the email", got["t7"])
	}
	for _, ref := range []string{"t5", "t6"} {
		if _, ok := got[ref]; ok {
			t.Errorf("fill[%s] offered", ref)
		}
	}
}

func TestFillDeclined(t *testing.T) {
	for _, tc := range []struct {
		name   string
		decide func(Confirmation) *Decision
		reason string
	}{
		{"deny", func(c Confirmation) *Decision { return &Decision{ID: c.ID} }, DeclineDenied},
		{"timeout", nil, DeclineTimeout},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newFillWorld(t, tc.decide)
			w.a.confirmTimeout = 200 * time.Millisecond
			m := w.call(t, pageJSON(t, "fill.request", "", frameJSON(0, "https://shop.example.co.uk", checkoutHTML, nil)))
			e, _ := m["error"].(map[string]any)
			d, _ := e["data"].(map[string]any)
			if code(m) != "DECLINED" || d["reason"] != tc.reason {
				t.Fatalf("answer = %v, want DECLINED %s", m, tc.reason)
			}
			if m["result"] != nil {
				t.Fatalf("declined answer carries a result: %v", m["result"])
			}
			rs, _ := w.v.Releases()
			if len(rs) != 1 || rs[0].Event != vault.EventDecline || rs[0].Reason != tc.reason {
				t.Fatalf("audit = %+v, want one decline (%s)", rs, tc.reason)
			}
		})
	}
}

// Without a window (and without the testhooks build's scripted presenter)
// nothing can approve, so every fill is declined.
func TestFillWithoutWindowDeclines(t *testing.T) {
	w := newFillWorld(t, approveAll)
	w.a.SetPresenter(nil)
	m := w.call(t, pageJSON(t, "fill.request", "", frameJSON(0, "https://shop.example.co.uk", checkoutHTML, nil)))
	if code(m) != "DECLINED" || !strings.Contains(fmt.Sprint(m["error"]), DeclineNoWindow) {
		t.Fatalf("answer = %v, want DECLINED no-window", m)
	}
}

// Hole (issue 23): previews kept the first character of every word, and a
// choice field's preview was the page's own option text, so a page read a
// value back by labelling options one character per word; the options (or
// a pattern) also decided whether a field was proposed at all, an oracle of
// one bit per call. A proposal now says which kinds of value the profile
// has, the same whatever the page chooses.
func TestProposeRevealsOnlyKinds(t *testing.T) {
	w := newFillWorld(t, nil)
	b, _ := json.Marshal("1990-12-10")
	if err := w.v.SetEntry(w.pid, vault.ConceptKey(profile.ConceptBirthDate), profile.Entry{Value: b, Confidence: 1, Source: profile.Source{Type: "manual"}}); err != nil {
		t.Fatal(err)
	}
	propose := func(t *testing.T, body string) string {
		t.Helper()
		html := `<!DOCTYPE html><html lang="en"><body><form>` + body + `</form></body></html>`
		m := w.call(t, pageJSON(t, "fill.propose", "", frameJSON(0, "https://shop.example.co.uk", html, nil)))
		if m["error"] != nil {
			t.Fatal(m["error"])
		}
		// The profile's id is random hex, which may spell "ada" or "199":
		// it is no value, so it is left out of what is compared and scanned.
		r, _ := m["result"].(map[string]any)
		delete(r, "profile")
		out, _ := json.Marshal(r)
		return string(out)
	}
	// words is what a proposal says in words: its strings, without the
	// confidences, whose digits are the model's and no value.
	words := func(t *testing.T, s string) string {
		t.Helper()
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		var walk func(any)
		walk = func(v any) {
			switch v := v.(type) {
			case string:
				b.WriteString(v + "\n")
			case []any:
				for _, e := range v {
					walk(e)
				}
			case map[string]any:
				for k, e := range v {
					b.WriteString(k + "\n")
					walk(e)
				}
			}
		}
		walk(v)
		return b.String()
	}
	for _, tc := range []struct{ name, right, wrong string }{
		{"options spelt out",
			`<label for=b>Birth date</label><select id=b name=bday autocomplete=bday ` + stamp("t1", "") + `><option value="">-</option><option value="1990-12-10">1 9 9 0 - 1 2 - 1 0</option></select>`,
			`<label for=b>Birth date</label><select id=b name=bday autocomplete=bday ` + stamp("t1", "") + `><option value="">-</option><option value="1991-01-01">1 9 9 1 - 0 1 - 0 1</option></select>`},
		{"pattern",
			`<label for=p>Postcode</label><input id=p name=zip autocomplete=postal-code pattern="SW1A 1AA" ` + stamp("t1", "") + `>`,
			`<label for=p>Postcode</label><input id=p name=zip autocomplete=postal-code pattern="ZZ9 9ZZ" ` + stamp("t1", "") + `>`},
		{"maxlength",
			`<label for=e>Email</label><input id=e name=email autocomplete=email maxlength=15 ` + stamp("t1", "") + `>`,
			`<label for=e>Email</label><input id=e name=email autocomplete=email maxlength=14 ` + stamp("t1", "") + `>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			right, wrong := propose(t, tc.right), propose(t, tc.wrong)
			if right != wrong {
				t.Errorf("fill.propose depends on what the page chose:\n%s\n%s", right, wrong)
			}
			if !strings.Contains(right, `"ref":"t1"`) {
				t.Errorf("fill.propose = %s, want the field proposed", right)
			}
			for _, leak := range []string{"1 9", "199", "SW1", "S••", "ada", "a••", "•"} {
				if strings.Contains(words(t, right), leak) {
					t.Errorf("fill.propose leaks %q: %s", leak, right)
				}
			}
		})
	}
	out := propose(t, strings.TrimPrefix(strings.TrimSuffix(checkoutHTML, "</form></body></html>"), `<!DOCTYPE html><html lang="en"><body><form>`))
	for _, v := range []string{"Ada", "Lovelace", "ada@example.org", "example.org", "2079460000", "A••", "•"} {
		if strings.Contains(words(t, out), v) {
			t.Errorf("fill.propose leaks %q: %s", v, out)
		}
	}
	if len(w.pres.shown) != 0 {
		t.Errorf("fill.propose showed a dialog")
	}
}

func TestAnalyseWorksLocked(t *testing.T) {
	w := newFillWorld(t, nil)
	w.v.Lock()
	m := w.call(t, pageJSON(t, "form.analyse", "", frameJSON(0, "https://shop.example.co.uk", checkoutHTML, nil)))
	if m["error"] != nil {
		t.Fatal(m["error"])
	}
	var an fill.Analysis
	b, _ := json.Marshal(m["result"])
	json.Unmarshal(b, &an)
	concepts := map[string]string{}
	for _, f := range an.Fields {
		concepts[f.Ref] = f.Concept
	}
	if concepts["t1"] != profile.ConceptGivenName || concepts["t3"] != profile.ConceptEmail {
		t.Errorf("analysis = %+v", an.Fields)
	}
	m = w.call(t, pageJSON(t, "fill.request", "", frameJSON(0, "https://shop.example.co.uk", checkoutHTML, nil)))
	if code(m) != "VAULT_LOCKED" {
		t.Errorf("locked fill.request = %v, want VAULT_LOCKED", m)
	}
}

func TestFillContinueAndReport(t *testing.T) {
	w := newFillWorld(t, approveDefaults)
	c := w.dial()
	sayHello(t, c, "browser")
	first := `<html><body><form><label for=fn>First name</label><input id=fn name=first ` + stamp("t1", "") + `>
<label for=em>Email</label><input id=em name=email type=email ` + stamp("t2", "") + `>
<label for=co>Country</label><select id=co name=country autocomplete=country ` + stamp("t3", "") + `><option value="">-</option><option value=GB>United Kingdom</option><option value=FR>France</option></select>
<label for=pc>Postcode</label><input id=pc name=postcode autocomplete=postal-code ` + stamp("t6", "display-none") + `>
</form></body></html>`
	send(t, c, pageJSON(t, "fill.request", "", frameJSON(0, "https://shop.example.co.uk", first, nil)))
	m := recv(t, c)
	got := fieldsOf(t, m)
	if got["t3"] != "GB" {
		t.Fatalf("country = %q, want GB", got["t3"])
	}
	fillID := m["result"].(map[string]any)["fill"].(string)
	if _, ok := got["t6"]; ok {
		t.Fatalf("hidden postcode filled: %v", got)
	}
	// The page showed the postcode and added a city and a confirmation
	// e-mail box.
	second := strings.Replace(strings.Replace(first, stamp("t6", "display-none"), stamp("t6", ""), 1), "</form>", `<label for=ci>Town</label><input id=ci name=city `+stamp("t4", "")+`>
<label for=em2>Confirm email</label><input id=em2 name=email_confirm type=email autocomplete=email `+stamp("t5", "")+`></form>`, 1)
	shown := len(w.pres.shown)
	send(t, c, pageJSON(t, "fill.continue", fillID, frameJSON(0, "https://shop.example.co.uk", second, nil)))
	got = fieldsOf(t, recv(t, c))
	if got["t5"] != "ada@example.org" || got["t4"] != "London" || got["t6"] != "SW1A 1AA" {
		t.Fatalf("continue = %v, want the approved email again, the town and the postcode now shown", got)
	}
	if _, again := got["t1"]; again {
		t.Errorf("continue offered t1 again")
	}
	// The email was approved already; only the town and the postcode
	// needed a dialog.
	if len(w.pres.shown) != shown+1 || len(w.pres.last().Rows) != 2 || w.pres.last().Kind != ConfirmContinue {
		t.Errorf("continue dialogs = %d (last %+v), want one with the town and postcode", len(w.pres.shown)-shown, w.pres.last().Rows)
	}
	// Another session cannot continue or report this fill.
	other := w.call(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":"x","method":"fill.report","params":{"fill":%q,"fields":[]}}`, fillID))
	if code(other) != "NOT_FOUND" {
		t.Errorf("report from another session = %v, want NOT_FOUND", other)
	}
	send(t, c, fmt.Sprintf(`{"jsonrpc":"2.0","id":"r","method":"fill.report","params":{"fill":%q,"fields":[{"frame":0,"ref":"t1","outcome":"filled"},{"frame":0,"ref":"t2","outcome":"rejected"}]}}`, fillID))
	if m := recv(t, c); m["error"] != nil {
		t.Fatal(m["error"])
	}
	rs, _ := w.v.Releases()
	last := rs[len(rs)-1]
	if last.Event != vault.EventReport || last.Outcomes["filled"] != 1 || last.Outcomes["rejected"] != 1 {
		t.Errorf("audit last = %+v, want the report", last)
	}
	send(t, c, fmt.Sprintf(`{"jsonrpc":"2.0","id":"r2","method":"fill.report","params":{"fill":%q,"fields":[]}}`, fillID))
	if m := recv(t, c); code(m) != "NOT_FOUND" {
		t.Errorf("second report = %v, want NOT_FOUND", m)
	}
}

func TestLearn(t *testing.T) {
	page := `<html><body><form><label for=fn>First name</label><input id=fn name=first ` + stamp("t1", "") + `>
<label for=em>Email</label><input id=em name=email type=email ` + stamp("t2", "") + `>
<label for=pw>Password</label><input id=pw name=pw type=password ` + stamp("t3", "") + `>
<label for=jt>Company (optional)</label><input id=jt name=company autocomplete=organization ` + stamp("t4", "") + `>
</form></body></html>`
	values := map[string]fill.LiveValue{"t1": {Value: "Ada"}, "t2": {Value: "ada@newmail.example"}, "t3": {Value: "hunter2hunter2"}, "t4": {Value: "Analytical Engines Ltd"}}
	for _, approve := range []bool{true, false} {
		t.Run(fmt.Sprint("approve=", approve), func(t *testing.T) {
			w := newFillWorld(t, func(c Confirmation) *Decision {
				if approve {
					return approveDefaults(c)
				}
				return &Decision{ID: c.ID}
			})
			m := w.call(t, learnJSON(t, true, frameJSON(0, "https://shop.example.co.uk", page, values)))
			rows := w.pres.last().Rows
			var labels []string
			for _, r := range rows {
				labels = append(labels, r.Label+"="+r.Value+"<"+r.Previous)
			}
			slices.Sort(labels)
			if want := []string{"Company (optional)=Analytical Engines Ltd<", "Email=ada@newmail.example<ada@example.org"}; !slices.Equal(labels, want) {
				t.Errorf("learn rows = %q, want %q", labels, want)
			}
			p, err := w.v.Profile(w.pid)
			if err != nil {
				t.Fatal(err)
			}
			org, has := p.Concepts[profile.ConceptOrganization]
			if approve {
				if m["error"] != nil || !has || !strings.Contains(string(org.Value), "Analytical") {
					t.Errorf("approved learn: answer %v, organisation %q", m, org.Value)
				}
			} else if code(m) != "DECLINED" || has {
				t.Errorf("declined learn: answer %v, organisation saved %v", m, has)
			}
			for _, e := range p.Concepts {
				if strings.Contains(string(e.Value), "hunter2") {
					t.Errorf("password learnt")
				}
			}
		})
	}
}

// A page cannot smuggle a fill into a frame or ref that was not measured:
// the approved values name only refs the request carried with the nonce.
func TestFillRejectsBadSnapshots(t *testing.T) {
	w := newFillWorld(t, approveDefaults)
	for _, tc := range []struct{ name, params string }{
		{"no frames", `{"page":{"tab":1,"url":"https://a.example/"},"frames":[]}`},
		{"short nonce", `{"page":{"tab":1,"url":"https://a.example/"},"frames":[{"frame":0,"parent":-1,"origin":"https://a.example","url":"https://a.example/","nonce":"x","html":""}]}`},
		{"not http", `{"page":{"tab":1,"url":"file:///etc/passwd"},"frames":[{"frame":0,"parent":-1,"origin":"null","url":"","nonce":"` + testNonce + `","html":""}]}`},
		{"unknown field", `{"page":{"tab":1,"url":"https://a.example/"},"frames":[],"values":{}}`},
	} {
		m := w.call(t, `{"jsonrpc":"2.0","id":"1","method":"fill.request","params":`+tc.params+`}`)
		if code(m) != "INVALID_PARAMS" {
			t.Errorf("%s: %v, want INVALID_PARAMS", tc.name, m)
		}
	}
}

func TestSiteOf(t *testing.T) {
	for in, want := range map[string]string{
		"https://shop.example.co.uk":  "example.co.uk",
		"https://a.b.example.com:443": "example.com",
		"http://127.0.0.1:8080":       "127.0.0.1",
		"http://localhost:3000":       "localhost",
	} {
		if got := fill.SiteOf(in); got != want {
			t.Errorf("siteOf(%q) = %q, want %q", in, got, want)
		}
	}
}
