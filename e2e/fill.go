//go:build e2e && linux

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/tessera-app/tessera/nativemsg"
	"github.com/tessera-app/tessera/vault"
)

// The fill harness: a private Tessera installation (vault with a profile,
// passphrase-only), the app built with -tags testhooks and answering its
// confirmation dialogs as TESSERA_TEST_DECISION says, test pages served on
// 127.0.0.1, and helpers to start a fill through the service worker's
// globalThis.tessera.fill(tabId) and read what the page holds afterwards.

// ErrNoEvent is returned when the app did not log an expected dialog event
// in time.
var ErrNoEvent = errors.New("app logged no such event")

// BuildTessera builds the tessera binary into out, cgo off, with the build
// tags given (comma-separated; "" for none). When out is named tessera it
// builds the small tessera-host beside it too, as a release ships them:
// `tessera install` then registers that one (cmd/tessera-host).
func BuildTessera(ctx context.Context, root, out, tags string) error {
	if err := goBuild(ctx, root, out, tags, "."); err != nil {
		return err
	}
	if host := nativemsg.Sibling(out); host != "" {
		return goBuild(ctx, root, host, tags, "./cmd/tessera-host")
	}
	return nil
}

// goBuild builds pkg into out, cgo off, with the build tags given.
func goBuild(ctx context.Context, root, out, tags, pkg string) error {
	args := []string{"build", "-o", out}
	if tags != "" {
		args = append(args, "-tags", tags)
	}
	cmd := exec.CommandContext(ctx, "go", append(args, pkg)...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build -tags %q %s: %w\n%s", tags, pkg, err, b)
	}
	return nil
}

// BuildPages bundles the framework-driven test pages (e2e/pages: React and
// Vue from npm, esbuild) into dir. It needs `npm install` to have run in e2e/pages.
func BuildPages(ctx context.Context, root, dir string) error {
	pages := filepath.Join(root, "e2e", "pages")
	if _, err := os.Stat(filepath.Join(pages, "node_modules")); err != nil {
		return fmt.Errorf("test page dependencies missing: run `npm install --no-audit --no-fund` in %s", pages)
	}
	cmd := exec.CommandContext(ctx, "node", "build.mjs", "--outdir", dir)
	cmd.Dir = pages
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("build test pages: %w\n%s", err, b)
	}
	return nil
}

// A World is one private Tessera installation: its data directory (vault),
// channel directory, and the passphrase file of its vault. The OS keyring
// is off (TESSERA_KEYRING=none): the vault opens with the passphrase only.
type World struct {
	// Tessera is the binary the CLI commands and the app run from.
	Tessera string
	Home    string
	Runtime string
	// Passphrase is the file holding the vault passphrase.
	Passphrase string
}

// NewWorld makes a World in fresh directories under base (kept short: the
// socket path must fit in 108 bytes).
func NewWorld(tessera, base, passphrase string) (*World, error) {
	w := &World{Tessera: tessera, Passphrase: passphrase}
	for _, d := range []*string{&w.Home, &w.Runtime} {
		p, err := os.MkdirTemp(base, "w")
		if err != nil {
			return nil, err
		}
		*d = p
	}
	return w, nil
}

// Env is the environment that points tessera (CLI, app and host) at w.
func (w *World) Env() []string {
	return append(TesseraEnv(w.Home, w.Runtime), "TESSERA_KEYRING=none")
}

// CLI runs `tessera args...` in w and returns its standard output.
func (w *World) CLI(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, w.Tessera, args...)
	cmd.Env = append(os.Environ(), w.Env()...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("tessera %s: %w\n%s%s", strings.Join(args, " "), err, out.String(), errb.String())
	}
	return out.String(), nil
}

// Setup creates the vault (the lowest scrypt cost the CLI accepts) and
// imports the Formspec Assist profile JSON file profileJSON, while no app
// runs.
func (w *World) Setup(ctx context.Context, profileJSON string) error {
	if _, err := w.CLI(ctx, "vault", "init", "--passphrase-file", w.Passphrase, "--work-factor", "18"); err != nil {
		return err
	}
	_, err := w.CLI(ctx, "profile", "import", "--passphrase-file", w.Passphrase, profileJSON)
	return err
}

// Unlock unlocks the running app's vault the scripted way: `tessera vault
// unlock --passphrase-file F`, which acts through the app while it runs.
func (w *World) Unlock(ctx context.Context) error {
	_, err := w.CLI(ctx, "vault", "unlock", "--passphrase-file", w.Passphrase)
	return err
}

