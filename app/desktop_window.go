package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sync"

	"github.com/tessera-app/tessera/app/ui"
	"github.com/tessera-app/tessera/nativemsg"
	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
)

// windowConfig is what runWindow needs besides the app and its assets.
type windowConfig struct {
	hidden  bool
	channel string // the broker's channel directory
	stderr  io.Writer
	getenv  func(string) string
}

// runWindow serves the broker in the background and runs the Wails window
// on the calling goroutine (GTK and Cocoa want the main thread) until the
// person quits or ctx is done.
func runWindow(ctx context.Context, a *App, assets fs.FS, cfg windowConfig) error {
	dist, err := fs.Sub(assets, "frontend/dist")
	if err != nil {
		return fmt.Errorf("frontend assets: %w", err)
	}
	if _, err := fs.Stat(dist, "index.html"); err != nil {
		// Without this check a binary built before the frontend shows an
		// empty window and looks hung.
		return fmt.Errorf("frontend assets: index.html missing, build the frontend first (scripts/build-desktop.sh): %w", ErrNoWindow)
	}
	// The window icon ships with the frontend (frontend/public/icon.png);
	// without it the desktop shows a generic icon, which is no reason to fail.
	icon, _ := fs.ReadFile(dist, "icon.png")
	win := ui.NewWindow(a.ui)
	st := newSelfTest(a, a.ui, win, cfg)

	brokerCtx, stopBroker := context.WithCancel(ctx)
	defer stopBroker()
	var (
		brokerMu  sync.Mutex
		brokerErr error
	)
	served := make(chan struct{})
	go func() {
		defer close(served)
		err := a.Serve(brokerCtx)
		if err == nil || brokerCtx.Err() != nil {
			return
		}
		if errors.Is(err, nativemsg.ErrAlreadyRunning) {
			// Another instance won the race for the channel: it owns the
			// browsers, so this window has nothing to show.
			brokerMu.Lock()
			brokerErr = err
			brokerMu.Unlock()
			win.Quit()
			return
		}
		// The window is still useful (and shows the state) without the
		// broker, so a broker failure is reported, not fatal.
		fmt.Fprintf(cfg.stderr, "tessera: broker stopped: %v; the window stays up\n", err)
	}()
	stopQuit := context.AfterFunc(ctx, win.Quit)
	defer stopQuit()

	err = runWails(&options.App{
		Title:             "Tessera",
		Width:             1000,
		Height:            700,
		MinWidth:          720,
		MinHeight:         480,
		StartHidden:       cfg.hidden,
		HideWindowOnClose: true,
		BackgroundColour:  options.NewRGB(0xf6, 0xf5, 0xf2),
		AssetServer:       &assetserver.Options{Assets: dist},
		OnStartup:         func(wctx context.Context) { win.Start(ui.WailsShell(wctx)) },
		OnDomReady:        func(wctx context.Context) { st.domReady(wctx) },
		OnShutdown:        func(context.Context) { win.Stop() },
		Bind:              append([]any{a.ui}, st.bindings()...),
		SingleInstanceLock: &options.SingleInstanceLock{
			UniqueId:               instanceID(cfg.channel),
			OnSecondInstanceLaunch: func(options.SecondInstanceData) { win.Show() },
		},
		Linux: &linux.Options{ProgramName: "tessera", Icon: icon},
	})
	stopBroker()
	<-served
	if err != nil {
		return fmt.Errorf("window: %w", err)
	}
	brokerMu.Lock()
	defer brokerMu.Unlock()
	return errors.Join(brokerErr, st.result())
}

// runWails runs the window. Wails panics when GTK cannot start (no usable
// display); that becomes an error, so the person reads why instead of a
// stack trace, and the broker is still stopped in order.
func runWails(o *options.App) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v: %w", r, ErrNoWindow)
		}
	}()
	return wails.Run(o)
}

// instanceID names the single-instance lock of the app serving the channel
// in dir, so that instances with different channels (tests, several users)
// never see each other as a second launch.
func instanceID(dir string) string {
	sum := sha256.Sum256([]byte(dir))
	return "dev.tessera.app.i" + hex.EncodeToString(sum[:6])
}
