package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"filippo.io/age"
	"github.com/tessera-app/tessera/matcher"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/transfer"
	"github.com/tessera-app/tessera/vault"
)

// schemaOrg prefixes a bare concept name given on the command line:
// "email" means https://schema.org/email.
const schemaOrg = "https://schema.org/"

// runProfile is `tessera profile list|show|set|unset|delete|import|export`.
// Values are printed only by show and export, and only with the vault
// passphrase or the person's approval in the running app's window. While the app runs every subcommand acts through it;
// otherwise each unlocks the vault for itself (see runVault).
func runProfile(ctx context.Context, env *Env, args []string) error {
	return dispatch(ctx, env, "profile", profileUsage, map[string]runFunc{
		"list":   profileList,
		"show":   profileShow,
		"set":    profileSet,
		"unset":  profileUnset,
		"delete": profileDelete,
		"import": profileImport,
		"export": profileExport,
	}, args)
}

func profileUsage(w io.Writer) {
	fmt.Fprint(w, `usage: tessera profile list
       tessera profile show ID
       tessera profile set [--field] [--json-value] [--label LABEL] [--value-file FILE] ID KEY < VALUE
       tessera profile unset [--field] ID KEY
       tessera profile delete ID
       tessera profile import [--format vcf|json|bundle] [--identity FILE] [--bundle-passphrase-file FILE] FILE
       tessera profile export [--to RECIPIENT]... [--bundle-passphrase-file FILE [--work-factor N]] [--plain] [--out FILE [--force]] [ID...]
All take --passphrase-file FILE (- for stdin); without it the OS keyring
unlocks the vault. All but export take --json. KEY is a concept IRI, a schema.org property name
(email; set refuses one Tessera does not know and names the nearest), or with
--field a form field path. set reads the value from stdin or
--value-file, never from the command line, where other users and shell history
see it. show and export reveal values, so they need --passphrase-file even
when the keyring unlocks, or, while the Tessera app runs with a window, your
approval there. While the Tessera app runs every command acts through it.
export --out creates a new file, 0600; --force replaces one.
`)
}

// profileCmd parses a profile subcommand's flags and opens and unlocks the
// vault; the caller closes it.
type profileCmd struct {
	cliFlags
	name string
	fs   *flag.FlagSet
	args []string
}

func newProfileCmd(env *Env, name, usage string) *profileCmd {
	c := &profileCmd{name: name, fs: newFlagSet(env, "profile "+name, usage)}
	c.register(c.fs)
	return c
}

// parse returns flag.ErrHelp for -h, which the caller turns into success.
func (c *profileCmd) parse(args []string, minArgs, maxArgs int) error {
	pos, err := parseInterspersed(c.fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: profile %s: %v", ErrUsage, c.name, err)
	}
	if len(pos) < minArgs || (maxArgs >= 0 && len(pos) > maxArgs) {
		c.fs.Usage()
		return fmt.Errorf("%w: profile %s: wrong number of arguments", ErrUsage, c.name)
	}
	c.args = pos
	return nil
}

func (c *profileCmd) open(env *Env) (*vault.Vault, error) {
	return openUnlocked(env, c.passphraseFile)
}

func helpOK(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	return err
}

func profileList(ctx context.Context, env *Env, args []string) error {
	c := newProfileCmd(env, "list", "tessera profile list [--json]")
	if err := c.parse(args, 0, 0); err != nil {
		return helpOK(err)
	}
	type item struct {
		ID      string `json:"id"`
		Label   string `json:"label"`
		Entries int    `json:"entries"`
		Updated string `json:"updated"`
	}
	items := []item{}
	err := withApp(ctx, env, func(app *appClient) error {
		var res struct {
			Profiles []item `json:"profiles"`
		}
		if err := app.call(ctx, "profile.list", struct{}{}, &res); err != nil {
			return err
		}
		items = append(items, res.Profiles...)
		return nil
	}, func() error {
		v, err := c.open(env)
		if err != nil {
			return err
		}
		defer v.Close()
		ps, err := v.Profiles()
		if err != nil {
			return err
		}
		for _, p := range ps {
			items = append(items, item{p.ID, p.Label, len(p.Concepts) + len(p.Fields), p.Updated})
		}
		return nil
	})
	if err != nil {
		return err
	}
	if c.json {
		return jsonOut(env.Stdout, items)
	}
	for _, it := range items {
		fmt.Fprintf(env.Stdout, "%s\t%s\t%d entries\n", it.ID, it.Label, it.Entries)
	}
	return nil
}

