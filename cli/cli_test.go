package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tessera-app/tessera/nativemsg"
)

func testEnv(stdout, stderr *bytes.Buffer, env map[string]string) *Env {
	return &Env{
		Stdin: strings.NewReader(""), Stdout: stdout, Stderr: stderr,
		Getenv:     func(k string) string { return env[k] },
		Executable: "/opt/tessera/bin/tessera",
	}
}

func TestVersionAndUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	env := testEnv(&out, &errOut, nil)
	if err := Run(context.Background(), []string{"version"}, env); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "tessera ") || !strings.Contains(out.String(), "protocol 1") {
		t.Fatalf("version printed %q", out.String())
	}
	if err := Run(context.Background(), []string{"frobnicate"}, env); !errors.Is(err, ErrUsage) {
		t.Fatalf("Run(frobnicate) = %v, want ErrUsage", err)
	}
	if err := Run(context.Background(), []string{"--bogus"}, env); !errors.Is(err, ErrUsage) {
		t.Fatalf("Run(--bogus) = %v, want ErrUsage", err)
	}
}

func TestDesktopFlags(t *testing.T) {
	var got []DesktopOptions
	env := testEnv(&bytes.Buffer{}, &bytes.Buffer{}, nil)
	env.Desktop = func(ctx context.Context, o DesktopOptions) error { got = append(got, o); return nil }
	for _, args := range [][]string{nil, {"--hidden"}, {"--headless"}} {
		if err := Run(context.Background(), args, env); err != nil {
			t.Fatal(err)
		}
	}
	want := []DesktopOptions{{}, {Hidden: true}, {Headless: true}}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Run(%d) desktop options = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// install --system refuses a binary someone other than root could change,
// before writing anything: here one in a temporary directory.
func TestInstallSystemRefusesUnsafeBinary(t *testing.T) {
	udd := t.TempDir()
	exe := filepath.Join(t.TempDir(), "tessera")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	env := testEnv(&out, &bytes.Buffer{}, nil)
	env.Executable = exe
	err := Run(context.Background(), []string{"install", "--system", "--browser", "chromium", "--user-data-dir", udd}, env)
	if !errors.Is(err, nativemsg.ErrUnsafeBinary) || !strings.Contains(err.Error(), "sudo install -o root") {
		t.Fatalf("install --system of %s = %v, want ErrUnsafeBinary saying how to install a root-owned copy", exe, err)
	}
	if m, _ := filepath.Glob(filepath.Join(udd, "NativeMessagingHosts", "*")); len(m) > 0 || out.Len() > 0 {
		t.Errorf("a refused install wrote %v and said %q", m, out.String())
	}
}

func TestInstallUserDataDir(t *testing.T) {
	udd := t.TempDir()
	var out bytes.Buffer
	env := testEnv(&out, &bytes.Buffer{}, nil)
	if err := Run(context.Background(), []string{"install", "--browser", "chromium", "--user-data-dir", udd}, env); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(udd, "NativeMessagingHosts", "dev.tessera.host.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"path": "/opt/tessera/bin/tessera"`) {
		t.Fatalf("manifest %s = %s", path, data)
	}
	if err := Run(context.Background(), []string{"uninstall", "--user-data-dir", udd}, env); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("manifest still there after uninstall: %v", err)
	}
	if err := Run(context.Background(), []string{"install", "--browser", "netscape"}, env); err == nil {
		t.Fatal("install --browser netscape succeeded")
	}
	if err := Run(context.Background(), []string{"install", "extra"}, env); !errors.Is(err, ErrUsage) {
		t.Fatalf("install extra = %v, want ErrUsage", err)
	}
}

func TestHostModeForeignOrigin(t *testing.T) {
	var out bytes.Buffer
	env := testEnv(&out, &bytes.Buffer{}, map[string]string{"TESSERA_RUNTIME_DIR": t.TempDir()})
	err := Run(context.Background(), []string{"chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/"}, env)
	if err == nil || !strings.Contains(out.String(), "FORBIDDEN") {
		t.Fatalf("host with a foreign origin: err %v, stdout %q", err, out.String())
	}
}

