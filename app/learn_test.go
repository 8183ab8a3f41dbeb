package app

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tessera-app/tessera/app/fill"
	"github.com/tessera-app/tessera/profile"
)

// learnJSON is a learn.request for frames; gesture says the extension saw
// the person submit.
func learnJSON(t *testing.T, gesture bool, frames ...fill.FrameSnapshot) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(pageJSON(t, "learn.request", "", frames...)), &m); err != nil {
		t.Fatal(err)
	}
	m["params"].(map[string]any)["gesture"] = gesture
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestLearnNeedsThePersonsSubmit guards against a page that submits a form
// by script (requestSubmit() from a timer, a synthetic submit) getting a
// learn dialog that says "You submitted…" with its rows ticked, so that one
// Approve writes the page's values — a phishing URL, a company name — into
// the profile (issue 23). learn.request without the extension's evidence
// of the person's submit asks nothing and saves nothing.
func TestLearnNeedsThePersonsSubmit(t *testing.T) {
	page := `<html><body><form><label for=jt>Company</label><input id=jt name=company autocomplete=organization ` + stamp("t1", "") + `>
<label for=u>Website</label><input id=u name=url type=url autocomplete=url ` + stamp("t2", "") + `>
</form></body></html>`
	values := map[string]fill.LiveValue{"t1": {Value: "Evil Corp Ltd"}, "t2": {Value: "https://login.evil.example/"}}
	frame := frameJSON(0, "https://shop.example.co.uk", page, values)
	w := newFillWorld(t, approveDefaults)
	for _, tc := range []struct{ name, msg string }{
		{"no gesture", pageJSON(t, "learn.request", "", frame)},
		{"gesture false", learnJSON(t, false, frame)},
		{"gesture not a boolean", strings.Replace(learnJSON(t, true, frame), `"gesture":true`, `"gesture":"true"`, 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			shown := w.pres.count()
			m := w.call(t, tc.msg)
			if code(m) != "INVALID_PARAMS" {
				t.Errorf("learn.request = %v, want INVALID_PARAMS", m)
			}
			if w.pres.count() != shown {
				t.Errorf("a learn dialog was shown: %+v", w.pres.last())
			}
			p, err := w.v.Profile(w.pid)
			if err != nil {
				t.Fatal(err)
			}
			if _, has := p.Concepts[profile.ConceptOrganization]; has {
				t.Errorf("the page's company was saved")
			}
		})
	}
	t.Run("the person's submit", func(t *testing.T) {
		m := w.call(t, learnJSON(t, true, frame))
		c := w.pres.last()
		if m["error"] != nil || c.Kind != ConfirmLearn || !c.Submitted || len(c.Rows) == 0 {
			t.Fatalf("learn.request with gesture = %v, dialog %+v; want a learn dialog that says the person submitted", m, c)
		}
	})
}
