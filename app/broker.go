package app

import (
	"context"
	"errors"
	"sort"
)

// New returns an App for cfg. It opens nothing yet; Serve starts the broker.
func New(cfg Config) (*App, error) {
	return &App{cfg: cfg, clients: map[string]Client{}}, nil
}

// Serve listens on the app socket and serves connections until ctx is done.
func (a *App) Serve(ctx context.Context) error {
	return errors.New("broker: not implemented yet")
}

// Close releases the app's resources (socket, vault).
func (a *App) Close() error { return nil }

func (a *App) vaultState() string { return "uninitialized" }

func sortClients(cs []Client) {
	sort.Slice(cs, func(i, j int) bool { return cs[i].Connected.Before(cs[j].Connected) })
}
