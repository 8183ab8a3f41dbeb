package vault

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// A rollbackCounter keeps the vault's write sequence (the manifest's) in the
// OS keyring, so that the whole file replaced by an older copy of itself,
// which is consistent in every row, is still noticed at unlock: its sequence
// is below the one the keyring last saw.
//
// The keyring is written after each commit by a background goroutine, never
// on the write path: a Secret Service round trip costs milliseconds, a set
// must not. The counter may therefore trail the file by the last few writes
// (a crash between commit and keyring write leaves the file ahead, which is
// fine), and Lock and Close wait for it to catch up.
type rollbackCounter struct {
	kr      Keyring
	account string

	mu      sync.Mutex
	idle    *sync.Cond
	want    uint64 // the last committed sequence
	stored  uint64 // what the keyring holds
	running bool
}

func counterAccount(vaultID string) string { return keyringAccount(vaultID) + "-counter" }

// loadCounter reads the vault's counter from the keyring and checks the
// file's sequence against it; with acceptOlder a file behind the counter is
// accepted and the counter set back to it. It returns nil, nil when the
// keyring cannot be reached: the check is then skipped and the unlock goes
// on, because a passphrase must open the vault without a keyring.
func loadCounter(kr Keyring, vaultID string, seq uint64, acceptOlder bool) (*rollbackCounter, error) {
	c := &rollbackCounter{kr: kr, account: counterAccount(vaultID)}
	c.idle = sync.NewCond(&c.mu)
	s, err := kr.Get(KeyringService, c.account)
	switch {
	case errors.Is(err, ErrKeyringItemMissing):
	case err != nil:
		return nil, nil
	default:
		// An unreadable counter counts as none, as a deleted one would:
		// whoever can write the keyring can delete it too.
		n, _ := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
		if n > seq && !acceptOlder {
			return nil, fmt.Errorf("%w: %w: the file is at write %d but the keyring saw write %d: an older copy of the vault replaced it", ErrTampered, ErrRollback, seq, n)
		}
		if n <= seq {
			c.stored = n
		}
	}
	c.want = c.stored
	c.advance(seq)
	return c, nil
}

// advance records that sequence seq has committed. It does not wait for the
// keyring.
func (c *rollbackCounter) advance(seq uint64) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if seq <= c.want {
		return
	}
	c.want = seq
	if !c.running {
		c.running = true
		go c.run()
	}
}

func (c *rollbackCounter) run() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.stored < c.want {
		w := c.want
		c.mu.Unlock()
		err := c.kr.Set(KeyringService, c.account, strconv.FormatUint(w, 10))
		c.mu.Lock()
		if err != nil {
			// The keyring went away; the next unlock checks what it holds.
			break
		}
		c.stored = w
	}
	c.running = false
	c.idle.Broadcast()
}

// flush waits until the keyring holds the last committed sequence (or
// gave up trying).
func (c *rollbackCounter) flush() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.running {
		c.idle.Wait()
	}
}
