package app

import (
	"encoding/json"
	"testing"

	"github.com/tessera-app/tessera/app/fill"
	"github.com/tessera-app/tessera/app/fill/filltest"
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
		rows, got := fillWithEntry(t, tick, page, profile.ConceptOrganization, "Analytical Engines Ltd")
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

// fillWithEntry asks to fill page (frame 0 of a shop) from the test
// profile with value added under concept, the person approving the ticked
// rows or, with tick, every row; it returns the dialog's rows by ref and
// what was filled.
func fillWithEntry(t *testing.T, tick bool, page, concept, value string) (map[string]Row, map[string]string) {
	t.Helper()
	w := newFillWorld(t, approveDefaults)
	if tick {
		w.pres.decide = approveAll
	}
	w.setEntry(t, concept, value)
	got := fieldsOf(t, w.call(t, pageJSON(t, "fill.request", "", frameJSON(0, "https://shop.example.co.uk", page, nil))))
	rows := map[string]Row{}
	for _, r := range w.pres.last().Rows {
		rows[r.Ref] = r
	}
	return rows, got
}

// setEntry adds value under concept to the world's profile.
func (w *fillWorld) setEntry(t *testing.T, concept, value string) {
	t.Helper()
	b, _ := json.Marshal(value)
	if err := w.v.SetEntry(w.pid, vault.ConceptKey(concept), profile.Entry{Value: b, Confidence: 1, Source: profile.Source{Type: "manual"}}); err != nil {
		t.Fatal(err)
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
		rows, got := fillWithEntry(t, tick, page, profile.ConceptGender, "Female")
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

// A Formspec field for a gender (the clinical intake's patient.sex, whose
// concept is FHIR's administrative gender, close to schema:gender) is
// offered unticked too, and applied only when the person ticks it.
func TestFormspecGenderOfferedUnticked(t *testing.T) {
	live := []map[string]any{
		{"path": "patient.firstName", "label": "First Name"},
		{"path": "patient.sex", "label": "Sex"},
	}
	var seen []fill.FormspecMeasure
	for _, f := range live {
		seen = append(seen, fill.FormspecMeasure{Path: f["path"].(string), Found: true, Visible: true})
	}
	for _, tick := range []bool{false, true} {
		w := newFillWorld(t, approveDefaults)
		if tick {
			w.pres.decide = approveAll
		}
		w.setEntry(t, profile.ConceptGender, "Female")
		call := filltest.FormspecCall(t, "formspec.apply", map[string]any{
			"definition": filltest.Doc(t, "matcher/testdata/formspec/clinical-intake.definition.json"),
			"references": []json.RawMessage{},
			"ontologies": []json.RawMessage{filltest.Doc(t, "matcher/testdata/formspec/clinical-intake.ontology.json")},
			"page":       map[string]any{"tab": 1, "url": "https://clinic.example/intake", "title": "Intake"},
			"fields":     live, "measured": seen,
		})
		m := w.call(t, call)
		if m["error"] != nil {
			t.Fatalf("apply: %v", m["error"])
		}
		var r wireFormspecApply
		rb, _ := json.Marshal(m["result"])
		if err := json.Unmarshal(rb, &r); err != nil {
			t.Fatal(err)
		}
		applied := map[string]string{}
		for _, e := range r.Entries {
			applied[e.Path] = e.Value
		}
		var sex *Row
		for i, row := range w.pres.last().Rows {
			if row.Ref == "patient.sex" {
				sex = &w.pres.last().Rows[i]
			}
		}
		if sex == nil || sex.Checked || sex.Reason != "given only if you tick it" {
			t.Errorf("tick=%v: sex row %+v, want offered unticked, given only if ticked", tick, sex)
		}
		if _, ok := applied["patient.sex"]; ok != tick {
			t.Errorf("tick=%v: sex applied = %v (%s)", tick, ok, rb)
		}
		if applied["patient.firstName"] != "Ada" {
			t.Errorf("tick=%v: first name applied %q (%s)", tick, applied["patient.firstName"], rb)
		}
	}
}
