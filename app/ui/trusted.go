package ui

import (
	"github.com/tessera-app/tessera/app/trust"
)

// TrustedBrowsers lists the browsers the person approved and those the
// app refused lately, for Settings.
func (u *UI) TrustedBrowsers() (trust.TrustedBrowsersView, error) {
	return u.cfg.Browsers.View(), nil
}

// TrustBrowser approves the browser executable at path, one the app
// refused lately, as the file is now.
func (u *UI) TrustBrowser(path string) (trust.TrustedBrowsersView, error) {
	if err := u.cfg.Browsers.Trust(path, u.cfg.Now()); err != nil {
		return trust.TrustedBrowsersView{}, err
	}
	u.personActed()
	return u.cfg.Browsers.View(), nil
}

// UntrustBrowser withdraws the approval of the browser at path; its
// sessions end at once, and new ones are refused.
func (u *UI) UntrustBrowser(path string) (trust.TrustedBrowsersView, error) {
	if err := u.cfg.Browsers.Untrust(path); err != nil {
		return trust.TrustedBrowsersView{}, err
	}
	u.personActed()
	return u.cfg.Browsers.View(), nil
}
