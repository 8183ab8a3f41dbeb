package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"time"

	"github.com/tessera-app/tessera/app/cmdline"
	"github.com/tessera-app/tessera/app/vaultctl"
	"github.com/tessera-app/tessera/nativemsg"
	"github.com/tessera-app/tessera/vault"
)

// DesktopOptions configures RunDesktop.
type DesktopOptions struct {
	// Hidden starts the app with its window hidden: the native-messaging
	// host starts the app this way, and the window appears when needed.
	Hidden bool
	// Headless runs the broker only, with no window at all.
	Headless bool
	// Version is the app version shown in the window and in session.hello;
	// empty means "dev". Build is the commit and date it was built from,
	// shown beside it.
	Version string
	Build   string
}

// ErrNoWindow is returned (wrapped) by RunDesktop when the window cannot be
// shown: the binary embeds no built frontend, or GTK cannot start.
var ErrNoWindow = errors.New("no window available")

// RunDesktop runs the desktop app until ctx is done or the person quits: the
// broker that serves browsers on the local channel, and the Wails window
// showing assets' "frontend/dist". When opts.Headless is set, the binary was
// built without the desktop tag, or there is no display, only the broker
// runs, and the reason is logged to stderr.
//
// Closing the window hides it: the app keeps serving the browser extension
// in the background; the window's "Quit Tessera" button ends the app. A
// second launch while the app runs asks the running one to show its window
// and returns nil.
func RunDesktop(ctx context.Context, assets fs.FS, opts DesktopOptions) error {
	return runDesktop(ctx, assets, opts, desktopEnv{
		getenv: os.Getenv,
		stderr: os.Stderr,
		goos:   runtime.GOOS,
		window: windowBuilt,
	})
}

// desktopEnv is what runDesktop reads of the process, so tests can decide
// the window question without a display.
type desktopEnv struct {
	getenv func(string) string
	stderr io.Writer
	goos   string
	window bool // built with the desktop tag
}

func runDesktop(ctx context.Context, assets fs.FS, opts DesktopOptions, env desktopEnv) error {
	home, err := desktopHome(env.getenv)
	if err != nil {
		return err
	}
	dir, err := nativemsg.ChannelDir(env.getenv)
	if err != nil {
		return fmt.Errorf("channel dir: %w", err)
	}
	version := opts.Version
	if version == "" {
		version = "dev"
	}
	reason := headlessReason(opts, env)
	if running(ctx, dir) {
		msg := "tessera: already running (channel " + dir + ")"
		if reason == "" && !opts.Hidden {
			if err := showRunning(dir); err != nil {
				msg += "; could not show its window: " + err.Error()
			} else {
				msg += "; showing its window"
			}
		}
		fmt.Fprintln(env.stderr, msg)
		return nil
	}
	if !opts.Hidden {
		// A person started the app: browsers may start it again from now on.
		nativemsg.ClearUserQuit(dir)
	}
	cfg := Config{Home: home, SocketDir: dir, Version: version, Build: opts.Build, Log: env.stderr, Getenv: env.getenv, IdleLock: vaultIdleLock}
	if err := applyPrefs(&cfg); err != nil {
		fmt.Fprintf(env.stderr, "tessera: %v; the defaults apply\n", err)
	}
	if v := openVault(home, env); v != nil {
		defer v.Close()
		cfg.Vault = v
	}
	a, err := New(cfg)
	if err != nil {
		return fmt.Errorf("start app: %w", err)
	}
	if p := scriptedPresenter(a, env.getenv); p != nil {
		a.setScriptedPresenter(p)
		fmt.Fprintf(env.stderr, "tessera: TEST BUILD: dialogs are answered by TESSERA_TEST_DECISION=%s\n", env.getenv("TESSERA_TEST_DECISION"))
	}
	go a.watchVault(ctx, vaultCheckEvery)
	if env.getenv("TESSERA_LOCK_ON_SESSION") != "off" {
		evs, err := vaultctl.SessionLockEvents(ctx)
		if evs != nil {
			go a.vaultctl.WatchSessionLock(ctx, evs)
		}
		if err != nil {
			fmt.Fprintf(env.stderr, "tessera: %v\n", err)
		}
	}
	if reason != "" {
		fmt.Fprintf(env.stderr, "tessera: running without a window (%s); serving %s until stopped\n", reason, dir)
		if cfg.Vault != nil {
			// Without a window the command line is the only way in.
			if hint := cmdline.ScriptHint(a.Status().Vault); hint != "" {
				fmt.Fprintf(env.stderr, "tessera: %s\n", hint)
			}
		}
		return a.Serve(ctx)
	}
	return runWindow(ctx, a, assets, windowConfig{hidden: opts.Hidden, channel: dir, stderr: env.stderr, getenv: env.getenv})
}

// headlessReason returns why no window can be shown, or "" when one can.
func headlessReason(opts DesktopOptions, env desktopEnv) string {
	switch {
	case opts.Headless:
		return "--headless"
	case !env.window:
		return "built without the desktop tag"
	case env.goos == "linux" && env.getenv("DISPLAY") == "" && env.getenv("WAYLAND_DISPLAY") == "":
		return "no display: neither DISPLAY nor WAYLAND_DISPLAY is set"
	}
	return ""
}

// desktopHome returns the app's data directory: $TESSERA_HOME, else
// "tessera" in the user's configuration directory.
func desktopHome(getenv func(string) string) (string, error) {
	return vault.DefaultDir(getenv)
}

// vaultIdleLock is how long an unlocked vault stays unlocked while the
// person does nothing with Tessera.
const vaultIdleLock = 15 * time.Minute

// vaultCheckEvery is how often the app checks for the idle lock.
const vaultCheckEvery = 30 * time.Second

// openVault opens (creating on first run) the vault in home, unlocked through
// the OS keyring when one works (TESSERA_KEYRING=none turns it off). Without a keyring the vault stays locked or
// uninitialized until the person gives a passphrase; the app still serves
// browsers, which see that state in session.hello. It returns nil when the
// vault cannot be opened at all (the reason is logged).
func openVault(home string, env desktopEnv) *vault.Vault {
	// The app, not the vault, decides when the vault is idle: only the
	// person's actions count (App.personActed).
	v, unlockErr, err := vault.OpenDefault(home, vault.Options{Keyring: vault.KeyringFromEnv(env.getenv)})
	if err != nil {
		fmt.Fprintf(env.stderr, "tessera: vault unavailable: %v\n", err)
		return nil
	}
	if unlockErr != nil {
		fmt.Fprintf(env.stderr, "tessera: vault %s: %v\n", v.State(), unlockErr)
	}
	return v
}

// running reports whether another app instance answers on the channel in
// dir. Dial verifies that the other end belongs to this user.
func running(ctx context.Context, dir string) bool {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	c, err := nativemsg.Dial(ctx, dir)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// applyPrefs sets cfg from the preferences in its home, and returns why
// they could not be read, if they could not.
func applyPrefs(cfg *Config) error {
	d, ok, err := vaultctl.AutoLock(cfg.Home)
	if ok {
		cfg.IdleLock = d
	}
	return err
}
