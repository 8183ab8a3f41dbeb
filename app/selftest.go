//go:build selftest

package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tessera-app/tessera/nativemsg"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// The UI self-test (build tag selftest, never in release builds) drives the
// real window: on DOM ready it injects selfTestScript, which checks the
// status screen against what Go reports, clicks through every section, asks
// Go to connect a stand-in browser over the real channel and waits for it to
// appear through the live "status" event. Then it types and clicks its way
// through the vault: set up with a passphrase (after a mistyped
// confirmation), create a profile, lock, a wrong passphrase, unlock; then
// the profile editor and the Activity section (selftest_profiles.go), and
// Settings (selftest_settings.go).
//
// Then the confirmation dialog (dialogSelfTestScript): Go puts realistic
// confirmations through the app's real queue and the page answers them
// through the dialog's own UI with keyboard events only (Tab to a row,
// Space, Tab to Approve, Enter; Escape), checks what the dialog shows, lets
// one time out, and lays it out at 800x600 and at 400x300 (what 200 %
// zoom leaves of 800x600). Go checks each Decision the queue returned,
// whatever the page reported. With $TESSERA_SELFTEST_REAL_KEYS=1 two more
// are answered with key presses on the X display (xdotool), which the page
// receives as trusted events, as from a person's keyboard.
//
// The page reports through the bound SelfTest service, and Go checks the
// vault itself ended up as the page says; the report is written as JSON to
// $TESSERA_SELFTEST_REPORT and a failure becomes RunDesktop's error, so the
// process exits non-zero. $TESSERA_SELFTEST_HOLD (a Go duration) keeps the
// window up that long after the report, for a screenshot: a fill dialog is
// open then; once the file $TESSERA_SELFTEST_DIALOG_SHOT exists it is
// withdrawn, so a second screenshot shows the status screen.

// errSelfTest is returned (wrapped) when a self-test check fails.
var errSelfTest = errors.New("ui self-test failed")

// selfTestTimeout bounds the wait for the page's report: a page that never
// reports (a script error, a dead bridge) is a failure, not a hang. The
// vault steps cost a few scrypt rounds of about a second each and the
// dialog steps about ten seconds (one dialog is left to time out), the
// editor, Activity and import steps a few more; it stays below the 180 s
// scripts/ui-selftest.sh waits.
const selfTestTimeout = 160 * time.Second

// Stand-in browser the self-test connects; the page must show both.
const (
	selfTestClientName   = "Chromium (self-test)"
	selfTestClientOrigin = "chrome-extension://selftestselftestselftestselftest/"
)

// The passphrase and profile the self-test sets up in the temporary vault.
const (
	selfTestPassphrase = "self-test passphrase"
	selfTestProfile    = "Self-test profile"
)

// SelfTestCheck is one check the page ran.
type SelfTestCheck struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

// SelfTestReport is what the page sends back, and (with OK and Status
// filled in) what is written to the report file.
type SelfTestReport struct {
	OK     bool            `json:"ok"`
	Checks []SelfTestCheck `json:"checks"`
	Status Status          `json:"status"`
}

// SelfTest is the service the injected script calls.
type SelfTest struct {
	st *selfTest
}

// ConnectBrowser connects the stand-in browser to the app's channel and
// returns once the app has answered its session.hello.
func (s *SelfTest) ConnectBrowser() error { return s.st.connectBrowser() }

// AskConfirmation puts the self-test confirmation named kind (see
// selfTestConfirmations) in the app's queue, as a fill would, and returns
// once it is queued; its Decision is kept for dialogChecks.
func (s *SelfTest) AskConfirmation(kind string) error { return s.st.ask(kind) }

// TypeText types text on the real keyboard of the X display (xdotool
// type), with the window focused.
func (s *SelfTest) TypeText(text string) error { return s.st.typeText(text) }

// PressKeys presses keys (xdotool key names: "Tab", "space", "Return",
// "Escape") on the real keyboard of the X display, with the window
// focused: the page receives them as a person's key presses.
func (s *SelfTest) PressKeys(keys string) error { return s.st.pressKeys(strings.Fields(keys)) }

// SetWindowSize resizes the window (its minimum size lifted) to w x h.
func (s *SelfTest) SetWindowSize(w, h int) error {
	z, ok := s.st.shell().(windowSizer)
	if !ok {
		return errors.New("this window cannot be resized")
	}
	z.setSize(w, h)
	s.st.mu.Lock()
	s.st.size = [2]int{w, h}
	s.st.mu.Unlock()
	return nil
}

// Report receives the page's checks; the self-test then ends.
func (s *SelfTest) Report(r SelfTestReport) error {
	select {
	case s.st.reports <- r:
		return nil
	default:
		return errors.New("self-test report already received")
	}
}

// selfTest is the self-test's state for one window.
type selfTest struct {
	app     *App
	ui      *UI
	cfg     windowConfig
	reports chan SelfTestReport
	once    sync.Once

	mu      sync.Mutex
	conn    net.Conn // the stand-in browser
	failure error    // set by finish
	sh      shell
	// asked holds, by kind, the decision of each confirmation asked.
	asked map[string]chan Decision
	// withdraw cancels the confirmation left open for the screenshot.
	withdraw context.CancelFunc
	// transferDir holds the import, export and backup files.
	transferDir string
	// size is the window size the page last set.
	size [2]int
}

func newSelfTest(a *App, ui *UI, cfg windowConfig) *selfTest {
	return &selfTest{app: a, ui: ui, cfg: cfg, reports: make(chan SelfTestReport, 1), asked: map[string]chan Decision{}}
}

func (st *selfTest) bindings() []any { return []any{&SelfTest{st: st}} }

// domReady starts the test on the first DOM ready only: a reload must not
// start a second run.
func (st *selfTest) domReady(sh shell) {
	st.once.Do(func() {
		st.mu.Lock()
		st.sh = sh
		st.mu.Unlock()
		go st.run(sh)
	})
}

func (st *selfTest) shell() shell {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.sh
}

