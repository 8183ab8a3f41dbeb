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
func cliKeyring(env *Env) vault.Keyring {
	if env.Getenv("TESSERA_KEYRING") == "none" {
		return nil
	}
	return vault.SystemKeyring()
}

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

// unlockVault unlocks v for this command: with the passphrase when one was
// given, with the keyring otherwise. It returns the method used.
func unlockVault(env *Env, v *vault.Vault, passphraseFile string) (string, error) {
	if v.State() == vault.StateUninitialized {
		return "", fmt.Errorf("%w in %s: run `tessera vault init` first", vault.ErrUninitialized, v.Dir())
	}
	if passphraseFile != "" {
		p, err := readPassphrase(env, passphraseFile)
		if err != nil {
			return "", err
		}
		return "passphrase", v.UnlockPassphrase(p)
	}
	if err := v.UnlockKeyring(); err != nil {
		return "", fmt.Errorf("%w; give --passphrase-file to unlock with the passphrase", err)
	}
	return "keyring", nil
}

// runVault is `tessera vault init|unlock|lock|status|passwd|rekey`.
//
// The CLI is its own short-lived process: every command unlocks the vault
// for itself (keyring, or --passphrase-file) and locks it again on exit.
// "unlock" therefore verifies that the vault opens and, after a passphrase
// unlock, puts the key back into the keyring so later commands need no
// passphrase; "lock" changes nothing and says so.
func runVault(ctx context.Context, env *Env, args []string) error {
	if len(args) == 0 {
		vaultUsage(env.Stderr)
		return fmt.Errorf("%w: vault: missing subcommand", ErrUsage)
	}
	sub, args := args[0], args[1:]
	switch sub {
	case "init":
		return vaultInit(env, args)
	case "unlock":
		return vaultUnlock(env, args)
	case "lock":
		return vaultLock(env, args)
	case "status":
		return vaultStatus(env, args)
	case "passwd":
		return vaultPasswd(env, args)
	case "rekey":
		return vaultRekey(env, args)
	case "help", "-h", "--help":
		vaultUsage(env.Stdout)
		return nil
	}
	vaultUsage(env.Stderr)
	return fmt.Errorf("%w: vault: unknown subcommand %q", ErrUsage, sub)
}

