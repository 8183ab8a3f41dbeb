package cmdline

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/tessera-app/tessera/app/broker"
	"github.com/tessera-app/tessera/app/fill"
	"github.com/tessera-app/tessera/nativemsg"
	"github.com/tessera-app/tessera/vault"
)

// SiteList is the result of site.list.
type SiteList struct {
	Sites []vault.SiteRule `json:"sites"`
}

// cliSiteList answers site.list: the sites that fill without asking.
func cliSiteList(ctx context.Context, a *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	var p struct{}
	if err := broker.DecodeParams(params, &p); err != nil {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "site.list: %v", err)
	}
	st, ok := a.cfg.Vault, a.cfg.Vault != nil
	if !ok {
		return nil, nativemsg.NewError(nativemsg.CodeUnsupported, "site.list: this app has no vault")
	}
	rs, err := st.SiteRules()
	if err != nil {
		return nil, fill.VaultError("site.list", err)
	}
	if rs == nil {
		rs = []vault.SiteRule{}
	}
	return SiteList{Sites: rs}, nil
}

// cliSiteForget answers site.forget: the origin asks again from now on.
func cliSiteForget(ctx context.Context, a *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	var p struct {
		Origin string `json:"origin"`
	}
	if err := broker.DecodeParams(params, &p); err != nil {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "site.forget: %v", err)
	}
	st, ok := a.cfg.Vault, a.cfg.Vault != nil
	if !ok {
		return nil, nativemsg.NewError(nativemsg.CodeUnsupported, "site.forget: this app has no vault")
	}
	if err := st.DeleteSiteRule(p.Origin); err != nil {
		if errors.Is(err, vault.ErrNotFound) {
			return nil, nativemsg.NewError(nativemsg.CodeNotFound, "site.forget: %s fills with a dialog already", p.Origin)
		}
		return nil, fill.VaultError("site.forget", err)
	}
	return DoneResult{true}, nil
}
