// Package vaultctl keeps the vault while the app runs: it locks it when the
// person has not acted for the auto-lock time (only the person's own
// actions count, never a browser's or an agent's requests), when the screen
// locks and when the machine suspends, and it tells the app when the
// vault's state changes. It also reads and writes the window's
// preferences (prefs.json), the auto-lock time among them.
package vaultctl