func (st *selfTest) run(sh shell) {
	if st.cfg.getenv("TESSERA_SELFTEST_TIMING") == "1" {
		st.runTiming(sh)
		return
	}
	if st.cfg.getenv("TESSERA_SELFTEST_KEYBOARD") == "1" {
		st.runKeyboard(sh)
		return
	}
	exp, err := json.Marshal(map[string]any{
		"status":   st.app.Status(),
		"client":   map[string]string{"name": selfTestClientName, "origin": selfTestClientOrigin},
		"vault":    map[string]string{"passphrase": selfTestPassphrase, "profile": selfTestProfile},
		"profiles": selfTestProfileExpectations(),
		"settings": st.selfTestSettingsExpectations(),
		"transfer": st.selfTestTransferExpectations(),
		"dialog": map[string]any{
			"fill":      selfTestConfirmations[selfTestAskFill].c,
			"pair":      selfTestConfirmations[selfTestAskPair].c,
			"toggle":    selfTestToggle,
			"sensitive": selfTestSensitive,
			"shot":      []int{selfTestShotWidth, selfTestShotHeight},
			"realKeys":  st.realKeys(),
		},
	})
	if err != nil {
		st.finish(SelfTestReport{Checks: []SelfTestCheck{{Name: "encode expectations", Detail: err.Error()}}})
		return
	}
	sh.execJS(fmt.Sprintf(selfTestScript, exp, profilesSelfTestScript, settingsSelfTestScript, transferSelfTestScript, agentsSelfTestScript, realKeysSelfTestScript, dialogSelfTestScript))
	select {
	case r := <-st.reports:
		r.Checks = append(r.Checks, st.vaultChecks()...)
		r.Checks = append(r.Checks, st.profileChecks()...)
		r.Checks = append(r.Checks, st.settingsChecks()...)
		r.Checks = append(r.Checks, st.transferChecks()...)
		r.Checks = append(r.Checks, st.dialogChecks(selfTestDecisionWait)...)
		st.finish(r)
	case <-time.After(selfTestTimeout):
		st.finish(SelfTestReport{Checks: []SelfTestCheck{{Name: "page reported", Detail: fmt.Sprintf("no report within %v", selfTestTimeout)}}})
	}
}

// finish records and writes the report, then quits after the hold time.
func (st *selfTest) finish(r SelfTestReport) {
	r.Status = st.app.Status()
	r.OK = len(r.Checks) > 0
	var failed []string
	for _, c := range r.Checks {
		if !c.OK {
			r.OK = false
			failed = append(failed, c.Name)
		}
	}
	var err error
	if !r.OK {
		err = fmt.Errorf("%w: failed checks %q", errSelfTest, failed)
	}
	if werr := writeReport(st.cfg.getenv("TESSERA_SELFTEST_REPORT"), r, st.cfg.stderr); werr != nil {
		err = errors.Join(err, werr)
	}
	st.mu.Lock()
	st.failure = err
	st.mu.Unlock()
	hold, perr := time.ParseDuration(st.cfg.getenv("TESSERA_SELFTEST_HOLD"))
	if perr != nil {
		hold = 0
	}
	if shot := st.cfg.getenv("TESSERA_SELFTEST_DIALOG_SHOT"); shot != "" {
		go st.withdrawAfterShot(shot, hold)
	}
	time.AfterFunc(hold, st.ui.quit)
}

// withdrawAfterShot withdraws the dialog left open for the screenshot once
// the file shot exists (the screenshot is taken), or after hold.
func (st *selfTest) withdrawAfterShot(shot string, hold time.Duration) {
	end := time.Now().Add(hold)
	for time.Now().Before(end) {
		if _, err := os.Stat(shot); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	st.mu.Lock()
	cancel := st.withdraw
	st.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// vaultChecks checks in Go that the vault is where the page's clicks
// should have left it, so that a page showing the right words over a vault
// that did not change still fails.
func (st *selfTest) vaultChecks() []SelfTestCheck {
	view, err := st.ui.Vault()
	checks := []SelfTestCheck{{
		Name:   "the vault is unlocked with a passphrase",
		OK:     err == nil && view.State == "unlocked" && view.HasPassphrase,
		Detail: fmt.Sprintf("%+v, %v", view, err),
	}}
	ps, err := st.ui.Profiles()
	var labels []string
	for _, p := range ps {
		labels = append(labels, p.Label)
	}
	return append(checks, SelfTestCheck{
		Name:   "the vault holds the profile created in the window",
		OK:     err == nil && slices.Contains(labels, selfTestProfile),
		Detail: fmt.Sprintf("%q, %v", labels, err),
	})
}

func writeReport(path string, r SelfTestReport, stderr io.Writer) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("encode self-test report: %w", err)
	}
	if path == "" {
		_, err = fmt.Fprintf(stderr, "%s\n", b)
		return err
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("write self-test report: %w", err)
	}
	return nil
}

func (st *selfTest) connectBrowser() error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.conn != nil {
		return errors.New("stand-in browser already connected")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := nativemsg.Dial(ctx, st.cfg.channel)
	if err != nil {
		return fmt.Errorf("connect stand-in browser: %w", err)
	}
	c.SetDeadline(time.Now().Add(5 * time.Second))
	attach, _ := nativemsg.Notification(nativemsg.AttachMethod, nativemsg.AttachParams{Origin: selfTestClientOrigin})
	var hello HelloParams
	hello.Protocol = []int{nativemsg.ProtocolVersion}
	hello.Client.Kind = "browser"
	hello.Client.Name = selfTestClientName
	p, _ := json.Marshal(hello)
	id := "selftest-1"
	req, _ := json.Marshal(nativemsg.Message{JSONRPC: "2.0", ID: &id, Method: "session.hello", Params: p})
	if err := nativemsg.WriteFrame(c, attach); err != nil {
		c.Close()
		return fmt.Errorf("stand-in browser attach: %w", err)
	}
	if err := nativemsg.WriteFrame(c, req); err != nil {
		c.Close()
		return fmt.Errorf("stand-in browser hello: %w", err)
	}
	resp, err := nativemsg.ReadFrame(c, nativemsg.MaxIncoming)
	if err != nil {
		c.Close()
		return fmt.Errorf("stand-in browser hello answer: %w", err)
	}
	m, _, err := nativemsg.Decode(resp)
	if err != nil || m.Error != nil {
		c.Close()
		return fmt.Errorf("stand-in browser hello refused: %s", resp)
	}
	c.SetDeadline(time.Time{})
	// Kept open until the process ends, so the screenshot shows a browser.
	st.conn = c
	return nil
}

func (st *selfTest) result() error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.conn != nil {
		st.conn.Close()
	}
	return st.failure
}

// selfTestPrelude is what every self-test script starts with: checks and
// the small helpers the parts are given (check, $, text, sleep, until,
// shown).
const selfTestPrelude = `  const checks = [];
  const check = (name, ok, detail) => checks.push({ name, ok: !!ok, detail: String(detail ?? "") });
  const $ = (s) => document.querySelector(s);
  const text = (s) => ($(s)?.textContent ?? "").trim();
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const until = async (f, ms = 5000) => {
    const end = Date.now() + ms;
    for (;;) {
      try { if (f()) return true; } catch (e) {}
      if (Date.now() > end) return false;
      await sleep(40);
    }
  };
  const shown = (e) => !!e && !e.hidden && e.getClientRects().length > 0;
`

