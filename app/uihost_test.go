package app

import (
	"testing"

	"github.com/tessera-app/tessera/app/ui"
	"github.com/tessera-app/tessera/vault"
)

// testWorkFactor keeps scrypt fast; the real cost is the vault's concern.
const testWorkFactor = 10

const goodPass = "correct horse battery"

// newVaultUI returns the window's service of an App over a real,
// uninitialized vault in a temporary directory, started on a fake shell
// that records status events.
func newVaultUI(t testing.TB, kr vault.Keyring) (*ui.UI, *vault.Vault, *fakeShell) {
	t.Helper()
	_, u, v, sh := newVaultApp(t, kr, "")
	return u, v, sh
}

// newVaultApp is newVaultUI with the App, whose data directory is home.
func newVaultApp(t testing.TB, kr vault.Keyring, home string) (*App, *ui.UI, *vault.Vault, *fakeShell) {
	t.Helper()
	opts := vault.Options{ScryptWorkFactor: testWorkFactor}
	if kr != nil {
		opts.Keyring = kr
	}
	v, err := vault.Open(t.TempDir(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	a, err := New(Config{Version: "test", Home: home, Vault: v, ExportWorkFactor: testWorkFactor})
	if err != nil {
		t.Fatal(err)
	}
	u := newUI(a)
	sh := &fakeShell{}
	ui.NewWindow(u).Start(sh)
	return a, u, v, sh
}

// editorUI returns the window's service of an App over an unlocked vault
// with one empty profile, and that profile's id.
func editorUI(t testing.TB) (*ui.UI, *vault.Vault, string) {
	t.Helper()
	_, u, v, id := editorApp(t, "")
	return u, v, id
}

// editorApp is editorUI with the App, whose data directory is home.
func editorApp(t testing.TB, home string) (*App, *ui.UI, *vault.Vault, string) {
	t.Helper()
	a, u, v, _ := newVaultApp(t, nil, home)
	if _, err := u.SetUpVault(goodPass, goodPass); err != nil {
		t.Fatal(err)
	}
	p, err := u.CreateProfile("Home")
	if err != nil {
		t.Fatal(err)
	}
	return a, u, v, p.ID
}
