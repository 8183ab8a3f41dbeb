package vaultctl

import (
	"bufio"
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/tessera-app/tessera/vault"
)

// privateSessionBus starts a dbus-daemon of its own and points this test's
// session bus at it; the system bus is pointed nowhere.
func privateSessionBus(t *testing.T) {
	t.Helper()
	cmd := exec.Command("dbus-daemon", "--session", "--nofork", "--print-address=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("dbus-daemon (scripts/deps-debian.sh installs it): %v", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", strings.TrimSpace(addr))
	t.Setenv("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/nonexistent/tessera-test")
}

// The screen saver's ActiveChanged(true) on a real session bus locks the
// vault; ActiveChanged(false) does not.
func TestScreenLockLocksVault(t *testing.T) {
	privateSessionBus(t)
	v, err := vault.Create(t.TempDir(), vault.Options{ScryptWorkFactor: 10}, vault.InitOptions{Passphrase: []byte("screen lock test")})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	changed := make(chan string, 4)
	c := New(Config{Vault: v, Changed: func(st string) { changed <- st }})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	evs, err := SessionLockEvents(ctx)
	if evs == nil {
		t.Fatalf("SessionLockEvents: %v", err)
	}
	go c.WatchSessionLock(ctx, evs)
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	emit := func(active bool) {
		if err := conn.Emit("/org/freedesktop/ScreenSaver", "org.freedesktop.ScreenSaver.ActiveChanged", active); err != nil {
			t.Fatal(err)
		}
	}
	emit(false)
	time.Sleep(300 * time.Millisecond)
	if st := v.State(); st != "unlocked" {
		t.Fatalf("vault %s after the screen saver ended, want unlocked", st)
	}
	emit(true)
	deadline := time.Now().Add(10 * time.Second)
	for v.State() != "locked" {
		if time.Now().After(deadline) {
			t.Fatal("vault still unlocked after the screen locked")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if st := <-changed; st != "locked" {
		t.Errorf("Changed(%q), want locked", st)
	}
}
