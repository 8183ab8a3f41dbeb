package app

import (
	"github.com/tessera-app/tessera/app/trust"
)

// trustParent looks up a peer whose parent the built-in rule refused among
// the browsers the person approved: only Tessera's own host is looked
// up, since only it can be a browser's.
func (a *App) trustParent(s *session) {
	p := &s.peer
	if s.peerErr != nil || p.Browser != "" || p.Parent == nil || p.Parent.Exe == "" || !(p.Process.SameExe || p.Process.Sibling) {
		return
	}
	name, err := a.trusted.Check(p.Parent, p.Why, a.cfg.Now())
	if err != nil {
		p.Why = err.Error()
		return
	}
	p.Browser, p.Why = name, ""
	a.mu.Lock()
	s.trustedExe = p.Parent.Exe
	a.mu.Unlock()
}

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
	a := u.app
	a.mu.Lock()
	var drop []*session
	for s := range a.sessions {
		if s.trustedExe == path {
			drop = append(drop, s)
		}
	}
	a.mu.Unlock()
	for _, s := range drop {
		s.conn.Close()
	}
	u.app.personActed()
	return u.app.trusted.View(), nil
}