// ProfileJSON returns `tessera profile show --json id`: through the app
// while it runs, from the vault directly otherwise.
func (w *World) ProfileJSON(ctx context.Context, id string) (json.RawMessage, error) {
	out, err := w.CLI(ctx, "profile", "show", "--json", "--passphrase-file", w.Passphrase, id)
	if err != nil {
		return nil, err
	}
	return json.RawMessage(out), nil
}

// OpenVault opens w's vault and unlocks it with the passphrase; the caller
// closes it. The app must not be running (it holds the vault).
func (w *World) OpenVault() (*vault.Vault, error) {
	pass, err := os.ReadFile(w.Passphrase)
	if err != nil {
		return nil, err
	}
	v, err := vault.Open(w.Home, vault.Options{})
	if err != nil {
		return nil, err
	}
	if err := v.UnlockPassphrase(bytes.TrimRight(pass, "\r\n")); err != nil {
		v.Close()
		return nil, err
	}
	return v, nil
}

// Releases returns the audit log of w's vault (see OpenVault).
func (w *World) Releases() ([]vault.Release, error) {
	v, err := w.OpenVault()
	if err != nil {
		return nil, err
	}
	defer v.Close()
	return v.Releases()
}

// AppOptions say how a test app answers its dialogs.
type AppOptions struct {
	// Decision is TESSERA_TEST_DECISION: approve, deny or timeout.
	Decision string
	// ConfirmTimeout is TESSERA_TEST_CONFIRM_TIMEOUT ("" for the default).
	ConfirmTimeout string
	// Env is added to the app's environment (TESSERA_TEST_PAIR, ...).
	Env []string
	// Log receives the app's output (nil: discarded).
	Log io.Writer
}

// An App is a running headless test app.
type App struct {
	cmd *exec.Cmd
	// Events is the file the app logs its dialog events to
	// (TESSERA_TEST_EVENTS), one JSON object a line.
	Events string
	// runtime is the app's channel directory (World.Runtime).
	runtime string
	done    chan error
}

// Pid is the app's process id.
func (a *App) Pid() int { return a.cmd.Process.Pid }