// needRevealPassphrase refuses a command that reveals values (show,
// export) without the vault passphrase when it opens the vault itself. The
// keyring alone unlocks for any program of the person's, so it does not
// prove the person asked. (Through a running app, revealPass.)
func needRevealPassphrase(c *profileCmd) error {
	if c.passphraseFile == "" {
		return fmt.Errorf("%w: profile %s reveals values only with the vault passphrase, not the keyring alone: give --passphrase-file FILE (or approve it in the Tessera window while the app runs)", ErrUsage, c.name)
	}
	return nil
}

// revealPass returns the params proving the person asked for a reveal
// through the running app: the vault passphrase from --passphrase-file, or
// none, and then the person approves the reveal in the app's window (an
// app without a window refuses). The person is told where to look.
func revealPass(ctx context.Context, env *Env, app *appClient, c *profileCmd, params map[string]any) error {
	if c.passphraseFile == "" {
		var st struct {
			Window bool `json:"window"`
		}
		if err := app.call(ctx, "vault.status", struct{}{}, &st); err == nil && st.Window {
			fmt.Fprintf(env.Stderr, "profile %s: approve it in the Tessera window (or give --passphrase-file FILE)\n", c.name)
		}
		return nil
	}
	pass, err := readPassphrase(env, c.passphraseFile)
	if err != nil {
		return err
	}
	params["passphrase"] = string(pass)
	clear(pass)
	return nil
}

func profileShow(ctx context.Context, env *Env, args []string) error {
	c := newProfileCmd(env, "show", "tessera profile show [--json] ID")
	if err := c.parse(args, 1, 1); err != nil {
		return helpOK(err)
	}
	var p profile.UserProfile
	err := withApp(ctx, env, func(app *appClient) error {
		params := map[string]any{"profile": c.args[0]}
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
		p, err = v.Profile(c.args[0])
		return err
	})
	if err != nil {
		return err
	}
	if c.json {
		return jsonOut(env.Stdout, p)
	}
	fmt.Fprintf(env.Stdout, "%s (%s)\n", p.Label, p.ID)
	for _, part := range []struct {
		kind string
		m    map[string]profile.Entry
	}{{"concept", p.Concepts}, {"field", p.Fields}} {
		names := make([]string, 0, len(part.m))
		for n := range part.m {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			val := string(part.m[n].Value)
			if s, ok := part.m[n].StringValue(); ok {
				val = s
			}
			fmt.Fprintf(env.Stdout, "  %s %s = %s\n", part.kind, n, val)
		}
	}
	return nil
}

func entryKey(name string, field bool) vault.Key {
	if field {
		return vault.FieldKey(name)
	}
	if !strings.Contains(name, ":") {
		name = schemaOrg + name
	}
	return vault.ConceptKey(name)
}

// errValueArgument is the refusal of a value typed on the command line.
var errValueArgument = fmt.Errorf("%w: profile set: the value is not taken from the command line, where other users (/proc) and the shell history see it: pipe it on stdin or give --value-file FILE", ErrUsage)

// readValue reads an entry value from a file, or from stdin for "" or "-".
// One line ending is trimmed, so `echo VALUE |` and a file from an editor
// give the value as typed.
func readValue(env *Env, path string) ([]byte, error) {
	var data []byte
	var err error
	if path == "" || path == "-" {
		data, err = io.ReadAll(io.LimitReader(env.Stdin, vault.MaxValueSize+1))
		if err == nil && len(data) > vault.MaxValueSize {
			err = vault.ErrTooLarge
		}
	} else {
		data, err = readFileLimited(path, vault.MaxValueSize)
	}
	if err != nil {
		return nil, fmt.Errorf("profile set: read the value: %w", err)
	}
	data = bytes.TrimSuffix(data, []byte("\n"))
	data = bytes.TrimSuffix(data, []byte("\r"))
	if len(data) == 0 {
		return nil, fmt.Errorf("%w: profile set: the value is empty (profile unset removes a key)", ErrUsage)
	}
	return data, nil
}

