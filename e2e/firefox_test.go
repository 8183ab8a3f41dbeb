//go:build e2e && firefox && linux

package e2e

// The Firefox end-to-end tests (issue 16): Debian's firefox-esr, headless,
// driven over WebDriver BiDi by e2e/firefox/run.mjs (puppeteer-core), the
// extension's Firefox test build installed as a temporary add-on, the real
// host registered by `tessera install --browser firefox` and the real
// testhooks app. Run with:
//
//	go test -count=1 -tags e2e,firefox -run Firefox ./e2e/
//
// They need firefox-esr (scripts/deps-debian.sh) and `npm install` in
// e2e/firefox.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tessera-app/tessera/nativemsg"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

// Firefox returns the Firefox binary to drive: $TESSERA_FIREFOX, else
// Debian's /usr/bin/firefox-esr.
func Firefox() string {
	if p := os.Getenv("TESSERA_FIREFOX"); p != "" {
		return p
	}
	return "/usr/bin/firefox-esr"
}

// ffPage is one page for run.mjs to fill (see its CONFIG).
type ffPage struct {
	Name  string `json:"name"`
	URL   string `json:"url"`
	Arm   bool   `json:"arm,omitempty"`
	Probe string `json:"probe,omitempty"`
	// Type and Submit make it a learn page: typed and submitted, not filled.
	Type   [][2]string `json:"type,omitempty"`
	Submit string      `json:"submit,omitempty"`
	// Trigger ("popup", "menu", "shortcut") fills the page the way a person
	// does, on the editable box Field (see firefox_triggers_test.go).
	Trigger string `json:"trigger,omitempty"`
	Field   string `json:"field,omitempty"`
	// ProbeOnly evaluates Probe and fills nothing (the Formspec tools test).
	ProbeOnly bool `json:"probeOnly,omitempty"`
	// Hold, a path, fills nothing: run.mjs writes Hold+".ready" once the
	// page is open and reads the page once the test writes Hold+".done".
	Hold string `json:"hold,omitempty"`
}

// ffConfig is run.mjs's CONFIG.
type ffConfig struct {
	Firefox   string   `json:"firefox"`
	Extension string   `json:"extension"`
	Home      string   `json:"home"`
	Host      string   `json:"host"`
	ReadPage  string   `json:"readPage"`
	Pages     []ffPage `json:"pages"`
	Bench     *ffBench `json:"bench,omitempty"`
	AddonID   string   `json:"addonId,omitempty"`
	UUID      string   `json:"uuid,omitempty"`
}

type ffBench struct {
	URL string `json:"url"`
	N   int    `json:"n"`
	// AppPid is the app's process, whose CPU and wake-ups run.mjs reads
	// beside the host's (0: none, the echo floor).
	AppPid int `json:"appPid,omitempty"`
	// FloorHome, when set, is a HOME registering the echo host: run.mjs
	// then times it in a second Firefox, in turns of Chunk calls (default
	// 100) with Tessera's, so that both meet the same load.
	FloorHome string `json:"floorHome,omitempty"`
	Chunk     int    `json:"chunk,omitempty"`
}

// ffBenchResult is a round-trip benchmark's summary (bench.ts BenchResult)
// with what the processes on the path spent.
type ffBenchResult struct {
	N     int               `json:"n"`
	P50   float64           `json:"p50"`
	P99   float64           `json:"p99"`
	Procs map[string]ffProc `json:"procs"`
}

// ffProc is what a process spent over a benchmark run (run.mjs procStats).
type ffProc struct {
	CPUMs       float64 `json:"cpuMs"`
	Voluntary   int     `json:"voluntary"`
	Involuntary int     `json:"involuntary"`
	Threads     int     `json:"threads"`
}

