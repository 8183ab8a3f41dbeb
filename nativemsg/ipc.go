package nativemsg

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"
)

// ErrPeerRejected is returned (wrapped) when a connection comes from another
// user, or the server side of a channel is not owned by this user.
var ErrPeerRejected = errors.New("peer rejected")

// A PeerCheck decides whether an accepted connection may be served. The
// default checks the peer's user against the current user; tests inject a
// fake to stand in for a second user.
type PeerCheck func(c net.Conn) error

// ChannelDir returns the per-user directory that holds the app's channel:
// $TESSERA_RUNTIME_DIR when set, else the platform's per-user runtime
// directory (see channelDir in the platform files).
func ChannelDir(getenv func(string) string) (string, error) {
	if d := getenv("TESSERA_RUNTIME_DIR"); d != "" {
		return d, nil
	}
	return channelDir(getenv)
}

// Listen creates the app's channel in dir and returns a listener whose
// Accept only returns connections that pass check (nil: the current-user
// check). A stale channel left by a crashed app is replaced; a live one makes
// Listen fail with ErrAlreadyRunning.
func Listen(dir string, check PeerCheck) (net.Listener, error) {
	if check == nil {
		check = SameUser
	}
	l, err := listen(dir)
	if err != nil {
		return nil, err
	}
	return &checkedListener{Listener: l, check: check}, nil
}

// Dial connects to the app's channel in dir, verifying that the server end
// belongs to the current user.
func Dial(ctx context.Context, dir string) (net.Conn, error) {
	return dial(ctx, dir)
}

// ErrAlreadyRunning is returned by Listen when another app instance already
// serves the channel.
var ErrAlreadyRunning = errors.New("tessera app already running")

// checkedListener closes connections that fail the peer check and waits for
// the next one, so that one hostile peer cannot stop the app from serving.
type checkedListener struct {
	net.Listener
	check PeerCheck
}

func (l *checkedListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if err := l.check(c); err != nil {
			c.Close()
			continue
		}
		return c, nil
	}
}

// WaitListening waits up to timeout for an app to accept connections on the
// channel in dir (a Dial that succeeds), as whatever starts the app in the
// background needs to. It returns the last dial error when none did.
func WaitListening(ctx context.Context, dir string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		dctx, cancel := context.WithTimeout(ctx, time.Second)
		c, err := Dial(dctx, dir)
		cancel()
		if err == nil {
			c.Close()
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("app did not listen within %v: %w", timeout, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