func profileSet(ctx context.Context, env *Env, args []string) error {
	c := newProfileCmd(env, "set", "tessera profile set [--field] [--json-value] [--label LABEL] [--value-file FILE] ID KEY < VALUE")
	field := c.fs.Bool("field", false, "KEY is a form field path, not a concept")
	rawJSON := c.fs.Bool("json-value", false, "the value is JSON, not a string")
	label := c.fs.String("label", "", "label of the profile when set creates it (default: ID)")
	valueFile := c.fs.String("value-file", "", "read the value from `FILE` (default: stdin)")
	if err := c.parse(args, 2, 3); err != nil {
		return helpOK(err)
	}
	if len(c.args) == 3 {
		return errValueArgument
	}
	if c.passphraseFile == "-" && (*valueFile == "" || *valueFile == "-") {
		return fmt.Errorf("%w: profile set: the value and the passphrase cannot both come from stdin: give --value-file FILE", ErrUsage)
	}
	raw, err := readValue(env, *valueFile)
	if err != nil {
		return err
	}
	defer clear(raw)
	value := json.RawMessage(raw)
	if !*rawJSON {
		value, _ = json.Marshal(string(raw))
		defer clear(value)
	} else if !json.Valid(value) {
		return fmt.Errorf("%w: profile set: the value is not valid JSON", ErrUsage)
	}
	id, key := c.args[0], vault.FieldKey(c.args[1])
	if !*field {
		// The app's profile.set applies the same rule.
		iri, err := matcher.ResolveConceptKey(c.args[1])
		if err != nil {
			return fmt.Errorf("%w: profile set: %v (or give --field for a form field path)", ErrUsage, err)
		}
		key = vault.ConceptKey(iri)
	}
	var res struct {
		Profile string `json:"profile"`
		Key     string `json:"key"`
		Created bool   `json:"created"`
	}
	err = withApp(ctx, env, func(app *appClient) error {
		return app.call(ctx, "profile.set", map[string]any{"profile": id, "key": key.String(), "value": value, "label": *label}, &res)
	}, func() error {
		v, err := c.open(env)
		if err != nil {
			return err
		}
		defer v.Close()
		if _, err := v.Profile(id); errors.Is(err, vault.ErrNotFound) {
			l := *label
			if l == "" {
				l = id
			}
			if _, err := v.CreateProfile(id, l); err != nil {
				return err
			}
			res.Created = true
		} else if err != nil {
			return err
		}
		now := time.Now().UTC().Format(time.RFC3339)
		e := profile.Entry{Value: value, Confidence: 1, Verified: true, Source: profile.Source{Type: "manual", Timestamp: now}}
		return v.SetEntry(id, key, e)
	})
	if err != nil {
		return err
	}
	if c.json {
		return jsonOut(env.Stdout, map[string]any{"profile": id, "key": key.String(), "created": res.Created})
	}
	if res.Created {
		fmt.Fprintf(env.Stdout, "created profile %s\n", id)
	}
	fmt.Fprintf(env.Stdout, "set %s in %s\n", key, id)
	return nil
}

func profileUnset(ctx context.Context, env *Env, args []string) error {
	c := newProfileCmd(env, "unset", "tessera profile unset [--field] ID KEY")
	field := c.fs.Bool("field", false, "KEY is a form field path, not a concept")
	if err := c.parse(args, 2, 2); err != nil {
		return helpOK(err)
	}
	key := entryKey(c.args[1], *field)
	err := withApp(ctx, env, func(app *appClient) error {
		return app.call(ctx, "profile.unset", map[string]string{"profile": c.args[0], "key": key.String()}, nil)
	}, func() error {
		v, err := c.open(env)
		if err != nil {
			return err
		}
		defer v.Close()
		return v.DeleteEntry(c.args[0], key)
	})
	if err != nil {
		return err
	}
	if c.json {
		return jsonOut(env.Stdout, map[string]any{"profile": c.args[0], "key": key.String(), "removed": true})
	}
	fmt.Fprintf(env.Stdout, "removed %s from %s\n", key, c.args[0])
	return nil
}

