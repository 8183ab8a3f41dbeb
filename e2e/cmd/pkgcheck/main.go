//go:build e2e && linux

// Command pkgcheck is the browser half of scripts/test-package.sh: run
// inside the clean Debian root where the .deb is installed, it starts that
// root's Chromium with the extension's test build and a fresh profile (so
// no per-user host manifest exists), waits for the service worker to reach
// the installed app through the system-wide manifest
// (/etc/chromium/native-messaging-hosts → /usr/lib/tessera/tessera-host),
// and prints the connection status as JSON. It fails unless the state,
// the app's version and the vault state are the ones asked for.
//
//	pkgcheck -extension DIR [-udd DIR] [-state S] [-version V] [-vault unlocked]
//	         [-pair] [-pages DIR -fill PAGE]
//
// With -pair the app runs with its window (under Xvfb): the pairing dialog
// is approved there as a person would, with a click on Approve (xdotool),
// and the state must become connected. With -fill, PAGE (served from DIR on 127.0.0.1) is
// filled through globalThis.tessera.fill, the fill dialog approved the same
// way, and the page must then hold the test profile's e-mail address.
//
// TESSERA_HOME and TESSERA_RUNTIME_DIR pass through the browser to the host.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/tessera-app/tessera/e2e"
)

type status struct {
	State string `json:"state"`
	App   *struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"app"`
	Vault   string `json:"vault"`
	Session string `json:"session"`
	Detail  string `json:"detail"`
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "pkgcheck:", err)
		os.Exit(1)
	}
}

func run() error {
	ext := flag.String("extension", "", "the extension's unpacked test build")
	state := flag.String("state", "unpaired", "the connection state to wait for")
	version := flag.String("version", "", "the app version hello must report (empty: any)")
	vaultState := flag.String("vault", "", "the vault state hello must report (empty: any)")
	uddFlag := flag.String("udd", "", "the browser profile to use and keep (default: a new one, removed after)")
	pair := flag.Bool("pair", false, "approve the pairing in the app's window, then want state connected")
	pagesDir := flag.String("pages", "", "the directory of test pages")
	fillPage := flag.String("fill", "", "a page of -pages to fill, approving in the app's window")
	flag.Parse()
	udd := *uddFlag
	if udd == "" {
		d, err := os.MkdirTemp("", "pkgcheck-udd-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		udd = d
	}
	// The X display is the app's: a headless Chromium has no business on
	// it, and xdotool below gets it explicitly.
	display := os.Getenv("DISPLAY")
	os.Unsetenv("DISPLAY")
	xdisplay = display
	var log strings.Builder
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	env := []string{"TESSERA_HOME=" + os.Getenv("TESSERA_HOME"), "TESSERA_RUNTIME_DIR=" + os.Getenv("TESSERA_RUNTIME_DIR")}
	b, err := e2e.StartBrowser(ctx, e2e.BrowserConfig{Extension: *ext, UserDataDir: udd, Env: env, Log: &log})
	if err != nil {
		return err
	}
	defer b.Close()
	sw, err := b.ServiceWorker(30 * time.Second)
	if err != nil {
		return fmt.Errorf("%w\nbrowser output:\n%s", err, log.String())
	}
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if ok, err := e2e.Eval[bool](sw, `globalThis.tesseraTest !== undefined`); err == nil && ok {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the service worker never installed its test hooks")
		}
	}
	if *pair {
		if _, err := e2e.Eval[status](sw, `tesseraTest.waitFor('pairing', 30000)`); err != nil {
			return fmt.Errorf("never pairing: %w", err)
		}
		// As for a fill, the click is repeated while pairing waits: on a
		// loaded machine the dialog may show after the first click.
		for try, connected := 0, false; try < fillClicks && !connected; try++ {
			if err := approveInWindow(pairApprove); err != nil {
				return err
			}
			if connected, err = e2e.Eval[bool](sw, `tesseraTest.waitFor('connected', 20000).then(() => true, () => false)`); err != nil {
				return fmt.Errorf("status: %w", err)
			}
		}
		*state = "connected"
	}
	s, err := e2e.Eval[status](sw, fmt.Sprintf(`tesseraTest.waitFor(%q, 30000).catch(() => tesseraTest.status())`, *state))
	if err != nil {
		return fmt.Errorf("status: %w\nbrowser output:\n%s", err, log.String())
	}
	out, _ := json.Marshal(s)
	fmt.Println(string(out))
	switch {
	case s.State != *state:
		return fmt.Errorf("state %q (%s), want %q\nbrowser output:\n%s", s.State, s.Detail, *state, log.String())
	case s.App == nil || s.App.Name != "tessera" || s.Session == "":
		return fmt.Errorf("hello reached no tessera app: %s", out)
	case *version != "" && s.App.Version != *version:
		return fmt.Errorf("app version %q, want %q (the installed package's)", s.App.Version, *version)
	case *vaultState != "" && s.Vault != *vaultState:
		return fmt.Errorf("vault %q, want %q", s.Vault, *vaultState)
	}
	if *fillPage != "" {
		return fill(ctx, b, sw, *pagesDir, *fillPage)
	}
	return nil
}

// fill opens page, fills it with the dialog approved in the app's window,
// and checks the e-mail field got the profile's address.
func fill(ctx context.Context, b *e2e.Browser, sw context.Context, dir, page string) error {
	pages, err := e2e.ServePages(dir)
	if err != nil {
		return err
	}
	defer pages.Close()
	url := pages.URL + "/" + page
	tab, cancel, err := b.Tab(url)
	if err != nil {
		return err
	}
	defer cancel()
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.readyState === 'complete'`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		return fmt.Errorf("%s never loaded: %w", url, err)
	}
	type outcome struct {
		r   e2e.FillResult
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		r, err := e2e.Fill(sw, url)
		done <- outcome{r, err}
	}()
	// The dialog shows once the app has measured the page; approve it then.
	// On a loaded machine it may show after the click, which then meets
	// the main window under it: the click is repeated while the fill
	// waits.
	time.Sleep(4 * time.Second)
	var o outcome
	ended := false
	for try := 0; try < fillClicks && !ended; try++ {
		if err := approveInWindow(fillApprove); err != nil {
			return err
		}
		select {
		case o = <-done:
			ended = true
		case <-time.After(20 * time.Second):
		}
	}
	if !ended {
		return fmt.Errorf("fill of %s never ended (%d clicks on Approve)", url, fillClicks)
	}
	if o.err != nil {
		return fmt.Errorf("fill: %w", o.err)
	}
	st, err := e2e.ReadPage(tab)
	if err != nil {
		return err
	}
	out, _ := json.Marshal(map[string]any{"fill": o.r.Status, "fields": len(o.r.Fields), "email": st.Values["email"], "fullname": st.Values["fullname"]})
	fmt.Println(string(out))
	if o.r.Status != "filled" || st.Values["email"] != "ada@example.org" {
		return fmt.Errorf("fill %s: status %q (%s), email %q, want filled with ada@example.org", page, o.r.Status, o.r.Message, st.Values["email"])
	}
	return nil
}

