// Package filltest holds the pages the tests of filling share: a
// checkout form with the traps values must be kept out of, stamped as the
// extension stamps the controls it measured, and a Formspec grant
// application with its sidecars.
package filltest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Nonce is the frame nonce the test pages are stamped with.
const Nonce = "nonce0123456789abcdef"

// Stamp marks a control as the extension does: measured with the frame's
// nonce, visible unless reason says otherwise.
func Stamp(ref, reason string) string {
	return fmt.Sprintf(`data-tessera-ref="%s:%s" data-tessera-hidden="%s:%s"`, Nonce, ref, Nonce, reason)
}

// CheckoutHTML is a checkout form with the traps the app must keep values
// out of: a password, a card number, a transparent honeypot, a control the
// page stamped itself, and an already filled field.
var CheckoutHTML = `<!DOCTYPE html><html lang="en"><body><form>
<label for=fn>First name</label><input id=fn name=first ` + Stamp("t1", "") + `>
<label for=ln>Last name</label><input id=ln name=last ` + Stamp("t2", "") + `>
<label for=em>Email</label><input id=em type=email name=email autocomplete=email ` + Stamp("t3", "") + `>
<label for=tel>Phone</label><input id=tel type=tel name=phone ` + Stamp("t4", "") + `>
<label for=pw>Password</label><input id=pw type=password name=pw ` + Stamp("t5", "") + `>
<label for=cc>Card number</label><input id=cc name=cardnumber autocomplete=cc-number ` + Stamp("t6", "") + `>
<label for=hp>Email address</label><input id=hp name=email2 type=email ` + Stamp("t7", "transparent") + `>
<label for=fk>Family name</label><input id=fk name=surname data-tessera-ref="t8" data-tessera-hidden="">
<label for=city>City</label><input id=city name=city ` + Stamp("t9", "") + `>
</form></body></html>`

// root is the module's directory.
func root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// Doc reads the file at name, relative to the module's directory.
func Doc(t testing.TB, name string) json.RawMessage {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root(), name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FormspecCall builds a formspec.* request on the real grant application
// with its two References documents and the base ontology, plus extra
// params.
func FormspecCall(t testing.TB, method string, extra map[string]any) string {
	t.Helper()
	p := map[string]any{
		"definition": Doc(t, "matcher/testdata/formspec/grant-application.definition.json"),
		"references": []json.RawMessage{Doc(t, "formspec/testdata/grant.references.json"), Doc(t, "formspec/testdata/grant.references-agency.json")},
		"ontologies": []json.RawMessage{Doc(t, "matcher/testdata/formspec/grant-application.ontology.json")},
	}
	for k, v := range extra {
		p[k] = v
	}
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": "f1", "method": method, "params": p})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// GrantLive are the grant application's live fields, as the page-world
// script reports them.
var GrantLive = []map[string]any{
	{"path": "applicantInfo.orgName", "label": "Organization Name"},
	{"path": "applicantInfo.contactName", "label": "Primary Contact Name"},
	{"path": "applicantInfo.contactEmail", "label": "Contact Email"},
	{"path": "applicantInfo.contactPhone", "label": "Contact Phone", "readonly": true},
	{"path": "budget.lineItems[0].unitCost", "label": "Unit Cost"},
}

// GrantPage is the tab the grant application is in.
var GrantPage = map[string]any{"tab": 1, "url": "https://grants.example.gov/apply", "title": "Apply"}
