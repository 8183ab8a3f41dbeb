package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/tessera-app/tessera/vault"
)

// tessera site: the sites the person let fill without asking ("remember for
// this site" in the confirmation dialog), listed and revoked. Like the
// vault and profile commands they act through the running app, else on the
// vault file.

func runSite(ctx context.Context, env *Env, args []string) error {
	return dispatch(ctx, env, "site", siteUsage, map[string]runFunc{
		"list":   siteList,
		"forget": siteForget,
	}, args)
}

func siteUsage(w io.Writer) {
	fmt.Fprint(w, `usage: tessera site list [--json]
       tessera site forget ORIGIN

Sites listed here fill from a profile without asking, for the kinds of value
the person approved when they ticked "Remember for this site". forget
revokes one: its next fill shows the dialog again.
`)
}

func siteList(ctx context.Context, env *Env, args []string) error {
	c := newProfileCmd(env, "list", "tessera site list [--json]")
	c.name = "site list"
	if err := c.parse(args, 0, 0); err != nil {
		return helpOK(err)
	}
	var rules []vault.SiteRule
	err := withApp(ctx, env, func(app *appClient) error {
		var res struct {
			Sites []vault.SiteRule `json:"sites"`
		}
		err := app.call(ctx, "site.list", map[string]string{}, &res)
		rules = res.Sites
		return err
	}, func() error {
		v, err := c.open(env)
		if err != nil {
			return err
		}
		defer v.Close()
		rules, err = v.SiteRules()
		return err
	})
	if err != nil {
		return err
	}
	if rules == nil {
		rules = []vault.SiteRule{}
	}
	if c.json {
		return jsonOut(env.Stdout, rules)
	}
	if len(rules) == 0 {
		fmt.Fprintln(env.Stdout, "no site fills without asking")
		return nil
	}
	for _, r := range rules {
		used := "never"
		if !r.LastUsed.IsZero() {
			used = r.LastUsed.Local().Format(time.DateTime)
		}
		fmt.Fprintf(env.Stdout, "%s\tprofile %s\t%d kinds of value\tlast used %s\n", r.Origin, r.Profile, len(r.Concepts), used)
	}
	return nil
}

func siteForget(ctx context.Context, env *Env, args []string) error {
	c := newProfileCmd(env, "forget", "tessera site forget ORIGIN")
	c.name = "site forget"
	if err := c.parse(args, 1, 1); err != nil {
		return helpOK(err)
	}
	origin := c.args[0]
	err := withApp(ctx, env, func(app *appClient) error {
		return app.call(ctx, "site.forget", map[string]string{"origin": origin}, nil)
	}, func() error {
		v, err := c.open(env)
		if err != nil {
			return err
		}
		defer v.Close()
		return v.DeleteSiteRule(origin)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "%s will ask again\n", origin)
	return nil
}