// xdisplay is the X display the app's window is on.
var xdisplay string

// xdotool runs xdotool on the app's display.
func xdotool(args ...string) *exec.Cmd {
	c := exec.Command("xdotool", args...)
	c.Env = append(os.Environ(), "DISPLAY="+xdisplay)
	return c
}

// Where Approve is in the app's window (1000×700, its default size; no
// window manager runs under the test's Xvfb, so the window is not resized):
// in the pairing dialog, and in a fill dialog tall enough to reach its
// largest height (checkout.html's nine fields do). A click there is what a
// person does; keyboard events sent with xdotool never reached the WebKit
// view under Xvfb without a window manager (tried: focus, pointer, delays).
// A change of the dialogs' layout moves these; the test then fails with
// the dialog still open, never by denying.
var (
	pairApprove = [2]string{"813", "500"}
	fillApprove = [2]string{"799", "640"}
)

// fillClicks is how many times Approve is clicked, 20 s apart, before a
// fill (or a pairing) that has not ended fails.
const fillClicks = 3

// approveInWindow clicks at (x, y) in the app's window once Approve there
// is awake (it is disabled for app.DefaultApproveDelay, 0.8 s, after the
// dialog shows; the window needs a moment more on a loaded machine).
func approveInWindow(at [2]string) error {
	out, err := xdotool("search", "--sync", "--onlyvisible", "--name", "Tessera").Output()
	win := strings.Fields(string(out))
	if err != nil || len(win) == 0 {
		return fmt.Errorf("no Tessera window on %s: %v", xdisplay, err)
	}
	time.Sleep(3 * time.Second)
	fmt.Fprintf(os.Stderr, "pkgcheck: %s: click Approve at %s,%s in the app's window\n", time.Now().Format("15:04:05.000"), at[0], at[1])
	for _, args := range [][]string{
		{"mousemove", "--window", win[len(win)-1], at[0], at[1]},
		{"click", "1"},
	} {
		if b, err := xdotool(args...).CombinedOutput(); err != nil {
			return fmt.Errorf("xdotool %s: %v: %s", strings.Join(args, " "), err, b)
		}
		time.Sleep(300 * time.Millisecond)
	}
	return nil
}
