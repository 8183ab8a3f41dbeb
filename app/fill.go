package app

// Client kinds a session.hello may claim.
const (
	KindBrowser = "browser"
	KindAgent   = "agent"
	KindCLI     = "cli"
)

// registerFillMethods adds the fill-with-consent methods (PROTOCOL.md §4.1).
func (a *App) registerFillMethods() {}
