package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tessera-app/tessera/nativemsg"
	"github.com/tessera-app/tessera/passphrase"
	"github.com/tessera-app/tessera/vault"
)

// maxPassphraseBytes bounds a passphrase file; a passphrase is one line.
const maxPassphraseBytes = 4 << 10

// cliFlags are the flags every vault and profile command takes.
type cliFlags struct {
	json           bool
	passphraseFile string
}

func (c *cliFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&c.json, "json", false, "machine-readable JSON output")
	fs.StringVar(&c.passphraseFile, "passphrase-file", "", "read the vault passphrase from `FILE` (- for stdin) instead of using the keyring")
}

// parseInterspersed parses flags placed anywhere among the positional
// arguments, as people type them ("profile show home --json").
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

func newFlagSet(env *Env, name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprintln(env.Stderr, "usage: "+usage)
		fs.PrintDefaults()
	}
	return fs
}

// cliKeyring returns the OS keyring, or nil when TESSERA_KEYRING=none asks
// for passphrase-only operation (headless machines, scripts, tests).
func cliKeyring(env *Env) vault.Keyring { return vault.KeyringFromEnv(env.Getenv) }

func openVault(env *Env, workFactor int) (*vault.Vault, error) {
	dir, err := vault.DefaultDir(env.Getenv)
	if err != nil {
		return nil, err
	}
	v, err := vault.Open(dir, vault.Options{Keyring: cliKeyring(env), ScryptWorkFactor: workFactor})
	if errors.Is(err, vault.ErrBusy) {
		return nil, fmt.Errorf("%w (is the Tessera app running? use it, or quit it first)", err)
	}
	return v, err
}

// readPassphrase reads one passphrase from a file, or from stdin for "-".
// Only the line ending is trimmed: spaces are part of a passphrase.
func readPassphrase(env *Env, path string) ([]byte, error) {
	var r io.Reader
	if path == "-" {
		r = env.Stdin
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("read passphrase: %w", err)
		}
		defer f.Close()
		r = f
	}
	line, err := bufio.NewReader(io.LimitReader(r, maxPassphraseBytes+1)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("read passphrase: %w", err)
	}
	if len(line) > maxPassphraseBytes {
		return nil, fmt.Errorf("read passphrase: longer than %d bytes", maxPassphraseBytes)
	}
	line = strings.TrimRight(line, "\r\n")
	if line == "" {
		return nil, fmt.Errorf("read passphrase from %s: empty", path)
	}
	return []byte(line), nil
}

// openUnlocked opens the vault of env (its default work factor) and
// unlocks it with the passphrase in passphraseFile, or the keyring.
func openUnlocked(env *Env, passphraseFile string) (*vault.Vault, error) {
	v, err := openVault(env, 0)
	if err != nil {
		return nil, err
	}
	if _, err := unlockVault(env, v, passphraseFile); err != nil {
		v.Close()
		return nil, err
	}
	return v, nil
}

// unlockVault unlocks v for this command: with the passphrase when one was
// given, with the keyring otherwise. It returns the method used. Its errors
// say what the person can do: restore or replace a missing vault file,
// accept an older copy restored on purpose, or give the passphrase.
func unlockVault(env *Env, v *vault.Vault, passphraseFile string) (string, error) {
	if v.State() == vault.StateUninitialized {
		if info, err := v.Info(); err == nil && info.Missing {
			return "", missingErr(v.Dir())
		}
		return "", fmt.Errorf("%w in %s: run `tessera vault init` first", vault.ErrUninitialized, v.Dir())
	}
	if passphraseFile != "" {
		p, err := readPassphrase(env, passphraseFile)
		if err != nil {
			return "", err
		}
		defer clear(p)
		return "passphrase", explainUnlock(v.UnlockPassphrase(p))
	}
	err := v.UnlockKeyring()
	if errors.Is(err, vault.ErrKeyringUnavailable) || errors.Is(err, vault.ErrKeyringItemMissing) {
		return "", fmt.Errorf("%w; give --passphrase-file to unlock with the passphrase", err)
	}
	if err != nil {
		return "", explainUnlock(err)
	}
	return "keyring", nil
}

