//go:build selftest

package app

import (
	_ "embed"
	"fmt"
	"slices"
	"time"

	"github.com/tessera-app/tessera/app/ui"
	"github.com/tessera-app/tessera/app/vaultctl"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

// The self-test's Settings steps (settingsSelfTestScript), run once the
// editor steps have left the profile selfTestEditRenamed in the vault: the
// page finds no site that fills without asking and says how one gets
// there; Go then remembers two sites for that profile straight in the
// vault (vault.SetSiteRule, as an approved dialog with "Remember for this
// site" does), and the page lists them in words, forgets one with the
// keyboard (real key presses when $TESSERA_SELFTEST_REAL_KEYS is set),
// checks the browsers and the vault facts against what Go reports, and is
// laid out at 800x600 and 400x300. Go then checks that exactly the
// forgotten rule is gone (settingsChecks). With $TESSERA_SELFTEST_SHOTS
// set the section is screenshotted (settings.png; settings-zoom.png at
// 400x300, the top left of the shot; settings-vault.png, the vault facts).

// The sites Go remembers: the page forgets the first and keeps the second.
const (
	selfTestForgetOrigin = "https://checkout.shop.example"
	selfTestForgetSite   = "shop.example"
	selfTestKeepOrigin   = "https://www.news.example"
	selfTestKeepSite     = "news.example"
)

// RememberSites lets the two self-test sites fill from the profile
// labelled label without asking, as ticking "Remember for this site" does.
func (s *SelfTest) RememberSites(label string) error { return s.st.rememberSites(label) }

func (st *selfTest) rememberSites(label string) error {
	v, ok := st.app.cfg.Vault, st.app.cfg.Vault != nil
	if !ok {
		return ui.ErrNoVault
	}
	ps, err := v.ProfileSummaries()
	if err != nil {
		return err
	}
	i := slices.IndexFunc(ps, func(p vault.ProfileSummary) bool { return p.Label == label })
	if i < 0 {
		return fmt.Errorf("no profile %q", label)
	}
	now := time.Now()
	for _, r := range []vault.SiteRule{
		{Origin: selfTestForgetOrigin, Site: selfTestForgetSite, Profile: ps[i].ID, Concepts: []string{profile.ConceptEmail, profile.ConceptTelephone}, Created: now.Add(-2 * time.Hour), LastUsed: now.Add(-5 * time.Minute)},
		{Origin: selfTestKeepOrigin, Site: selfTestKeepSite, Profile: ps[i].ID, Concepts: []string{profile.ConceptGivenName, profile.ConceptFamilyName}, Created: now.Add(-26 * time.Hour)},
	} {
		if err := v.SetSiteRule(r); err != nil {
			return fmt.Errorf("remember %s: %w", r.Origin, err)
		}
	}
	return nil
}

// selfTestAutoLock is the auto-lock time, in minutes, the page picks.
const selfTestAutoLock = 5

// selfTestSettingsExpectations are the Settings steps' expectations for
// the page: the sites, and the browsers and vault as Go sees them.
func (st *selfTest) selfTestSettingsExpectations() map[string]any {
	bv, err := st.ui.Browsers()
	hosts := map[string]string{}
	for _, b := range bv.Browsers {
		hosts[b.Name] = b.Host
	}
	vs, verr := st.ui.VaultSettings()
	return map[string]any{
		"profile": selfTestEditRenamed,
		"forget":  map[string]string{"origin": selfTestForgetOrigin, "site": selfTestForgetSite},
		"keep":    map[string]string{"origin": selfTestKeepOrigin, "site": selfTestKeepSite},
		"kinds":   []string{catalogLabel(profile.ConceptEmail), catalogLabel(profile.ConceptTelephone)},
		"hosts":   hosts, "browsersError": fmt.Sprint(err), "problem": bv.Problem,
		"dir": vs.Dir, "vaultError": fmt.Sprint(verr), "autoLock": vs.AutoLockMinutes, "autoLockNew": selfTestAutoLock,
		"shot": selfTestEditorShot,
	}
}

// settingsChecks checks in Go that the page's Forget reached the vault:
// the forgotten site's rule is gone, the other one is still there.
func (st *selfTest) settingsChecks() []SelfTestCheck {
	rs, err := st.ui.SiteRules()
	var origins []string
	for _, r := range rs {
		origins = append(origins, r.Origin)
	}
	prefs, perr := vaultctl.LoadPrefs(st.app.cfg.Home)
	saved := perr == nil && prefs.AutoLockMinutes != nil && *prefs.AutoLockMinutes == selfTestAutoLock
	return []SelfTestCheck{{
		Name:   "settings: the site forgotten in the window no longer fills without asking, the other still does",
		OK:     err == nil && !slices.Contains(origins, selfTestForgetOrigin) && slices.Contains(origins, selfTestKeepOrigin),
		Detail: fmt.Sprintf("%q, %v", origins, err),
	}, {
		Name:   "settings: the auto-lock time chosen in the window applies now and is saved for the next start",
		OK:     st.app.vaultctl.IdleLimit() == selfTestAutoLock*time.Minute && saved,
		Detail: fmt.Sprintf("app %v, prefs %+v %v", st.app.vaultctl.IdleLimit(), prefs, perr),
	}}
}

// settingsSelfTestScript is called by selfTestScript with its helpers, the
// vault unlocked, after profilesSelfTestScript; it leaves the window on
// the status screen.
//
//go:embed selftest/settings.js
var settingsSelfTestScript string

// catalogLabel is the label the editor shows for the catalog concept iri.
func catalogLabel(iri string) string {
	c, _ := profile.CatalogConcept(iri)
	return c.Label
}
