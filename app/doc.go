// Package app is the running desktop app: its composition root (Config,
// New, Serve: it wires package broker, which serves browsers, agents and
// the command line over the local socket, to the services, and registers
// each method once) and, until they move to packages of their own, the
// command line's methods and the Wails bindings of the UI. Filling with
// consent (and Formspec) is package fill; agents, package agents; the
// person's decisions and the one release gate, package confirm; paired
// installs and trusted browsers, package trust; the vault while the app
// runs, package vaultctl. Nothing here needs Wails to run, so the app runs
// in tests without a window.
package app
