package vault

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/tessera-app/tessera/profile"
)

// fakeKeyring is an in-memory Keyring; err, when set, makes every call fail
// the way an absent Secret Service does.
type fakeKeyring struct {
	mu    sync.Mutex
	items map[string]string
	err   error
}

func newFakeKeyring() *fakeKeyring { return &fakeKeyring{items: map[string]string{}} }

func (f *fakeKeyring) Get(service, user string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return "", f.err
	}
	s, ok := f.items[service+"/"+user]
	if !ok {
		return "", fmt.Errorf("%w: %s/%s", ErrKeyringItemMissing, service, user)
	}
	return s, nil
}

func (f *fakeKeyring) Set(service, user, secret string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return f.err
	}
	f.items[service+"/"+user] = secret
	return nil
}

func (f *fakeKeyring) Delete(service, user string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return f.err
	}
	if _, ok := f.items[service+"/"+user]; !ok {
		return ErrKeyringItemMissing
	}
	delete(f.items, service+"/"+user)
	return nil
}

// fileKeyring keeps items in files so that a child process and its parent
// share one keyring, as they would share the OS keyring.
type fileKeyring struct{ dir string }

func (f fileKeyring) path(service, user string) string {
	return filepath.Join(f.dir, service+"."+user)
}

func (f fileKeyring) Get(service, user string) (string, error) {
	b, err := os.ReadFile(f.path(service, user))
	if os.IsNotExist(err) {
		return "", ErrKeyringItemMissing
	}
	return string(b), err
}

// Set replaces the item atomically, as a real keyring does: a process
// killed mid-Set leaves the old secret or the new one.
func (f fileKeyring) Set(service, user, secret string) error {
	tmp := f.path(service, user) + ".new"
	if err := os.WriteFile(tmp, []byte(secret), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, f.path(service, user))
}

func (f fileKeyring) Delete(service, user string) error {
	return os.Remove(f.path(service, user))
}

// manualClock is a Clock moved by hand.
type manualClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *manualClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// testWorkFactor keeps scrypt fast in tests; the cost is measured by the
// passphrase benchmark instead.
const testWorkFactor = 10

func testOptions(kr Keyring) Options {
	return Options{Keyring: kr, ScryptWorkFactor: testWorkFactor}
}

// newTestVault creates an unlocked vault with both a keyring and a
// passphrase wrap.
func newTestVault(t testing.TB, dir string, kr Keyring) *Vault {
	t.Helper()
	v, err := Create(dir, testOptions(kr), InitOptions{Passphrase: []byte("correct horse"), Keyring: kr != nil})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	t.Cleanup(func() { v.Close() })
	return v
}

func str(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

func manual(value string) profile.Entry {
	return profile.Entry{Value: str(value), Confidence: 1, Source: profile.Source{Type: "manual", Timestamp: "2026-01-01T00:00:00Z"}}
}

func mustValue(t testing.TB, e profile.Entry) string {
	t.Helper()
	s, ok := e.StringValue()
	if !ok {
		t.Fatalf("entry value %s is not a string", e.Value)
	}
	return s
}
