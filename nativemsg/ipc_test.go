//go:build unix

package nativemsg

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func shortDir(t *testing.T) string {
	t.Helper()
	// Unix socket paths are limited to ~104 bytes; t.TempDir can be longer.
	d, err := os.MkdirTemp("", "tsr")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return filepath.Join(d, "run")
}

func TestListenDialSameUser(t *testing.T) {
	dir := shortDir(t)
	l, err := Listen(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o700 {
		t.Fatalf("channel dir mode = %v, want 0700", fi.Mode().Perm())
	}
	go func() {
		c, err := l.Accept()
		if err == nil {
			WriteFrame(c, []byte(`{"ok":true}`))
			c.Close()
		}
	}()
	c, err := Dial(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got, err := ReadFrame(c, 100)
	if err != nil || string(got) != `{"ok":true}` {
		t.Fatalf("ReadFrame = %q, %v", got, err)
	}
	uid, err := PeerUID(c)
	if err != nil || uid != os.Getuid() {
		t.Fatalf("PeerUID = %d, %v; want %d", uid, err, os.Getuid())
	}
}

// TestOtherUserRefused stands in for a second user with a fake peer check
// (creating a real second user needs privileges the tests don't assume): the
// listener must close such connections and keep serving the next one.
func TestOtherUserRefused(t *testing.T) {
	dir := shortDir(t)
	calls := 0
	check := func(c net.Conn) error {
		calls++
		if calls == 1 {
			return fmt.Errorf("connection from uid 4242: %w", ErrPeerRejected)
		}
		return SameUser(c)
	}
	l, err := Listen(dir, check)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := l.Accept()
		if err == nil {
			accepted <- c
		}
	}()
	intruder, err := Dial(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	intruder.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := ReadFrame(intruder, 100); err == nil {
		t.Fatal("rejected peer could read from the app")
	}
	friend, err := Dial(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	defer friend.Close()
	select {
	case c := <-accepted:
		c.Close()
	case <-time.After(5 * time.Second):
		t.Fatal("listener stopped serving after a rejected peer")
	}
}

func TestListenStaleAndRunning(t *testing.T) {
	dir := shortDir(t)
	l, err := Listen(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	if _, err := Listen(dir, nil); !errors.Is(err, ErrAlreadyRunning) {
		t.Fatalf("second Listen error = %v, want ErrAlreadyRunning", err)
	}
	l.Close()
	// A crashed app leaves its socket file behind.
	stale, err := net.Listen("unix", filepath.Join(dir, socketName))
	if err != nil {
		t.Fatal(err)
	}
	stale.(*net.UnixListener).SetUnlinkOnClose(false)
	stale.Close()
	l2, err := Listen(dir, nil)
	if err != nil {
		t.Fatalf("Listen over a stale socket: %v", err)
	}
	l2.Close()
}

func TestChannelDirRefusesOpenDir(t *testing.T) {
	dir := shortDir(t)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o777)
	l, err := Listen(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	fi, _ := os.Stat(dir)
	if fi.Mode().Perm() != 0o700 {
		t.Fatalf("Listen left the channel dir at %v, want 0700", fi.Mode().Perm())
	}
}

func TestChannelDirEnv(t *testing.T) {
	env := map[string]string{"TESSERA_RUNTIME_DIR": "/x/y", "XDG_RUNTIME_DIR": "/run/user/1"}
	got, _ := ChannelDir(func(k string) string { return env[k] })
	if got != "/x/y" {
		t.Fatalf("ChannelDir = %q, want /x/y", got)
	}
	delete(env, "TESSERA_RUNTIME_DIR")
	got, _ = ChannelDir(func(k string) string { return env[k] })
	if got != "/run/user/1/tessera" {
		t.Fatalf("ChannelDir = %q, want /run/user/1/tessera", got)
	}
}
