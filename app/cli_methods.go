package app

// registerCLIMethods adds the methods served to `cli` sessions
// (PROTOCOL.md §4.2): the CLI scripting the running app.
func (a *App) registerCLIMethods() {}
