//go:build e2e && linux

package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/tessera-app/tessera/nativemsg"
)

// ErrNoServiceWorker is returned when the extension's service worker does
// not show up in the browser in time (extension not loaded, or wrong ID).
var ErrNoServiceWorker = errors.New("extension service worker not found")

// Chromium returns the Chromium binary to drive: $TESSERA_CHROMIUM, else
// Debian's /usr/lib/chromium/chromium.
func Chromium() string {
	if p := os.Getenv("TESSERA_CHROMIUM"); p != "" {
		return p
	}
	return "/usr/lib/chromium/chromium"
}

// RepoRoot returns the repository root: the nearest directory above the
// working directory holding go.mod.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("repository root (go.mod) not found above the working directory")
		}
		dir = parent
	}
}

// Artifacts are the built things a run needs.
type Artifacts struct {
	// Tessera is the tessera binary (built without desktop tags: the app
	// runs headless).
	Tessera string
	// Host is the tessera-host beside it, which Install registers.
	Host string
	// EchoHost is the bare echo native host.
	EchoHost string
	// Extension is the unpacked test build of the extension.
	Extension string
}

// Build builds tessera, tessera-host beside it, the echo host and the
// extension's test build into dir. The extension needs `npm install` to have run in extension/.
func Build(ctx context.Context, root, dir string) (Artifacts, error) {
	a := Artifacts{
		Tessera:   filepath.Join(dir, "tessera"),
		Host:      filepath.Join(dir, "tessera-host"),
		EchoHost:  filepath.Join(dir, "echohost"),
		Extension: filepath.Join(dir, "extension"),
	}
	if err := BuildTessera(ctx, root, a.Tessera, ""); err != nil {
		return a, err
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-o", a.EchoHost, "./e2e/echohost")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return a, fmt.Errorf("go build ./e2e/echohost: %w\n%s", err, b)
	}
	return a, BuildExtension(ctx, root, a.Extension)
}

// BuildExtension writes the extension's test build into out. It needs
// `npm install` to have run in extension/.
func BuildExtension(ctx context.Context, root, out string) error {
	extDir := filepath.Join(root, "extension")
	if _, err := os.Stat(filepath.Join(extDir, "node_modules")); err != nil {
		return fmt.Errorf("extension dependencies missing: run `npm install --no-audit --no-fund` in %s", extDir)
	}
	cmd := exec.CommandContext(ctx, "node", "build.mjs", "--test", "--outdir", out)
	cmd.Dir = extDir
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("build extension: %w\n%s", err, b)
	}
	return nil
}

// Install registers Tessera's native host for a Chromium profile the way a
// person does: `tessera install --browser chromium --user-data-dir udd`,
// which registers the tessera-host beside tessera (BuildTessera builds it).
func Install(ctx context.Context, tessera, udd string) error {
	cmd := exec.CommandContext(ctx, tessera, "install", "--browser", "chromium", "--user-data-dir", udd)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("tessera install: %w\n%s", err, b)
	}
	// The browser must start the small host when it is there.
	want := tessera
	if host := nativemsg.Sibling(tessera); host != "" {
		if _, err := os.Stat(host); err == nil {
			want = host
		}
	}
	b, err := os.ReadFile(filepath.Join(udd, "NativeMessagingHosts", nativemsg.HostName+".json"))
	if err != nil {
		return fmt.Errorf("tessera install: %w", err)
	}
	var m nativemsg.Manifest
	if err := json.Unmarshal(b, &m); err != nil || m.Path != want {
		return fmt.Errorf("tessera install registered %s (%v), want %s", m.Path, err, want)
	}
	return nil
}

// InstallEcho registers the echo host under Tessera's host name for a
// Chromium profile, with the same manifest shape tessera install writes.
func InstallEcho(echoHost, udd string) error {
	m, err := json.MarshalIndent(map[string]any{
		"name":            nativemsg.HostName,
		"description":     "Tessera echo host (benchmark floor)",
		"path":            echoHost,
		"type":            "stdio",
		"allowed_origins": []string{"chrome-extension://" + nativemsg.ChromeExtensionID + "/"},
	}, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Join(udd, "NativeMessagingHosts")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, nativemsg.HostName+".json"), m, 0o644)
}

// TesseraEnv returns the environment that points tessera (app and host) at
// private directories: data in home, the socket in runtime.
func TesseraEnv(home, runtime string) []string {
	return []string{"TESSERA_HOME=" + home, "TESSERA_RUNTIME_DIR=" + runtime}
}

