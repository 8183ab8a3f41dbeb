// Package sessionbus connects to the D-Bus session bus without ever
// starting one: a dbus-daemon autolaunched for Tessera would outlive it.
package sessionbus