// perCall says what p spent per call of a run of calls (warm-up included).
func (p ffProc) perCall(calls int) string {
	c := float64(calls)
	return fmt.Sprintf("%.0f µs CPU, %.2f wake-ups, %.2f preemptions per call (%d threads)", p.CPUMs*1000/c, float64(p.Voluntary)/c, float64(p.Involuntary)/c, p.Threads)
}

// ffRun is what run.mjs prints.
type ffRun struct {
	Addon   string `json:"addon"`
	Browser string `json:"browser"`
	Status  struct {
		State string `json:"state"`
		App   struct {
			Name string `json:"name"`
		} `json:"app"`
		Error string `json:"error"`
	} `json:"status"`
	Host *struct {
		Args      []string `json:"args"`
		ParentExe string   `json:"parentExe"`
	} `json:"host"`
	Pages []struct {
		Name   string     `json:"name"`
		Result FillResult `json:"result"`
		State  PageState  `json:"state"`
		Probe  any        `json:"probe"`
		Error  string     `json:"error"`
		// What the triggers saw: the popup's words on the fill, the
		// context menu item chosen, the element the keys went to.
		Popup string `json:"popup"`
		Menu  string `json:"menu"`
		Keys  string `json:"keys"`
	} `json:"pages"`
	Bench *ffBenchResult `json:"bench"`
	// Floor is the echo host's, timed beside Bench (ffBench.FloorHome).
	Floor *ffBenchResult `json:"floor"`
	Error string         `json:"error"`
}

// runFirefox runs e2e/firefox/run.mjs with cfg in env (added to this
// process's; Firefox passes it on to the host) and returns its report.
func runFirefox(t *testing.T, cfg ffConfig, env []string) ffRun {
	t.Helper()
	return startFirefox(t, cfg, env)(t)
}

// startFirefox starts run.mjs as runFirefox does and returns the wait for
// its report, so that the test can act (as an agent) while Firefox runs.
func startFirefox(t *testing.T, cfg ffConfig, env []string) func(t *testing.T) ffRun {
	t.Helper()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "e2e", "firefox")
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); err != nil {
		t.Fatalf("puppeteer-core missing: run `npm install --no-audit --no-fund` in %s", dir)
	}
	if _, err := os.Stat(Firefox()); err != nil {
		t.Fatalf("firefox not found (%v): run scripts/deps-debian.sh or set TESSERA_FIREFOX", err)
	}
	cfg.Firefox, cfg.Extension, cfg.Host, cfg.ReadPage = Firefox(), art.Extension+"-firefox", nativemsg.HostName, readPageJS
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	cmd := exec.CommandContext(ctx, "node", "run.mjs", file)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr, stdout syncBuffer
	cmd.Stderr, cmd.Stdout = &stderr, &stdout
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("node run.mjs: %v", err)
	}
	t.Cleanup(func() {
		// A test that ended early lets run.mjs finish (holdFirefox's
		// cleanup releases its pages) and close Firefox itself; killing
		// node would leave Firefox running.
		exited := make(chan struct{})
		go func() {
			cmd.Wait()
			close(exited)
		}()
		select {
		case <-exited:
		case <-time.After(time.Minute):
		}
		cancel()
		<-exited
	})
	return func(t *testing.T) ffRun {
		t.Helper()
		err := cmd.Wait()
		cancel()
		t.Logf("node run.mjs: %v", time.Since(t0).Round(time.Millisecond))
		if err != nil {
			t.Fatalf("node run.mjs: %v\n%s", err, stderr.String())
		}
		var r ffRun
		if err := json.Unmarshal([]byte(stdout.String()), &r); err != nil {
			t.Fatalf("run.mjs printed %q: %v\n%s", stdout.String(), err, stderr.String())
		}
		if r.Error != "" {
			t.Fatalf("run.mjs: %s", r.Error)
		}
		return r
	}
}