// StartApp starts `tessera --headless` (a testhooks build) in w and waits
// until its channel accepts connections.
func (w *World) StartApp(opts AppOptions) (*App, error) {
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	a := &App{Events: filepath.Join(w.Home, "events.jsonl"), runtime: w.Runtime, done: make(chan error, 1)}
	os.Remove(a.Events)
	a.cmd = exec.Command(w.Tessera, "--headless")
	a.cmd.Env = append(os.Environ(), w.Env()...)
	a.cmd.Env = append(a.cmd.Env, "TESSERA_TEST_DECISION="+opts.Decision, "TESSERA_TEST_EVENTS="+a.Events)
	if opts.ConfirmTimeout != "" {
		a.cmd.Env = append(a.cmd.Env, "TESSERA_TEST_CONFIRM_TIMEOUT="+opts.ConfirmTimeout)
	}
	a.cmd.Env = append(a.cmd.Env, opts.Env...)
	a.cmd.Stdout, a.cmd.Stderr = opts.Log, opts.Log
	if err := a.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { a.done <- a.cmd.Wait() }()
	for deadline := time.Now().Add(10 * time.Second); ; {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		c, err := nativemsg.Dial(ctx, w.Runtime)
		cancel()
		if err == nil {
			c.Close()
			return a, nil
		}
		select {
		case err := <-a.done:
			return nil, fmt.Errorf("app exited before listening: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			a.Stop()
			return nil, fmt.Errorf("app did not listen within 10 s: %w", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop ends the app (SIGTERM, then SIGKILL after 5 s) and waits for it, so
// the vault is free to open. It may be called more than once. It stops as
// a person quitting does (nativemsg.MarkUserQuit): the extension
// reconnecting does not make its host start another app, which would hold
// the vault the test then opens. StopLettingHostsRestart leaves that to
// the hosts.
func (a *App) Stop() {
	if a.cmd.ProcessState != nil {
		return
	}
	if a.runtime != "" {
		if err := nativemsg.MarkUserQuit(a.runtime); err != nil {
			fmt.Fprintf(os.Stderr, "e2e: mark the app quit: %v\n", err)
		}
	}
	a.stop()
}

// StopLettingHostsRestart ends the app as a crash would: the next host the
// browser starts starts another app (in the background, --hidden).
func (a *App) StopLettingHostsRestart() {
	if a.cmd.ProcessState != nil {
		return
	}
	a.stop()
}

func (a *App) stop() {
	a.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-a.done:
	case <-time.After(5 * time.Second):
		a.cmd.Process.Kill()
		<-a.done
	}
}

// An AppEvent is one line of the app's TESSERA_TEST_EVENTS log
// (app/testhooks.go): a dialog presented, decided or withdrawn, or the
// unlock screen asked for, with its time in Unix nanoseconds.
type AppEvent struct {
	Event string `json:"event"`
	ID    string `json:"id"`
	// Kind is the dialog's: fill, continue, learn or pair.
	Kind string `json:"kind,omitempty"`
	// Rows, Checked and Attention count the dialog's rows, those checked
	// and those in its "not filled unless you tick them" section.
	Rows      int `json:"rows"`
	Checked   int `json:"checked"`
	Attention int `json:"attention"`
	// Notice and PageInitiated are what the dialog says of who asks and
	// where the values go (app.Confirmation).
	Notice        string `json:"notice,omitempty"`
	PageInitiated bool   `json:"pageInitiated,omitempty"`
	Site          string `json:"site,omitempty"`
	// Code and Browser are a pairing dialog's code and verified browser.
	Code    string `json:"code,omitempty"`
	Browser string `json:"browser,omitempty"`
	// FrameOrigin is the child frame an agent's question is about.
	FrameOrigin string `json:"frameOrigin,omitempty"`
	T           int64  `json:"t"`
}

// ReadEvents returns the events the app logged so far.
func (a *App) ReadEvents() ([]AppEvent, error) {
	f, err := os.Open(a.Events)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []AppEvent
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var e AppEvent
		if json.Unmarshal(sc.Bytes(), &e) == nil && e.Event != "" {
			out = append(out, e)
		}
	}
	return out, sc.Err()
}

// DialogEvents is ReadEvents without the pairing dialog's events: the
// dialogs a page's or agent's requests caused, not the extension's pairing
// when it connected.
func (a *App) DialogEvents() ([]AppEvent, error) {
	evs, err := a.ReadEvents()
	out := evs[:0]
	for _, e := range evs {
		if e.Kind != "pair" {
			out = append(out, e)
		}
	}
	return out, err
}

// WaitEvent waits up to timeout for the n-th (from 1) event named name of
// a dialog of kind ("" for any).
func (a *App) WaitEvent(name, kind string, n int, timeout time.Duration) (AppEvent, error) {
	deadline := time.Now().Add(timeout)
	for {
		evs, err := a.ReadEvents()
		if err != nil {
			return AppEvent{}, err
		}
		seen := 0
		for _, e := range evs {
			if e.Event == name && (kind == "" || e.Kind == kind) {
				if seen++; seen == n {
					return e, nil
				}
			}
		}
		if time.Now().After(deadline) {
			return AppEvent{}, fmt.Errorf("%w: %q of a %q dialog, #%d, within %v (log: %+v)", ErrNoEvent, name, kind, n, timeout, evs)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// FillResult is what globalThis.tessera.fill resolves with.
type FillResult struct {
	Status string `json:"status"` // filled, declined, failed
	Reason string `json:"reason,omitempty"`
	// Message is the sentence a person would see when it did not fill.
	Message string         `json:"message,omitempty"`
	Fill    string         `json:"fill,omitempty"`
	Fields  []FieldOutcome `json:"fields"`
}

// FieldOutcome is one approved field's fate in the page.
type FieldOutcome struct {
	Frame   int    `json:"frame"`
	Ref     string `json:"ref"`
	Outcome string `json:"outcome"`
}

// Count returns how many fields had outcome.
func (r FillResult) Count(outcome string) int {
	n := 0
	for _, f := range r.Fields {
		if f.Outcome == outcome {
			n++
		}
	}
	return n
}

// Fill starts a fill of the tab whose URL matches urlPattern (a
// chrome.tabs.query pattern) through the service worker's
// globalThis.tessera.fill and waits for it to end.
func Fill(sw context.Context, urlPattern string) (FillResult, error) {
	return Eval[FillResult](sw, fmt.Sprintf(`(async () => {
		const tabs = await chrome.tabs.query({url: %q});
		if (tabs.length !== 1) throw new Error('want one tab matching %s, got ' + tabs.length);
		if (typeof globalThis.tessera?.fill !== 'function') throw new Error('globalThis.tessera.fill is not there');
		return await globalThis.tessera.fill(tabs[0].id);
	})()`, urlPattern, urlPattern))
}

// PageState is what a page holds after a fill: every control's value keyed
// by its id (or name), prefixed "<host or iframe id>/" inside open shadow
// roots and iframes, and the input and change events each control received
// (as "input:<key>", in order).
type PageState struct {
	Values map[string]string `json:"values"`
	Events []string          `json:"events"`
	// Frames lists the origins of the iframes read, by iframe id.
	Frames map[string]string `json:"frames"`
}

// readPageJS walks the document, its open shadow roots and iframes: same-
// origin frames directly, cross-origin frames by asking their read.js.
const readPageJS = `(async () => {
	const values = {}, events = [], frames = {};
	const put = (el, prefix) => {
		const key = prefix + (el.id || el.name);
		if (el.type === 'radio' || el.type === 'checkbox') {
			if (el.checked) values[key] = el.value;
			else if (!(key in values)) values[key] = '';
		} else values[key] = el.value;
	};
	const asks = [];
	const walk = (root, prefix, win) => {
		for (const el of root.querySelectorAll('input,select,textarea')) put(el, prefix);
		for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot, prefix + (el.id || el.localName) + '/', null);
		for (const f of root.querySelectorAll('iframe')) {
			const p = prefix + (f.id || f.name) + '/';
			let doc = null;
			try { doc = f.contentDocument; } catch {}
			if (doc) {
				frames[p] = f.contentWindow.origin;
				walk(doc, p, f.contentWindow);
				continue;
			}
			asks.push(new Promise((resolve) => {
				const ch = new MessageChannel();
				const t = setTimeout(() => { frames[p] = 'unreadable'; resolve(); }, 3000);
				ch.port1.onmessage = (e) => {
					clearTimeout(t);
					frames[p] = e.data.origin;
					for (const [k, v] of Object.entries(e.data.values)) values[p + k] = v;
					for (const ev of e.data.events) events.push(ev.replace(':', ':' + p));
					resolve();
				};
				f.contentWindow.postMessage('tessera-e2e-read', '*', [ch.port2]);
			}));
		}
		if (win && win.__e2eEvents) for (const ev of win.__e2eEvents) events.push(ev.replace(':', ':' + prefix));
	};
	walk(document, '', window);
	await Promise.all(asks);
	return {values, events, frames};
})()`

// ReadPage reads tab's state (see PageState).
func ReadPage(tab context.Context) (PageState, error) {
	return Eval[PageState](tab, readPageJS)
}

// Pages serves the test pages: the files of its directories (the first
// that has a path wins) on 127.0.0.1, and the same again on a second port,
// a different origin for cross-origin frames. In HTML files
// __CROSS_ORIGIN__ becomes the second server's origin and
// __LOCALHOST_ORIGIN__ the first's under the name localhost (another
// origin the test build of the extension has no host access to). A POST
// (a form submitted) is answered with a short "received" page.
type Pages struct {
	// URL is http://127.0.0.1:PORT, CrossURL http://127.0.0.1:PORT2,
	// LocalhostURL http://localhost:PORT.
	URL, CrossURL, LocalhostURL string
	main, cross                 *httptest.Server
}

// ServePages starts the page servers over dirs.
func ServePages(dirs ...string) (*Pages, error) {
	p := &Pages{}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			r.ParseForm()
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, "<!doctype html><title>Received</title><h1 id=received>Received %d fields</h1>", len(r.PostForm))
			return
		}
		name := filepath.Clean("/" + r.URL.Path)
		if name == "/" {
			name = "/index.html"
		}
		for _, d := range dirs {
			b, err := os.ReadFile(filepath.Join(d, name))
			if err != nil {
				continue
			}
			switch filepath.Ext(name) {
			case ".html":
				b = bytes.ReplaceAll(b, []byte("__CROSS_ORIGIN__"), []byte(p.CrossURL))
				b = bytes.ReplaceAll(b, []byte("__LOCALHOST_ORIGIN__"), []byte(p.LocalhostURL))
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
			case ".js":
				w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
			case ".css":
				w.Header().Set("Content-Type", "text/css; charset=utf-8")
			}
			w.Header().Set("Cache-Control", "no-store")
			w.Write(b)
			return
		}
		http.NotFound(w, r)
	})
	start := func() (*httptest.Server, error) {
		s := httptest.NewUnstartedServer(h)
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		s.Listener = ln
		s.Start()
		return s, nil
	}
	var err error
	if p.main, err = start(); err != nil {
		return nil, err
	}
	if p.cross, err = start(); err != nil {
		p.main.Close()
		return nil, err
	}
	p.URL, p.CrossURL = p.main.URL, p.cross.URL
	p.LocalhostURL = strings.Replace(p.main.URL, "127.0.0.1", "localhost", 1)
	return p, nil
}

// Close stops both servers.
func (p *Pages) Close() {
	p.main.Close()
	p.cross.Close()
}

// Open navigates tab to url and waits for the page to have loaded.
func Open(tab context.Context, url string) error {
	if err := chromedp.Do(tab, chromedp.Navigate(url)); err != nil {
		return fmt.Errorf("open %s: %w", url, err)
	}
	_, err := chromedp.Run(tab, chromedp.Poll[bool](`document.readyState === 'complete'`, chromedp.WithPollingTimeout(10*time.Second)))
	return err
}
