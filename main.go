// Command tessera is the Tessera desktop app, its browser native-messaging
// host and its command line, in one binary. main only wires dependencies and
// exits; cli.Run picks the mode.
package main

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/tessera-app/tessera/app"
	"github.com/tessera-app/tessera/cli"
)

//go:embed all:frontend/dist
var assets embed.FS

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	exe, _ := os.Executable()
	env := &cli.Env{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		Getenv: os.Getenv, Executable: exe,
		Desktop: func(ctx context.Context, opts cli.DesktopOptions) error {
			return app.RunDesktop(ctx, assets, app.DesktopOptions{Hidden: opts.Hidden, Headless: opts.Headless, Version: cli.Version, Build: cli.Commit + ", " + cli.Date})
		},
	}
	err := cli.Run(ctx, os.Args[1:], env)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "tessera:", err)
		if errors.Is(err, cli.ErrUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}
