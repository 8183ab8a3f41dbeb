// Package desktopentry owns Tessera's freedesktop.org desktop entries: the
// menu entry the Linux packages install (generated from Menu at release
// time) and the per-user autostart entry behind Settings' "Start Tessera
// when I log in" (EnableAutostart, DisableAutostart, AutostartEnabled).
package desktopentry

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// AppID is Tessera's application ID: the desktop entry's and the AppStream
// component's name, in reverse-DNS form from the project's home.
const AppID = "io.github.tessera_app.Tessera"

// IconName is the icon's name in the hicolor theme.
const IconName = "tessera"

// ErrUnsupported is returned by the autostart functions on systems without
// XDG autostart (Windows, macOS).
var ErrUnsupported = errors.New("autostart entries are an XDG desktop feature; not supported on this system")

// Menu returns the application menu entry for the tessera executable at exe
// (the packages pass "tessera": /usr/bin is on every session's PATH).
func Menu(exe string) []byte { return entry(exe, nil, false) }

// Autostart returns the autostart entry for exe: it starts the app with its
// window hidden (the app then waits for the browser). TryExec makes the
// session skip the entry once exe is gone, so a removed package leaves no
// entry that does anything, although the file itself is the person's.
func Autostart(exe string) []byte { return entry(exe, []string{"--hidden"}, true) }

func entry(exe string, args []string, autostart bool) []byte {
	var b bytes.Buffer
	line := func(k, v string) { fmt.Fprintf(&b, "%s=%s\n", k, v) }
	b.WriteString("[Desktop Entry]\n")
	line("Type", "Application")
	line("Version", "1.4")
	line("Name", "Tessera")
	line("GenericName", "Form Filler")
	line("Comment", "Fill web forms from your encrypted profile, only after you confirm")
	line("Icon", IconName)
	line("Exec", strings.Join(append([]string{quoteExec(exe)}, args...), " "))
	line("TryExec", exe)
	line("Terminal", "false")
	line("StartupNotify", "false")
	line("StartupWMClass", "tessera")
	if autostart {
		line("X-GNOME-Autostart-enabled", "true")
		line("NoDisplay", "true")
	} else {
		line("Categories", "Utility;")
		line("Keywords", "forms;autofill;profile;address;vault;")
	}
	return b.Bytes()
}

// quoteExec quotes exe for an Exec key when it holds a reserved character
// (Desktop Entry Specification, "The Exec key").
func quoteExec(exe string) string {
	if !strings.ContainsAny(exe, " \t\n\"'\\><~|&;$*?#()`") {
		return exe
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "`", "\\`", `$`, `\$`)
	return `"` + r.Replace(exe) + `"`
}

// AutostartPath returns where the autostart entry goes:
// $XDG_CONFIG_HOME/autostart/AppID.desktop, or ~/.config/autostart/... when
// XDG_CONFIG_HOME is unset or relative. getenv reads the environment.
func AutostartPath(getenv func(string) string) (string, error) {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		return "", ErrUnsupported
	}
	dir := getenv("XDG_CONFIG_HOME")
	if dir == "" || !filepath.IsAbs(dir) {
		home := getenv("HOME")
		if home == "" {
			return "", errors.New("autostart: neither XDG_CONFIG_HOME nor HOME is set")
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "autostart", AppID+".desktop"), nil
}

// EnableAutostart writes the autostart entry for the tessera executable exe
// (an absolute path), replacing any earlier one.
func EnableAutostart(getenv func(string) string, exe string) error {
	if !filepath.IsAbs(exe) {
		return fmt.Errorf("autostart: executable %q is not an absolute path", exe)
	}
	p, err := AutostartPath(getenv)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("autostart: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tessera-*.tmp")
	if err != nil {
		return fmt.Errorf("autostart: %w", err)
	}
	defer os.Remove(f.Name())
	_, err = f.Write(Autostart(exe))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		return fmt.Errorf("autostart: %w", err)
	}
	return nil
}

// DisableAutostart removes the autostart entry; none there is not an error.
func DisableAutostart(getenv func(string) string) error {
	p, err := AutostartPath(getenv)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("autostart: %w", err)
	}
	return nil
}

// AutostartEnabled reports whether Tessera's autostart entry is there and
// not switched off (Hidden=true or X-GNOME-Autostart-enabled=false, which
// desktop settings tools write instead of deleting the file).
func AutostartEnabled(getenv func(string) string) (bool, error) {
	p, err := AutostartPath(getenv)
	if err != nil {
		return false, err
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("autostart: %w", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		switch strings.TrimSpace(l) {
		case "Hidden=true", "X-GNOME-Autostart-enabled=false":
			return false, nil
		}
	}
	return true, nil
}