// selfTestScript runs in the page; the %s are the JSON of what Go expects,
// profilesSelfTestScript, settingsSelfTestScript, transferSelfTestScript,
// agentsSelfTestScript, realKeysSelfTestScript and dialogSelfTestScript.
const selfTestScript = `(async () => {
  const exp = %s;
` + selfTestPrelude + `  try {
    check("status screen shows the vault state",
      await until(() => $("#vault-card").dataset.vaultState === exp.status.vault && text("#vault-title") !== "" && text("#vault-title") !== "Checking…" && text("#vault-text") !== ""),
      $("#vault-card")?.dataset.vaultState + ": " + text("#vault-title"));
    check("status screen shows the version", await until(() => text("#version") === exp.status.version), text("#version"));
    check("status screen shows the browser channel", !exp.status.socket || text("#socket") === exp.status.socket, text("#socket"));
    check("no browser listed before one connects", $("#clients").childElementCount === 0 && shown($("#clients-empty")), text("#clients"));
    check("no error banner", $("#banner").hidden, text("#banner"));
    for (const v of ["profiles", "activity", "settings", "status"]) {
      $('.nav-item[data-view="' + v + '"]').click();
      const ok = await until(() => shown($('[data-panel="' + v + '"]')) &&
        [...document.querySelectorAll(".view")].filter(shown).length === 1 &&
        $('.nav-item[data-view="' + v + '"]').getAttribute("aria-selected") === "true");
      check("section " + v + " opens alone", ok, text('[data-panel="' + v + '"] h1'));
      if (v === "activity") check("activity says why there is nothing to read before there is a vault", await until(() => shown($("#activity-locked")) && text("#activity-locked").length > 40 && !shown($("#activity-tools"))), text("#activity-locked"));
      if (v === "settings") check("settings say there are no sites to list before there is a vault", await until(() => shown($("#sites-locked")) && /no vault yet/.test(text("#sites-locked")) && !shown($("#sites-empty"))), text("#sites-locked"));
      // The vault card fills in once Go answers its first view() call.
      if (v === "profiles") check("profiles say what to do before there is a vault", await until(() => shown($("#profiles-locked")) && text("#profiles-locked").length > 40 && $("#profiles").childElementCount === 0 && !shown($("#new-profile"))), text("#profiles-locked"));
    }
    await window.go.app.SelfTest.ConnectBrowser();
    // The stand-in is not Tessera's host started by a browser, so the app
    // does not believe the extension origin it names.
    check("a connecting browser appears live with its name, not verified, its claimed origin not shown as its own",
      await until(() => [...document.querySelectorAll("#clients .client")].some((li) => li.textContent.includes(exp.client.name) && /not verified/.test(li.textContent) && li.querySelector(".cf-badge.warn").title !== "" && !li.textContent.includes(exp.client.origin) && li.querySelector("time").textContent.startsWith("since"))),
      text("#clients"));
    check("the empty-list note is gone", !shown($("#clients-empty")), text("#clients-empty"));

    // The vault, as a person sets it up: typing and clicking only.
    const pass = exp.vault.passphrase, label = exp.vault.profile;
    const state = () => $("#vault-card").dataset.vaultState + ": " + text("#vault-title");
    const open = (v) => $('.nav-item[data-view="' + v + '"]').click();
    const type = (s, value) => {
      const i = $(s);
      i.focus();
      i.value = value;
      i.dispatchEvent(new Event("input", { bubbles: true }));
    };
    const focused = () => document.activeElement?.id || document.activeElement?.tagName;
    check("a new vault offers the set-up form",
      await until(() => shown($("#setup-form")) && !shown($("#unlock-form")) && !shown($("#lock-now")) && $('label[for="setup-pass"]') && $('label[for="setup-confirm"]')),
      state());
    // The strength meter: Go rates what is typed with the rule that
    // setting up applies.
    type("#setup-pass", "password1");
    check("first run: the meter calls a common password too weak and says why",
      await until(() => $("#setup-strength").dataset.tone === "bad" && /common words/.test(text("#setup-strength-text"))),
      $("#setup-strength").dataset.tone + ": " + text("#setup-strength-text"));
    $("#setup-suggest").click();
    check("first run: Suggest shows a six-word recovery passphrase once, in the field too, and rated acceptable",
      await until(() => shown($("#setup-suggested")) && text("#setup-suggested-words").split(" ").length === 6 &&
        $("#setup-pass").value === text("#setup-suggested-words") && ["ok", "good"].includes($("#setup-strength").dataset.tone) && focused() === "setup-suggested-words"),
      text("#setup-suggested-words") + " / " + text("#setup-strength-text") + " / " + focused());
    await window.go.app.SelfTest.SetWindowSize(exp.profiles.shot[0], exp.profiles.shot[1]);
    await until(() => Math.abs(innerWidth - exp.profiles.shot[0]) < 40, 5000);
    $("#setup-confirm").focus();
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 200))));
    await window.go.app.SelfTest.Screenshot("first-run");
    type("#setup-pass", pass);
    check("first run: typing a passphrase of one's own hides the suggestion", !shown($("#setup-suggested")) && text("#setup-suggested-words") === "", text("#setup-suggested-words"));
    type("#setup-confirm", pass + "x");
    $("#setup-submit").click();
    check("a mistyped confirmation shows an inline error",
      await until(() => shown($("#setup-error")) && /match/i.test(text("#setup-error")) && $("#setup-pass").getAttribute("aria-invalid") === "true"),
      text("#setup-error"));
    check("a mistyped confirmation creates no vault", $("#vault-card").dataset.vaultState === "uninitialized" && shown($("#setup-form")), state());
    type("#setup-pass", pass);
    type("#setup-confirm", pass);
    $("#setup-submit").click();
    check("setting up the vault unlocks it",
      await until(() => text("#vault-title") === "Unlocked" && $("#vault-card").dataset.vaultState === "unlocked" && shown($("#lock-now")) && !shown($("#setup-form")) && !shown($("#setup-error")), 20000),
      state() + " " + text("#setup-error"));
    check("focus moves to Lock now", focused() === "lock-now", focused());
    check("no recovery warning when a passphrase is set", !shown($("#recovery-note")), text("#recovery-note"));
    check("the passphrase fields are emptied", $("#setup-pass").value === "" && $("#setup-confirm").value === "", "");

    open("profiles");
    check("an unlocked vault offers New profile",
      await until(() => shown($("#new-profile")) && shown($("#profiles-empty")) && !shown($("#profiles-locked"))),
      text('[data-panel="profiles"]'));
    $("#new-profile").click();
    check("New profile opens a labelled field with focus",
      await until(() => shown($("#profile-form")) && focused() === "profile-label" && $('label[for="profile-label"]')), focused());
    type("#profile-label", label);
    $("#profile-submit").click();
    const listed = () => [...document.querySelectorAll("#profiles .profile")].find((li) => li.querySelector("strong")?.textContent === label);
    check("the new profile is listed with its entry count and time",
      await until(() => listed() && /No details yet/.test(listed().textContent) && listed().querySelector("time")?.textContent.startsWith("updated") && !shown($("#profile-form")) && !shown($("#profiles-empty"))),
      text("#profiles"));

    open("status");
    $("#lock-now").click();
    check("Lock now locks the vault",
      await until(() => text("#vault-title") === "Locked" && $("#vault-card").dataset.vaultState === "locked" && shown($("#unlock-form")) && !shown($("#lock-now"))),
      state());
    check("focus moves to the passphrase field", focused() === "unlock-pass", focused());
    check("no keyring offered when none works", !shown($("#unlock-keyring")), text("#unlock-form"));
    open("profiles");
    check("a locked vault lists no profiles",
      await until(() => $("#profiles").childElementCount === 0 && shown($("#profiles-locked")) && !shown($("#new-profile"))),
      text("#profiles"));
    open("status");

    type("#unlock-pass", pass + " typo");
    $("#unlock-submit").click();
    check("a wrong passphrase shows an inline error",
      await until(() => shown($("#unlock-error")) && /wrong passphrase/i.test(text("#unlock-error")) && $("#unlock-pass").getAttribute("aria-invalid") === "true", 20000),
      text("#unlock-error"));
    check("a wrong passphrase leaves the vault locked", text("#vault-title") === "Locked" && shown($("#unlock-form")), state());
    type("#unlock-pass", pass);
    $("#unlock-submit").click();
    check("the passphrase unlocks the vault",
      await until(() => text("#vault-title") === "Unlocked" && !shown($("#unlock-form")) && !shown($("#unlock-error")) && shown($("#lock-now")), 20000),
      state() + " " + text("#unlock-error"));
    open("profiles");
    check("the profile is listed again after unlocking", await until(() => listed()), text("#profiles"));
    open("status");
    await (%s)({ exp, check, $, text, sleep, until, shown, type, open, focused });
    await (%s)({ exp, check, $, text, sleep, until, shown, open, focused });
    await (%s)({ exp, check, $, text, sleep, until, shown, type, open, focused });
    await (%s)({ check, text, until, open });
    if (exp.dialog.realKeys) await (%s)({ exp, check, $, text, sleep, until });
    await (%s)({ exp, check, $, text, sleep, until, shown });
    check("no error banner at the end", $("#banner").hidden, text("#banner"));
  } catch (e) {
    check("script ran to the end", false, String((e && e.message) || e) + " " + ((e && e.stack) || ""));
  }
  await window.go.app.SelfTest.Report({ ok: false, checks, status: exp.status });
})();`

