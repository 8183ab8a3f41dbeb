package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/tessera-app/tessera/form"
	"github.com/tessera-app/tessera/heuristics"
	"github.com/tessera-app/tessera/matcher"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

// matchLine is one line of `tessera match` output. Pointers print as null
// when nothing is proposed.
type matchLine struct {
	ControlIndex int      `json:"control_index"`
	Value        *string  `json:"value"`
	Concept      *string  `json:"concept"`
	Relationship *string  `json:"relationship"`
	Confidence   *float64 `json:"confidence"`
	Skip         *string  `json:"skip"`
}

// runMatch is `tessera match --profile PROFILE.json PAGE.html`: a dry run
// of matching a profile against a static page, one JSON line per control.
// The file is any JSON profile format Tessera reads and writes (the
// `profile export --plain` document, an array, one profile); --profile-id
// picks one of its profiles, the first otherwise. With --profile-id and no
// file it matches the vault's profile, unlocked as `profile show` is (it
// reveals values). A file it cannot read as a profile is an error.
func runMatch(ctx context.Context, env *Env, args []string) error {
	fs := flag.NewFlagSet("match", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	profilePath := fs.String("profile", "", "profile JSON `FILE` (as `profile export --plain` writes, or one UserProfile)")
	profileID := fs.String("profile-id", "", "the profile `ID` to match: one of the file's, or the vault's without --profile")
	passFile := fs.String("passphrase-file", "", "read the vault passphrase from `FILE` (- for stdin), for --profile-id without --profile")
	threshold := fs.Float64("threshold", matcher.DefaultThreshold, "lowest confidence proposed")
	sc := &matcher.Sidecars{}
	fs.Func("ontology", "Formspec Ontology document for the page's form (repeatable; the last loaded wins)", func(name string) error {
		o, err := readSidecar(name, matcher.ParseOntology)
		if err == nil {
			sc.Ontologies = append(sc.Ontologies, o)
		}
		return err
	})
	fs.Func("registry", "Formspec Registry document (repeatable)", func(name string) error {
		r, err := readSidecar(name, matcher.ParseRegistry)
		if err == nil {
			sc.Registries = append(sc.Registries, r)
		}
		return err
	})
	fs.Usage = func() {
		fmt.Fprintln(env.Stderr, "usage: tessera match --profile PROFILE.json [--profile-id ID] [--threshold N] [--ontology FILE]... [--registry FILE]... PAGE.html")
		fmt.Fprintln(env.Stderr, "       tessera match --profile-id ID [--passphrase-file FILE] [--threshold N] ... PAGE.html")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return fmt.Errorf("%w: match: %v", ErrUsage, err)
	}
	if (*profilePath == "" && *profileID == "") || fs.NArg() != 1 {
		fs.Usage()
		return fmt.Errorf("%w: match: need --profile FILE or --profile-id ID, and one page", ErrUsage)
	}
	if *threshold <= 0 || *threshold > 1 {
		return fmt.Errorf("%w: match: --threshold %v not in (0, 1]", ErrUsage, *threshold)
	}
	var p *profile.UserProfile
	var err error
	if *profilePath != "" {
		p, err = readProfile(*profilePath, *profileID)
	} else {
		p, err = vaultProfile(ctx, env, *profileID, *passFile)
	}
	if err != nil {
		return err
	}
	page, err := os.Open(fs.Arg(0))
	if err != nil {
		return fmt.Errorf("match: %w", err)
	}
	defer page.Close()
	snap, err := form.Extract(page, form.ExtractOptions{})
	if err != nil {
		return fmt.Errorf("match: %s: %w", fs.Arg(0), err)
	}
	fields := matcher.FieldsFromSnapshot(snap, heuristics.Classify(snap))
	enc := json.NewEncoder(env.Stdout)
	for _, pr := range matcher.Match(fields, p, matcher.Options{Threshold: *threshold, Sidecars: sc}) {
		line := matchLine{ControlIndex: pr.Index, Value: pr.Value}
		if pr.Concept != "" {
			line.Concept = &pr.Concept
		}
		if pr.Relationship != "" {
			line.Relationship, line.Confidence = &pr.Relationship, &pr.Confidence
		}
		if pr.Skip != "" {
			line.Skip = &pr.Skip
		}
		if err := enc.Encode(line); err != nil {
			return fmt.Errorf("match: write: %w", err)
		}
	}
	return nil
}

// readSidecar reads and parses one Formspec sidecar file.
func readSidecar[T any](name string, parse func([]byte) (*T, error)) (*T, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return parse(b)
}

// readProfile reads the profile id (the first when id is "") from a JSON
// profile file in any format vault.ParseProfilesJSON reads. A file holding
// no profile, or a profile with no values (a JSON object of some other
// kind), is an error: matching it would silently propose nothing.
func readProfile(name, id string) (*profile.UserProfile, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("match: read profile: %w", err)
	}
	defer f.Close()
	ps, err := vault.ParseProfilesJSON(f, time.Now().UTC().Format(time.RFC3339))
	if err != nil {
		return nil, fmt.Errorf("match: profile %s: %w", name, err)
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("match: profile %s holds no profiles", name)
	}
	p := &ps[0]
	if id != "" {
		p = nil
		ids := make([]string, len(ps))
		for i := range ps {
			ids[i] = ps[i].ID
			if ps[i].ID == id && p == nil {
				p = &ps[i]
			}
		}
		if p == nil {
			return nil, fmt.Errorf("match: no profile %q in %s (it holds %s)", id, name, strings.Join(ids, ", "))
		}
	}
	if len(p.Concepts)+len(p.Fields) == 0 {
		return nil, fmt.Errorf("match: profile %s: profile %q holds no values (is it a Tessera profile?)", name, p.ID)
	}
	return p, nil
}

// vaultProfile reads profile id from the vault, through the running app
// when there is one, with the same rule as `profile show`: values are
// revealed only with the vault passphrase or the person's approval.
func vaultProfile(ctx context.Context, env *Env, id, passFile string) (*profile.UserProfile, error) {
	c := &profileCmd{name: "match", cliFlags: cliFlags{passphraseFile: passFile}}
	var p profile.UserProfile
	err := withApp(ctx, env, func(app *appClient) error {
		params := map[string]any{"profile": id}
		if err := revealPass(ctx, env, app, c, params); err != nil {
			return err
		}
		return app.call(ctx, "profile.show", params, &p)
	}, func() error {
		if err := needRevealPassphrase(c); err != nil {
			return err
		}
		v, err := c.open(env)
		if err != nil {
			return err
		}
		defer v.Close()
		p, err = v.Profile(id)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("match: %w", err)
	}
	return &p, nil
}