// ffWorld is newFillEnv for Firefox: the world, the testhooks app answering
// with decision, the vault unlocked, the pages served, and a HOME whose
// ~/.mozilla holds the host manifest `tessera install --browser firefox`
// wrote there.
func ffWorld(t *testing.T, decision string) (*fillEnv, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	base, err := os.MkdirTemp("", "tsr-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	f := &fillEnv{appLog: &syncBuffer{}}
	if f.w, err = NewWorld(fillArt.tessera, base, fillArt.passphrase); err != nil {
		t.Fatal(err)
	}
	if err := f.w.Setup(ctx, fillArt.profile); err != nil {
		t.Fatalf("vault set-up: %v", err)
	}
	if f.pages, err = ServePages(fillArt.bundles, fillArt.pages); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.pages.Close)
	if f.app, err = f.w.StartApp(AppOptions{Decision: decision, Log: f.appLog}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		f.app.Stop()
		if t.Failed() {
			t.Logf("app log:\n%s", f.appLog.String())
		}
	})
	if err := f.w.Unlock(ctx); err != nil {
		t.Fatalf("unlock the vault through the running app: %v", err)
	}
	home, err := os.MkdirTemp(base, "h")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, f.w.Tessera, "install", "--browser", "firefox")
	cmd.Env = append(os.Environ(), "HOME="+home)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tessera install --browser firefox: %v\n%s", err, b)
	}
	return f, home
}

