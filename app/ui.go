package app

import "sync"

// StatusEvent is the frontend event carrying a fresh Status whenever the
// app's state changes (a browser connects, the vault is unlocked, ...).
const StatusEvent = "status"

// UI is the service bound to the window. Each exported method is callable
// from the frontend as window.go.app.UI.Method() and returns (T, error), so
// that a failure rejects the JavaScript promise.
type UI struct {
	app *App
	// rematch switches a confirmation to another profile: the app, or a
	// fake in tests.
	rematch rematcher

	mu      sync.Mutex
	sh      shell // nil until the window has started, and after it stopped
	pending bool  // quit was asked for before the window started
	// keyringErr is why the keyring failed in this run, nil while it has
	// not; see noteKeyring.
	keyringErr error
	// pendingImport is the import previewed and waiting for the person's
	// choice (transfer.go).
	pendingImport *pendingImport
}

// newUI returns the UI service for a.
func newUI(a *App) *UI { return &UI{app: a, rematch: a.fill} }

// Status returns what the status screen shows.
func (u *UI) Status() (Status, error) { return u.app.Status(), nil }

// Quit ends the app: the window closes and the broker stops serving
// browsers. (Closing the window only hides it.)
func (u *UI) Quit() error {
	u.app.markUserQuit()
	u.quit()
	return nil
}

// start is wired to OnStartup: from now on state changes reach the window.
func (u *UI) start(sh shell) {
	u.mu.Lock()
	u.sh = sh
	pending := u.pending
	u.mu.Unlock()
	if pending {
		sh.quit()
		return
	}
	u.app.OnChange(u.push)
	u.startDialog()
}

// stop is wired to OnShutdown: the runtime must not be called any more.
func (u *UI) stop() {
	u.app.OnChange(nil)
	u.stopDialog()
	u.mu.Lock()
	u.sh = nil
	u.mu.Unlock()
}

// push sends the current status to the window.
func (u *UI) push() {
	if sh := u.shell(); sh != nil {
		sh.emit(StatusEvent, u.app.Status())
	}
}

// show brings the window up, e.g. when Tessera is launched a second time.
func (u *UI) show() {
	if sh := u.shell(); sh != nil {
		sh.show()
	}
}

// quit ends wails.Run, now or as soon as the window has started.
func (u *UI) quit() {
	u.mu.Lock()
	sh := u.sh
	if sh == nil {
		u.pending = true
	}
	u.mu.Unlock()
	if sh != nil {
		sh.quit()
	}
}

func (u *UI) shell() shell {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.sh
}
