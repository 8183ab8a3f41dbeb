package nativemsg

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Browsers lists the browsers whose host registration Tessera manages.
var Browsers = []string{"chrome", "chromium", "edge", "brave", "vivaldi", "firefox"}

// ErrUnknownBrowser is returned for a browser name not in Browsers.
var ErrUnknownBrowser = errors.New("unknown browser")

// A Manifest is a native-messaging host manifest. Chromium-family browsers
// read AllowedOrigins, Firefox AllowedExtensions.
type Manifest struct {
	Name              string   `json:"name"`
	Description       string   `json:"description"`
	Path              string   `json:"path"`
	Type              string   `json:"type"`
	AllowedOrigins    []string `json:"allowed_origins,omitempty"`
	AllowedExtensions []string `json:"allowed_extensions,omitempty"`
}

// ManifestFor returns the manifest for browser, pointing at the host binary
// exe (an absolute path).
func ManifestFor(browser, exe string) Manifest {
	m := Manifest{Name: HostName, Description: "Tessera form-filling companion", Path: exe, Type: "stdio"}
	if browser == "firefox" {
		m.AllowedExtensions = []string{FirefoxAddonID}
	} else {
		m.AllowedOrigins = []string{"chrome-extension://" + ChromeExtensionID + "/"}
	}
	return m
}

// A Registry writes the Windows registry keys that point browsers at host
// manifests. The real one lives in install_windows.go; tests pass a fake.
type Registry interface {
	// SetDefault sets the default value of key (under HKCU, or HKLM when
	// system) to value, creating the key.
	SetDefault(system bool, key, value string) error
	// DeleteKey removes key; a missing key is not an error.
	DeleteKey(system bool, key string) error
}

// InstallTarget describes where one browser's registration goes.
type InstallTarget struct {
	Browser string
	// ManifestPath is the file written.
	ManifestPath string
	// RegistryKey is the Windows key pointing at ManifestPath ("" elsewhere).
	RegistryKey string
	// Detect lists paths whose existence means the browser is installed.
	Detect []string
}

// InstallEnv is the environment Install works in; every field is explicit
// so that tests can lay out a fake home for any OS.
type InstallEnv struct {
	GOOS string
	Home string
	// Getenv reads variables such as LOCALAPPDATA and PROGRAMDATA.
	Getenv func(string) string
	// System selects machine-wide locations instead of per-user ones.
	System bool
	// UserDataDir, when set, targets a browser started with
	// --user-data-dir=DIR: the manifest goes to DIR/NativeMessagingHosts.
	UserDataDir string
	Registry    Registry
}

