//go:build e2e && linux

package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tessera-app/tessera/devsync/syncthingtest"
)

// Two devices, each its own Tessera home with its own app and its own
// browser, each sync folder kept in step with the other by its own real
// Syncthing instance on 127.0.0.1 (issue 26). A detail changed on one
// device reaches the other through the running apps (`tessera sync setup`
// and `sync now` ask them) and Syncthing, and both apps still fill a page
// in the real browser, the second with the value the first wrote.
func TestSyncedDevicesBothFill(t *testing.T) {
	sts := syncthingtest.Start(t, 2)
	laptop := newFillEnv(t, "approve", "")
	desktop := newFillEnv(t, "approve", "")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	setup := func(f *fillEnv, name, folder string) {
		t.Helper()
		if out, err := f.w.CLI(ctx, "sync", "setup", "--name", name, "--passphrase-file", f.w.Passphrase, folder); err != nil {
			t.Fatalf("sync setup on the %s: %v", name, err)
		} else if !strings.Contains(out, name) {
			t.Errorf("sync setup on the %s printed %q, want its name", name, out)
		}
	}
	setup(laptop, "laptop", sts[0].Folder)
	// The desktop joins once Syncthing brought the folder's group file.
	waitUntil(t, time.Minute, "the group file to reach the desktop's folder", func() bool {
		_, err := os.Stat(filepath.Join(sts[1].Folder, "tessera-sync.age"))
		return err == nil
	})
	setup(desktop, "desktop", sts[1].Folder)
	const moved = "ada.new@example.org"
	valueFile := filepath.Join(t.TempDir(), "value")
	if err := os.WriteFile(valueFile, []byte(moved), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(valueFile) })
	if _, err := laptop.w.CLI(ctx, "profile", "set", "--value-file", valueFile, "home", "https://schema.org/email"); err != nil {
		t.Fatal(err)
	}
	if _, err := laptop.w.CLI(ctx, "sync", "now"); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, time.Minute, "the laptop's change to reach the desktop's vault", func() bool {
		if _, err := desktop.w.CLI(ctx, "sync", "now"); err != nil {
			t.Logf("sync now on the desktop: %v", err)
		}
		p, err := desktop.w.ProfileJSON(ctx, "home")
		return err == nil && strings.Contains(string(p), moved)
	})
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

// waitUntil polls f every half second for up to d.
func waitUntil(t *testing.T, d time.Duration, what string, f func() bool) {
	t.Helper()
	for deadline := time.Now().Add(d); !f(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(500 * time.Millisecond)
	}
}
