package fill

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tessera-app/tessera/app/fill/filltest"
)

// TestFormspecDialogHelp: the dialog rows carry the form's own human help
// for the field (its nearest references, not the form-level ones).
func TestFormspecDialogHelp(t *testing.T) {
	var p map[string]json.RawMessage
	json.Unmarshal([]byte(filltest.FormspecCall(t, "formspec.apply", map[string]any{"page": filltest.GrantPage, "fields": filltest.GrantLive})), &p)
	fp, e := parseFormspecPage("formspec.apply", p["params"])
	if e != nil {
		t.Fatal(e)
	}
	lines := fp.helpLines("budget.lineItems[0].unitCost")
	if len(lines) != 2 || lines[0] != "help: Unit cost: The price of one unit, before tax." || !strings.HasPrefix(lines[1], "help: Budget policy") {
		t.Errorf("help lines %q", lines)
	}
}

func FuzzFormspecPage(f *testing.F) {
	f.Add(filltest.FormspecCall(f, "formspec.match", map[string]any{"page": filltest.GrantPage, "fields": filltest.GrantLive}))
	f.Add(`{"params":{"page":{"tab":1,"url":"https://a.example/"},"definition":{"$formspec":"1.0","url":"u","items":[{"key":"a","type":"field"}]},"fields":[{"path":"a","value":"x"}]}}`)
	f.Fuzz(func(t *testing.T, msg string) {
		var p map[string]json.RawMessage
		if json.Unmarshal([]byte(msg), &p) != nil {
			return
		}
		fp, e := parseFormspecPage("formspec.match", p["params"])
		if e != nil {
			if e.Data.Code == "" || e.Data.Code == "INTERNAL" {
				t.Fatalf("error without a proper code: %v", e)
			}
			return
		}
		fp.proposals(nil)
		for _, lf := range fp.live {
			fp.helpLines(lf.Path)
		}
	})
}
