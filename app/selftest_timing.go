//go:build selftest

package app

import (
	_ "embed"
	"fmt"
	"strconv"
	"time"

	"github.com/tessera-app/tessera/app/ui"
)

// The launch-to-unlocked figure (scripts/ui-timing.sh): with
// $TESSERA_SELFTEST_TIMING=1 the self-test only unlocks the existing vault
// with the passphrase in $TESSERA_SELFTEST_TIMING_PASS, as a person would,
// and waits for the profile list to show every profile; the report's
// checks carry the times. $TESSERA_SELFTEST_T0 is the launch time (Unix
// nanoseconds) the script took just before starting the app.

//go:embed selftest/timing.js
var timingSelfTestScript string

// runTiming runs the timing script and reports the times from launch.
func (st *selfTest) runTiming(sh ui.Shell) {
	n, _ := strconv.Atoi(st.cfg.getenv("TESSERA_SELFTEST_TIMING_PROFILES"))
	exp := fmt.Sprintf(`{"pass": %q, "profiles": %d}`, st.cfg.getenv("TESSERA_SELFTEST_TIMING_PASS"), n)
	sh.ExecJS(fmt.Sprintf(timingSelfTestScript, exp))
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
