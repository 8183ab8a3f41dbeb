package app

import (
	"github.com/tessera-app/tessera/app/trust"
)

// TrustedBrowsers lists the browsers the person approved and those the
// app refused lately, for Settings.
func (u *UI) TrustedBrowsers() (trust.TrustedBrowsersView, error) {
	return u.app.trusted.View(), nil
}

// TrustBrowser approves the browser executable at path, one the app
// refused lately, as the file is now.
func (u *UI) TrustBrowser(path string) (trust.TrustedBrowsersView, error) {
	if err := u.app.trusted.Trust(path, u.app.cfg.Now()); err != nil {
		return trust.TrustedBrowsersView{}, err
	}
	u.app.personActed()
	return u.app.trusted.View(), nil
}

// UntrustBrowser withdraws the approval of the browser at path; its
// sessions end at once, and new ones are refused.
func (u *UI) UntrustBrowser(path string) (trust.TrustedBrowsersView, error) {
	if err := u.app.trusted.Untrust(path); err != nil {
		return trust.TrustedBrowsersView{}, err
	}
	u.app.broker.Untrust(path)
	u.app.personActed()
	return u.app.trusted.View(), nil
}