// missingErr is the error of a command that needs the vault of dir, whose
// vault file vanished.
func missingErr(dir string) error {
	return fmt.Errorf("%w: %w from %s: restore vault.db from a backup, or run `tessera vault init --replace-missing` to start a new, empty vault", vault.ErrUninitialized, vault.ErrMissing, dir)
}

// explainUnlock adds to an unlock error what the person can do about a
// vault file changed outside Tessera.
func explainUnlock(err error) error {
	switch {
	case errors.Is(err, vault.ErrRollback):
		return fmt.Errorf("%w; nothing was read from it. If you restored this copy on purpose, run `tessera vault unlock --accept-older-copy`", err)
	case errors.Is(err, vault.ErrTampered):
		return fmt.Errorf("%w; nothing was read from it. Restore vault.db from a backup you trust", err)
	}
	return err
}

// runVault is `tessera vault init|unlock|lock|status|passwd|rekey`.
//
// While the app runs, every subcommand acts on the app's vault through its
// channel: "unlock" unlocks the app (a headless one too) until it is locked
// or idle. Without an app the CLI is its own short-lived process: every
// command unlocks the vault for itself (keyring, or --passphrase-file) and
// locks it again on exit. "unlock" then verifies that the vault opens and,
// after a passphrase unlock, puts the key back into the keyring so later
// commands need no passphrase; "lock" changes nothing and says so.
func runVault(ctx context.Context, env *Env, args []string) error {
	return dispatch(ctx, env, "vault", vaultUsage, map[string]runFunc{
		"init":   vaultInit,
		"unlock": vaultUnlock,
		"lock":   vaultLock,
		"status": vaultStatus,
		"passwd": vaultPasswd,
		"rekey":  vaultRekey,
	}, args)
}

func vaultUsage(w io.Writer) {
	fmt.Fprint(w, `usage: tessera vault init [--passphrase-file FILE] [--no-keyring] [--work-factor N]
       tessera vault unlock [--passphrase-file FILE] [--accept-older-copy]
       tessera vault lock
       tessera vault status
       tessera vault passwd [--passphrase-file FILE] --new-passphrase-file FILE
       tessera vault rekey [--passphrase-file FILE] [--work-factor N]
All take --json. FILE - reads stdin. While the Tessera app runs they act on
it (a headless app is set up and unlocked this way). Otherwise the
vault lives in $TESSERA_HOME or the user data directory; TESSERA_KEYRING=none
never touches the OS keyring. A new passphrase needs at least 8 characters and
must not be easy to guess; --work-factor is at least 18.

passwd sets the new passphrase and re-encrypts everything in the vault under
a new key, so a copy of the old passphrase (or an old backup's key) opens
nothing written from then on; it takes as long as a rekey.
init --replace-missing starts a new, empty vault where the vault file has
gone missing (restore it from a backup instead, if you have one).
unlock --accept-older-copy opens a vault file that is older than the one this
computer last used, when you restored that backup on purpose.
`)
}

func parseVaultFlags(env *Env, name, usage string, args []string, extra func(fs *flag.FlagSet)) (*cliFlags, error) {
	var c cliFlags
	fs := newFlagSet(env, "vault "+name, usage)
	c.register(fs)
	if extra != nil {
		extra(fs)
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: vault %s: %v", ErrUsage, name, err)
	}
	if len(pos) > 0 {
		return nil, fmt.Errorf("%w: vault %s: unexpected argument %q", ErrUsage, name, pos[0])
	}
	return &c, nil
}

// maxWorkFactor bounds scrypt's memory (128 × 2^N bytes: 512 MiB at 22).
const maxWorkFactor = 22

// checkWorkFactor refuses a scrypt work factor below the floor, which
// would make a stolen vault's passphrase cheap to guess, or above
// maxWorkFactor.
func checkWorkFactor(env *Env, cmd string, wf int) error {
	if min := env.minWorkFactor(); wf < min || wf > maxWorkFactor {
		return fmt.Errorf("%w: %s: --work-factor %d not in %d..%d (below %d a passphrase is cheap to guess)", ErrUsage, cmd, wf, min, maxWorkFactor, min)
	}
	return nil
}

