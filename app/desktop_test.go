package app

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/tessera-app/tessera/vault"
)

func getenvFrom(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestHeadlessReason(t *testing.T) {
	tests := []struct {
		name   string
		opts   DesktopOptions
		env    desktopEnv
		reason string // substring; "" means a window is shown
	}{
		{"x11", DesktopOptions{}, desktopEnv{goos: "linux", window: true, getenv: getenvFrom(map[string]string{"DISPLAY": ":0"})}, ""},
		{"wayland", DesktopOptions{}, desktopEnv{goos: "linux", window: true, getenv: getenvFrom(map[string]string{"WAYLAND_DISPLAY": "wayland-0"})}, ""},
		{"hidden still gets a window", DesktopOptions{Hidden: true}, desktopEnv{goos: "linux", window: true, getenv: getenvFrom(map[string]string{"DISPLAY": ":0"})}, ""},
		{"headless flag", DesktopOptions{Headless: true}, desktopEnv{goos: "linux", window: true, getenv: getenvFrom(map[string]string{"DISPLAY": ":0"})}, "--headless"},
		// Guards against a tag-less build opening nothing and exiting 0.
		{"no desktop tag", DesktopOptions{}, desktopEnv{goos: "linux", window: false, getenv: getenvFrom(map[string]string{"DISPLAY": ":0"})}, "desktop tag"},
		{"no display", DesktopOptions{}, desktopEnv{goos: "linux", window: true, getenv: getenvFrom(nil)}, "no display"},
		{"windows needs no DISPLAY", DesktopOptions{}, desktopEnv{goos: "windows", window: true, getenv: getenvFrom(nil)}, ""},
		{"macOS needs no DISPLAY", DesktopOptions{}, desktopEnv{goos: "darwin", window: true, getenv: getenvFrom(nil)}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := headlessReason(tt.opts, tt.env)
			if (tt.reason == "") != (got == "") || !strings.Contains(got, tt.reason) {
				t.Errorf("headlessReason(%+v) = %q, want %q", tt.opts, got, tt.reason)
			}
		})
	}
}

func TestDesktopHome(t *testing.T) {
	got, err := desktopHome(getenvFrom(map[string]string{"TESSERA_HOME": "/srv/tessera"}))
	if err != nil || got != "/srv/tessera" {
		t.Errorf("desktopHome(TESSERA_HOME=/srv/tessera) = %q, %v, want %q", got, err, "/srv/tessera")
	}
	// The app and the CLI must agree on where the vault lives.
	got, err = desktopHome(getenvFrom(map[string]string{"HOME": "/home/ada"}))
	want, _ := vault.DefaultDir(getenvFrom(map[string]string{"HOME": "/home/ada"}))
	if err != nil || got != want || !filepath.IsAbs(got) {
		t.Errorf("desktopHome(HOME=/home/ada) = %q, %v, want %q", got, err, want)
	}
}

func TestInstanceID(t *testing.T) {
	a, b := instanceID("/run/user/1000/tessera"), instanceID("/tmp/test-run")
	if a == b {
		t.Errorf("instanceID gives %q for two channels; a test instance would show the user's window", a)
	}
	if a != instanceID("/run/user/1000/tessera") {
		t.Errorf("instanceID(%q) is not stable", "/run/user/1000/tessera")
	}
	// D-Bus name elements allow only [A-Za-z0-9_] and must not start with
	// a digit once Wails has replaced the dots.
	for _, el := range strings.Split(a, ".") {
		if el == "" || (el[0] >= '0' && el[0] <= '9') {
			t.Errorf("instanceID = %q: element %q is not a valid D-Bus name element", a, el)
		}
	}
}

// shortSocketDir returns a short private directory: Unix socket paths are
// limited to about 100 bytes, which t.TempDir() can exceed.
func shortSocketDir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("", "tsr")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

// lockedBuffer is a bytes.Buffer safe to write from the app's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *lockedBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *lockedBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitUntilServing waits until the app answers on dir; a bounded wait, not a
// timing assertion.
func waitUntilServing(t *testing.T, dir string, errc <-chan error) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !running(context.Background(), dir) {
		select {
		case err := <-errc:
			t.Fatalf("runDesktop returned early: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("app never served its channel")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestRunDesktopHeadlessServesUntilCancelled(t *testing.T) {
	dir := shortSocketDir(t)
	var log lockedBuffer
	env := desktopEnv{
		getenv: getenvFrom(map[string]string{"TESSERA_HOME": t.TempDir(), "TESSERA_RUNTIME_DIR": dir, "DISPLAY": ":0"}),
		stderr: &log, goos: "linux", window: true,
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- runDesktop(ctx, fstest.MapFS{}, DesktopOptions{Headless: true}, env) }()
	waitUntilServing(t, dir, errc)

	// A second launch finds the first and leaves it alone.
	var second lockedBuffer
	env2 := env
	env2.stderr = &second
	if err := runDesktop(context.Background(), fstest.MapFS{}, DesktopOptions{Headless: true}, env2); err != nil {
		t.Errorf("second runDesktop = %v, want nil", err)
	}
	if !strings.Contains(second.String(), "already running") {
		t.Errorf("second runDesktop said %q, want it to say the app is already running", second.String())
	}
	if !running(context.Background(), dir) {
		t.Error("the second launch stopped the first app")
	}

	cancel()
	if err := <-errc; err != nil {
		t.Errorf("runDesktop after cancel = %v, want nil", err)
	}
	if !strings.Contains(log.String(), "--headless") {
		t.Errorf("runDesktop logged %q, want the reason for running without a window", log.String())
	}
	if running(context.Background(), dir) {
		t.Error("channel still served after runDesktop returned")
	}
}

// A binary built before the frontend would embed an empty dist and show a
// blank window; it must fail instead.
func TestRunDesktopRefusesMissingFrontend(t *testing.T) {
	env := desktopEnv{
		getenv: getenvFrom(map[string]string{"TESSERA_HOME": t.TempDir(), "TESSERA_RUNTIME_DIR": shortSocketDir(t), "DISPLAY": ":0"}),
		stderr: &lockedBuffer{}, goos: "linux", window: true,
	}
	assets := fstest.MapFS{"frontend/dist/.gitkeep": {}}
	err := runDesktop(context.Background(), assets, DesktopOptions{}, env)
	if !errors.Is(err, ErrNoWindow) {
		t.Errorf("runDesktop(no index.html) = %v, want ErrNoWindow", err)
	}
}

func TestRunDesktopBadChannelDir(t *testing.T) {
	file := filepath.Join(t.TempDir(), "not-a-dir")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	env := desktopEnv{
		getenv: getenvFrom(map[string]string{"TESSERA_HOME": t.TempDir(), "TESSERA_RUNTIME_DIR": file}),
		stderr: &lockedBuffer{}, goos: "linux", window: false,
	}
	if err := runDesktop(context.Background(), nil, DesktopOptions{}, env); err == nil {
		t.Errorf("runDesktop(channel dir is a file) = nil, want an error")
	}
}
