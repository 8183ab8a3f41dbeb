package app

import (
	"encoding/json"
	"testing"

	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

// A box the page marks optional that asks for data forms seldom need (an
// employer) is offered in the dialog, unticked with its reason, and filled
// only when the person ticks it; a required one is ticked as usual.
func TestFillOptionalOfferedUnticked(t *testing.T) {
	page := `<!DOCTYPE html><html lang="en"><body><form>
<label for=fn>First name</label><input id=fn name=first ` + stamp("t1", "") + `>
<label for=co>Company (optional)</label><input id=co name=company ` + stamp("t2", "") + `>
<label for=cr>Company (optional)</label><input id=cr name=company2 required ` + stamp("t3", "") + `>
<label for=ca>Company (optional)</label><input id=ca name=company3 autocomplete=organization ` + stamp("t4", "") + `>
</form></body></html>`
	for _, tick := range []bool{false, true} {
		w := newFillWorld(t, approveDefaults)
		if tick {
			w.pres.decide = approveAll
		}
		b, _ := json.Marshal("Analytical Engines Ltd")
		if err := w.v.SetEntry(w.pid, vault.ConceptKey(profile.ConceptOrganization), profile.Entry{Value: b, Confidence: 1, Source: profile.Source{Type: "manual"}}); err != nil {
			t.Fatal(err)
		}
		got := fieldsOf(t, w.call(t, pageJSON(t, "fill.request", "", frameJSON(0, "https://shop.example.co.uk", page, nil))))
		rows := map[string]Row{}
		for _, r := range w.pres.last().Rows {
			rows[r.Ref] = r
		}
		for _, ref := range []string{"t2", "t4"} {
			r, ok := rows[ref]
			if !ok || r.Checked || r.Reason != "optional on this page" || r.Section != SectionFill || r.Concept != profile.ConceptOrganization {
				t.Errorf("tick=%v: row %s = %+v (offered %v), want an unticked organisation row, optional on this page", tick, ref, r, ok)
			}
			if _, filled := got[ref]; filled != tick {
				t.Errorf("tick=%v: %s filled = %v", tick, ref, filled)
			}
		}
		if r := rows["t3"]; !r.Checked || got["t3"] != "Analytical Engines Ltd" {
			t.Errorf("tick=%v: required optional-worded box t3 = %+v, filled %q; want ticked and filled", tick, r, got["t3"])
		}
		if got["t1"] != "Ada" {
			t.Errorf("tick=%v: first name = %q", tick, got["t1"])
		}
	}
}

// A gender is given only by choice: offered in the dialog with its value,
// unticked with its reason even where the page requires it or declares
// autocomplete=sex, and filled only when the person ticks it.
func TestFillGenderOfferedUnticked(t *testing.T) {
	page := `<!DOCTYPE html><html lang="en"><body><form>
<label for=fn>First name</label><input id=fn name=first ` + stamp("t1", "") + `>
<label for=g>Gender</label><select id=g name=gender required ` + stamp("t2", "") + `><option value="">Choose</option><option value="f">Female</option><option value="m">Male</option><option value="x">Other</option></select>
<label for=s>Sex</label><input id=s name=sex autocomplete=sex ` + stamp("t3", "") + `>
</form></body></html>`
	for _, tick := range []bool{false, true} {
		w := newFillWorld(t, approveDefaults)
		if tick {
			w.pres.decide = approveAll
		}
		b, _ := json.Marshal("Female")
		if err := w.v.SetEntry(w.pid, vault.ConceptKey(profile.ConceptGender), profile.Entry{Value: b, Confidence: 1, Source: profile.Source{Type: "manual"}}); err != nil {
			t.Fatal(err)
		}
		got := fieldsOf(t, w.call(t, pageJSON(t, "fill.request", "", frameJSON(0, "https://shop.example.co.uk", page, nil))))
		rows := map[string]Row{}
		for _, r := range w.pres.last().Rows {
			rows[r.Ref] = r
		}
		for ref, want := range map[string]string{"t2": "f", "t3": "Female"} {
			r, ok := rows[ref]
			if !ok || r.Checked || r.Reason != "given only if you tick it" || r.Section != SectionFill || r.Concept != profile.ConceptGender {
				t.Errorf("tick=%v: row %s = %+v (offered %v), want an unticked gender row, given only if ticked", tick, ref, r, ok)
			}
			if v, filled := got[ref]; filled != tick || tick && v != want {
				t.Errorf("tick=%v: %s filled = %v with %q, want %q", tick, ref, filled, v, want)
			}
		}
		if r := rows["t1"]; !r.Checked || got["t1"] != "Ada" {
			t.Errorf("tick=%v: first name row %+v, filled %q", tick, r, got["t1"])
		}
	}
}
