package nativemsg

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

type fakeRegistry struct{ keys map[string]string }

func (r *fakeRegistry) SetDefault(system bool, key, value string) error {
	r.keys[hive(system)+key] = value
	return nil
}

func (r *fakeRegistry) DeleteKey(system bool, key string) error {
	delete(r.keys, hive(system)+key)
	return nil
}

func hive(system bool) string {
	if system {
		return `HKLM\`
	}
	return `HKCU\`
}

func TestInstallPaths(t *testing.T) {
	chromeOrigin := []string{"chrome-extension://" + ChromeExtensionID + "/"}
	tests := []struct {
		goos    string
		system  bool
		browser string
		want    string // manifest path relative to the fake root ("~" = home)
		key     string
	}{
		{"linux", false, "chrome", "~/.config/google-chrome/NativeMessagingHosts/dev.tessera.host.json", ""},
		{"linux", false, "chromium", "~/.config/chromium/NativeMessagingHosts/dev.tessera.host.json", ""},
		{"linux", false, "edge", "~/.config/microsoft-edge/NativeMessagingHosts/dev.tessera.host.json", ""},
		{"linux", false, "brave", "~/.config/BraveSoftware/Brave-Browser/NativeMessagingHosts/dev.tessera.host.json", ""},
		{"linux", false, "vivaldi", "~/.config/vivaldi/NativeMessagingHosts/dev.tessera.host.json", ""},
		{"linux", false, "firefox", "~/.mozilla/native-messaging-hosts/dev.tessera.host.json", ""},
		{"linux", true, "chromium", "/etc/chromium/native-messaging-hosts/dev.tessera.host.json", ""},
		{"linux", true, "firefox", "/usr/lib/mozilla/native-messaging-hosts/dev.tessera.host.json", ""},
		{"darwin", false, "chrome", "~/Library/Application Support/Google/Chrome/NativeMessagingHosts/dev.tessera.host.json", ""},
		{"darwin", false, "edge", "~/Library/Application Support/Microsoft Edge/NativeMessagingHosts/dev.tessera.host.json", ""},
		{"darwin", false, "firefox", "~/Library/Application Support/Mozilla/NativeMessagingHosts/dev.tessera.host.json", ""},
		{"darwin", true, "chrome", "/Library/Google/Chrome/NativeMessagingHosts/dev.tessera.host.json", ""},
		{"windows", false, "chrome", `LOCAL\Tessera\NativeMessagingHosts\chrome\dev.tessera.host.json`, `HKCU\Software\Google\Chrome\NativeMessagingHosts\dev.tessera.host`},
		{"windows", false, "edge", `LOCAL\Tessera\NativeMessagingHosts\edge\dev.tessera.host.json`, `HKCU\Software\Microsoft\Edge\NativeMessagingHosts\dev.tessera.host`},
		{"windows", false, "firefox", `LOCAL\Tessera\NativeMessagingHosts\firefox\dev.tessera.host.json`, `HKCU\Software\Mozilla\NativeMessagingHosts\dev.tessera.host`},
		{"windows", true, "chromium", `PROG\Tessera\NativeMessagingHosts\chromium\dev.tessera.host.json`, `HKLM\Software\Chromium\NativeMessagingHosts\dev.tessera.host`},
	}
	for _, tt := range tests {
		t.Run(tt.goos+"/"+tt.browser+map[bool]string{true: "/system"}[tt.system], func(t *testing.T) {
			root := t.TempDir()
			home := filepath.Join(root, "home")
			reg := &fakeRegistry{keys: map[string]string{}}
			getenv := func(k string) string {
				return map[string]string{"LOCALAPPDATA": `C:\Users\me\AppData\Local`, "PROGRAMDATA": `C:\ProgramData`}[k]
			}
			env := InstallEnv{GOOS: tt.goos, Home: home, Getenv: getenv, System: tt.system, Registry: reg}
			tgt, err := Target(env, tt.browser)
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Replace(tt.want, "~", home, 1)
			want = strings.Replace(want, "LOCAL", `C:\Users\me\AppData\Local`, 1)
			want = strings.Replace(want, "PROG", `C:\ProgramData`, 1)
			if tgt.ManifestPath != want {
				t.Fatalf("Target(%s, %s).ManifestPath = %q, want %q", tt.goos, tt.browser, tgt.ManifestPath, want)
			}
			if tt.system || tt.goos == "windows" {
				return // only per-user unix paths are written in the fake home
			}
			exe := "/opt/tessera/tessera"
			if _, err := Install(env, []string{tt.browser}, exe); err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			data, err := os.ReadFile(want)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			wantM := map[string]any{"name": "dev.tessera.host", "description": "Tessera form-filling companion", "path": exe, "type": "stdio"}
			if tt.browser == "firefox" {
				wantM["allowed_extensions"] = []any{FirefoxAddonID}
			} else {
				wantM["allowed_origins"] = []any{chromeOrigin[0]}
			}
			if !reflect.DeepEqual(m, wantM) {
				t.Fatalf("manifest = %v, want %v", m, wantM)
			}
		})
	}
}

func TestInstallWindowsRegistry(t *testing.T) {
	root := t.TempDir()
	reg := &fakeRegistry{keys: map[string]string{}}
	// The Windows layout is written under a fake drive inside the temp dir.
	getenv := func(k string) string {
		if k == "LOCALAPPDATA" {
			return filepath.ToSlash(root) + `\` + "Local"
		}
		return ""
	}
	env := InstallEnv{GOOS: "windows", Getenv: getenv, Registry: reg}
	exe := `C:\Program Files\Tessera\tessera.exe`
	done, err := Install(env, []string{"chrome", "firefox"}, exe)
	if err != nil {
		t.Fatal(err)
	}
	for _, tgt := range done {
		if got := reg.keys[`HKCU\`+tgt.RegistryKey]; got != tgt.ManifestPath {
			t.Errorf("registry %s = %q, want %q", tgt.RegistryKey, got, tgt.ManifestPath)
		}
		data, err := os.ReadFile(osPath(tgt.ManifestPath))
		if err != nil {
			t.Fatal(err)
		}
		var m Manifest
		json.Unmarshal(data, &m)
		if m.Path != exe {
			t.Errorf("%s manifest path = %q, want %q", tgt.Browser, m.Path, exe)
		}
	}
	if _, err := Uninstall(env, []string{"chrome", "firefox"}); err != nil {
		t.Fatal(err)
	}
	if len(reg.keys) != 0 {
		t.Fatalf("registry keys left after uninstall: %v", reg.keys)
	}
}

func TestInstallUserDataDir(t *testing.T) {
	udd := t.TempDir()
	env := InstallEnv{GOOS: "linux", Home: "/nonexistent", Getenv: func(string) string { return "" }, UserDataDir: udd}
	if _, err := Install(env, []string{"chromium"}, "/usr/bin/tessera"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(udd, "NativeMessagingHosts", "dev.tessera.host.json")); err != nil {
		t.Fatalf("manifest not in user data dir: %v", err)
	}
	if _, err := Install(env, []string{"chromium"}, "relative/tessera"); err == nil {
		t.Fatal("Install with a relative host path succeeded")
	}
	if _, err := Target(env, "netscape"); err == nil {
		t.Fatal("Target(netscape) succeeded")
	}
}

func TestDetected(t *testing.T) {
	home := t.TempDir()
	// A darwin layout: no /Applications on the test machines, so only the
	// profile directory created here can be detected.
	env := InstallEnv{GOOS: "darwin", Home: home, Getenv: func(string) string { return "" }}
	os.MkdirAll(filepath.Join(home, "Library", "Application Support", "Vivaldi"), 0o755)
	got := Detected(env)
	if !reflect.DeepEqual(got, []string{"vivaldi"}) {
		t.Fatalf("Detected = %v, want [vivaldi]", got)
	}
}
