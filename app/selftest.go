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
	"slices"
	"sync"
	"time"

	"github.com/tessera-app/tessera/nativemsg"
)

// The UI self-test (build tag selftest, never in release builds) drives the
// real window: on DOM ready it injects selfTestScript, which checks the
// status screen against what Go reports, clicks through every section, asks
// Go to connect a stand-in browser over the real channel and waits for it to
// appear through the live "status" event. Then it types and clicks its way
// through the vault: set up with a passphrase (after a mistyped
// confirmation), create a profile, lock, a wrong passphrase, unlock. The
// page reports through the bound SelfTest service, and Go checks the vault
// itself ended up as the page says; the report is written as JSON to
// $TESSERA_SELFTEST_REPORT and a failure becomes RunDesktop's error, so the
// process exits non-zero. $TESSERA_SELFTEST_HOLD (a Go duration) keeps the
// window up that long after the report, for a screenshot.

// errSelfTest is returned (wrapped) when a self-test check fails.
var errSelfTest = errors.New("ui self-test failed")

// selfTestTimeout bounds the wait for the page's report: a page that never
// reports (a script error, a dead bridge) is a failure, not a hang. The
// vault steps cost a few scrypt rounds of about a second each; it stays
// below the minute scripts/ui-selftest.sh waits.
const selfTestTimeout = 50 * time.Second

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
}

func newSelfTest(a *App, ui *UI, cfg windowConfig) *selfTest {
	return &selfTest{app: a, ui: ui, cfg: cfg, reports: make(chan SelfTestReport, 1)}
}

func (st *selfTest) bindings() []any { return []any{&SelfTest{st: st}} }

// domReady starts the test on the first DOM ready only: a reload must not
// start a second run.
func (st *selfTest) domReady(sh shell) {
	st.once.Do(func() { go st.run(sh) })
}

func (st *selfTest) run(sh shell) {
	exp, err := json.Marshal(map[string]any{
		"status": st.app.Status(),
		"client": map[string]string{"name": selfTestClientName, "origin": selfTestClientOrigin},
		"vault":  map[string]string{"passphrase": selfTestPassphrase, "profile": selfTestProfile},
	})
	if err != nil {
		st.finish(SelfTestReport{Checks: []SelfTestCheck{{Name: "encode expectations", Detail: err.Error()}}})
		return
	}
	sh.execJS(fmt.Sprintf(selfTestScript, exp))
	select {
	case r := <-st.reports:
		r.Checks = append(r.Checks, st.vaultChecks()...)
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
	time.AfterFunc(hold, st.ui.quit)
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

// selfTestScript runs in the page; %s is the JSON of what Go expects.
const selfTestScript = `(async () => {
  const exp = %s;
  const checks = [];
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
  try {
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
      if (v === "activity" || v === "settings") check("section " + v + " says what will be there", text('[data-panel="' + v + '"] .placeholder p').length > 40, text('[data-panel="' + v + '"] .placeholder p'));
      // The vault card fills in once Go answers its first view() call.
      if (v === "profiles") check("profiles say what to do before there is a vault", await until(() => shown($("#profiles-locked")) && text("#profiles-locked").length > 40 && $("#profiles").childElementCount === 0 && !shown($("#new-profile"))), text("#profiles-locked"));
    }
    await window.go.app.SelfTest.ConnectBrowser();
    check("a connecting browser appears live with name and origin",
      await until(() => [...document.querySelectorAll("#clients .client")].some((li) => li.textContent.includes(exp.client.name) && li.textContent.includes(exp.client.origin) && li.querySelector("time").textContent.startsWith("since"))),
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
    type("#setup-pass", pass);
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
    check("no error banner at the end", $("#banner").hidden, text("#banner"));
  } catch (e) {
    check("script ran to the end", false, (e && e.stack) || e);
  }
  await window.go.app.SelfTest.Report({ ok: false, checks, status: exp.status });
})();`