func TestHostDoesNotRestartQuitApp(t *testing.T) {
	dir := t.TempDir()
	if err := nativemsg.MarkUserQuit(dir); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	env := testEnv(&out, &bytes.Buffer{}, map[string]string{"TESSERA_RUNTIME_DIR": dir})
	hello := []byte(`{"jsonrpc":"2.0","id":"1","method":"session.hello","params":{"protocol":[1]}}`)
	var in bytes.Buffer
	nativemsg.WriteFrame(&in, hello)
	env.Stdin = &in
	// The executable would be started if the marker were ignored; it does
	// not exist, so a start attempt would also fail, but with another error.
	env.Executable = filepath.Join(dir, "no-such-tessera")
	var stderr bytes.Buffer
	env.Stderr = &stderr
	if err := Run(context.Background(), []string{"chrome-extension://" + nativemsg.ChromeExtensionID + "/"}, env); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "APP_UNAVAILABLE") || !strings.Contains(stderr.String(), nativemsg.ErrUserQuit.Error()) {
		t.Fatalf("host after a user quit: stdout %q, stderr %q", out.String(), stderr.String())
	}
}

// TestProductionRefusals runs the commands with the Env main builds (no
// lowered scrypt floor): a value typed as an argument, a weak passphrase
// and a low work factor are refused, and nothing is created.
func TestProductionRefusals(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	files := map[string]string{"strong": "quiet harbour lamp\n", "weak": "password1\n", "value": "noor@example.org\n"}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	strong, weak, value := filepath.Join(dir, "strong"), filepath.Join(dir, "weak"), filepath.Join(dir, "value")
	tests := []struct {
		args  []string
		usage bool
		want  string
	}{
		{[]string{"profile", "set", "--passphrase-file", strong, "home", "email", "noor@example.org"}, true, "not taken from the command line"},
		{[]string{"vault", "init", "--passphrase-file", weak}, false, "passphrase too weak"},
		{[]string{"vault", "init", "--passphrase-file", strong, "--work-factor", "10"}, true, "not in 18..22"},
		{[]string{"vault", "passwd", "--passphrase-file", strong, "--new-passphrase-file", strong, "--work-factor", "17"}, true, "not in 18..22"},
		{[]string{"profile", "export", "--passphrase-file", strong, "--bundle-passphrase-file", value, "--work-factor", "16"}, true, "not in 18..22"},
		{[]string{"profile", "export", "--plain"}, true, "reveals values only with the vault passphrase"},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		env := testEnv(&out, &errOut, map[string]string{"TESSERA_HOME": home, "TESSERA_KEYRING": "none", "TESSERA_RUNTIME_DIR": filepath.Join(dir, "run")})
		err := Run(context.Background(), tt.args, env)
		if err == nil || errors.Is(err, ErrUsage) != tt.usage || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Run(%q) = %v, want an error (usage %v) saying %q", tt.args, err, tt.usage, tt.want)
		}
	}
	if _, err := os.Stat(filepath.Join(home, "vault.db")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused command created the vault: %v", err)
	}
}

// --user is the default made explicit (the portable archive's INSTALL.txt
// names it); with --system it is a usage error.
func TestInstallUserFlag(t *testing.T) {
	udd := t.TempDir()
	var out, errOut bytes.Buffer
	env := testEnv(&out, &errOut, nil)
	env.Executable = filepath.Join(t.TempDir(), "tessera")
	if err := Run(context.Background(), []string{"install", "--user", "--system"}, env); !errors.Is(err, ErrUsage) {
		t.Errorf("install --user --system = %v, want ErrUsage", err)
	}
	if err := Run(context.Background(), []string{"install", "--user", "--user-data-dir", udd}, env); err != nil {
		t.Fatalf("install --user: %v", err)
	}
	if _, err := os.Stat(filepath.Join(udd, "NativeMessagingHosts", nativemsg.HostName+".json")); err != nil {
		t.Errorf("install --user wrote no manifest: %v", err)
	}
}
