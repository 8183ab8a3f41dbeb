package desktopentry

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestAutostartPath(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		t.Skip("XDG only")
	}
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"HOME": "/home/a"}, "/home/a/.config/autostart/" + AppID + ".desktop"},
		{map[string]string{"HOME": "/home/a", "XDG_CONFIG_HOME": "/cfg"}, "/cfg/autostart/" + AppID + ".desktop"},
		// XDG says a relative XDG_CONFIG_HOME is invalid and must be ignored.
		{map[string]string{"HOME": "/home/a", "XDG_CONFIG_HOME": "cfg"}, "/home/a/.config/autostart/" + AppID + ".desktop"},
	} {
		got, err := AutostartPath(envOf(tc.env))
		if err != nil || got != tc.want {
			t.Errorf("AutostartPath(%v) = %q, %v, want %q", tc.env, got, err, tc.want)
		}
	}
	if _, err := AutostartPath(envOf(nil)); err == nil {
		t.Error("AutostartPath(no HOME) succeeded, want an error")
	}
}

// Off by default; on writes one entry starting the app hidden; off removes
// it; a second off is no error.
func TestAutostartOnOff(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		t.Skip("XDG only")
	}
	cfg := t.TempDir()
	env := envOf(map[string]string{"HOME": "/nonexistent", "XDG_CONFIG_HOME": cfg})
	on, err := AutostartEnabled(env)
	if err != nil || on {
		t.Fatalf("AutostartEnabled() before = %v, %v, want false", on, err)
	}
	if err := EnableAutostart(env, "tessera"); err == nil {
		t.Error("EnableAutostart(relative path) succeeded, want an error")
	}
	if err := EnableAutostart(env, "/usr/bin/tessera"); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(cfg, "autostart", AppID+".desktop")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Exec=/usr/bin/tessera --hidden\n", "TryExec=/usr/bin/tessera\n", "Type=Application\n"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("autostart entry lacks %q:\n%s", want, b)
		}
	}
	if on, err := AutostartEnabled(env); err != nil || !on {
		t.Errorf("AutostartEnabled() after enable = %v, %v, want true", on, err)
	}
	// A desktop's settings tool switches an entry off by editing it.
	if err := os.WriteFile(p, append(b, "Hidden=true\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if on, _ := AutostartEnabled(env); on {
		t.Error("AutostartEnabled() with Hidden=true = true, want false")
	}
	for i := 0; i < 2; i++ {
		if err := DisableAutostart(env); err != nil {
			t.Fatalf("DisableAutostart() #%d = %v", i+1, err)
		}
	}
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Errorf("entry still there after DisableAutostart: %v", err)
	}
	left, _ := os.ReadDir(filepath.Join(cfg, "autostart"))
	if len(left) != 0 {
		t.Errorf("autostart dir holds %d files after disable, want 0", len(left))
	}
}

func TestExecQuoting(t *testing.T) {
	for _, tc := range []struct{ exe, want string }{
		{"/usr/bin/tessera", "Exec=/usr/bin/tessera --hidden\n"},
		{"/home/a b/tessera", `Exec="/home/a b/tessera" --hidden` + "\n"},
		{`/opt/$x/tessera`, `Exec="/opt/\$x/tessera" --hidden` + "\n"},
	} {
		if got := string(Autostart(tc.exe)); !strings.Contains(got, tc.want) {
			t.Errorf("Autostart(%q) lacks %q:\n%s", tc.exe, tc.want, got)
		}
	}
}

func TestMenu(t *testing.T) {
	m := string(Menu("tessera"))
	for _, want := range []string{"Exec=tessera\n", "Icon=" + IconName + "\n", "Categories=Utility;\n"} {
		if !strings.Contains(m, want) {
			t.Errorf("Menu lacks %q:\n%s", want, m)
		}
	}
	if strings.Contains(m, "--hidden") || strings.Contains(m, "NoDisplay") {
		t.Errorf("Menu entry starts hidden or is hidden:\n%s", m)
	}
}
