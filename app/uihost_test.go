package app

import (
	"fmt"
	"sync"
	"testing"

	"github.com/tessera-app/tessera/app/ui"
	"github.com/tessera-app/tessera/vault"
)

// fakeKeyring is an in-memory OS keyring; broken makes every call fail as
// a machine without a Secret Service does.
type fakeKeyring struct {
	mu     sync.Mutex
	items  map[string]string
	broken bool
	sets   int
}

func (k *fakeKeyring) Get(service, user string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.broken {
		return "", fmt.Errorf("%w: no session bus", vault.ErrKeyringUnavailable)
	}
	s, ok := k.items[service+"/"+user]
	if !ok {
		return "", vault.ErrKeyringItemMissing
	}
	return s, nil
}

func (k *fakeKeyring) Set(service, user, secret string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.sets++
	if k.broken {
		return fmt.Errorf("%w: no session bus", vault.ErrKeyringUnavailable)
	}
	if k.items == nil {
		k.items = map[string]string{}
	}
	k.items[service+"/"+user] = secret
	return nil
}

func (k *fakeKeyring) Delete(service, user string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	delete(k.items, service+"/"+user)
	return nil
}

func (k *fakeKeyring) setBroken(b bool) {
	k.mu.Lock()
	k.broken = b
	k.mu.Unlock()
}

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
