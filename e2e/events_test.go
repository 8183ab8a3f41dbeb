//go:build e2e && linux

package e2e

import "slices"

// askedAbout returns the app's dialog events other than the pairing
// dialog's (issue 18), which a testhooks app shows and approves once when
// the browser first connects: what a test means by "the person was asked"
// about a fill, a learn or an agent's call.
func askedAbout(evs []AppEvent) []AppEvent {
	return slices.DeleteFunc(slices.Clone(evs), func(e AppEvent) bool { return e.Kind == "pair" })
}
