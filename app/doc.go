// Package app owns the running desktop app: the broker that serves protocol
// requests from browsers and agents over the local socket, the confirmation
// queue, and the Wails bindings of the UI. The broker is independent of Wails
// so it runs in tests without a window.
package app
