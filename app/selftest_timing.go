//go:build selftest

package app

import (
	"fmt"
	"strconv"
	"time"
)

// The launch-to-unlocked figure (scripts/ui-timing.sh): with
// $TESSERA_SELFTEST_TIMING=1 the self-test only unlocks the existing vault
// with the passphrase in $TESSERA_SELFTEST_TIMING_PASS, as a person would,
// and waits for the profile list to show every profile; the report's
// checks carry the times. $TESSERA_SELFTEST_T0 is the launch time (Unix
// nanoseconds) the script took just before starting the app.

const timingSelfTestScript = `(async () => {
  const exp = %s;
  const checks = [];
  const $ = (s) => document.querySelector(s);
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const until = async (f, ms) => { const end = Date.now() + ms; for (;;) { try { if (f()) return true; } catch (e) {} if (Date.now() > end) return false; await sleep(10); } };
  const shown = (e) => !!e && !e.hidden && e.getClientRects().length > 0;
  const ready = await until(() => shown($("#unlock-form")), 20000);
  const tForm = Date.now();
  const i = $("#unlock-pass");
  i.focus(); i.value = exp.pass; i.dispatchEvent(new Event("input", { bubbles: true }));
  $("#unlock-submit").click();
  const unlocked = await until(() => shown($("#lock-now")), 30000);
  const tUnlocked = Date.now();
  $('.nav-item[data-view="profiles"]').click();
  const listed = await until(() => document.querySelectorAll("#profiles .profile").length === exp.profiles, 30000);
  const tListed = Date.now();
  checks.push({ name: "timing: unlock form shown", ok: ready, detail: String(tForm) });
  checks.push({ name: "timing: unlocked", ok: unlocked, detail: String(tUnlocked) });
  checks.push({ name: "timing: profiles listed", ok: listed, detail: String(tListed) + " rows " + document.querySelectorAll("#profiles .profile").length });
  await window.go.app.SelfTest.Report({ ok: false, checks, status: {} });
})();`

// runTiming runs the timing script and reports the times from launch.
func (st *selfTest) runTiming(sh shell) {
	n, _ := strconv.Atoi(st.cfg.getenv("TESSERA_SELFTEST_TIMING_PROFILES"))
	exp := fmt.Sprintf(`{"pass": %q, "profiles": %d}`, st.cfg.getenv("TESSERA_SELFTEST_TIMING_PASS"), n)
	sh.execJS(fmt.Sprintf(timingSelfTestScript, exp))
	select {
	case r := <-st.reports:
		t0, _ := strconv.ParseInt(st.cfg.getenv("TESSERA_SELFTEST_T0"), 10, 64)
		for i, c := range r.Checks {
			ms, err := strconv.ParseInt(c.Detail[:min(len(c.Detail), 13)], 10, 64)
			if err == nil && t0 > 0 {
				r.Checks[i].Detail = fmt.Sprintf("%d ms after launch (%s)", ms-t0/1e6, c.Detail)
			}
		}
		st.finish(r)
	case <-time.After(selfTestTimeout):
		st.finish(SelfTestReport{Checks: []SelfTestCheck{{Name: "timing reported", Detail: "no report"}}})
	}
}
