//go:build windows

package nativemsg

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/Microsoft/go-winio"
	"golang.org/x/sys/windows"
)

// On Windows the "directory" is a pipe-name prefix: \\.\pipe\tessera-<SID>.
func channelDir(getenv func(string) string) (string, error) {
	sid, err := currentUserSID()
	if err != nil {
		return "", err
	}
	return `\\.\pipe\tessera-` + sid, nil
}

func pipeName(dir string) string { return dir + `-app` }

func currentUserSID() (string, error) {
	tu, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return "", fmt.Errorf("current user: %w", err)
	}
	return tu.User.Sid.String(), nil
}

func listen(dir string) (net.Listener, error) {
	sid, err := currentUserSID()
	if err != nil {
		return nil, err
	}
	probe, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	if c, err := dial(probe, dir); err == nil {
		cancel()
		c.Close()
		return nil, ErrAlreadyRunning
	}
	cancel()
	// Protected DACL granting full access to the current user only.
	cfg := &winio.PipeConfig{SecurityDescriptor: "D:P(A;;GA;;;" + sid + ")"}
	l, err := winio.ListenPipe(pipeName(dir), cfg)
	if err != nil {
		return nil, fmt.Errorf("listen %s: %w", pipeName(dir), err)
	}
	return l, nil
}

func dial(ctx context.Context, dir string) (net.Conn, error) {
	c, err := winio.DialPipeContext(ctx, pipeName(dir))
	if err != nil {
		return nil, err
	}
	if err := verifyServerOwner(c); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// SameUser accepts every connection: the pipe's DACL already admits only the
// current user.
func SameUser(c net.Conn) error { return nil }

// verifyServerOwner checks that the process serving the pipe runs as the
// current user, so a pipe squatted by another user is never trusted.
func verifyServerOwner(c net.Conn) error {
	f, ok := c.(interface{ Fd() uintptr })
	if !ok {
		return fmt.Errorf("pipe handle unavailable: %w", ErrPeerRejected)
	}
	var pid uint32
	if err := windows.GetNamedPipeServerProcessId(windows.Handle(f.Fd()), &pid); err != nil {
		return fmt.Errorf("pipe server pid: %w", err)
	}
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return fmt.Errorf("open pipe server: %w", err)
	}
	defer windows.CloseHandle(h)
	var tok windows.Token
	if err := windows.OpenProcessToken(h, windows.TOKEN_QUERY, &tok); err != nil {
		return fmt.Errorf("pipe server token: %w", err)
	}
	defer tok.Close()
	owner, err := tok.GetTokenUser()
	if err != nil {
		return fmt.Errorf("pipe server user: %w", err)
	}
	me, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return fmt.Errorf("current user: %w", err)
	}
	if !windows.EqualSid(owner.User.Sid, me.User.Sid) {
		return fmt.Errorf("pipe served by another user: %w", ErrPeerRejected)
	}
	return nil
}
