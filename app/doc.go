// Package app is the running desktop app: its composition root (Config,
// New, Serve: it wires package broker, which serves browsers, agents and
// the command line over the local socket, to the services, and registers
// each method once; RunDesktop runs the Wails window around it) and the
// sync of the vault with the person's other devices. The window's service,
// the one object Wails binds, is package ui, given the app's parts through
// the interfaces it declares (uihost.go); the command line's methods are
// package cmdline, which acts through the window's bindings; filling with
// consent (and Formspec), package fill; agents, package agents; the
// person's decisions and the one release gate, package confirm; paired
// installs and trusted browsers, package trust; the vault while the app
// runs, package vaultctl. Nothing here needs Wails to run, so the app runs
// in tests without a window. The UI self-test (build tag selftest) stays
// here, bound as window.go.app.SelfTest: it drives the window through
// package ui's exported API and the app's own parts.
package app