// TestFirefoxFill: in Firefox ESR, the extension says hello to the app
// through the host Firefox started (whose parent is Firefox itself, so the
// app verifies it), and fills the checkout page, the hostile page (nothing
// hidden filled) and a form in a same-origin iframe, each approved; then a
// person types new details into a form and submits it, and the approved
// learn puts them in the profile (never the password).
func TestFirefoxFill(t *testing.T) {
	const (
		newEmail = "ada.king@example.org"
		company  = "Analytical Engines Ltd"
		secret   = "Analytical-Engine-1843"
	)
	f, home := ffWorld(t, "approve")
	cases := []struct {
		name, path string
		arm        bool
		probe      string
		want       map[string]string
	}{
		{name: "checkout", path: "/checkout.html", want: map[string]string{
			"email": email, "phone": tel, "fullname": name, "addr1": line1, "addr2": line2, "city": city,
			"region": region, "postcode": postcode, "country": country,
			"ccname": "", "ccnumber": "", "ccexp": "", "cvc": "",
		}},
		{name: "hostile", path: "/hostile.html", arm: true,
			probe: `window.__swapped === true && document.getElementById('swap_email').type === 'password'`,
			want:  map[string]string{"name": name, "city": city, "country": country}},
		{name: "open shadow root", path: "/shadow.html", want: map[string]string{
			"contact/given": given, "contact/family": family, "contact/email": email, "contact/phone": tel,
			"contact/message": "",
		}},
		{name: "react", path: "/react.html", probe: frameworkProbe("__reactState"), want: map[string]string{
			"fullName": name, "email": email, "phone": tel, "street": street, "city": city,
			"postcode": postcode, "country": country, "birthDate": birth,
		}},
		{name: "vue", path: "/vue.html", probe: frameworkProbe("__vueState"), want: map[string]string{
			"givenName": given, "familyName": family, "email": email, "phone": tel, "city": city,
			"postcode": postcode, "country": country, "newsletter": "",
		}},
		{name: "same-origin iframe", path: "/iframe.html", want: map[string]string{
			"booking/name": name, "booking/email": email, "booking/phone": tel, "booking/street": street,
			"booking/city": city, "booking/state": region, "booking/zip": postcode,
		}},
	}
	cfg := ffConfig{Home: home}
	for _, c := range cases {
		cfg.Pages = append(cfg.Pages, ffPage{Name: c.name, URL: f.pages.URL + c.path, Arm: c.arm, Probe: c.probe})
	}
	cfg.Pages = append(cfg.Pages, ffPage{Name: "learn", URL: f.pages.URL + "/learn.html", Submit: "#save", Type: [][2]string{
		{"#name", name}, {"#email", newEmail}, {"#company", company}, {"#password", secret},
	}})
	r := runFirefox(t, cfg, f.w.Env())
	t.Logf("%s, add-on %s, host %+v", r.Browser, r.Addon, r.Host)

	t.Run("hello", func(t *testing.T) {
		if r.Addon != nativemsg.FirefoxAddonID {
			t.Errorf("add-on id = %q, want %q (the host manifest's allowed_extensions)", r.Addon, nativemsg.FirefoxAddonID)
		}
		if r.Status.State != "connected" || r.Status.App.Name == "" {
			t.Fatalf("extension status = %+v, want connected to the app", r.Status)
		}
		// Issue 18: connected means paired; the app's pairing dialog named
		// the verified Firefox and showed a code.
		if ev, err := f.app.WaitEvent("decided", "pair", 1, 5*time.Second); err != nil || ev.Browser != "firefox" || ev.Code == "" {
			t.Errorf("pairing dialog = %+v (%v), want one naming firefox, with a code", ev, err)
		}
		// PROTOCOL.md §2.1: the app serves the host only when its parent
		// is a root-owned browser executable; Firefox must start the
		// host itself, with the manifest path and the add-on id.
		if r.Host == nil {
			t.Fatal("no host process started for the manifest in HOME/.mozilla")
		}
		manifest := filepath.Join(home, ".mozilla", "native-messaging-hosts", nativemsg.HostName+".json")
		if len(r.Host.Args) != 2 || r.Host.Args[0] != manifest || r.Host.Args[1] != nativemsg.FirefoxAddonID {
			t.Errorf("host arguments = %q, want [%q %q]", r.Host.Args, manifest, nativemsg.FirefoxAddonID)
		}
		if fam := nativemsg.BrowserFamily(r.Host.ParentExe); fam != "firefox" {
			t.Errorf("host parent = %q (family %q), want Firefox's own executable", r.Host.ParentExe, fam)
		}
	})
	if len(r.Pages) != len(cases)+1 {
		t.Fatalf("run.mjs reported %d pages, want %d", len(r.Pages), len(cases)+1)
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := r.Pages[i]
			if p.Error != "" {
				t.Fatalf("%s: %s", c.path, p.Error)
			}
			t.Logf("fill result: %+v", p.Result)
			if p.Result.Status != "filled" {
				t.Errorf("fill status = %q (reason %q), want filled", p.Result.Status, p.Result.Reason)
			}
			if n := p.Result.Count("filled"); n != filledWant(c.want) {
				t.Errorf("fill reported %d fields filled, want %d: %+v", n, filledWant(c.want), p.Result.Fields)
			}
			if c.arm {
				// As in Chromium: the email box turned password (changed),
				// the phone box moved out of sight (hidden).
				if p.Result.Count("changed") != 1 || p.Result.Count("hidden") != 1 {
					t.Errorf("fill outcomes %+v, want one changed and one hidden", p.Result.Fields)
				}
				if p.Probe != true {
					t.Errorf("the page never swapped its fields (the extension's stamps were not seen): probe = %v", p.Probe)
				}
				for _, fr := range []string{"xframe/", "lframe/"} {
					if o := p.State.Frames[fr]; o == "" || o == "unreadable" {
						t.Errorf("cross-origin frame %s did not answer the reader (%q)", fr, o)
					}
				}
			}
			if strings.HasPrefix(c.probe, "({state:") {
				checkFramework(t, p.Probe, p.State)
			}
			checkPage(t, p.State, c.want)
		})
	}
	t.Run("learn", func(t *testing.T) {
		if p := r.Pages[len(cases)]; p.Error != "" {
			t.Fatalf("learn.html: %s", p.Error)
		}
		if _, err := f.app.WaitEvent("decided", "learn", 1, 30*time.Second); err != nil {
			t.Fatalf("no learn dialog was decided: %v", err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		var after []byte
		for deadline := time.Now().Add(10 * time.Second); ; {
			out, err := f.w.ProfileJSON(ctx, "home")
			if err != nil {
				t.Fatal(err)
			}
			if after = out; strings.Contains(string(after), company) || time.Now().After(deadline) {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if !strings.Contains(string(after), company) {
			t.Errorf("approved learn: the profile lacks the new company %q: %s", company, after)
		}
		if strings.Contains(string(after), secret) {
			t.Errorf("the password was learnt: %s", after)
		}
		// A second email is a candidate beside the first, not its value.
		f.app.Stop()
		v, err := f.w.OpenVault()
		if err != nil {
			t.Fatal(err)
		}
		defer v.Close()
		cands, err := v.Candidates("home", vault.ConceptKey("https://schema.org/email"))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(cands, func(e profile.Entry) bool { s, _ := e.StringValue(); return s == newEmail }) {
			t.Errorf("approved learn: no email candidate %q: %+v", newEmail, cands)
		}
	})
}

// frameworkProbe reads a framework page's own state (window[global]) and
// the state it rendered into <pre id="state">.
func frameworkProbe(global string) string {
	return `({state: window.` + global + `, pre: document.getElementById('state').textContent})`
}

// checkFramework checks that a framework's state, as frameworkProbe read
// it, holds what the DOM shows (as checkState does in Chromium): a fill
// that sets the DOM behind React's or Vue's back leaves the state empty.
func checkFramework(t *testing.T, probe any, st PageState) {
	t.Helper()
	p, _ := probe.(map[string]any)
	state, _ := p["state"].(map[string]any)
	pre, _ := p["pre"].(string)
	var rendered map[string]any
	if err := json.Unmarshal([]byte(pre), &rendered); err != nil || len(state) == 0 {
		t.Fatalf("framework state %v, rendered %q: %v", p["state"], pre, err)
	}
	asDOM := func(v any) string {
		switch v := v.(type) {
		case bool:
			if v {
				return "on"
			}
			return ""
		case string:
			return v
		}
		return fmt.Sprint(v)
	}
	for k, v := range state {
		if got := asDOM(v); got != st.Values[k] {
			t.Errorf("state %s = %q, DOM shows %q", k, got, st.Values[k])
		}
		if got := asDOM(rendered[k]); got != st.Values[k] {
			t.Errorf("rendered state %s = %q, DOM shows %q", k, got, st.Values[k])
		}
	}
}

// TestFirefoxFillDenied: the person denies in the app; nothing reaches the
// Firefox page.
func TestFirefoxFillDenied(t *testing.T) {
	f, home := ffWorld(t, "deny")
	r := runFirefox(t, ffConfig{Home: home, Pages: []ffPage{{Name: "checkout", URL: f.pages.URL + "/checkout.html"}}}, f.w.Env())
	if len(r.Pages) != 1 || r.Pages[0].Error != "" {
		t.Fatalf("run.mjs pages = %+v", r.Pages)
	}
	p := r.Pages[0]
	if p.Result.Status != "declined" || p.Result.Reason != "denied" {
		t.Errorf("fill = %+v, want status declined, reason denied", p.Result)
	}
	if n := p.Result.Count("filled"); n != 0 {
		t.Errorf("declined fill reports %d fields filled", n)
	}
	if len(p.State.Values) == 0 {
		t.Fatal("the page reader saw no controls")
	}
	checkPage(t, p.State, nil)
	if _, err := f.app.WaitEvent("decided", "fill", 1, 5*time.Second); err != nil {
		t.Errorf("the app shows no decided fill dialog: %v", err)
	}
}

// TestFirefoxRoundTrip is the round-trip benchmark in Firefox (the
// counterpart of cmd/bench-roundtrip for Chromium): n sequential
// session.ping calls timed in the background script, through the tessera
// host and the real app, and through the bare echo host registered under
// the same name in another HOME (the floor), for the given rounds. The two
// run in two Firefoxes side by side and take turns, 100 calls at a time, so
// that the machine's load weighs on both alike
// (TESSERA_FIREFOX_BENCH_SEQUENTIAL=1: one whole run, then the other, as
// before). It only runs when asked, as a benchmark does:
//
//	TESSERA_FIREFOX_BENCH=1000 go test -count=1 -tags e2e,firefox -run FirefoxRoundTrip -v ./e2e/
//
// TESSERA_FIREFOX_BENCH_ROUNDS (default 1) repeats the pair;
// TESSERA_FIREFOX_BENCH_CHECK=1 fails the run when p50 or p99 is over twice
// the floor's.
func TestFirefoxRoundTrip(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("TESSERA_FIREFOX_BENCH"))
	if n <= 0 {
		t.Skip("set TESSERA_FIREFOX_BENCH=N to time N session.ping round trips in Firefox")
	}
	rounds, _ := strconv.Atoi(os.Getenv("TESSERA_FIREFOX_BENCH_ROUNDS"))
	rounds = max(rounds, 1)
	f, home := ffWorld(t, "approve")
	echoHome := t.TempDir()
	m, err := json.MarshalIndent(map[string]any{
		"name":               nativemsg.HostName,
		"description":        "Tessera echo host (benchmark floor)",
		"path":               art.EchoHost,
		"type":               "stdio",
		"allowed_extensions": []string{nativemsg.FirefoxAddonID},
	}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(echoHome, ".mozilla", "native-messaging-hosts")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, nativemsg.HostName+".json"), m, 0o644); err != nil {
		t.Fatal(err)
	}
	bench := &ffBench{URL: f.pages.URL + "/checkout.html", N: n, AppPid: f.app.Pid()}
	if os.Getenv("TESSERA_FIREFOX_BENCH_SEQUENTIAL") != "1" {
		bench.FloorHome = echoHome
	}
	met := true
	for r := 1; r <= rounds; r++ {
		var app, echo *ffBenchResult
		if bench.FloorHome != "" {
			run := runFirefox(t, ffConfig{Home: home, Bench: bench}, f.w.Env())
			app, echo = run.Bench, run.Floor
		} else {
			app = runFirefox(t, ffConfig{Home: home, Bench: bench}, f.w.Env()).Bench
			floor := *bench
			floor.AppPid = 0
			echo = runFirefox(t, ffConfig{Home: echoHome, Bench: &floor}, f.w.Env()).Bench
		}
		if app == nil || echo == nil || app.N != n || echo.N != n {
			t.Fatalf("round %d: bench results %+v and %+v, want %d calls each", r, app, echo, n)
		}
		r50, r99 := app.P50/echo.P50, app.P99/echo.P99
		t.Logf("round %d, %d session.ping calls: tessera host + app p50 %.3f ms p99 %.3f ms; echo host p50 %.3f ms p99 %.3f ms; ratio %.2fx %.2fx (target <= 2x)",
			r, n, app.P50, app.P99, echo.P50, echo.P99, r50, r99)
		calls := n + min(100, n) // sequential: the warm-up is counted too
		if bench.FloorHome != "" {
			calls = n // interleaved: counted after the warm-up
		}
		for _, p := range []struct {
			name string
			proc ffProc
			ok   bool
		}{{"tessera host", app.Procs["host"], app.Procs["host"].Threads > 0}, {"app", app.Procs["app"], app.Procs["app"].Threads > 0}, {"echo host", echo.Procs["host"], echo.Procs["host"].Threads > 0}} {
			if p.ok {
				t.Logf("round %d: %s: %s", r, p.name, p.proc.perCall(calls))
			}
		}
		met = met && r50 <= 2 && r99 <= 2
	}
	if os.Getenv("TESSERA_FIREFOX_BENCH_CHECK") == "1" && !met {
		t.Error("round trip over twice the echo floor")
	}
}
