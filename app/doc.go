// Package app is the running desktop app: its composition root (Config,
// New, Serve: it wires package broker, which serves browsers, agents and
// the command line over the local socket, to the services, and registers
// each method once; RunDesktop runs the Wails window around it), the sync
// of the vault with the person's other devices, and, until they move to a
// package of their own, the command line's methods, which act through the
// window's own bindings. The window's service, the one object Wails binds,
// is package ui, given the app's parts through the interfaces it declares
// (uihost.go); filling with consent (and Formspec) is package fill;
// agents, package agents; the person's decisions and the one release gate,
// package confirm; paired installs and trusted browsers, package trust;
// the vault while the app runs, package vaultctl. Nothing here needs Wails
// to run, so the app runs in tests without a window. The UI self-test
// (build tag selftest) stays here, bound as window.go.app.SelfTest: it
// drives the window through package ui's exported API and the app's own
// parts.
package app
