// Package cli owns the tessera command line: it parses the arguments, picks
// the mode (desktop app, native-messaging host, or a subcommand) and runs it.
// main only builds an Env and calls Run.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/tessera-app/tessera/passphrase"
)

// ErrUsage is wrapped by errors caused by a malformed command line; main exits
// with status 2 for them.
var ErrUsage = errors.New("usage")

// DesktopOptions configures the desktop app mode.
type DesktopOptions struct {
	// Hidden starts the app without showing its window.
	Hidden bool
	// Headless runs the broker only, with no window at all.
	Headless bool
}

// Env is everything a command may touch of the outside world.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Getenv reads an environment variable.
	Getenv func(string) string
	// Executable is the absolute path of the running tessera binary.
	Executable string
	// Desktop runs the desktop app until ctx is done or the user quits.
	Desktop func(ctx context.Context, opts DesktopOptions) error
	// MinWorkFactor is the lowest scrypt work factor a command accepts for
	// a new passphrase wrap; zero means passphrase.MinWorkFactor. main
	// never sets it: only tests lower it, to keep scrypt fast.
	MinWorkFactor int
}

// minWorkFactor returns the lowest scrypt work factor commands accept.
func (env *Env) minWorkFactor() int {
	if env.MinWorkFactor > 0 {
		return env.MinWorkFactor
	}
	return passphrase.MinWorkFactor
}

type command struct {
	run     runFunc
	summary string
}

// commands is the table of subcommands. Each lives in its own file.
var commands = map[string]command{
	"version":   {runVersion, "print the version"},
	"install":   {runInstall, "register the native-messaging host with browsers"},
	"uninstall": {runUninstall, "remove the native-messaging host registrations"},
	"classify":  {runClassify, "classify every control of HTML pages (JSON lines)"},
	"tools":     {runTools, "list or call a page's declarative WebMCP tools"},
	"match":     {runMatch, "dry-run matching of a profile against a page"},
	"vault":     {runVault, "init|unlock|lock|status|passwd|rekey the vault"},
	"profile":   {runProfile, "list|show|set|unset|delete|import|export profiles"},
	"site":      {runSite, "list|forget the sites that fill without asking"},
	"sync":      {runSync, "setup|status|now|remove-device|request|pending|approve|decline: keep devices in step through a synced folder"},
	"mcp":       {runMCP, "serve the browser's forms to an AI agent over MCP (stdio)"},
}

// Version, Commit and Date describe the build; scripts/dist.sh sets them
// with -ldflags -X (Date from the commit, so that a rebuild of the same
// commit is byte-identical). A plain `go build` leaves the defaults.
var (
	// Version is the release version, such as "0.2.0".
	Version = "0.1.0-dev"
	// Commit is the git commit the build was made from.
	Commit = "unknown"
	// Date is the commit's date, RFC 3339 in UTC.
	Date = "unknown"
)

// Run runs tessera with the command-line arguments args (without the program
// name).
func Run(ctx context.Context, args []string, env *Env) error {
	if origin, ok := hostCaller(args); ok {
		return runHost(ctx, env, origin)
	}
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return runDesktop(ctx, env, args)
	}
	switch args[0] {
	case "help", "-h", "--help":
		if args[0] == "help" && isFieldHelp(args[1:]) {
			return runFieldHelp(ctx, env, args[1:])
		}
		if len(args) > 1 {
			// help COMMAND is COMMAND --help: each command prints its own usage.
			c, ok := commands[args[1]]
			if !ok {
				usage(env.Stderr)
				return fmt.Errorf("%w: unknown command %q", ErrUsage, args[1])
			}
			return c.run(ctx, env, []string{"--help"})
		}
		usage(env.Stdout)
		return nil
	}
	c, ok := commands[args[0]]
	if !ok {
		usage(env.Stderr)
		return fmt.Errorf("%w: unknown command %q", ErrUsage, args[0])
	}
	return c.run(ctx, env, args[1:])
}

func runDesktop(ctx context.Context, env *Env, args []string) error {
	var opts DesktopOptions
	for _, a := range args {
		switch a {
		case "--hidden":
			opts.Hidden = true
		case "--headless":
			opts.Headless = true
		case "-h", "--help":
			usage(env.Stdout)
			return nil
		default:
			return fmt.Errorf("%w: unknown flag %q", ErrUsage, a)
		}
	}
	if env.Desktop == nil {
		return errors.New("desktop app not available in this build")
	}
	if err := hardenApp(); err != nil {
		return err
	}
	return env.Desktop(ctx, opts)
}

func runVersion(ctx context.Context, env *Env, args []string) error {
	fmt.Fprintf(env.Stdout, "tessera %s (protocol %d)\ncommit %s\ndate %s\n", Version, ProtocolVersion, Commit, Date)
	return nil
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: tessera [--hidden|--headless]   run the desktop app")
	fmt.Fprintln(w, "       tessera COMMAND [ARGS]")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintf(w, "  %-10s %s\n", "help", "COMMAND: its usage; --definition FILE ... PATH: Formspec field help")
}

// A runFunc runs one command or subcommand with its arguments.
type runFunc func(ctx context.Context, env *Env, args []string) error

// dispatch runs the subcommand of group (tessera GROUP SUB ARGS...) that
// args name from table; help prints usage to stdout, a missing or unknown
// subcommand prints it to stderr and is ErrUsage.
func dispatch(ctx context.Context, env *Env, group string, usage func(io.Writer), table map[string]runFunc, args []string) error {
	if len(args) == 0 {
		usage(env.Stderr)
		return fmt.Errorf("%w: %s: missing subcommand", ErrUsage, group)
	}
	sub, args := args[0], args[1:]
	run, ok := table[sub]
	if !ok {
		if sub == "help" || sub == "-h" || sub == "--help" {
			usage(env.Stdout)
			return nil
		}
		usage(env.Stderr)
		return fmt.Errorf("%w: %s: unknown subcommand %q", ErrUsage, group, sub)
	}
	return run(ctx, env, args)
}
