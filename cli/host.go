package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/tessera-app/tessera/hostrun"
	"github.com/tessera-app/tessera/nativemsg"
)

// ProtocolVersion is the wire protocol version this build speaks.
const ProtocolVersion = nativemsg.ProtocolVersion

func hostCaller(args []string) (string, bool) { return nativemsg.ParseCaller(args) }

// runHost runs the native-messaging host (package hostrun, as
// tessera-host does), starting this same executable as the app.
func runHost(ctx context.Context, env *Env, origin string) error {
	return hostrun.Run(ctx, hostrun.Config{
		Stdin: env.Stdin, Stdout: env.Stdout, Log: env.Stderr,
		Getenv: env.Getenv, Origin: origin, App: env.Executable,
	})
}

type browserList []string

func (b *browserList) String() string { return strings.Join(*b, ",") }
func (b *browserList) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(strings.ToLower(s)); s != "" {
			*b = append(*b, s)
		}
	}
	return nil
}

// errHelpShown is returned by installFlags after it printed the usage asked
// for with --help: the command then ends with success.
var errHelpShown = errors.New("help shown")

func installFlags(name string, env *Env, args []string) (nativemsg.InstallEnv, []string, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var browsers browserList
	fs.Var(&browsers, "browser", "browser to register with (repeatable): "+strings.Join(nativemsg.Browsers, ", "))
	udd := fs.String("user-data-dir", "", "register for a browser started with --user-data-dir=DIR")
	system := fs.Bool("system", false, "register machine-wide (needs administrator rights)")
	user := fs.Bool("user", false, "register for this user only (the default)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(env.Stdout, "usage: tessera %s [--browser NAME]... [--user-data-dir DIR] [--user|--system]\n", name)
			fs.SetOutput(env.Stdout)
			fs.PrintDefaults()
			return nativemsg.InstallEnv{}, nil, errHelpShown
		}
		return nativemsg.InstallEnv{}, nil, fmt.Errorf("%w: %s: %v", ErrUsage, name, err)
	}
	if fs.NArg() > 0 {
		return nativemsg.InstallEnv{}, nil, fmt.Errorf("%w: %s: unexpected argument %q", ErrUsage, name, fs.Arg(0))
	}
	if *user && *system {
		return nativemsg.InstallEnv{}, nil, fmt.Errorf("%w: %s: --user and --system exclude each other", ErrUsage, name)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return nativemsg.InstallEnv{}, nil, fmt.Errorf("home directory: %w", err)
	}
	ie := nativemsg.InstallEnv{GOOS: runtime.GOOS, Home: home, Getenv: env.Getenv, System: *system, Registry: nativemsg.SystemRegistry()}
	if *udd != "" {
		abs, err := filepath.Abs(*udd)
		if err != nil {
			return ie, nil, err
		}
		ie.UserDataDir = abs
	}
	return ie, browsers, nil
}

func runInstall(ctx context.Context, env *Env, args []string) error {
	ie, browsers, err := installFlags("install", env, args)
	if errors.Is(err, errHelpShown) {
		return nil
	}
	if err != nil {
		return err
	}
	if ie.System {
		if err := nativemsg.CheckSystemBinary(env.Executable); err != nil {
			return fmt.Errorf("install --system: %w", err)
		}
	}
	if len(browsers) == 0 {
		if ie.UserDataDir != "" {
			browsers = []string{"chromium"}
		} else if browsers = nativemsg.Detected(ie); len(browsers) == 0 {
			return fmt.Errorf("install: no supported browser found; name one with --browser (%s)", strings.Join(nativemsg.Browsers, ", "))
		}
	}
	// The small tessera-host beside this executable when there is one:
	// it starts faster for every browser connection (issue 12).
	host := nativemsg.HostExecutable(env.Executable)
	if ie.System && host != env.Executable {
		if err := nativemsg.CheckSystemBinary(host); err != nil {
			return fmt.Errorf("install --system: %w", err)
		}
	}
	done, err := nativemsg.Install(ie, browsers, host)
	for _, t := range done {
		fmt.Fprintf(env.Stdout, "registered %s (%s) for %s: %s\n", nativemsg.HostName, host, t.Browser, t.ManifestPath)
	}
	return err
}

func runUninstall(ctx context.Context, env *Env, args []string) error {
	ie, browsers, err := installFlags("uninstall", env, args)
	if errors.Is(err, errHelpShown) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(browsers) == 0 {
		browsers = nativemsg.Browsers
		if ie.UserDataDir != "" {
			browsers = []string{"chromium"}
		}
	}
	done, err := nativemsg.Uninstall(ie, browsers)
	for _, t := range done {
		fmt.Fprintf(env.Stdout, "removed %s for %s\n", nativemsg.HostName, t.Browser)
	}
	return err
}