// windowSizer is a shell that can resize its window; the real one can.
type windowSizer interface{ setSize(w, h int) }

// setSize lifts the window's minimum size and resizes it, so the dialog
// can be laid out as a small window or a large zoom leaves it.
func (s wailsShell) setSize(w, h int) {
	runtime.WindowSetMinSize(s.ctx, 200, 150)
	runtime.WindowSetSize(s.ctx, w, h)
	runtime.WindowSetPosition(s.ctx, 0, 0)
}

// The window's size for the dialog's screenshot: tall enough to show every
// row of the fill and one row's evidence (scripts/ui-selftest.sh's Xvfb
// screen is 1280x1200).
const (
	selfTestShotWidth  = 1040
	selfTestShotHeight = 1160
)

// selfTestDecisionWait bounds the wait for a confirmation's decision after
// the page reported: the page has answered them all by then.
const selfTestDecisionWait = 5 * time.Second

// Self-test confirmation kinds AskConfirmation accepts.
const (
	selfTestAskFill     = "fill"     // answered with Tab, Space, Tab to Approve, Enter
	selfTestAskContinue = "continue" // answered with Escape
	selfTestAskLearn    = "learn"    // answered with Tab to Approve, Enter
	selfTestAskTimeout  = "timeout"  // left to time out
	selfTestAskDisplay  = "display"  // left open for the screenshot
	selfTestAskPair     = "pair"     // answered with Tab to Approve, Enter
	// With $TESSERA_SELFTEST_REAL_KEYS=1, two more answered with key
	// presses on the X display (xdotool) instead of events sent by the page.
	selfTestAskKeys     = "keys"      // as fill
	selfTestAskKeysDeny = "keys-deny" // as continue
)

// The row the page toggles (a default-on row, so that a dialog approving
// its defaults, or every row, fails), and the sensitive value that must not
// be in the page before it is revealed.
const (
	selfTestToggle    = "r2"
	selfTestSensitive = "10/12/1815"
)

// selfTestConfirmation is one confirmation the self-test asks, the
// timeout it is asked with and the decision the page's keys must produce
// (ID filled in).
type selfTestConfirmation struct {
	c       Confirmation
	timeout time.Duration
	want    Decision
}

