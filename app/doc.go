// Package app is the running desktop app: its composition root (Config,
// New, Serve: it wires package broker, which serves browsers, agents and the
// command line over the local socket, to the services, and registers each
// method once) and, until they move to packages of their own, the fill,
// Formspec, agent and command-line methods and the Wails bindings of the
// UI. The person's decisions and the one release gate are package confirm;
// paired installs and trusted browsers, package trust. Nothing here needs
// Wails to run, so the app runs in tests without a window.
package app
