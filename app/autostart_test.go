package app

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The Settings toggle writes and removes the XDG autostart entry, off by
// default.
func TestAutostartToggle(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("XDG autostart entries are a Linux desktop feature")
	}
	home := t.TempDir()
	a, err := New(Config{Getenv: getenvFrom(map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config")})})
	if err != nil {
		t.Fatal(err)
	}
	u := newUI(a)
	if v, err := u.Autostart(); err != nil || !v.Supported || v.Enabled {
		t.Fatalf("Autostart() = %+v, %v, want supported and off", v, err)
	}
	if v, err := u.SetAutostart(true); err != nil || !v.Enabled {
		t.Fatalf("SetAutostart(true) = %+v, %v", v, err)
	}
	entries, _ := filepath.Glob(filepath.Join(home, ".config", "autostart", "*.desktop"))
	if len(entries) != 1 {
		t.Fatalf("autostart entries = %v, want one", entries)
	}
	b, _ := os.ReadFile(entries[0])
	if !strings.Contains(string(b), "--hidden") {
		t.Errorf("autostart entry does not start Tessera hidden:\n%s", b)
	}
	if v, err := u.SetAutostart(false); err != nil || v.Enabled {
		t.Fatalf("SetAutostart(false) = %+v, %v", v, err)
	}
	if _, err := os.Stat(entries[0]); !os.IsNotExist(err) {
		t.Errorf("the entry is still there after turning it off: %v", err)
	}
}
