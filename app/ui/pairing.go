package ui

import "github.com/tessera-app/tessera/app/trust"

// PairedBrowsers lists the paired extension installs, for Settings.
func (u *UI) PairedBrowsers() ([]trust.PairedBrowser, error) {
	list := u.cfg.Pairs.All()
	for i := range list {
		list[i].Key = nil
	}
	return list, nil
}

// UnpairBrowser forgets the paired install id: its sessions lose their
// connection at once and must be paired again.
func (u *UI) UnpairBrowser(id string) ([]trust.PairedBrowser, error) {
	if err := u.cfg.Pairs.Unpair(id); err != nil {
		return nil, err
	}
	return u.PairedBrowsers()
}
