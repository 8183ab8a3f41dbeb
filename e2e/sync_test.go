//go:build e2e && linux

package e2e

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// Two devices, each its own Tessera home with its own app and its own
// browser, kept in step through one sync folder (issue 26; the sync tool
// itself, Syncthing, is the devsync stage's). A detail changed on one
// device reaches the other through the running apps (`tessera sync setup`
// and `sync now` ask them), and both apps still fill a page in the real
// browser, the second with the value the first wrote.
func TestSyncedDevicesBothFill(t *testing.T) {
	laptop := newFillEnv(t, "approve", "")
	desktop := newFillEnv(t, "approve", "")
	folder, err := os.MkdirTemp("", "tsr-sync-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(folder) })
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, d := range []struct {
		f    *fillEnv
		name string
	}{{laptop, "laptop"}, {desktop, "desktop"}} {
		if out, err := d.f.w.CLI(ctx, "sync", "setup", "--name", d.name, "--passphrase-file", d.f.w.Passphrase, folder); err != nil {
			t.Fatalf("sync setup on the %s: %v", d.name, err)
		} else if !strings.Contains(out, d.name) {
			t.Errorf("sync setup on the %s printed %q, want its name", d.name, out)
		}
	}
	const moved = "ada.new@example.org"
	valueFile := folder + ".value"
	if err := os.WriteFile(valueFile, []byte(moved), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(valueFile) })
	if _, err := laptop.w.CLI(ctx, "profile", "set", "--value-file", valueFile, "home", "https://schema.org/email"); err != nil {
		t.Fatal(err)
	}
	for _, f := range []*fillEnv{laptop, desktop} {
		if _, err := f.w.CLI(ctx, "sync", "now"); err != nil {
			t.Fatal(err)
		}
	}
	out, err := desktop.w.CLI(ctx, "sync", "status")
	if err != nil || !strings.Contains(out, "laptop") || !strings.Contains(out, "desktop") {
		t.Errorf("sync status on the desktop = %q, %v; want both devices", out, err)
	}
	for name, f := range map[string]*fillEnv{"laptop": laptop, "desktop": desktop} {
		tab, url := f.open(t, "/checkout.html")
		if r := f.fill(t, url); r.Status != "filled" {
			t.Fatalf("fill on the %s = %+v", name, r)
		}
		if got := readPage(t, tab).Values["email"]; got != moved {
			t.Errorf("email filled on the %s = %q, want %q (written on the laptop, brought by sync)", name, got, moved)
		}
	}
}
