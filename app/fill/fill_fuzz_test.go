package fill

import (
	"encoding/json"
	"testing"

	"github.com/tessera-app/tessera/app/confirm"
	"github.com/tessera-app/tessera/app/fill/filltest"
	"github.com/tessera-app/tessera/profile"
)

// FuzzFillParams feeds the fill methods' params parser and the analysis
// behind it arbitrary input: whatever a snapshot holds, parsing fails
// cleanly or the analysis and matching finish without a panic, and never
// offers a value for a control that was not measured.
func FuzzFillParams(f *testing.F) {
	seed := Page{Page: PageInfo{Tab: 1, URL: "https://shop.example/"}, Frames: []FrameSnapshot{
		{Frame: 0, Parent: -1, Origin: "https://shop.example", URL: "https://shop.example/checkout", Nonce: filltest.Nonce, HTML: filltest.CheckoutHTML, Values: map[string]LiveValue{"t1": {Value: "x"}}},
	}}
	b, _ := json.Marshal(seed)
	f.Add(b)
	f.Add([]byte(`{"page":{"tab":1,"url":"https://a.example/"},"frames":[{"frame":0,"parent":-1,"origin":"https://a.example","url":"https://a.example/","nonce":"` + filltest.Nonce + `","html":"<input data-tessera-ref=\"t1\">"}]}`))
	f.Add([]byte(`{"page":{},"frames":null}`))
	f.Add([]byte(`[]`))
	email, _ := json.Marshal("ada@example.org")
	prof := &profile.UserProfile{ID: "p", Concepts: map[string]profile.Entry{profile.ConceptEmail: {Value: email, Confidence: 1}}}
	f.Fuzz(func(t *testing.T, params []byte) {
		p, e := ParsePage("fuzz", params)
		if e != nil {
			return
		}
		an, e := Analyse(p)
		if e != nil {
			return
		}
		fill, attention, _ := candidates(an, prof, nil)
		for _, c := range fill {
			if c.row.Section != confirm.SectionFill || c.row.Reason == "unmeasured" {
				t.Fatalf("fill row %+v", c.row)
			}
		}
		for _, c := range attention {
			if c.row.Checked {
				t.Fatalf("attention row checked: %+v", c.row)
			}
		}
	})
}