var selfTestConfirmations = func() map[string]selfTestConfirmation {
	page := "https://checkout.shop.example"
	widget := "https://pay.widgets.example"
	profiles := []ProfileSummary{
		{ID: "p-personal", Label: "Personal", Entries: 14, Updated: "2026-11-20T09:12:00Z"},
		{ID: "p-work", Label: "Work", Entries: 9, Updated: "2026-11-02T16:40:00Z"},
	}
	browser := ClientInfo{Kind: KindBrowser, Name: "Chromium 156", Origin: selfTestClientOrigin, Verified: true}
	fill := Confirmation{
		Kind:     ConfirmFill,
		Site:     "shop.example",
		Origin:   page,
		URL:      page + "/cart/address?step=2",
		Title:    "Checkout · Delivery address — Shop Example",
		Frames:   []FrameInfo{{ID: 0, Origin: page}, {ID: 7, Origin: widget, CrossOrigin: true}},
		Client:   browser,
		Profiles: profiles,
		Profile:  "p-personal",
		Rows: []Row{
			{ID: "r1", Ref: "t1", Label: "Full name", Value: "Ada Lovelace", Concept: "https://schema.org/name", ConceptLabel: "Full name", Confidence: 0.98,
				Evidence: []string{`autocomplete="name"`, `label "Full name"`, "ontology schema:name"}, Section: SectionFill, Checked: true},
			{ID: "r2", Ref: "t2", Label: "Email", Value: "ada@example.org", Concept: "https://schema.org/email", ConceptLabel: "Email address", Confidence: 0.99,
				Evidence: []string{`type="email"`, `autocomplete="email"`}, Section: SectionFill, Checked: true},
			{ID: "r3", Ref: "t3", Label: "Date of birth", Value: selfTestSensitive, Sensitive: true, Concept: "https://schema.org/birthDate", ConceptLabel: "Date of birth", Confidence: 0.93,
				Evidence: []string{`autocomplete="bday"`, `label "Date of birth"`}, Section: SectionFill, Checked: true},
			{ID: "r4", Ref: "t4", Label: "Street address", Value: "12 St James's Square", Concept: "https://schema.org/streetAddress", ConceptLabel: "Street address", Confidence: 0.91,
				Evidence: []string{`autocomplete="address-line1"`, `label "Street address"`}, Section: SectionFill, Checked: true},
			{ID: "r5", Ref: "t5", Label: "Postcode", Value: "SW1Y 4JH", Concept: "https://schema.org/postalCode", ConceptLabel: "Postcode", Confidence: 0.95,
				Evidence: []string{`autocomplete="postal-code"`, `label "Postcode"`}, Section: SectionFill, Checked: true},
			{ID: "r6", Ref: "t6", Label: "Apartment, suite, etc. (optional)", Value: "Flat 3", Concept: "https://schema.org/streetAddress#line2", ConceptLabel: "Address line 2", Confidence: 0.46, Advisory: true,
				Evidence: []string{`label "Apartment, suite, etc. (optional)"`, `rule address-line2 (keyword "apartment", en)`, "no autocomplete token, no declaration"}, Section: SectionFill, Reason: "low confidence"},
			// A page's markup in a label must show as text.
			{ID: "r7", Ref: "t9", Label: `<img src=x onerror="alert(1)">Phone`, Value: "+44 20 7946 0018", Concept: "https://schema.org/telephone", ConceptLabel: "Phone number", Confidence: 0.88,
				Evidence: []string{`name="phone"`, "opacity 0 on the input"}, Section: SectionAttention, Reason: "transparent"},
			{ID: "r8", Frame: 7, Ref: "t2", Label: "Billing postcode", Value: "SW1Y 4JH", Concept: "https://schema.org/postalCode", ConceptLabel: "Postcode", Confidence: 0.9,
				Evidence: []string{`autocomplete="billing postal-code"`}, Section: SectionAttention, Reason: "cross-origin-frame"},
		},
		ApproveDelayMs: int(DefaultApproveDelay / time.Millisecond),
	}
	more := Confirmation{
		Kind:     ConfirmContinue,
		Site:     "shop.example",
		Origin:   page,
		URL:      fill.URL,
		Frames:   []FrameInfo{{ID: 0, Origin: page}},
		Client:   ClientInfo{Kind: KindBrowser, Name: "Chromium 156", Verified: false},
		Profiles: profiles[:1],
		Profile:  "p-personal",
		Rows: []Row{
			{ID: "r1", Ref: "t12", Label: "County", Value: "Greater London", ConceptLabel: "Region", Confidence: 0.87, Evidence: []string{`autocomplete="address-level1"`}, Section: SectionFill, Checked: true},
			{ID: "r2", Ref: "t13", Label: "Country", Value: "United Kingdom", ConceptLabel: "Country", Confidence: 0.97, Evidence: []string{`autocomplete="country-name"`}, Section: SectionFill, Reason: "already filled in"},
		},
		ApproveDelayMs: int(DefaultApproveDelay / time.Millisecond),
		Rememberable:   true,
	}
	learn := Confirmation{
		Kind:     ConfirmLearn,
		Site:     "shop.example",
		Origin:   page,
		URL:      fill.URL,
		Frames:   []FrameInfo{{ID: 0, Origin: page}},
		Client:   browser,
		Profiles: profiles[:1],
		Profile:  "p-personal",
		Rows: []Row{
			{ID: "r1", Ref: "t9", Label: "Phone", Previous: "+44 20 7946 0018", Value: "+44 20 7946 0999", ConceptLabel: "Phone number", Confidence: 0.94, Section: SectionFill, Checked: true},
			{ID: "r2", Ref: "t14", Label: "Company (optional)", Value: "Analytical Engines Ltd", ConceptLabel: "Organisation", Confidence: 0.52, Advisory: true, Section: SectionFill},
		},
		ApproveDelayMs: int(DefaultApproveDelay / time.Millisecond),
	}
	pair := Confirmation{
		Kind: ConfirmPair, Site: "chromium", Origin: selfTestClientOrigin, Client: browser,
		Pair:           &PairInfo{Code: "482 019", Browser: "chromium", Exe: "/usr/lib/chromium/chromium", Fingerprint: "3f9a0c1d2e4b5a67"},
		ApproveDelayMs: int(DefaultApproveDelay / time.Millisecond),
	}
	// The screenshot's confirmation is the fill without the markup label.
	shot := fill
	shot.Rows = slices.Clone(fill.Rows)
	shot.Rows[6].Label = "Phone"
	return map[string]selfTestConfirmation{
		selfTestAskFill:     {fill, time.Minute, Decision{Approve: true, Rows: []string{"r1", "r3", "r4", "r5"}}},
		selfTestAskContinue: {more, time.Minute, Decision{Reason: DeclineDenied}},
		selfTestAskLearn:    {learn, time.Minute, Decision{Approve: true, Rows: []string{"r1"}}},
		selfTestAskTimeout:  {fill, 3 * time.Second, Decision{Reason: DeclineTimeout}},
		selfTestAskDisplay:  {shot, 10 * time.Minute, Decision{}},
		selfTestAskPair:     {pair, time.Minute, Decision{Approve: true}},
		selfTestAskKeys:     {fill, time.Minute, Decision{Approve: true, Rows: []string{"r1", "r3", "r4", "r5"}}},
		selfTestAskKeysDeny: {more, time.Minute, Decision{Reason: DeclineDenied}},
	}
}()

// ask queues the self-test confirmation kind through the app's queue.
func (st *selfTest) ask(kind string) error {
	tc, ok := selfTestConfirmations[kind]
	if !ok {
		return fmt.Errorf("no self-test confirmation %q", kind)
	}
	ctx, cancel := context.WithCancel(context.Background())
	st.mu.Lock()
	if _, dup := st.asked[kind]; dup {
		st.mu.Unlock()
		cancel()
		return fmt.Errorf("self-test confirmation %q already asked", kind)
	}
	done := make(chan Decision, 1)
	st.asked[kind] = done
	if kind == selfTestAskDisplay {
		st.withdraw = cancel
	}
	st.mu.Unlock()
	queued := make(chan struct{})
	go func() {
		defer cancel()
		done <- st.app.confirms.Ask(ctx, tc.c, tc.timeout, func(string) { close(queued) })
	}()
	<-queued
	return nil
}

// dialogChecks checks, in Go, the decision each answered confirmation
// came back with: exactly the rows the page's keys chose, nothing else.
func (st *selfTest) dialogChecks(wait time.Duration) []SelfTestCheck {
	var checks []SelfTestCheck
	deadline := time.After(wait)
	kinds := []string{selfTestAskFill, selfTestAskContinue, selfTestAskLearn, selfTestAskPair, selfTestAskTimeout}
	if st.realKeys() {
		kinds = append(kinds, selfTestAskKeys, selfTestAskKeysDeny)
	}
	for _, kind := range kinds {
		want := selfTestConfirmations[kind].want
		name := fmt.Sprintf("the %s dialog's decision reached the app: %s", kind, describeDecision(want))
		st.mu.Lock()
		done := st.asked[kind]
		st.mu.Unlock()
		if done == nil {
			checks = append(checks, SelfTestCheck{Name: name, Detail: "never asked"})
			continue
		}
		var got Decision
		select {
		case got = <-done:
		case <-deadline:
			checks = append(checks, SelfTestCheck{Name: name, Detail: "still waiting: the dialog never answered"})
			continue
		}
		rows := slices.Clone(got.Rows)
		slices.Sort(rows)
		ok := got.ID != "" && got.Approve == want.Approve && slices.Equal(rows, want.Rows) &&
			got.Remember == want.Remember && got.Reason == want.Reason
		checks = append(checks, SelfTestCheck{Name: name, OK: ok, Detail: fmt.Sprintf("%+v", got)})
	}
	return checks
}

