//go:build unix

package nativemsg

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

const socketName = "app.sock"

func channelDir(getenv func(string) string) (string, error) {
	if d := getenv("XDG_RUNTIME_DIR"); d != "" {
		return filepath.Join(d, "tessera"), nil
	}
	return filepath.Join(os.TempDir(), "tessera-"+strconv.Itoa(os.Getuid())), nil
}

// ensurePrivateDir creates dir with mode 0700 and refuses one that another
// user owns or others can enter: a socket in such a directory could be
// replaced by someone else's.
func ensurePrivateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create channel dir: %w", err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("channel dir: %w", err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || !ok {
		return fmt.Errorf("channel dir %s: not a directory", dir)
	}
	if int(st.Uid) != os.Getuid() {
		return fmt.Errorf("channel dir %s: owned by uid %d: %w", dir, st.Uid, ErrPeerRejected)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("channel dir %s: %w", dir, err)
		}
	}
	return nil
}

func listen(dir string) (net.Listener, error) {
	if err := ensurePrivateDir(dir); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, socketName)
	if _, err := os.Lstat(path); err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		c, derr := dial(ctx, dir)
		cancel()
		if derr == nil {
			c.Close()
			return nil, ErrAlreadyRunning
		}
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("remove stale socket: %w", err)
		}
	}
	l, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("listen %s: %w", path, err)
	}
	l.(*net.UnixListener).SetUnlinkOnClose(true)
	if err := os.Chmod(path, 0o600); err != nil {
		l.Close()
		return nil, fmt.Errorf("chmod socket: %w", err)
	}
	return l, nil
}

func dial(ctx context.Context, dir string) (net.Conn, error) {
	if err := ensurePrivateDir(dir); err != nil {
		return nil, err
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", filepath.Join(dir, socketName))
	if err != nil {
		return nil, err
	}
	if err := SameUser(c); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// SameUser is the default PeerCheck: it accepts a Unix-socket connection only
// when the process at the other end runs as the current user.
func SameUser(c net.Conn) error {
	uid, err := PeerUID(c)
	if err != nil {
		return fmt.Errorf("peer credentials: %w", err)
	}
	if uid != os.Getuid() {
		return fmt.Errorf("connection from uid %d: %w", uid, ErrPeerRejected)
	}
	return nil
}

// PeerUID returns the user id of the process at the other end of a Unix
// socket connection.
func PeerUID(c net.Conn) (int, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return -1, errors.New("not a unix socket")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return -1, err
	}
	uid, cerr := -1, error(nil)
	if err := raw.Control(func(fd uintptr) { uid, cerr = peerUID(int(fd)) }); err != nil {
		return -1, err
	}
	return uid, cerr
}