// readNewPassphrase reads a passphrase that is about to protect a vault or
// a bundle and applies the passphrase rule (package passphrase), the same
// as the app's window does.
func readNewPassphrase(env *Env, cmd, path string) ([]byte, error) {
	p, err := readPassphrase(env, path)
	if err != nil {
		return nil, err
	}
	if err := passphrase.Check(string(p)); err != nil {
		clear(p)
		return nil, fmt.Errorf("%s: new passphrase: %w", cmd, err)
	}
	return p, nil
}

// flagsSet returns the names of the flags given on the command line.
func flagsSet(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// appOnly refuses flags that only apply to the vault file when the app
// holds the vault.
func appOnly(c *appClient, cmd string, set map[string]bool, names ...string) error {
	for _, n := range names {
		if set[n] {
			return fmt.Errorf("%w: %s: --%s does not apply while the Tessera app runs (channel %s): it sets up its vault itself; quit it to use --%s", ErrUsage, cmd, n, c.dir, n)
		}
	}
	return nil
}

func vaultInit(ctx context.Context, env *Env, args []string) error {
	noKeyring := false
	wf := vault.DefaultScryptWorkFactor
	var fs *flag.FlagSet
	var init vault.InitOptions
	c, err := parseVaultFlags(env, "init", "tessera vault init [--passphrase-file FILE] [--no-keyring] [--work-factor N] [--replace-missing] [--json]", args, func(f *flag.FlagSet) {
		fs = f
		f.BoolVar(&noKeyring, "no-keyring", false, "do not store a key in the OS keyring")
		f.BoolVar(&init.ReplaceMissing, "replace-missing", false, "start a new, empty vault where the vault file has gone missing")
		f.IntVar(&wf, "work-factor", wf, "scrypt work factor (log2) of the passphrase wrap")
	})
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := checkWorkFactor(env, "vault init", wf); err != nil {
		return err
	}
	if c.passphraseFile != "" {
		if init.Passphrase, err = readNewPassphrase(env, "vault init", c.passphraseFile); err != nil {
			return err
		}
		defer clear(init.Passphrase)
	}
	return withApp(ctx, env, func(app *appClient) error {
		if err := appOnly(app, "vault init", flagsSet(fs), "no-keyring", "work-factor", "replace-missing"); err != nil {
			return err
		}
		var res struct {
			State string `json:"state"`
		}
		if err := app.call(ctx, "vault.init", passphraseParams(init.Passphrase), &res); err != nil {
			return err
		}
		if c.json {
			return jsonOut(env.Stdout, map[string]string{"state": res.State, "app": app.dir})
		}
		fmt.Fprintf(env.Stdout, "initialized the vault of the running Tessera app (channel %s)\nstate: %s\n", app.dir, res.State)
		return nil
	}, func() error {
		init.Keyring = !noKeyring && cliKeyring(env) != nil
		if !init.Keyring && init.Passphrase == nil {
			return fmt.Errorf("%w: vault init: without the keyring a --passphrase-file is required", ErrUsage)
		}
		v, err := openVault(env, wf)
		if err != nil {
			return err
		}
		defer v.Close()
		err = v.Init(init)
		if err != nil && init.Keyring && init.Passphrase != nil &&
			(errors.Is(err, vault.ErrKeyringUnavailable) || errors.Is(err, vault.ErrKeyringItemMissing)) {
			// The passphrase alone is a working vault; the keyring can be
			// enrolled later with `vault unlock`.
			fmt.Fprintf(env.Stderr, "tessera: keyring not used: %v\n", err)
			init.Keyring = false
			err = v.Init(init)
		}
		if errors.Is(err, vault.ErrMissing) {
			return fmt.Errorf("%w; or, to start a new, empty vault in its place, run `tessera vault init --replace-missing`", err)
		}
		if err != nil {
			return err
		}
		return printInfo(env, v, c.json, "initialized")
	})
}

// passphraseParams are the params of vault.init and vault.unlock: the
// passphrase, or none for the app's keyring.
func passphraseParams(p []byte) map[string]string {
	if len(p) == 0 {
		return map[string]string{}
	}
	return map[string]string{"passphrase": string(p)}
}

func printInfo(env *Env, v *vault.Vault, asJSON bool, verb string) error {
	info, err := v.Info()
	if err != nil {
		return err
	}
	if asJSON {
		return jsonOut(env.Stdout, info)
	}
	var methods []string
	if info.HasKeyring {
		methods = append(methods, "keyring")
	}
	if info.HasPassphrase {
		methods = append(methods, "passphrase")
	}
	if verb != "" {
		fmt.Fprintf(env.Stdout, "%s vault in %s\n", verb, info.Dir)
	} else {
		fmt.Fprintf(env.Stdout, "vault: %s\n", info.Dir)
	}
	if info.Missing {
		fmt.Fprintln(env.Stdout, "state: missing: the vault file is missing")
		fmt.Fprintln(env.Stdout, "restore vault.db from a backup, or run `tessera vault init --replace-missing` to start a new, empty vault")
		return nil
	}
	fmt.Fprintf(env.Stdout, "state: %s\n", info.State)
	if info.State != vault.StateUninitialized {
		fmt.Fprintf(env.Stdout, "unlock with: %s\n", strings.Join(methods, ", "))
	}
	return nil
}

func vaultStatus(ctx context.Context, env *Env, args []string) error {
	c, err := parseVaultFlags(env, "status", "tessera vault status [--json]", args, nil)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	return withApp(ctx, env, func(app *appClient) error {
		st := struct {
			App      string `json:"app"`
			State    string `json:"state"`
			Profiles int    `json:"profiles"`
			Window   bool   `json:"window"`
		}{App: app.dir, State: app.state}
		var m *nativemsg.Error
		if err := app.call(ctx, "vault.status", struct{}{}, &st); errors.As(err, &m) && m.Data.Code == nativemsg.CodeMethodNotFound {
			st.State = app.state
		} else if err != nil {
			return err
		}
		if c.json {
			return jsonOut(env.Stdout, st)
		}
		window := "yes"
		if !st.Window {
			window = "no (headless: fills are declined; the command line unlocks and locks it)"
		}
		fmt.Fprintf(env.Stdout, "app: running (channel %s)\nstate: %s\nprofiles: %d\nwindow: %s\n", st.App, st.State, st.Profiles, window)
		return nil
	}, func() error {
		v, err := openVault(env, 0)
		if err != nil {
			return err
		}
		defer v.Close()
		if err := printInfo(env, v, c.json, ""); err != nil || c.json {
			return err
		}
		fmt.Fprintln(env.Stdout, "app: not running")
		return nil
	})
}

func vaultUnlock(ctx context.Context, env *Env, args []string) error {
	acceptOlder := false
	var fs *flag.FlagSet
	c, err := parseVaultFlags(env, "unlock", "tessera vault unlock [--passphrase-file FILE] [--accept-older-copy] [--json]", args, func(f *flag.FlagSet) {
		fs = f
		f.BoolVar(&acceptOlder, "accept-older-copy", false, "open a vault file older than the last one this computer used: a backup you restored on purpose")
	})
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	return withApp(ctx, env, func(app *appClient) error {
		if err := appOnly(app, "vault unlock", flagsSet(fs), "accept-older-copy"); err != nil {
			return err
		}
		return unlockApp(ctx, env, app, c)
	}, func() error {
		return unlockAlone(env, c, acceptOlder)
	})
}

// unlockApp unlocks the running app's vault, with the passphrase or the
// app's keyring; it stays unlocked until locked or idle.
func unlockApp(ctx context.Context, env *Env, app *appClient, c *cliFlags) error {
	var pass []byte
	method := "keyring"
	if c.passphraseFile != "" {
		p, err := readPassphrase(env, c.passphraseFile)
		if err != nil {
			return err
		}
		defer clear(p)
		pass, method = p, "passphrase"
	}
	var res struct {
		State string `json:"state"`
	}
	if err := app.call(ctx, "vault.unlock", passphraseParams(pass), &res); err != nil {
		return err
	}
	if c.json {
		return jsonOut(env.Stdout, map[string]string{"state": res.State, "method": method, "app": app.dir})
	}
	fmt.Fprintf(env.Stdout, "unlocked the running Tessera app's vault with %s (channel %s)\n", method, app.dir)
	fmt.Fprintln(env.Stdout, "it stays unlocked until `tessera vault lock`, the window's lock or the idle lock")
	return nil
}

// unlockAlone checks that the vault file opens, and after a passphrase
// unlock enrols the keyring. With acceptOlder, a vault file older than the
// keyring's write counter is accepted as the current one (the person
// restored it on purpose); every other check still applies.
func unlockAlone(env *Env, c *cliFlags, acceptOlder bool) error {
	v, err := openVault(env, 0)
	if err != nil {
		return err
	}
	defer v.Close()
	if acceptOlder {
		v.AcceptOlderCopy()
	}
	method, err := unlockVault(env, v, c.passphraseFile)
	if err != nil {
		return err
	}
	res := struct {
		State           string `json:"state"`
		Method          string `json:"method"`
		AcceptedOlder   bool   `json:"acceptedOlderCopy,omitempty"`
		KeyringEnrolled bool   `json:"keyringEnrolled"`
		KeyringError    string `json:"keyringError,omitempty"`
	}{State: vault.StateUnlocked, Method: method, AcceptedOlder: acceptOlder}
	if method == "passphrase" && cliKeyring(env) != nil {
		switch kerr := v.CheckKeyring(); {
		case errors.Is(kerr, vault.ErrKeyringItemMissing):
			if err := v.EnrollKeyring(); err != nil {
				res.KeyringError = err.Error()
			} else {
				res.KeyringEnrolled = true
			}
		case kerr != nil:
			res.KeyringError = kerr.Error()
		}
	}
	if c.json {
		return jsonOut(env.Stdout, res)
	}
	fmt.Fprintf(env.Stdout, "unlocked with %s\n", method)
	if acceptOlder {
		fmt.Fprintln(env.Stdout, "accepted this vault file as the current one, even if it is an older copy")
	}
	if res.KeyringEnrolled {
		fmt.Fprintln(env.Stdout, "stored the vault key in the keyring: later commands unlock without a passphrase")
	}
	if res.KeyringError != "" {
		fmt.Fprintf(env.Stderr, "tessera: keyring: %s\n", res.KeyringError)
	}
	fmt.Fprintln(env.Stdout, "each tessera command unlocks the vault for itself and locks it when it exits")
	return nil
}

func vaultLock(ctx context.Context, env *Env, args []string) error {
	c, err := parseVaultFlags(env, "lock", "tessera vault lock [--json]", args, nil)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	return withApp(ctx, env, func(app *appClient) error {
		var res struct {
			State string `json:"state"`
		}
		if err := app.call(ctx, "vault.lock", struct{}{}, &res); err != nil {
			return err
		}
		if c.json {
			return jsonOut(env.Stdout, map[string]string{"state": res.State, "app": app.dir})
		}
		fmt.Fprintf(env.Stdout, "locked the running Tessera app's vault (channel %s)\nstate: %s\n", app.dir, res.State)
		return nil
	}, func() error {
		v, err := openVault(env, 0)
		if err != nil {
			return err
		}
		state := v.State()
		v.Close()
		if c.json {
			return jsonOut(env.Stdout, map[string]string{"state": state})
		}
		fmt.Fprintf(env.Stdout, "state: %s\n", state)
		fmt.Fprintln(env.Stdout, "nothing to do: the Tessera app is not running, and a tessera command never leaves the vault unlocked")
		return nil
	})
}

func vaultPasswd(ctx context.Context, env *Env, args []string) error {
	var newFile string
	wf := vault.DefaultScryptWorkFactor
	var fs *flag.FlagSet
	c, err := parseVaultFlags(env, "passwd", "tessera vault passwd [--passphrase-file FILE] --new-passphrase-file FILE [--json]\nSets the new passphrase and re-encrypts everything in the vault under a new key:\na copy of the old passphrase, or an old backup's key, opens nothing written since.", args, func(f *flag.FlagSet) {
		fs = f
		f.StringVar(&newFile, "new-passphrase-file", "", "read the new passphrase from `FILE` (- for stdin)")
		f.IntVar(&wf, "work-factor", wf, "scrypt work factor (log2) of the new passphrase wrap")
	})
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	if newFile == "" {
		return fmt.Errorf("%w: vault passwd: --new-passphrase-file is required", ErrUsage)
	}
	if newFile == "-" && c.passphraseFile == "-" {
		return fmt.Errorf("%w: vault passwd: only one passphrase can come from stdin", ErrUsage)
	}
	if err := checkWorkFactor(env, "vault passwd", wf); err != nil {
		return err
	}
	newPass, err := readNewPassphrase(env, "vault passwd", newFile)
	if err != nil {
		return err
	}
	defer clear(newPass)
	err = withApp(ctx, env, func(app *appClient) error {
		if err := appOnly(app, "vault passwd", flagsSet(fs), "work-factor"); err != nil {
			return err
		}
		// Without the current passphrase the app gives a keyring-only
		// vault its first one, and refuses to replace one.
		p := map[string]string{"newPassphrase": string(newPass)}
		if c.passphraseFile != "" {
			old, err := readPassphrase(env, c.passphraseFile)
			if err != nil {
				return err
			}
			defer clear(old)
			p["passphrase"] = string(old)
		}
		return app.call(ctx, "vault.passwd", p, nil)
	}, func() error {
		v, err := openVault(env, wf)
		if err != nil {
			return err
		}
		defer v.Close()
		if _, err := unlockVault(env, v, c.passphraseFile); err != nil {
			return err
		}
		return v.ChangePassphrase(newPass)
	})
	if err != nil {
		return err
	}
	if c.json {
		return jsonOut(env.Stdout, map[string]bool{"changed": true})
	}
	fmt.Fprintln(env.Stdout, "passphrase changed")
	return nil
}

func vaultRekey(ctx context.Context, env *Env, args []string) error {
	wf := vault.DefaultScryptWorkFactor
	var fs *flag.FlagSet
	c, err := parseVaultFlags(env, "rekey", "tessera vault rekey [--passphrase-file FILE] [--work-factor N] [--json]", args, func(f *flag.FlagSet) {
		fs = f
		f.IntVar(&wf, "work-factor", wf, "scrypt work factor (log2) of the renewed passphrase wrap")
	})
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := checkWorkFactor(env, "vault rekey", wf); err != nil {
		return err
	}
	var pass []byte
	if c.passphraseFile != "" {
		if pass, err = readPassphrase(env, c.passphraseFile); err != nil {
			return err
		}
		defer clear(pass)
	}
	err = withApp(ctx, env, func(app *appClient) error {
		if err := appOnly(app, "vault rekey", flagsSet(fs), "work-factor"); err != nil {
			return err
		}
		return app.call(ctx, "vault.rekey", passphraseParams(pass), nil)
	}, func() error {
		v, err := openVault(env, wf)
		if err != nil {
			return err
		}
		defer v.Close()
		if pass != nil {
			err = v.UnlockPassphrase(pass)
		} else {
			err = v.UnlockKeyring()
		}
		if err != nil {
			return explainUnlock(err)
		}
		return v.Rekey(pass)
	})
	if errors.Is(err, vault.ErrBadPassphrase) && pass == nil {
		return fmt.Errorf("%w; the vault has a passphrase: give --passphrase-file", err)
	}
	if err != nil {
		return err
	}
	if c.json {
		return jsonOut(env.Stdout, map[string]bool{"rekeyed": true})
	}
	fmt.Fprintln(env.Stdout, "vault re-keyed")
	return nil
}

// jsonOut writes v as indented JSON, without HTML escaping so that URLs and
// values read as typed.
func jsonOut(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
