package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/tessera-app/tessera/nativemsg"
)

// ProtocolVersion is the wire protocol version this build speaks.
const ProtocolVersion = nativemsg.ProtocolVersion

func hostCaller(args []string) (string, bool) { return nativemsg.ParseCaller(args) }

// runHost runs the native-messaging host. It writes no core file, and
// hides its memory once the app has verified it (harden.go); should that
// fail, it ends rather than relay values exposed.
func runHost(ctx context.Context, env *Env, origin string) error {
	if err := noCoreDumps(); err != nil {
		return fmt.Errorf("harden the host: %w", err)
	}
	dir, err := nativemsg.ChannelDir(env.Getenv)
	if err != nil {
		return err
	}
	return nativemsg.RunHost(ctx, env.Stdin, env.Stdout, nativemsg.HostConfig{
		Origin: origin,
		Dir:    dir,
		Log:    env.Stderr,
		Answered: func() error {
			if err := hideMemory(); err != nil {
				return fmt.Errorf("harden the host: %w", err)
			}
			return nil
		},
		StartApp: func() error {
			if nativemsg.UserQuit(dir) {
				return nativemsg.ErrUserQuit
			}
			return nativemsg.StartDetached(env.Executable, []string{"--hidden"}, filepath.Join(logDir(dir), "app.log"))
		},
	})
}

// logDir is where a host-started app logs: the private channel directory on
// Unix, the temp directory on Windows (where the channel is a pipe name).
func logDir(dir string) string {
	if runtime.GOOS == "windows" {
		return os.TempDir()
	}
	return dir
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

func installFlags(name string, env *Env, args []string) (nativemsg.InstallEnv, []string, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var browsers browserList
	fs.Var(&browsers, "browser", "browser to register with (repeatable): "+strings.Join(nativemsg.Browsers, ", "))
	udd := fs.String("user-data-dir", "", "register for a browser started with --user-data-dir=DIR")
	system := fs.Bool("system", false, "register machine-wide (needs administrator rights)")
	if err := fs.Parse(args); err != nil {
		return nativemsg.InstallEnv{}, nil, fmt.Errorf("%w: %s: %v", ErrUsage, name, err)
	}
	if fs.NArg() > 0 {
		return nativemsg.InstallEnv{}, nil, fmt.Errorf("%w: %s: unexpected argument %q", ErrUsage, name, fs.Arg(0))
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
	done, err := nativemsg.Install(ie, browsers, env.Executable)
	for _, t := range done {
		fmt.Fprintf(env.Stdout, "registered %s for %s: %s\n", nativemsg.HostName, t.Browser, t.ManifestPath)
	}
	return err
}

func runUninstall(ctx context.Context, env *Env, args []string) error {
	ie, browsers, err := installFlags("uninstall", env, args)
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
