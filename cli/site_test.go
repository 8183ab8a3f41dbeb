package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tessera-app/tessera/vault"
)

// tessera site lists the sites that fill without asking and revokes one,
// on the vault file when no app runs.
func TestSiteListForget(t *testing.T) {
	home := t.TempDir()
	pass := filepath.Join(t.TempDir(), "pass.txt")
	if err := os.WriteFile(pass, []byte("site rule pw\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	v, err := vault.Create(home, vault.Options{ScryptWorkFactor: 10}, vault.InitOptions{Passphrase: []byte("site rule pw")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.CreateProfile("home", "Home"); err != nil {
		t.Fatal(err)
	}
	if err := v.SetSiteRule(vault.SiteRule{Origin: "https://shop.example", Site: "shop.example", Profile: "home", Concepts: []string{"https://schema.org/email"}}); err != nil {
		t.Fatal(err)
	}
	v.Close()
	run := func(args ...string) (string, error) {
		var out, errOut bytes.Buffer
		env := testEnv(&out, &errOut, map[string]string{"TESSERA_HOME": home, "TESSERA_KEYRING": "none", "TESSERA_RUNTIME_DIR": t.TempDir()})
		err := Run(context.Background(), args, env)
		return out.String() + errOut.String(), err
	}
	out, err := run("site", "list", "--passphrase-file", pass)
	if err != nil || !strings.Contains(out, "https://shop.example") || !strings.Contains(out, "profile home") {
		t.Fatalf("site list = %q, %v; want the rule", out, err)
	}
	if out, err := run("site", "forget", "--passphrase-file", pass, "https://shop.example"); err != nil {
		t.Fatalf("site forget = %q, %v", out, err)
	}
	out, err = run("site", "list", "--passphrase-file", pass)
	if err != nil || !strings.Contains(out, "no site fills without asking") {
		t.Fatalf("site list after forget = %q, %v", out, err)
	}
	if _, err := run("site", "forget", "--passphrase-file", pass, "https://shop.example"); err == nil {
		t.Fatalf("forgetting an unknown site succeeded")
	}
}
