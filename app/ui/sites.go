package ui

import "github.com/tessera-app/tessera/vault"

// siteRuleStore is a vault that keeps site rules ("remember for this
// site", package fill).
type siteRuleStore interface {
	SiteRule(origin string) (vault.SiteRule, bool, error)
	SetSiteRule(vault.SiteRule) error
	DeleteSiteRule(origin string) error
	TouchSiteRule(origin string) error
	SiteRules() ([]vault.SiteRule, error)
}

// SiteRules lists the sites the person let fill without asking.
func (u *UI) SiteRules() ([]vault.SiteRule, error) {
	st, ok := u.cfg.Vault, u.cfg.Vault != nil
	if !ok {
		return nil, ErrNoVault
	}
	rs, err := st.SiteRules()

	if rs == nil {
		rs = []vault.SiteRule{}
	}
	return rs, err
}

// ForgetSite revokes the rule of an origin: its next fill asks again.
func (u *UI) ForgetSite(origin string) error {
	st, ok := u.cfg.Vault, u.cfg.Vault != nil
	if !ok {
		return ErrNoVault
	}
	u.personActed()
	return st.DeleteSiteRule(origin)
}