// A Browser is a running headless Chromium with the extension loaded.
type Browser struct {
	// UserDataDir is the browser's profile directory.
	UserDataDir string
	ctx         context.Context
	cancel      context.CancelFunc
	detach      []context.CancelFunc // of attached service workers
}

// BrowserConfig says how to start a Browser.
type BrowserConfig struct {
	Extension   string
	UserDataDir string
	// Env is added to the browser's environment; Chromium passes it on to
	// the native host it starts.
	Env []string
	// Log receives the browser's own output (nil: discarded).
	Log io.Writer
}

// StartBrowser starts Chromium headless with only the extension enabled.
// The flags are the ones PLATFORM.md verified; root needs --no-sandbox.
func StartBrowser(ctx context.Context, cfg BrowserConfig) (*Browser, error) {
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(Chromium()),
		chromedp.Flag("headless", "new"),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions-except", cfg.Extension),
		chromedp.Flag("load-extension", cfg.Extension),
		chromedp.UserDataDir(cfg.UserDataDir),
		chromedp.Env(cfg.Env...),
		chromedp.CombinedOutput(cfg.Log),
	}
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	bctx, bcancel := chromedp.NewContext(actx)
	if err := chromedp.Do(bctx); err != nil {
		bcancel()
		acancel()
		return nil, fmt.Errorf("start chromium: %w", err)
	}
	return &Browser{UserDataDir: cfg.UserDataDir, ctx: bctx, cancel: func() { bcancel(); acancel() }}, nil
}

// Close ends the browser (and with it the native hosts it started, which
// exit on end of input).
func (b *Browser) Close() {
	for _, d := range b.detach {
		d()
	}
	b.cancel()
}

// ExtensionOrigin is the extension's origin, fixed by its manifest key.
const ExtensionOrigin = "chrome-extension://" + nativemsg.ChromeExtensionID + "/"

// ServiceWorker attaches to the extension's service worker, waiting up to
// timeout for it to start. Its URL carries the extension ID, so finding it
// also proves the manifest key gives nativemsg.ChromeExtensionID.
func (b *Browser) ServiceWorker(timeout time.Duration) (context.Context, error) {
	return b.Attach("service_worker", ExtensionOrigin+"background.js", false, timeout)
}

// Attach attaches to the first target of type typ at url (with fresh, one
// nothing is attached to yet: a new popup, not the last one closing),
// waiting up to timeout for one to appear; it is detached when the browser
// closes.
func (b *Browser) Attach(typ, url string, fresh bool, timeout time.Duration) (context.Context, error) {
	deadline := time.Now().Add(timeout)
	var seen []string
	for {
		infos, err := chromedp.Targets(b.ctx)
		if err != nil {
			return nil, fmt.Errorf("list targets: %w", err)
		}
		seen = seen[:0]
		for _, t := range infos {
			if t.Type == typ && t.URL == url && !(fresh && t.Attached) {
				ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithTargetID(t.TargetID))
				b.detach = append(b.detach, cancel)
				if err := chromedp.Do(ctx); err != nil {
					return nil, fmt.Errorf("attach to %s %s: %w", typ, url, err)
				}
				return ctx, nil
			}
			seen = append(seen, t.Type+" "+t.URL)
		}
		if time.Now().After(deadline) {
			err := fmt.Errorf("no %s %s after %v, targets %q", typ, url, timeout, seen)
			if typ == "service_worker" {
				err = fmt.Errorf("%w after %v: want %s, targets %q", ErrNoServiceWorker, timeout, url, seen)
			}
			return nil, err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Tab opens a new tab at url; cancel closes it.
func (b *Browser) Tab(url string) (context.Context, context.CancelFunc, error) {
	ctx, cancel := chromedp.NewContext(b.ctx)
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		cancel()
		return nil, nil, fmt.Errorf("open %s: %w", url, err)
	}
	return ctx, cancel, nil
}

// Eval evaluates expr in ctx's target (a tab or the service worker),
// awaiting a promise, and decodes the value into T.
func Eval[T any](ctx context.Context, expr string) (T, error) {
	return chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
}

// StopStrays ends every process running the executable exe, by pid: the
// apps that hosts started on their own (tessera --hidden, detached) outlive
// the browser. exe is a binary of this run's temporary directory, so only
// this run's processes match.
func StopStrays(exe string) []int {
	var stopped []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if path, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe")); err == nil && strings.TrimSuffix(path, " (deleted)") == exe {
			if syscall.Kill(pid, syscall.SIGTERM) == nil {
				stopped = append(stopped, pid)
			}
		}
	}
	return stopped
}