// realKeys reports whether the self-test also presses real keys.
func (st *selfTest) realKeys() bool {
	return st.cfg.getenv != nil && st.cfg.getenv("TESSERA_SELFTEST_REAL_KEYS") == "1"
}

// pressKeys focuses the Tessera window and presses keys through XTEST.
func (st *selfTest) pressKeys(keys []string) error {
	if !st.realKeys() {
		return errors.New("real key presses are off (TESSERA_SELFTEST_REAL_KEYS)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	id, err := exec.CommandContext(ctx, "xdotool", "search", "--onlyvisible", "--name", "^Tessera$").Output()
	if err != nil || len(strings.Fields(string(id))) == 0 {
		return fmt.Errorf("find the window with xdotool: %v", err)
	}
	win := strings.Fields(string(id))[0]
	args := append([]string{"windowfocus", "--sync", win, "key", "--delay", "30"}, keys...)
	if out, err := exec.CommandContext(ctx, "xdotool", args...).CombinedOutput(); err != nil {
		return fmt.Errorf("xdotool %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return nil
}

func (st *selfTest) typeText(text string) error {
	if !st.realKeys() {
		return errors.New("real key presses are off (TESSERA_SELFTEST_REAL_KEYS)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	id, err := exec.CommandContext(ctx, "xdotool", "search", "--onlyvisible", "--name", "^Tessera$").Output()
	if err != nil || len(strings.Fields(string(id))) == 0 {
		return fmt.Errorf("find the window with xdotool: %v", err)
	}
	args := []string{"windowfocus", "--sync", strings.Fields(string(id))[0], "type", "--delay", "20", "--", text}
	if out, err := exec.CommandContext(ctx, "xdotool", args...).CombinedOutput(); err != nil {
		return fmt.Errorf("xdotool type: %v: %s", err, out)
	}
	return nil
}

func describeDecision(d Decision) string {
	if !d.Approve {
		return "declined, " + d.Reason
	}
	return fmt.Sprintf("approved rows %v", d.Rows)
}

// dialogSelfTestScript is called by selfTestScript with its helpers. It
// answers the dialog only with keyboard events sent to the focused element,
// as a keyboard would; Go checks the decisions (dialogChecks).
const dialogSelfTestScript = `async ({ exp, check, $, text, sleep, until, shown }) => {
  const D = exp.dialog, F = D.fill;
  const dlg = () => $("#confirm");
  const isOpen = (kind) => !!dlg() && dlg().open && dlg().dataset.kind === kind && !dlg().dataset.ended;
  const closed = () => !dlg() || !dlg().open;
  const act = () => document.activeElement;
  const press = (key, opts) => {
    const init = Object.assign({ key, bubbles: true, cancelable: true, composed: true }, opts || {});
    (act() || document.body).dispatchEvent(new KeyboardEvent("keydown", init));
    (act() || document.body).dispatchEvent(new KeyboardEvent("keyup", init));
  };
  const rowLi = (id) => dlg().querySelector('li[data-row-id="' + id + '"]');
  const box = (id) => rowLi(id) && rowLi(id).querySelector("input.cf-check");
  const name = (e) => {
    if (!e) return "none";
    const li = e.closest && e.closest("li[data-row-id]");
    return (e.id && !li ? e.id : (e.className || e.tagName)) + (li ? "@" + li.dataset.rowId : "");
  };
  const tabTo = (pred, shift) => {
    for (let i = 0; i < 80; i++) {
      press("Tab", { shiftKey: !!shift });
      if (pred(act())) return true;
    }
    return false;
  };
  // cycle Tabs once round the dialog from Deny and returns the names seen.
  const cycle = () => {
    tabTo((e) => e && e.id === "cf-deny");
    const seen = [];
    for (let i = 0; i < 80; i++) {
      press("Tab");
      seen.push(act());
      if (act() && act().id === "cf-deny") break;
    }
    return seen;
  };
  const inOrder = (seen, names) => {
    const at = names.map((n) => seen.map(name).indexOf(n));
    return at.every((i, k) => i >= 0 && (k === 0 || i > at[k - 1]));
  };
  const enabledAfter = async () => {
    const t0 = performance.now();
    const ok = await until(() => !$("#cf-approve").disabled, 5000);
    return ok ? performance.now() - t0 : -1;
  };
  const ask = (kind) => window.go.app.SelfTest.AskConfirmation(kind);
  const rows = F.rows.filter((r) => r.section === "fill"), att = F.rows.filter((r) => r.section === "attention");

  // 1. A fill: what it shows, then Tab to a row, Space, Tab to Approve, Enter.
  await ask("fill");
  check("a fill confirmation opens the dialog, modal over the window", await until(() => isOpen("fill")) && dlg().matches(":modal"), dlg() && dlg().outerHTML.slice(0, 200));
  check("Deny has the focus", act() && act().id === "cf-deny", name(act()));
  check("Approve starts disabled", $("#cf-approve").disabled, $("#cf-approve").outerHTML);
  const waited = await enabledAfter();
  check("Approve enables only after the approve delay", waited >= F.approveDelayMs - 100, waited + " ms, delay " + F.approveDelayMs);
  check("the title asks about a fill", text("#cf-title") === "Fill this form?", text("#cf-title"));
  check("the site is named large", text("#cf-site") === F.site && parseFloat(getComputedStyle($("#cf-site")).fontSize) >= 24, text("#cf-site") + " " + getComputedStyle($("#cf-site")).fontSize);
  check("the full origin is shown", text("#cf-origin") === F.origin, text("#cf-origin"));
  const frame = dlg().querySelector('.cf-frame[data-cross-origin="true"]');
  check("the cross-origin frame is named and marked", !!frame && frame.textContent.includes(F.frames[1].origin) && /cross-origin frame/.test(frame.textContent), frame && frame.textContent);
  check("the browser is named, verified", text("#cf-client").includes(F.client.name) && /verified/.test(text("#cf-client")) && !/not verified/.test(text("#cf-client")), text("#cf-client"));
  const sel = $("#cf-profile");
  check("a profile picker offers the profiles", !!sel && sel.value === F.profile && [...sel.options].map((o) => o.textContent).join("|") === F.profiles.map((p) => p.label).join("|"), sel && sel.outerHTML);
  check("one row per field, the attention rows apart", $("#cf-rows").children.length === rows.length && $("#cf-attention-rows").children.length === att.length, text("#cf-rows").slice(0, 120));
  check("the attention section is titled as not filled unless ticked", text("#cf-att-title") === "Not filled unless you tick them", text("#cf-att-title"));
  check("confident rows checked; low confidence and attention rows unchecked", F.rows.every((r) => box(r.id).checked === (r.section === "fill" && r.checked)), F.rows.map((r) => r.id + "=" + box(r.id).checked).join(" "));
  check("each row: label, value, concept and confidence",
    rows.filter((r) => !r.sensitive).every((r) => rowLi(r.id).querySelector(".cf-label").textContent === r.label && rowLi(r.id).querySelector(".cf-value").textContent === r.value && rowLi(r.id).querySelector(".cf-concept").textContent === r.conceptLabel),
    text("#cf-rows").slice(0, 200));
  check("confidence in words and per cent", rowLi("r1").querySelector(".cf-conf").textContent === "high 98%" && rowLi("r6").querySelector(".cf-conf").textContent === "low 46%", rowLi("r1").querySelector(".cf-conf").textContent + ", " + rowLi("r6").querySelector(".cf-conf").textContent);
  check("the heuristic row, and only it, is marked advisory", F.rows.every((r) => !!rowLi(r.id).querySelector(".cf-badge.advisory") === r.advisory), "");
  const reason = (id) => (rowLi(id).querySelector(".cf-reason") || {}).textContent || "";
  check("attention rows say why in words", /transparent/i.test(reason("r7")) && /another site/.test(reason("r8")) && reason("r8").includes(F.frames[1].origin), reason("r7") + " | " + reason("r8"));
  check("a page's markup in a label stays text", !dlg().querySelector("img") && rowLi("r7").querySelector(".cf-label").textContent === F.rows[6].label, rowLi("r7").querySelector(".cf-label").innerHTML);
  const sens = F.rows.find((r) => r.sensitive);
  const sensValue = () => rowLi(sens.id).querySelector(".cf-value").textContent;
  check("a sensitive value is masked and not in the page", !document.body.textContent.includes(D.sensitive) && /^•+$/.test(sensValue()), sensValue());
  check("Tab reaches the sensitive row's Show", tabTo((e) => e && e.classList.contains("cf-reveal") && e.closest("li").dataset.rowId === sens.id), name(act()));
  press(" ");
  check("Space on Show reveals the value", sensValue() === D.sensitive && act().getAttribute("aria-pressed") === "true", sensValue());
  press("Enter");
  check("Enter on Hide masks it again", /^•+$/.test(sensValue()) && !document.body.textContent.includes(D.sensitive), sensValue());
  check("Tab reaches a row's Why?", tabTo((e) => e && e.classList.contains("cf-link") && !e.classList.contains("cf-reveal") && e.closest("li").dataset.rowId === "r1"), name(act()));
  press("Enter");
  const why = [...rowLi("r1").querySelectorAll(".cf-why li")].map((li) => li.textContent);
  check("Why? lists the evidence", shown(rowLi("r1").querySelector(".cf-why")) && F.rows[0].evidence.every((e) => why.includes(e)), why.join(" | "));
  press("Enter");
  // These confirmations come from no real fill, so the app cannot match
  // them again: the dialog must say so and keep what it shows.
  sel.value = F.profiles[1].id;
  sel.dispatchEvent(new Event("change", { bubbles: true }));
  check("a profile switch the app refuses is explained; the dialog keeps its profile and rows",
    await until(() => /^Switch profile: /.test(text("#cf-status")) && !sel.disabled) && sel.value === F.profile && $("#cf-rows").children.length === rows.length && isOpen("fill"),
    text("#cf-status"));
  sel.focus();
  check("the countdown is shown", /^Declines in [0-9]+:[0-9][0-9]$/.test(text("#cf-timer")), text("#cf-timer"));
  check("no Remember when the site may not be remembered", !$("#cf-remember"), "");
  const rings = [];
  const seen = cycle();
  check("Tab stays in the dialog", seen.every((e) => dlg().contains(e)), seen.map(name).join(" "));
  for (const e of seen) {
    e.focus();
    const cs = getComputedStyle(e);
    if (cs.outlineStyle === "none" || parseFloat(cs.outlineWidth) < 2) rings.push(name(e) + " " + cs.outlineStyle + " " + cs.outlineWidth);
  }
  $("#cf-deny").focus();
  check("every control Tab reaches shows a focus ring", rings.length === 0, rings.join(", "));
  check("Tab order: profile, rows, Deny, Approve", inOrder(seen, ["cf-profile"].concat(F.rows.map((r) => "cf-check@" + r.id), ["cf-deny"])) && name(seen[0]) === "cf-approve", seen.map(name).join(" "));
  check("Tab reaches the row to toggle", tabTo((e) => e === box(D.toggle)), name(act()));
  press("Enter");
  await sleep(300);
  check("Enter on a row's checkbox does not answer", isOpen("fill") && box(D.toggle).checked, name(act()));
  press(" ");
  check("Space toggles the focused row", !box(D.toggle).checked && rowLi(D.toggle).classList.contains("off"), box(D.toggle).checked);
  check("Approve counts the rows ticked", text("#cf-approve") === "Fill 4 fields", text("#cf-approve"));
  check("Tab reaches Approve", tabTo((e) => e && e.id === "cf-approve"), name(act()));
  press("Enter");
  check("Enter on Approve answers and closes the dialog", await until(closed), dlg() && dlg().dataset.ended);
  check("the window is usable again", !!act() && !dlg().contains(act()), name(act()));

  // 2. More fields, from a browser not verified, rememberable: Escape.
  await ask("continue");
  check("a continuation opens its own dialog", await until(() => isOpen("continue")) && text("#cf-title") === "The page asked for more fields", text("#cf-title"));
  check("an unverified browser is said to be not verified", /not verified/.test(text("#cf-client")), text("#cf-client"));
  check("one profile: named, no picker", !$("#cf-profile") && /From profile Personal/.test(text(".cf-profile")), text(".cf-profile"));
  check("a row the page already filled starts unchecked and says why", !box("r2").checked && /already holds another value/.test(rowLi("r2").querySelector(".cf-meta").textContent), rowLi("r2").querySelector(".cf-meta").textContent);
  check("Remember for this site is offered", !!$("#cf-remember") && /Remember for shop\.example/.test($("#cf-remember").parentElement.textContent), $("#cf-remember") && $("#cf-remember").parentElement.textContent);
  await enabledAfter();
  const seen2 = cycle();
  check("Tab order: rows, Remember, Deny, Approve", inOrder(seen2, ["cf-check@r1", "cf-check@r2", "cf-remember", "cf-deny"]) && name(seen2[0]) === "cf-approve", seen2.map(name).join(" "));
  tabTo((e) => e && e.id === "cf-remember");
  press(" ");
  check("Space ticks Remember", $("#cf-remember").checked, "");
  press("Escape");
  check("Escape denies and closes the dialog", await until(closed), dlg() && dlg().dataset.ended);

  // 3. Learn: previous -> new, approved with its defaults.
  await ask("learn");
  check("a learn dialog asks to save", await until(() => isOpen("learn")) && text("#cf-title") === "Save to your profile?", text("#cf-title"));
  const prev = (id) => rowLi(id).querySelector(".cf-prev").textContent, next = (id) => rowLi(id).querySelector(".cf-value").textContent;
  check("learn rows show the previous and the new value", prev("r1") === "+44 20 7946 0018" && next("r1") === "+44 20 7946 0999" && prev("r2") === "(nothing yet)", prev("r1") + " -> " + next("r1") + "; " + prev("r2"));
  await enabledAfter();
  check("Approve says what it saves", text("#cf-approve") === "Save 1 value", text("#cf-approve"));
  tabTo((e) => e && e.id === "cf-approve");
  press("Enter");
  check("the learn dialog closes on Approve", await until(closed), "");

  // 3b. Pairing a browser: the code and the executable shown, Pair with Enter.
  const P = D.pair;
  await ask("pair");
  check("a pairing dialog asks to pair the browser", await until(() => isOpen("pair")) && text("#cf-title") === "Pair this browser with Tessera?", text("#cf-title"));
  check("the pairing code is shown large", text("#cf-pair-code") === P.pair.code && parseFloat(getComputedStyle($("#cf-pair-code")).fontSize) >= 24, text("#cf-pair-code"));
  check("the verified browser and its executable are named", text("#cf-site") === P.site && dlg().textContent.includes(P.pair.exe) && /verified/.test(text("#cf-client")), text("#cf-site"));
  check("Deny has the focus on the pairing dialog", act() && act().id === "cf-deny", name(act()));
  await enabledAfter();
  check("Approve says Pair", text("#cf-approve") === "Pair", text("#cf-approve"));
  tabTo((e) => e && e.id === "cf-approve");
  press("Enter");
  check("the pairing dialog closes on Pair", await until(closed), "");

  // 4. Left alone, a dialog times out.
  await ask("timeout");
  check("a dialog with 3 s left counts down", await until(() => isOpen("fill")) && /^Declines in 0:0[0-3]$/.test(text("#cf-timer")), text("#cf-timer"));
  check("at its expiry it says timed out", await until(() => dlg().dataset.ended === "timeout" && /timed out/i.test(text("#cf-status")), 8000), text("#cf-status"));
  check("then it closes", await until(closed, 5000), "");

  // 5. One left open: laid out small and zoomed, then for the screenshot.
  await ask("display");
  await until(() => isOpen("fill"));
  await enabledAfter();
  const resize = async (w, h) => {
    await window.go.app.SelfTest.SetWindowSize(w, h);
    return until(() => Math.abs(innerWidth - w) <= 2 && Math.abs(innerHeight - h) <= 2, 5000);
  };
  const inView = (e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.left >= -1 && r.top >= -1 && r.right <= innerWidth + 1 && r.bottom <= innerHeight + 1;
  };
  const uncovered = (e) => {
    const r = e.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return inView(e) && !!hit && (hit === e || e.contains(hit));
  };
  for (const [w, h, what] of [[800, 600, "at 800x600"], [400, 300, "at 200% zoom of 800x600 (400x300)"]]) {
    const sized = await resize(w, h);
    await sleep(200);
    dlg().scrollTop = 0;
    check("the window resizes to " + w + "x" + h, sized, innerWidth + "x" + innerHeight);
    check(what + ": the site, Deny and Approve are in view", inView($("#cf-site")) && uncovered($("#cf-deny")) && uncovered($("#cf-approve")), innerWidth + "x" + innerHeight);
    check(what + ": nothing overflows sideways", dlg().scrollWidth <= dlg().clientWidth + 1 && inView(dlg()), dlg().scrollWidth + " > " + dlg().clientWidth);
    const hidden = [];
    let walked = 0;
    tabTo((e) => e && e.id === "cf-deny");
    for (let i = 0; i < 80; i++) {
      press("Tab");
      walked++;
      if (!uncovered(act())) hidden.push(name(act()));
      if (act().id === "cf-deny") break;
    }
    check(what + ": every control Tab reaches is in view, not under the header or footer", walked > 10 && hidden.length === 0, hidden.join(" ") || walked + " controls");
  }
  check("the window resizes back for the screenshot", await resize(D.shot[0], D.shot[1]), innerWidth + "x" + innerHeight);
  await sleep(200);
  dlg().querySelector('li[data-row-id="r6"] .cf-link').click();
  $("#cf-deny").focus();
  dlg().scrollTop = 0;
  dlg().querySelector(".cf-body").scrollTop = 0;
  // Painting resumes a few frames after the window is mapped again; the
  // script's colour check tells a blank shot.
  const framed = await Promise.race([
    new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r("painted")))),
    sleep(3000).then(() => "no frame within 3 s"),
  ]);
  check("the dialog is open for the screenshot", isOpen("fill"), framed + " at " + innerWidth + "x" + innerHeight);
}`

// realKeysSelfTestScript answers two dialogs with key presses on the X
// display (SelfTest.PressKeys), as a person's keyboard sends them: the
// browser's own handling of a trusted Space or Enter must not act a second
// time beside the dialog's.
const realKeysSelfTestScript = `async ({ exp, check, $, text, sleep, until }) => {
  const D = exp.dialog;
  const dlg = () => $("#confirm");
  const isOpen = (kind) => !!dlg() && dlg().open && dlg().dataset.kind === kind && !dlg().dataset.ended;
  const closed = () => !dlg() || !dlg().open;
  const act = () => document.activeElement;
  const box = (id) => dlg().querySelector('li[data-row-id="' + id + '"] input.cf-check');
  const keys = (k) => window.go.app.SelfTest.PressKeys(k);
  const tabTo = async (pred) => {
    for (let i = 0; i < 40 && !pred(act()); i++) await keys("Tab");
    return pred(act());
  };
  const name = (e) => (e && (e.id || e.className || e.tagName)) || "none";
  await window.go.app.SelfTest.AskConfirmation("keys");
  check("real keys: a fill opens with Deny focused", await until(() => isOpen("fill")) && act().id === "cf-deny", name(act()));
  await until(() => !$("#cf-approve").disabled, 5000);
  check("real keys: Tab reaches the row to toggle", await tabTo((e) => e === box(D.toggle)), name(act()));
  await keys("space");
  // On a loaded machine the key can take a while to arrive; a second
  // toggle would show within the pause after it.
  const toggled = await until(() => !box(D.toggle).checked, 3000);
  await sleep(300);
  check("real keys: Space toggles the row once", toggled && !box(D.toggle).checked, box(D.toggle).checked);
  await keys("Return");
  await sleep(300);
  check("real keys: Enter on a row does not answer", isOpen("fill") && !box(D.toggle).checked, "");
  check("real keys: Tab reaches Approve", await tabTo((e) => e && e.id === "cf-approve"), name(act()));
  await keys("Return");
  check("real keys: Enter on Approve answers", await until(closed), "");
  await window.go.app.SelfTest.AskConfirmation("keys-deny");
  check("real keys: a continuation opens", await until(() => isOpen("continue")), "");
  await keys("Escape");
  check("real keys: Escape denies", await until(closed), "");
}`
