//go:build selftest

package app

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tessera-app/tessera/app/ui"
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
	ui      *ui.UI
	win     *ui.Window
	cfg     windowConfig
	reports chan SelfTestReport
	once    sync.Once

	mu      sync.Mutex
	conn    net.Conn // the stand-in browser
	failure error    // set by finish
	sh      ui.Shell
	// asked holds, by kind, the decision of each confirmation asked.
	asked map[string]chan Decision
	// withdraw cancels the confirmation left open for the screenshot.
	withdraw context.CancelFunc
	// transferDir holds the import, export and backup files.
	transferDir string
	// size is the window size the page last set.
	size [2]int
}

func newSelfTest(a *App, u *ui.UI, win *ui.Window, cfg windowConfig) *selfTest {
	return &selfTest{app: a, ui: u, win: win, cfg: cfg, reports: make(chan SelfTestReport, 1), asked: map[string]chan Decision{}}
}

func (st *selfTest) bindings() []any { return []any{&SelfTest{st: st}} }

// domReady starts the test on the first DOM ready only: a reload must not
// start a second run.
func (st *selfTest) domReady(wctx context.Context) {
	sh := wailsWindow{Shell: ui.WailsShell(wctx), ctx: wctx, x11: st.realKeys() && st.cfg.getenv("GDK_SCALE") == ""}
	st.once.Do(func() {
		st.mu.Lock()
		st.sh = sh
		st.mu.Unlock()
		go st.run(sh)
	})
}

func (st *selfTest) shell() ui.Shell {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.sh
}

func (st *selfTest) run(sh ui.Shell) {
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
	sh.ExecJS(fmt.Sprintf(selfTestScript, exp, profilesSelfTestScript, settingsSelfTestScript, transferSelfTestScript, agentsSelfTestScript, realKeysSelfTestScript, dialogSelfTestScript))
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
	time.AfterFunc(hold, st.win.Quit)
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
	var hello nativemsg.HelloParams
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
//
//go:embed selftest/prelude.js
var selfTestPrelude string

// selfTestScript runs in the page; the %s are the JSON of what Go expects,
// profilesSelfTestScript, settingsSelfTestScript, transferSelfTestScript,
// agentsSelfTestScript, realKeysSelfTestScript and dialogSelfTestScript.
//
//go:embed selftest/main.js
var selfTestScriptJS string

// selfTestScript is selfTestScriptJS with the shared prelude in place.
var selfTestScript = strings.Replace(selfTestScriptJS, "/* prelude */\n", selfTestPrelude, 1)

// windowSizer is a shell that can resize its window; the real one can.
type windowSizer interface{ setSize(w, h int) }

// wailsWindow is the real window's shell with the resizing the self-test
// needs and the window's own service has no use for.
type wailsWindow struct {
	ui.Shell
	ctx context.Context
	// x11 says the window is resized through the X server (xdotool), as
	// a window manager would, rather than by Wails: on Linux Wails calls
	// gtk_window_resize off GTK's main thread, and under load a request
	// so made can leave GTK waiting for a configure event that never
	// comes, after which the window never grows again (the self-test
	// failed so about one run in ten on a busy machine). Only at scale
	// 1: xdotool counts device pixels, Wails CSS pixels.
	x11 bool
}

// setSize lifts the window's minimum size and resizes it, so the dialog
// can be laid out as a small window or a large zoom leaves it.
func (s wailsWindow) setSize(w, h int) {
	runtime.WindowSetMinSize(s.ctx, 200, 150)
	if s.x11 {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if win, err := xWindow(ctx); err == nil {
			args := []string{"windowmove", win, "0", "0", "windowsize", win, strconv.Itoa(w), strconv.Itoa(h)}
			if err := exec.CommandContext(ctx, "xdotool", args...).Run(); err == nil {
				return
			}
		}
	}
	runtime.WindowSetSize(s.ctx, w, h)
	runtime.WindowSetPosition(s.ctx, 0, 0)
}

// xWindow finds the Tessera window on the X display (xdotool).
func xWindow(ctx context.Context) (string, error) {
	id, err := exec.CommandContext(ctx, "xdotool", "search", "--onlyvisible", "--name", "^Tessera$").Output()
	if err != nil || len(strings.Fields(string(id))) == 0 {
		return "", fmt.Errorf("find the window with xdotool: %v", err)
	}
	return strings.Fields(string(id))[0], nil
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
	fillDialog := Confirmation{
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
			// A gender is offered, never ticked for the person.
			{ID: "r9", Ref: "t7", Label: "Gender", Value: "Female", Sensitive: true, Concept: "https://schema.org/gender", ConceptLabel: "Gender", Confidence: 0.96,
				Evidence: []string{`label "Gender"`, "policy → rule by-choice"}, Section: SectionFill, Reason: "given only if you tick it"},
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
		URL:      fillDialog.URL,
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
		URL:      fillDialog.URL,
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
	// The screenshot's confirmation is the fill dialog without the markup label.
	shot := fillDialog
	shot.Rows = slices.Clone(fillDialog.Rows)
	shot.Rows[7].Label = "Phone"
	return map[string]selfTestConfirmation{
		selfTestAskFill:     {fillDialog, time.Minute, Decision{Approve: true, Rows: []string{"r1", "r3", "r4", "r5"}}},
		selfTestAskContinue: {more, time.Minute, Decision{Reason: DeclineDenied}},
		selfTestAskLearn:    {learn, time.Minute, Decision{Approve: true, Rows: []string{"r1"}}},
		selfTestAskTimeout:  {fillDialog, 3 * time.Second, Decision{Reason: DeclineTimeout}},
		selfTestAskDisplay:  {shot, 10 * time.Minute, Decision{}},
		selfTestAskPair:     {pair, time.Minute, Decision{Approve: true}},
		selfTestAskKeys:     {fillDialog, time.Minute, Decision{Approve: true, Rows: []string{"r1", "r3", "r4", "r5"}}},
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
	queued, returned := make(chan struct{}), make(chan struct{})
	go func() {
		defer cancel()
		done <- st.app.confirms.Ask(ctx, tc.c, tc.timeout, func(string) { close(queued) })
		close(returned)
	}()
	select {
	case <-queued:
	case <-returned: // declined at once: no window
	}
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
	win, err := xWindow(ctx)
	if err != nil {
		return err
	}
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
	win, err := xWindow(ctx)
	if err != nil {
		return err
	}
	args := []string{"windowfocus", "--sync", win, "type", "--delay", "20", "--", text}
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
//
//go:embed selftest/dialog.js
var dialogSelfTestScript string

// realKeysSelfTestScript answers two dialogs with key presses on the X
// display (SelfTest.PressKeys), as a person's keyboard sends them: the
// browser's own handling of a trusted Space or Enter must not act a second
// time beside the dialog's.
//
//go:embed selftest/realkeys.js
var realKeysSelfTestScript string
