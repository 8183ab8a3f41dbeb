//go:build selftest

package app

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tessera-app/tessera/app/ui"
	"github.com/tessera-app/tessera/profile"
)

// The keyboard-only run ($TESSERA_SELFTEST_KEYBOARD=1, with
// $TESSERA_SELFTEST_REAL_KEYS=1, in a fresh TESSERA_HOME): from first run
// to Activity with key presses on the X display (xdotool) alone. The page
// never clicks and never moves focus itself; it only reads where focus
// is and what is shown. It sets the vault up (passphrase typed and
// confirmed), creates a profile, adds a city to it and edits it, imports
// a vCard of two contacts, locks, unlocks and finds the import in
// Activity; changes the passphrase in Settings (a wrong current one
// first), and unlocks with the new one only; every control that Tab reaches on the way must show a focus
// ring. Go then checks the vault (keyboardChecks).

const (
	selfTestKeysProfile = "Keyboard home"
	selfTestKeysCity    = "London"
	selfTestKeysCityNew = "Cambridge"
	// selfTestKeysNewPass is the passphrase Change passphrase sets.
	selfTestKeysNewPass = "copper meadow lantern quietly"
)

// runKeyboard runs the keyboard-only script and checks the vault after it.
func (st *selfTest) runKeyboard(sh ui.Shell) {
	if !st.realKeys() {
		st.finish(SelfTestReport{Checks: []SelfTestCheck{{Name: "keyboard-only run", Detail: "needs TESSERA_SELFTEST_REAL_KEYS=1 and xdotool"}}})
		return
	}
	exp := fmt.Sprintf(`{"pass": %q, "label": %q, "cityIRI": %q, "city": %q, "cityNew": %q, "cityLabel": %q, "first": "Ada Lovelace", "second": "Charles Babbage", "newPass": %q, "shot": [%d, %d]}`,
		selfTestPassphrase, selfTestKeysProfile, profile.ConceptAddressLocality, selfTestKeysCity, selfTestKeysCityNew, catalogLabel(profile.ConceptAddressLocality),
		selfTestKeysNewPass, selfTestEditorShot[0], selfTestEditorShot[1])
	sh.ExecJS(fmt.Sprintf(keyboardSelfTestScript, exp))
	select {
	case r := <-st.reports:
		r.Checks = append(r.Checks, st.keyboardChecks()...)
		st.finish(r)
	case <-time.After(selfTestTimeout):
		st.finish(SelfTestReport{Checks: []SelfTestCheck{{Name: "page reported", Detail: fmt.Sprintf("no report within %v", selfTestTimeout)}}})
	}
}

// keyboardChecks checks in Go that the key presses reached the vault.
func (st *selfTest) keyboardChecks() []SelfTestCheck {
	view, err := st.ui.Vault()
	checks := []SelfTestCheck{{
		Name:   "keys only: the vault set up from first run is unlocked, with a passphrase",
		OK:     err == nil && view.State == "unlocked" && view.HasPassphrase,
		Detail: fmt.Sprintf("%+v, %v", view, err),
	}}
	v, ok := st.app.cfg.Vault, st.app.cfg.Vault != nil
	if !ok {
		return append(checks, SelfTestCheck{Name: "keys only: the profiles are in the vault", Detail: ui.ErrNoVault.Error()})
	}
	ps, err := v.ProfileSummaries()
	var labels []string
	id := ""
	for _, p := range ps {
		labels = append(labels, p.Label)
		if p.Label == selfTestKeysProfile {
			id = p.ID
		}
	}
	checks = append(checks, SelfTestCheck{
		Name:   "keys only: the profile typed and both imported contacts are in the vault",
		OK:     err == nil && id != "" && slices.Contains(labels, "Ada Lovelace") && slices.Contains(labels, "Charles Babbage") && len(labels) == 3,
		Detail: fmt.Sprintf("%q, %v", labels, err),
	})
	city := ""
	if id != "" {
		prof, perr := v.Profile(id)
		if perr == nil {
			city, _ = prof.Concepts[profile.ConceptAddressLocality].StringValue()
		}
	}
	return append(checks, SelfTestCheck{
		Name:   "keys only: the city holds the value as edited with the keys",
		OK:     city == selfTestKeysCityNew,
		Detail: fmt.Sprintf("%q", city),
	})
}

// keyboardSelfTestScript: %s is the JSON of what Go expects.
//
//go:embed selftest/keyboard.js
var keyboardSelfTestScriptJS string

// keyboardSelfTestScript is keyboardSelfTestScriptJS with the shared prelude in place.
var keyboardSelfTestScript = strings.Replace(keyboardSelfTestScriptJS, "/* prelude */\n", selfTestPrelude, 1)
