package fill

import (
	"encoding/json"
	"testing"

	"github.com/tessera-app/tessera/app/fill/filltest"
	"github.com/tessera-app/tessera/profile"
)

// A box for part of a value is named after its part in the dialog: the
// floor box of a form that splits the second street line says "Floor" and
// offers the floor, not "Address line 2" with the whole line.
func TestPartBoxesNamedAfterTheirPart(t *testing.T) {
	html := `<!DOCTYPE html><html lang="es"><body><form>
<label for=a>Calle y número</label><input id=a name=calle ` + filltest.Stamp("t1", "") + `>
<label for=p>Piso</label><input id=p name=piso ` + filltest.Stamp("t2", "") + `>
<label for=d>Departamento</label><input id=d name=departamento ` + filltest.Stamp("t3", "") + `>
<label for=c>Ciudad</label><input id=c name=ciudad ` + filltest.Stamp("t4", "") + `>
</form></body></html>`
	an, e := Analyse(Page{Page: PageInfo{Tab: 1, URL: "https://tienda.example.com.ar/envio"}, Frames: []FrameSnapshot{{
		Frame: 0, Parent: -1, Origin: "https://tienda.example.com.ar", URL: "https://tienda.example.com.ar/envio", Nonce: filltest.Nonce, HTML: html,
	}}})
	if e != nil {
		t.Fatal(e)
	}
	street, _ := json.Marshal("Av. Corrientes 1234\nPiso 4, Depto B")
	prof := &profile.UserProfile{ID: "p", Concepts: map[string]profile.Entry{profile.ConceptStreetAddress: {Value: street, Confidence: 1}}}
	rows, _, _ := candidates(an, prof, nil)
	got := map[string][2]string{}
	for _, c := range rows {
		got[c.row.Ref] = [2]string{c.row.ConceptLabel, c.value}
	}
	if got["t2"] != [2]string{"Floor", "4"} || got["t3"] != [2]string{"Apartment or unit", "B"} {
		t.Errorf("rows = %v, want the floor box labelled Floor with 4, the door box Apartment or unit with B", got)
	}
}
