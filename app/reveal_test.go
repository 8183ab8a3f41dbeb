package app

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tessera-app/tessera/nativemsg"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

// revealApp serves an App over a real socket with an unlocked vault holding
// two profiles, "home" (two entries) and "work" (one), and returns a cli
// session. With decide, the app has a window (a test presenter answering
// with decide); without, it is headless.
func revealApp(t *testing.T, decide func(Confirmation) *Decision) (*vault.Vault, *decider, *rpcConn) {
	t.Helper()
	v, err := vault.Create(t.TempDir(), vault.Options{ScryptWorkFactor: testWorkFactor}, vault.InitOptions{Passphrase: []byte(cliPass)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	for _, e := range []struct{ id, label, concept, value string }{
		{"home", "Home", "https://schema.org/givenName", "Noor"},
		{"home", "Home", "https://schema.org/email", "noor@home.example"},
		{"work", "Work", "https://schema.org/email", "noor@work.example"},
	} {
		if _, err := v.Profile(e.id); err != nil {
			if _, err := v.CreateProfile(e.id, e.label); err != nil {
				t.Fatal(err)
			}
		}
		b, _ := json.Marshal(e.value)
		if err := v.SetEntry(e.id, vault.ConceptKey(e.concept), profile.Entry{Value: b, Confidence: 1, Source: profile.Source{Type: "manual"}}); err != nil {
			t.Fatal(err)
		}
	}
	a, dial := serve(t, Config{Vault: v, Log: &syncBuffer{}, Inspect: browserPeer})
	var d *decider
	if decide != nil {
		d = &decider{a: a, decide: decide}
		a.SetPresenter(d)
	}
	c := &rpcConn{t: t, c: dial()}
	if r := c.call("session.hello", `{"protocol":[1],"client":{"kind":"cli","name":"tessera"}}`); code(r) != "" {
		t.Fatalf("hello = %v", r)
	}
	return v, d, c
}

// uncheck approves with every row checked but those labelled label.
func uncheck(label string) func(Confirmation) *Decision {
	return func(c Confirmation) *Decision {
		d := &Decision{ID: c.ID, Approve: true, Rows: []string{}}
		for _, r := range c.Rows {
			if r.Label != label {
				d.Rows = append(d.Rows, r.ID)
			}
		}
		return d
	}
}

func deny(c Confirmation) *Decision { return &Decision{ID: c.ID} }

// Before issue 18's window approval a running app refused every reveal
// without the passphrase; now a person at the window may approve it instead,
// profile by profile, and a decline reveals nothing.
func TestRevealApprovedInWindow(t *testing.T) {
	home := []string{`"Noor"`, `"noor@home.example"`}
	work := []string{`"noor@work.example"`}
	tests := []struct {
		name, method, params string
		decide               func(Confirmation) *Decision
		code                 string
		// rows are the labels of the rows the dialog showed ("" no dialog).
		rows       string
		want, hide []string
	}{
		{"show approved", "profile.show", `{"profile":"home"}`, approveDefaults, "", "Home", home, work},
		{"show denied", "profile.show", `{"profile":"home"}`, deny, nativemsg.CodeDeclined, "Home", nil, append(home, work...)},
		{"show unchecked", "profile.show", `{"profile":"home"}`, uncheck("Home"), nativemsg.CodeDeclined, "Home", nil, home},
		{"show unknown profile", "profile.show", `{"profile":"nope"}`, approveDefaults, nativemsg.CodeNotFound, "", nil, nil},
		{"export all approved", "profile.export", `{}`, approveDefaults, "", "Home Work", append(home, work...), nil},
		{"export narrowed", "profile.export", `{}`, uncheck("Work"), "", "Home Work", home, work},
		{"export some", "profile.export", `{"profiles":["work"]}`, approveDefaults, "", "Work", work, home},
		{"export denied", "profile.export", `{}`, deny, nativemsg.CodeDeclined, "Home Work", nil, append(home, work...)},
		{"export none checked", "profile.export", `{}`, approveNone(), nativemsg.CodeDeclined, "Home Work", nil, append(home, work...)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, d, c := revealApp(t, tt.decide)
			m := c.call(tt.method, tt.params)
			if got := code(m); got != tt.code {
				t.Fatalf("%s(%s) = %v, want code %q", tt.method, tt.params, m, tt.code)
			}
			b, _ := json.Marshal(m)
			for _, w := range tt.want {
				if !strings.Contains(string(b), w) {
					t.Errorf("answer %s lacks %s", b, w)
				}
			}
			for _, h := range tt.hide {
				if strings.Contains(string(b), h) {
					t.Errorf("answer %s reveals %s, which was not approved", b, h)
				}
			}
			if tt.code == nativemsg.CodeDeclined {
				if e, _ := m["error"].(map[string]any); !strings.Contains(fmt.Sprint(e["data"]), DeclineDenied) {
					t.Errorf("decline = %v, want data.reason %q", m, DeclineDenied)
				}
			}
			cf := d.last()
			var labels []string
			for _, r := range cf.Rows {
				labels = append(labels, r.Label)
				if !r.Checked || r.Section != SectionFill || !strings.HasSuffix(r.Value, "entries") && r.Value != "1 entry" {
					t.Errorf("row %+v, want it checked, in the fill section, with the entry count", r)
				}
				for _, h := range append(home, work...) {
					if strings.Contains(r.Value+r.Label+strings.Join(r.Evidence, " "), strings.Trim(h, `"`)) {
						t.Errorf("the dialog's row %+v shows the value %s", r, h)
					}
				}
			}
			if got := strings.Join(labels, " "); got != tt.rows {
				t.Fatalf("dialog rows %q, want %q", got, tt.rows)
			}
			if tt.rows == "" {
				return
			}
			if cf.Kind != ConfirmReveal || cf.Site != "this computer" || cf.Client.Kind != KindCLI || cf.Client.Name != "tessera" {
				t.Errorf("confirmation %+v, want kind %q for \"this computer\" asked by the cli session", cf, ConfirmReveal)
			}
			// The audit log says who saw what, or who was refused.
			rs, err := v.Releases()
			if err != nil {
				t.Fatal(err)
			}
			want := vault.EventRelease
			if tt.code != "" {
				want = vault.EventDecline
			}
			if len(rs) == 0 || rs[len(rs)-1].Event != want || rs[len(rs)-1].Site != "this computer" {
				t.Errorf("audit log %+v, want a last %q record for this computer", rs, want)
			}
		})
	}
}

// approveNone approves with no row checked.
func approveNone() func(Confirmation) *Decision {
	return func(c Confirmation) *Decision { return &Decision{ID: c.ID, Approve: true, Rows: []string{}} }
}

// The passphrase still reveals at once, with no dialog.
func TestRevealPassphraseNoDialog(t *testing.T) {
	_, d, c := revealApp(t, deny)
	pp, _ := json.Marshal(cliPass)
	if m := c.call("profile.show", fmt.Sprintf(`{"profile":"work","passphrase":%s}`, pp)); code(m) != "" || !strings.Contains(fmt.Sprint(m), "noor@work.example") {
		t.Fatalf("profile.show with the passphrase = %v, want the profile", m)
	}
	if len(d.shown) != 0 {
		t.Errorf("a reveal with the passphrase showed %+v, want no dialog", d.shown)
	}
}

// A headless app has no window to approve in: without the passphrase a
// reveal is refused, saying why, and no dialog is queued.
func TestRevealHeadlessRefused(t *testing.T) {
	for _, call := range []struct{ method, params string }{
		{"profile.show", `{"profile":"home"}`},
		{"profile.export", `{}`},
		{"profile.export", `{"profiles":["home","work"]}`},
	} {
		_, _, c := revealApp(t, nil)
		m := c.call(call.method, call.params)
		if code(m) != nativemsg.CodeForbidden || !strings.Contains(errMessage(m), "no window") || !strings.Contains(errMessage(m), "--passphrase-file") {
			t.Errorf("headless %s(%s) = %v, want FORBIDDEN saying there is no window and to give --passphrase-file", call.method, call.params, m)
		}
		if strings.Contains(fmt.Sprint(m), "noor@") {
			t.Errorf("headless %s revealed a value: %v", call.method, m)
		}
	}
}

// A browser or agent session never gets a reveal, window or not.
func TestRevealOnlyForCLI(t *testing.T) {
	v, err := vault.Create(t.TempDir(), vault.Options{ScryptWorkFactor: testWorkFactor}, vault.InitOptions{Passphrase: []byte(cliPass)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	a, dial := serve(t, Config{Vault: v, Inspect: browserPeer})
	dial = pairedDial(t, a, dial)
	d := &decider{a: a, decide: approveDefaults}
	a.SetPresenter(d)
	for _, kind := range []string{KindBrowser, KindAgent} {
		c := &rpcConn{t: t, c: dial()}
		if kind == KindBrowser {
			send(t, c.c, attachFrame)
		}
		if m := c.call("session.hello", fmt.Sprintf(`{"protocol":[1],"client":{"kind":%q,"name":"x"}}`, kind)); code(m) != "" {
			t.Fatalf("hello as %s = %v", kind, m)
		}
		for _, method := range []string{"profile.show", "profile.export"} {
			if m := c.call(method, `{"profile":"home"}`); code(m) != nativemsg.CodeForbidden {
				t.Errorf("%s session: %s = %v, want FORBIDDEN", kind, method, m)
			}
		}
	}
	if slices.ContainsFunc(d.shown, func(c Confirmation) bool { return c.Kind == ConfirmReveal }) {
		t.Errorf("a browser or agent session put a reveal in front of the person: %+v", d.shown)
	}
}
