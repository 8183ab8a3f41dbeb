// Package app is the running desktop app: its composition root (Config,
// New, Serve: the broker that serves browsers, agents and the command line
// over the local socket) and, until they move to packages of their own, the
// fill, Formspec, agent and command-line methods and the Wails bindings of
// the UI. The person's decisions and the one release gate are package
// confirm; paired installs and trusted browsers, package trust. The broker
// is independent of Wails so it runs in tests without a window.
package app
