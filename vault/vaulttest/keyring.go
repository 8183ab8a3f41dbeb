// Package vaulttest holds what tests of the vault's users share: an
// in-memory OS keyring that can be made to fail as a machine without a
// Secret Service does.
package vaulttest

import (
	"fmt"
	"sync"

	"github.com/tessera-app/tessera/vault"
)

// Keyring is an in-memory vault.Keyring; Broken makes every Get and Set
// fail with vault.ErrKeyringUnavailable.
type Keyring struct {
	mu     sync.Mutex
	items  map[string]string
	Broken bool
	sets   int
}

var _ vault.Keyring = (*Keyring)(nil)

// Get returns the secret stored for service and user.
func (k *Keyring) Get(service, user string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.Broken {
		return "", fmt.Errorf("%w: no session bus", vault.ErrKeyringUnavailable)
	}
	s, ok := k.items[service+"/"+user]
	if !ok {
		return "", vault.ErrKeyringItemMissing
	}
	return s, nil
}

// Set stores secret for service and user (a broken keyring counts the call
// and fails).
func (k *Keyring) Set(service, user, secret string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.sets++
	if k.Broken {
		return fmt.Errorf("%w: no session bus", vault.ErrKeyringUnavailable)
	}
	if k.items == nil {
		k.items = map[string]string{}
	}
	k.items[service+"/"+user] = secret
	return nil
}

// Delete forgets the secret of service and user.
func (k *Keyring) Delete(service, user string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	delete(k.items, service+"/"+user)
	return nil
}

// SetBroken makes the keyring fail (or work again) from now on.
func (k *Keyring) SetBroken(b bool) {
	k.mu.Lock()
	k.Broken = b
	k.mu.Unlock()
}

// Sets is how many times Set was called.
func (k *Keyring) Sets() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.sets
}
