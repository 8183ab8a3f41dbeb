package sessionbus

import (
	"os"
	"path/filepath"
	"testing"
)

// TestConnectSessionBusNeverAutolaunches checks that without a session bus
// Tessera's D-Bus connections (showing the running window, watching for screen lock) fail rather than run dbus-launch, whose
// dbus-daemon would outlive the app (issue 12, part 5). A dbus-launch first
// in PATH records that it ran.
func TestConnectSessionBusNeverAutolaunches(t *testing.T) {
	bin := t.TempDir()
	marker := filepath.Join(t.TempDir(), "dbus-launch-ran")
	script := "#!/bin/sh\ntouch " + marker + "\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "dbus-launch"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir()) // no bus socket in it
	if conn, err := Connect(); err == nil {
		conn.Close()
		t.Fatal("Connect found a bus where there is none")
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("dbus-launch ran: its dbus-daemon outlives the app")
	}
}