// Target returns where browser's registration goes in env.
func Target(env InstallEnv, browser string) (InstallTarget, error) {
	if !slices.Contains(Browsers, browser) {
		return InstallTarget{}, fmt.Errorf("%w: %q (known: %s)", ErrUnknownBrowser, browser, strings.Join(Browsers, ", "))
	}
	file := HostName + ".json"
	t := InstallTarget{Browser: browser}
	if env.UserDataDir != "" {
		if browser == "firefox" {
			return t, fmt.Errorf("--user-data-dir applies to Chromium-family browsers, not firefox")
		}
		t.ManifestPath = filepath.Join(env.UserDataDir, "NativeMessagingHosts", file)
		return t, nil
	}
	j := func(parts ...string) string { return filepath.Join(parts...) }
	switch env.GOOS {
	case "linux", "freebsd", "openbsd", "netbsd":
		user := map[string]string{
			"chrome":   j(env.Home, ".config/google-chrome"),
			"chromium": j(env.Home, ".config/chromium"),
			"edge":     j(env.Home, ".config/microsoft-edge"),
			"brave":    j(env.Home, ".config/BraveSoftware/Brave-Browser"),
			"vivaldi":  j(env.Home, ".config/vivaldi"),
			"firefox":  j(env.Home, ".mozilla"),
		}
		system := map[string]string{
			"chrome":   "/etc/opt/chrome/native-messaging-hosts",
			"chromium": "/etc/chromium/native-messaging-hosts",
			"edge":     "/etc/opt/edge/native-messaging-hosts",
			"brave":    "/etc/opt/chrome/native-messaging-hosts",
			"vivaldi":  "/etc/opt/vivaldi/native-messaging-hosts",
			"firefox":  "/usr/lib/mozilla/native-messaging-hosts",
		}
		bins := map[string][]string{
			"chrome":   {"/usr/bin/google-chrome", "/opt/google/chrome/chrome"},
			"chromium": {"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/lib/chromium/chromium"},
			"edge":     {"/usr/bin/microsoft-edge", "/opt/microsoft/msedge/msedge"},
			"brave":    {"/usr/bin/brave-browser", "/opt/brave.com/brave/brave"},
			"vivaldi":  {"/usr/bin/vivaldi", "/opt/vivaldi/vivaldi"},
			"firefox":  {"/usr/bin/firefox", "/usr/bin/firefox-esr", "/usr/lib/firefox/firefox"},
		}
		sub := "NativeMessagingHosts"
		if browser == "firefox" {
			sub = "native-messaging-hosts"
		}
		if env.System {
			t.ManifestPath = j(system[browser], file)
		} else {
			t.ManifestPath = j(user[browser], sub, file)
		}
		t.Detect = append([]string{user[browser]}, bins[browser]...)
	case "darwin":
		as := j(env.Home, "Library/Application Support")
		user := map[string]string{
			"chrome":   j(as, "Google/Chrome"),
			"chromium": j(as, "Chromium"),
			"edge":     j(as, "Microsoft Edge"),
			"brave":    j(as, "BraveSoftware/Brave-Browser"),
			"vivaldi":  j(as, "Vivaldi"),
			"firefox":  j(as, "Mozilla"),
		}
		system := map[string]string{
			"chrome":   "/Library/Google/Chrome",
			"chromium": "/Library/Application Support/Chromium",
			"edge":     "/Library/Microsoft/Edge",
			"brave":    "/Library/Application Support/BraveSoftware/Brave-Browser",
			"vivaldi":  "/Library/Application Support/Vivaldi",
			"firefox":  "/Library/Application Support/Mozilla",
		}
		apps := map[string]string{
			"chrome": "Google Chrome.app", "chromium": "Chromium.app", "edge": "Microsoft Edge.app",
			"brave": "Brave Browser.app", "vivaldi": "Vivaldi.app", "firefox": "Firefox.app",
		}
		root := user
		if env.System {
			root = system
		}
		t.ManifestPath = j(root[browser], "NativeMessagingHosts", file)
		t.Detect = []string{user[browser], j("/Applications", apps[browser])}
	case "windows":
		keys := map[string]string{
			"chrome":   `Software\Google\Chrome\NativeMessagingHosts\`,
			"chromium": `Software\Chromium\NativeMessagingHosts\`,
			"edge":     `Software\Microsoft\Edge\NativeMessagingHosts\`,
			"brave":    `Software\BraveSoftware\Brave-Browser\NativeMessagingHosts\`,
			"vivaldi":  `Software\Vivaldi\NativeMessagingHosts\`,
			"firefox":  `Software\Mozilla\NativeMessagingHosts\`,
		}
		userData := map[string]string{
			"chrome": `Google\Chrome\User Data`, "chromium": `Chromium\User Data`, "edge": `Microsoft\Edge\User Data`,
			"brave": `BraveSoftware\Brave-Browser\User Data`, "vivaldi": `Vivaldi\User Data`,
		}
		base := env.Getenv("LOCALAPPDATA")
		if env.System {
			base = env.Getenv("PROGRAMDATA")
		}
		if base == "" {
			return t, errors.New("LOCALAPPDATA/PROGRAMDATA not set")
		}
		// Windows paths are joined with backslashes whatever OS runs the code.
		t.ManifestPath = strings.Join([]string{base, "Tessera", "NativeMessagingHosts", browser, file}, `\`)
		t.RegistryKey = keys[browser] + HostName
		if browser == "firefox" {
			t.Detect = []string{env.Getenv("APPDATA") + `\Mozilla\Firefox`}
		} else {
			t.Detect = []string{env.Getenv("LOCALAPPDATA") + `\` + userData[browser]}
		}
	default:
		return t, fmt.Errorf("host registration on %s is not supported", env.GOOS)
	}
	return t, nil
}

// Install writes the manifest (and, on Windows, the registry key) for each
// browser, pointing at exe. It returns the targets written.
func Install(env InstallEnv, browsers []string, exe string) ([]InstallTarget, error) {
	if !isAbs(env.GOOS, exe) {
		return nil, fmt.Errorf("host path %q must be absolute", exe)
	}
	var done []InstallTarget
	for _, b := range browsers {
		t, err := Target(env, b)
		if err != nil {
			return done, err
		}
		data, err := json.MarshalIndent(ManifestFor(b, exe), "", "  ")
		if err != nil {
			return done, err
		}
		if err := writeFileAtomic(osPath(t.ManifestPath), append(data, '\n')); err != nil {
			return done, fmt.Errorf("write %s manifest: %w", b, err)
		}
		if t.RegistryKey != "" {
			if env.Registry == nil {
				return done, errors.New("no registry writer")
			}
			if err := env.Registry.SetDefault(env.System, t.RegistryKey, t.ManifestPath); err != nil {
				return done, fmt.Errorf("registry %s: %w", t.RegistryKey, err)
			}
		}
		done = append(done, t)
	}
	return done, nil
}

// Uninstall removes what Install wrote for each browser; missing files and
// keys are not errors.
func Uninstall(env InstallEnv, browsers []string) ([]InstallTarget, error) {
	var done []InstallTarget
	for _, b := range browsers {
		t, err := Target(env, b)
		if err != nil {
			return done, err
		}
		if err := os.Remove(osPath(t.ManifestPath)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return done, fmt.Errorf("remove %s manifest: %w", b, err)
		}
		if t.RegistryKey != "" && env.Registry != nil {
			if err := env.Registry.DeleteKey(env.System, t.RegistryKey); err != nil {
				return done, fmt.Errorf("registry %s: %w", t.RegistryKey, err)
			}
		}
		done = append(done, t)
	}
	return done, nil
}

// Detected returns the browsers that appear installed in env (a profile
// directory or a known executable exists).
func Detected(env InstallEnv) []string {
	var out []string
	for _, b := range Browsers {
		t, err := Target(env, b)
		if err != nil {
			continue
		}
		for _, p := range t.Detect {
			if _, err := os.Stat(osPath(p)); err == nil {
				out = append(out, b)
				break
			}
		}
	}
	return out
}

func isAbs(goos, p string) bool {
	if goos == "windows" {
		return len(p) > 2 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') || strings.HasPrefix(p, `\\`)
	}
	return strings.HasPrefix(p, "/")
}

// osPath converts a backslash path built for Windows into one this OS can
// write, so that the Windows layout is testable on any machine.
func osPath(p string) string {
	if filepath.Separator == '/' {
		return strings.ReplaceAll(p, `\`, "/")
	}
	return p
}

// writeFileAtomic writes data to path through a temporary file and a rename,
// so a crash never leaves a half-written manifest.
func writeFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tessera-*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
