// Command tessera-host is Tessera's native-messaging host alone: what
// `tessera` does when a browser starts it, in a binary that links none of
// the app's packages, so that it answers a browser's first message in a
// few milliseconds (issue 12; `make bench-start`). It is installed beside
// tessera, which it starts (`tessera --hidden`) when the app is not
// running; `tessera install` registers it when it is there.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/tessera-app/tessera/hostrun"
	"github.com/tessera-app/tessera/nativemsg"
)

func main() {
	origin, ok := nativemsg.ParseCaller(os.Args[1:])
	if !ok {
		fmt.Fprintln(os.Stderr, "usage: tessera-host chrome-extension://ID/ | tessera-host MANIFEST.json ADDON-ID")
		fmt.Fprintln(os.Stderr, "tessera-host is started by a browser; run tessera for the app and its commands")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	exe, _ := os.Executable()
	err := hostrun.Run(ctx, hostrun.Config{
		Stdin: os.Stdin, Stdout: os.Stdout, Log: os.Stderr,
		Getenv: os.Getenv, Origin: origin, App: nativemsg.Sibling(exe),
	})
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "tessera-host:", err)
		os.Exit(1)
	}
}
