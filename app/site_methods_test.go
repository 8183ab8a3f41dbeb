package app

import (
	"testing"

	"github.com/tessera-app/tessera/nativemsg"
	"github.com/tessera-app/tessera/vault"
)

// site.list and site.forget through the running app, for the CLI only.
func TestSiteMethods(t *testing.T) {
	v, dial, _ := cliApp(t, nil)
	if err := v.Init(vault.InitOptions{Passphrase: []byte(cliPass)}); err != nil {
		t.Fatal(err)
	}
	if _, err := v.CreateProfile("home", "Home"); err != nil {
		t.Fatal(err)
	}
	if err := v.SetSiteRule(vault.SiteRule{Origin: "https://shop.example", Site: "shop.example", Profile: "home", Concepts: []string{"https://schema.org/email"}}); err != nil {
		t.Fatal(err)
	}
	if m := dial(KindBrowser).call("site.list", `{}`); code(m) != nativemsg.CodeForbidden {
		t.Errorf("site.list from a browser = %v, want FORBIDDEN", m)
	}
	c := dial(KindCLI)
	m := c.call("site.list", `{}`)
	sites, _ := m["result"].(map[string]any)["sites"].([]any)
	if len(sites) != 1 {
		t.Fatalf("site.list = %v, want one rule", m)
	}
	if m := c.call("site.forget", `{"origin":"https://shop.example"}`); m["error"] != nil {
		t.Fatalf("site.forget = %v", m)
	}
	if m := c.call("site.forget", `{"origin":"https://shop.example"}`); code(m) != nativemsg.CodeNotFound {
		t.Errorf("second site.forget = %v, want NOT_FOUND", m)
	}
	if rs, _ := v.SiteRules(); len(rs) != 0 {
		t.Errorf("rules after forget = %+v", rs)
	}
}
