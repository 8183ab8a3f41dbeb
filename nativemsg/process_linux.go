package nativemsg

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// peerProcess names the process at the other end of a Unix socket. With
// SO_PEERPIDFD (Linux 6.5+) the kernel hands over a pidfd of the peer as it
// was at connect time; the facts read from /proc/<pid> are accepted only if
// that pidfd still names a live process afterwards, so a peer that exited
// and whose pid was reused cannot lend another process's identity. Older
// kernels fall back to SO_PEERCRED plus pidfd_open with the same check.
func peerProcess(c net.Conn) (Process, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return Process{}, fmt.Errorf("%w: not a Unix socket", ErrNotVerified)
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return Process{}, err
	}
	var pid, pidfd int
	var serr error
	err = raw.Control(func(fd uintptr) {
		cred, err := unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
		if err != nil {
			serr = err
			return
		}
		pid = int(cred.Pid)
		if pfd, err := unix.GetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_PEERPIDFD); err == nil {
			pidfd = pfd
			return
		}
		pidfd, serr = unix.PidfdOpen(pid, 0)
	})
	if err == nil {
		err = serr
	}
	if err != nil {
		return Process{}, fmt.Errorf("%w: peer credentials: %v", ErrNotVerified, err)
	}
	defer unix.Close(pidfd)
	if p, ok := pidOfPidfd(pidfd); ok {
		pid = p
	}
	p, err := processInfo(pid)
	if err != nil {
		return Process{}, err
	}
	// Still alive: the pid named the peer while /proc was read.
	if err := unix.PidfdSendSignal(pidfd, 0, nil, 0); err != nil {
		return Process{}, fmt.Errorf("%w: the peer process ended", ErrNotVerified)
	}
	return p, nil
}

// pidOfPidfd reads the pid a pidfd refers to from /proc/self/fdinfo.
func pidOfPidfd(fd int) (int, bool) {
	b, err := os.ReadFile("/proc/self/fdinfo/" + strconv.Itoa(fd))
	if err != nil {
		return 0, false
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "Pid:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			return n, err == nil && n > 0
		}
	}
	return 0, false
}

// processInfo reads a process's executable and parent from /proc.
func processInfo(pid int) (Process, error) {
	dir := "/proc/" + strconv.Itoa(pid)
	exe, err := os.Readlink(dir + "/exe")
	if err != nil {
		return Process{}, fmt.Errorf("%w: process %d: %v", ErrNotVerified, pid, err)
	}
	stat, err := os.ReadFile(dir + "/stat")
	if err != nil {
		return Process{}, fmt.Errorf("%w: process %d: %v", ErrNotVerified, pid, err)
	}
	// The command name is in parentheses and may hold anything; the fields
	// after the last ')' are state, ppid, ...
	i := bytes.LastIndexByte(stat, ')')
	fields := strings.Fields(string(stat[i+1:]))
	if i < 0 || len(fields) < 2 {
		return Process{}, fmt.Errorf("%w: process %d: unreadable stat", ErrNotVerified, pid)
	}
	ppid, _ := strconv.Atoi(fields[1])
	return Process{PID: pid, PPID: ppid, Exe: exe, SameExe: sameFile(dir+"/exe", "/proc/self/exe")}, nil
}

// sameFile reports whether two paths name the same file (device and inode).
func sameFile(a, b string) bool {
	var sa, sb unix.Stat_t
	if unix.Stat(a, &sa) != nil || unix.Stat(b, &sb) != nil {
		return false
	}
	return sa.Dev == sb.Dev && sa.Ino == sb.Ino
}

func selfExe() string {
	exe, _ := os.Readlink("/proc/self/exe")
	return exe
}

// trustedBrowser returns the browser family of exe when it is a known
// browser executable that only root can change: owned by root, not
// writable by group or others, in a directory with the same property.
func trustedBrowser(exe string) (string, error) {
	fam := BrowserFamily(exe)
	if fam == "" {
		return "", errors.New("which is not a known browser")
	}
	if strings.HasSuffix(exe, " (deleted)") {
		return "", errors.New("whose executable was replaced since it started (restart the browser)")
	}
	for _, p := range []string{exe, dirOf(exe)} {
		var st unix.Stat_t
		if err := unix.Stat(p, &st); err != nil {
			return "", fmt.Errorf("which cannot be checked: %v", err)
		}
		if st.Uid != 0 || st.Mode&(syscall.S_IWGRP|syscall.S_IWOTH) != 0 {
			return "", fmt.Errorf("but %s is not owned by root and protected from other users", p)
		}
	}
	return fam, nil
}

func dirOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i > 0 {
		return p[:i]
	}
	return "/"
}