func profileDelete(ctx context.Context, env *Env, args []string) error {
	c := newProfileCmd(env, "delete", "tessera profile delete ID")
	if err := c.parse(args, 1, 1); err != nil {
		return helpOK(err)
	}
	err := withApp(ctx, env, func(app *appClient) error {
		return app.call(ctx, "profile.delete", map[string]string{"profile": c.args[0]}, nil)
	}, func() error {
		v, err := c.open(env)
		if err != nil {
			return err
		}
		defer v.Close()
		return v.DeleteProfile(c.args[0])
	})
	if err != nil {
		return err
	}
	if c.json {
		return jsonOut(env.Stdout, map[string]any{"profile": c.args[0], "deleted": true})
	}
	fmt.Fprintf(env.Stdout, "deleted profile %s\n", c.args[0])
	return nil
}

func profileImport(ctx context.Context, env *Env, args []string) error {
	c := newProfileCmd(env, "import", "tessera profile import [--format vcf|json|bundle] [--identity FILE] [--bundle-passphrase-file FILE] FILE")
	format := c.fs.String("format", "", "vcf, json or bundle (default: from the file)")
	identity := c.fs.String("identity", "", "age identity `FILE` that opens the bundle")
	bundlePass := c.fs.String("bundle-passphrase-file", "", "read the bundle passphrase from `FILE` (- for stdin)")
	if err := c.parse(args, 1, 1); err != nil {
		return helpOK(err)
	}
	switch *format {
	case "", "vcf", "json", "bundle":
	default:
		return fmt.Errorf("%w: profile import: unknown --format %q", ErrUsage, *format)
	}
	stdins := 0
	for _, f := range []string{c.args[0], *bundlePass, c.passphraseFile} {
		if f == "-" {
			stdins++
		}
	}
	if stdins > 1 {
		return fmt.Errorf("%w: profile import: only one input can come from stdin", ErrUsage)
	}
	var data []byte
	var err error
	if c.args[0] == "-" {
		data, err = io.ReadAll(io.LimitReader(env.Stdin, vault.MaxImportSize+1))
	} else {
		data, err = readFileLimited(c.args[0], vault.MaxImportSize)
	}
	if err != nil {
		return fmt.Errorf("profile import: %w", err)
	}
	now := time.Now().UTC().Format(time.RFC3339)
	var ps []profile.UserProfile
	f := transfer.DetectFormat(*format, c.args[0], data)
	var ids []age.Identity
	if f == transfer.FormatBundle {
		ids, err = bundleIdentities(env, *identity, *bundlePass)
	}
	if err == nil {
		ps, err = transfer.Parse(f, data, now, ids...)
	}
	if err != nil {
		return fmt.Errorf("profile import %s: %w", c.args[0], err)
	}
	var res vault.ImportResult
	err = withApp(ctx, env, func(app *appClient) error {
		// The app takes the profiles as parsed here, so a bundle is
		// opened with the identity given to this command, not sent.
		var js bytes.Buffer
		if err := vault.WriteProfilesJSON(&js, ps); err != nil {
			return err
		}
		return app.call(ctx, "profile.import", map[string]string{"format": "json", "data": js.String()}, &res)
	}, func() error {
		v, err := c.open(env)
		if err != nil {
			return err
		}
		defer v.Close()
		res, err = v.Import(ps)
		return err
	})
	if err != nil {
		return err
	}
	if c.json {
		return jsonOut(env.Stdout, res)
	}
	fmt.Fprintf(env.Stdout, "imported %d profiles: %d created, %d entries learned, %d unchanged, %d kept as candidates\n",
		len(ps), res.Created, res.Learned, res.Unchanged, res.Candidates)
	return nil
}

func readFileLimited(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(data)) > limit {
		err = fmt.Errorf("%s: %w", path, vault.ErrTooLarge)
	}
	return data, err
}