func vaultUsage(w io.Writer) {
	fmt.Fprint(w, `usage: tessera vault init [--passphrase-file FILE] [--no-keyring] [--work-factor N]
       tessera vault unlock [--passphrase-file FILE]
       tessera vault lock
       tessera vault status
       tessera vault passwd [--passphrase-file FILE] --new-passphrase-file FILE
       tessera vault rekey [--passphrase-file FILE] [--work-factor N]
All take --json. FILE - reads stdin. The vault lives in $TESSERA_HOME or the
user data directory; TESSERA_KEYRING=none never touches the OS keyring.
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

func checkWorkFactor(name string, wf int) error {
	if wf < 10 || wf > 22 {
		return fmt.Errorf("%w: vault %s: --work-factor %d not in 10..22", ErrUsage, name, wf)
	}
	return nil
}

func vaultInit(env *Env, args []string) error {
	noKeyring := false
	wf := vault.DefaultScryptWorkFactor
	c, err := parseVaultFlags(env, "init", "tessera vault init [--passphrase-file FILE] [--no-keyring] [--work-factor N] [--json]", args, func(fs *flag.FlagSet) {
		fs.BoolVar(&noKeyring, "no-keyring", false, "do not store a key in the OS keyring")
		fs.IntVar(&wf, "work-factor", wf, "scrypt work factor (log2) of the passphrase wrap")
	})
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := checkWorkFactor("init", wf); err != nil {
		return err
	}
	var init vault.InitOptions
	if c.passphraseFile != "" {
		if init.Passphrase, err = readPassphrase(env, c.passphraseFile); err != nil {
			return err
		}
	}
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
	if err != nil {
		return err
	}
	return printInfo(env, v, c.json, "initialized")
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
	fmt.Fprintf(env.Stdout, "state: %s\n", info.State)
	if info.State != vault.StateUninitialized {
		fmt.Fprintf(env.Stdout, "unlock with: %s\n", strings.Join(methods, ", "))
	}
	return nil
}

func vaultStatus(env *Env, args []string) error {
	c, err := parseVaultFlags(env, "status", "tessera vault status [--json]", args, nil)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	v, err := openVault(env, 0)
	if err != nil {
		return err
	}
	defer v.Close()
	return printInfo(env, v, c.json, "")
}

func vaultUnlock(env *Env, args []string) error {
	c, err := parseVaultFlags(env, "unlock", "tessera vault unlock [--passphrase-file FILE] [--json]", args, nil)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	v, err := openVault(env, 0)
	if err != nil {
		return err
	}
	defer v.Close()
	method, err := unlockVault(env, v, c.passphraseFile)
	if err != nil {
		return err
	}
	res := struct {
		State           string `json:"state"`
		Method          string `json:"method"`
		KeyringEnrolled bool   `json:"keyringEnrolled"`
		KeyringError    string `json:"keyringError,omitempty"`
	}{State: vault.StateUnlocked, Method: method}
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
	if res.KeyringEnrolled {
		fmt.Fprintln(env.Stdout, "stored the vault key in the keyring: later commands unlock without a passphrase")
	}
	if res.KeyringError != "" {
		fmt.Fprintf(env.Stderr, "tessera: keyring: %s\n", res.KeyringError)
	}
	fmt.Fprintln(env.Stdout, "each tessera command unlocks the vault for itself and locks it when it exits")
	return nil
}

func vaultLock(env *Env, args []string) error {
	c, err := parseVaultFlags(env, "lock", "tessera vault lock [--json]", args, nil)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
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
	fmt.Fprintln(env.Stdout, "nothing to do: a tessera command never leaves the vault unlocked (the app locks from its window or when idle)")
	return nil
}

func vaultPasswd(env *Env, args []string) error {
	var newFile string
	wf := vault.DefaultScryptWorkFactor
	c, err := parseVaultFlags(env, "passwd", "tessera vault passwd [--passphrase-file FILE] --new-passphrase-file FILE [--json]", args, func(fs *flag.FlagSet) {
		fs.StringVar(&newFile, "new-passphrase-file", "", "read the new passphrase from `FILE` (- for stdin)")
		fs.IntVar(&wf, "work-factor", wf, "scrypt work factor (log2) of the new passphrase wrap")
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
	if err := checkWorkFactor("passwd", wf); err != nil {
		return err
	}
	newPass, err := readPassphrase(env, newFile)
	if err != nil {
		return err
	}
	v, err := openVault(env, wf)
	if err != nil {
		return err
	}
	defer v.Close()
	if _, err := unlockVault(env, v, c.passphraseFile); err != nil {
		return err
	}
	if err := v.ChangePassphrase(newPass); err != nil {
		return err
	}
	if c.json {
		return jsonOut(env.Stdout, map[string]bool{"changed": true})
	}
	fmt.Fprintln(env.Stdout, "passphrase changed")
	return nil
}

func vaultRekey(env *Env, args []string) error {
	wf := vault.DefaultScryptWorkFactor
	c, err := parseVaultFlags(env, "rekey", "tessera vault rekey [--passphrase-file FILE] [--work-factor N] [--json]", args, func(fs *flag.FlagSet) {
		fs.IntVar(&wf, "work-factor", wf, "scrypt work factor (log2) of the renewed passphrase wrap")
	})
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := checkWorkFactor("rekey", wf); err != nil {
		return err
	}
	v, err := openVault(env, wf)
	if err != nil {
		return err
	}
	defer v.Close()
	var pass []byte
	if c.passphraseFile != "" {
		if pass, err = readPassphrase(env, c.passphraseFile); err != nil {
			return err
		}
		err = v.UnlockPassphrase(pass)
	} else {
		err = v.UnlockKeyring()
	}
	if err != nil {
		return err
	}
	if err := v.Rekey(pass); err != nil {
		if errors.Is(err, vault.ErrBadPassphrase) && pass == nil {
			return fmt.Errorf("%w; the vault has a passphrase: give --passphrase-file", err)
		}
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
