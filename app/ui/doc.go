// Package ui is the window's service: UI, the one object Wails binds, so
// the page reaches it as window.go.ui.UI.Method() and every method returns
// (T, error), a failure rejecting the JavaScript promise. It owns what the
// window shows and does: the vault card (set up, unlock, lock, passphrase),
// the profile editor, import and export, Activity, Settings (remembered
// sites, browsers, paired installs, trusted browsers, agents' access,
// auto-lock, sync), the confirmation dialog's presenter and answers, and
// the Wails runtime, reached only through Shell once the window started.
//
// It needs the running app only through the small interfaces it declares
// (Host, Vault, Confirms, Rematcher, Agents, Pairs, Browsers, AutoLock,
// Sync), given in Config by package app, which it never imports; tests
// pass fakes. The window's lifecycle (Window: Start, Stop, Show, Quit) is
// not bound, so the page cannot call it. Errors are worded to be shown as
// they are (PlainError); passphrases never appear in them or in any log.
package ui