func bundleIdentities(env *Env, identityFile, passFile string) ([]age.Identity, error) {
	switch {
	case identityFile != "" && passFile != "":
		return nil, fmt.Errorf("%w: give --identity or --bundle-passphrase-file, not both", ErrUsage)
	case identityFile != "":
		f, err := os.Open(identityFile)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return age.ParseIdentities(io.LimitReader(f, 1<<20))
	case passFile != "":
		p, err := readPassphrase(env, passFile)
		if err != nil {
			return nil, err
		}
		id, err := age.NewScryptIdentity(string(p))
		if err != nil {
			return nil, err
		}
		return []age.Identity{id}, nil
	}
	return nil, fmt.Errorf("%w: a bundle needs --identity or --bundle-passphrase-file", ErrUsage)
}

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

func profileExport(ctx context.Context, env *Env, args []string) error {
	c := newProfileCmd(env, "export", "tessera profile export [--to RECIPIENT]... [--bundle-passphrase-file FILE] [--plain] [--out FILE] [ID...]")
	var to stringList
	c.fs.Var(&to, "to", "encrypt the bundle to this age `RECIPIENT` (repeatable)")
	bundlePass := c.fs.String("bundle-passphrase-file", "", "encrypt the bundle with the passphrase in `FILE` (- for stdin)")
	plain := c.fs.Bool("plain", false, "write unencrypted JSON profiles (readable by anyone with the file)")
	out := c.fs.String("out", "", "write to a new `FILE` (created 0600) instead of stdout")
	force := c.fs.Bool("force", false, "replace the --out file if it exists")
	wf := c.fs.Int("work-factor", vault.DefaultScryptWorkFactor, "scrypt work factor (log2) of a passphrase bundle")
	if err := c.parse(args, 0, -1); err != nil {
		return helpOK(err)
	}
	n := 0
	for _, set := range []bool{len(to) > 0, *bundlePass != "", *plain} {
		if set {
			n++
		}
	}
	if n != 1 {
		return fmt.Errorf("%w: profile export: choose exactly one of --to, --bundle-passphrase-file, --plain", ErrUsage)
	}
	if *bundlePass == "-" && c.passphraseFile == "-" {
		return fmt.Errorf("%w: profile export: only one passphrase can come from stdin", ErrUsage)
	}
	var recipients []age.Recipient
	if len(to) > 0 {
		for _, r := range to {
			rs, err := transfer.Recipients([]string{r}, nil, 0)
			if err != nil {
				if inner := errors.Unwrap(err); inner != nil {
					err = inner
				}
				return fmt.Errorf("%w: profile export: --to %q: %v", ErrUsage, r, err)
			}
			recipients = append(recipients, rs...)
		}
	}
	if *bundlePass != "" {
		if err := checkWorkFactor(env, "profile export", *wf); err != nil {
			return err
		}
		p, err := readNewPassphrase(env, "profile export", *bundlePass)
		if err != nil {
			return err
		}
		rs, err := transfer.Recipients(nil, p, *wf)
		clear(p)
		if err != nil {
			return err
		}
		recipients = rs
	}
	var ps []profile.UserProfile
	err := withApp(ctx, env, func(app *appClient) error {
		params := map[string]any{"profiles": c.args}
		if err := revealPass(ctx, env, app, c, params); err != nil {
			return err
		}
		var res struct {
			Profiles []profile.UserProfile `json:"profiles"`
		}
		if err := app.call(ctx, "profile.export", params, &res); err != nil {
			return err
		}
		ps = res.Profiles
		return nil
	}, func() error {
		if err := needRevealPassphrase(c); err != nil {
			return err
		}
		v, err := c.open(env)
		if err != nil {
			return err
		}
		defer v.Close()
		ps, err = v.ExportProfiles(c.args...)
		return err
	})
	if err != nil {
		return err
	}
	write := func(w io.Writer) error {
		if *plain {
			return vault.WriteProfilesJSON(w, ps)
		}
		return vault.WriteBundle(w, ps, time.Now().UTC().Format(time.RFC3339), recipients...)
	}
	if *out == "" {
		return write(env.Stdout)
	}
	if err := writeNewFile(*out, *force, write); err != nil {
		return fmt.Errorf("profile export: %w", err)
	}
	fmt.Fprintf(env.Stderr, "exported %d profiles to %s\n", len(ps), *out)
	return nil
}
