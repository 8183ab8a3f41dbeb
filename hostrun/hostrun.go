// Package hostrun runs Tessera's native-messaging host process, the same
// in both executables that can be it: tessera-host (cmd/tessera-host),
// which links nothing else so that it starts fast, and tessera's host
// mode. It hardens the process, finds the app's channel, starts the app
// when it is not running and relays (nativemsg.RunHost). It must stay
// small: a test keeps the app's packages out of tessera-host.
package hostrun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"

	"github.com/tessera-app/tessera/nativemsg"
)

// Config is everything the host touches of the outside world.
type Config struct {
	// Stdin and Stdout are the browser's wire; Log receives diagnostics
	// (the browser's log).
	Stdin  io.Reader
	Stdout io.Writer
	Log    io.Writer
	// Getenv reads an environment variable.
	Getenv func(string) string
	// Origin is the caller as the browser named it (nativemsg.ParseCaller).
	Origin string
	// App is the app executable started (`App --hidden`) when the app is
	// not running; "" when there is none to start.
	App string
}

// Run runs the host until the browser or the app ends the connection. It
// writes no core file, and hides its memory once the app has verified it
// (HideMemory); should that fail, it ends rather than relay values
// exposed.
func Run(ctx context.Context, cfg Config) error {
	if err := NoCoreDumps(); err != nil {
		return fmt.Errorf("harden the host: %w", err)
	}
	dir, err := nativemsg.ChannelDir(cfg.Getenv)
	if err != nil {
		return err
	}
	if f, ok := cfg.Stdin.(*os.File); ok {
		cfg.Stdin = pollable(f)
	}
	// A relay runs one goroutine at a time: with more than one P, every
	// message that wakes it also wakes a second thread to look for work
	// (the round trip's p99 on a loaded machine; e2e TestFirefoxRoundTrip).
	runtime.GOMAXPROCS(1)
	return nativemsg.RunHost(ctx, cfg.Stdin, cfg.Stdout, nativemsg.HostConfig{
		Origin: cfg.Origin,
		Dir:    dir,
		Log:    cfg.Log,
		Answered: func() error {
			if err := HideMemory(); err != nil {
				return fmt.Errorf("harden the host: %w", err)
			}
			return nil
		},
		StartApp: func() error {
			if nativemsg.UserQuit(dir) {
				return nativemsg.ErrUserQuit
			}
			if cfg.App == "" {
				return errors.New("no Tessera app beside this host to start")
			}
			return nativemsg.StartDetached(cfg.App, []string{"--hidden"}, filepath.Join(logDir(dir), "app.log"))
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
