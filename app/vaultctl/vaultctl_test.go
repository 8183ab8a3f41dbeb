package vaultctl

import (
	"context"
	"sync"
	"testing"
	"time"
)

// memVault is a vault that only locks.
type memVault struct {
	mu     sync.Mutex
	locked bool
}

func (v *memVault) State() string {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.locked {
		return "locked"
	}
	return "unlocked"
}
func (v *memVault) Lock() { v.mu.Lock(); v.locked = true; v.mu.Unlock() }

// The vault locks once the person has not acted for the idle limit, as it
// is set now; the person's actions, and only those, postpone it.
func TestWatchLocksWhenIdle(t *testing.T) {
	var mu sync.Mutex
	now := time.Unix(1_700_000_000, 0)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	v := &memVault{}
	changed := make(chan string, 4)
	c := New(Config{Vault: v, IdleLimit: 10 * time.Minute, Now: clock, Changed: func(st string) { changed <- st }})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go c.Watch(ctx, time.Millisecond)
	time.Sleep(20 * time.Millisecond) // Watch has started: its start counts as acting
	for i := 0; i < 3; i++ {
		advance(8 * time.Minute)
		c.Acted()
		time.Sleep(20 * time.Millisecond)
	}
	if v.State() != "unlocked" {
		t.Fatal("locked although the person acted every 8 minutes with a 10-minute limit")
	}
	c.SetIdleLimit(time.Minute)
	advance(2 * time.Minute)
	select {
	case st := <-changed:
		if st != "locked" {
			t.Fatalf("Changed(%q), want locked", st)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("not locked 2 minutes idle with a 1-minute limit")
	}
	if c.IdleLimit() != time.Minute {
		t.Errorf("IdleLimit = %v", c.IdleLimit())
	}
}

// A limit of zero never locks.
func TestWatchNeverWithZeroLimit(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	var mu sync.Mutex
	v := &memVault{}
	c := New(Config{Vault: v, Now: func() time.Time { mu.Lock(); defer mu.Unlock(); return now }})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { c.Watch(ctx, time.Millisecond); close(done) }()
	mu.Lock()
	now = now.Add(1000 * time.Hour)
	mu.Unlock()
	time.Sleep(30 * time.Millisecond)
	cancel()
	<-done
	if v.State() != "unlocked" {
		t.Error("locked with the idle lock off")
	}
}

func TestSaveAutoLock(t *testing.T) {
	home := t.TempDir()
	if err := SaveAutoLock(home, 7); err == nil {
		t.Error("SaveAutoLock(7) accepted a time not offered")
	}
	if d, ok, err := AutoLock(home); ok || err != nil || d != 0 {
		t.Errorf("AutoLock with nothing saved = %v %v %v", d, ok, err)
	}
	if err := SaveAutoLock(home, 30); err != nil {
		t.Fatal(err)
	}
	if d, ok, err := AutoLock(home); !ok || err != nil || d != 30*time.Minute {
		t.Errorf("AutoLock = %v %v %v, want 30m", d, ok, err)
	}
}
