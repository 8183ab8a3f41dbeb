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

// processInfo reads a process's executable and parent from /proc. A
// non-dumpable process of this user hides its executable (only root may
// read its exe link): it is reported Hidden, with what still shows of it
// compared with this process (SameImage).
func processInfo(pid int) (Process, error) {
	dir := "/proc/" + strconv.Itoa(pid)
	comm, ppid, err := readStat(dir)
	if err != nil {
		return Process{}, fmt.Errorf("%w: process %d: %v", ErrNotVerified, pid, err)
	}
	exe, err := os.Readlink(dir + "/exe")
	if errors.Is(err, os.ErrPermission) && hidden(dir) {
		selfComm, _, serr := readStat("/proc/self")
		code, cerr := codeSize(dir)
		selfCode, scerr := codeSize("/proc/self")
		same := serr == nil && cerr == nil && scerr == nil && comm == selfComm && code != "" && code == selfCode
		return Process{PID: pid, PPID: ppid, Hidden: true, SameImage: same}, nil
	}
	if err != nil {
		return Process{}, fmt.Errorf("%w: process %d: %v", ErrNotVerified, pid, err)
	}
	return Process{PID: pid, PPID: ppid, Exe: exe, SameExe: sameFile(dir+"/exe", "/proc/self/exe")}, nil
}

// readStat returns the command name and parent pid of the process whose
// /proc directory is dir.
func readStat(dir string) (comm string, ppid int, err error) {
	stat, err := os.ReadFile(dir + "/stat")
	if err != nil {
		return "", 0, err
	}
	// The command name is in parentheses and may hold anything; the fields
	// after the last ')' are state, ppid, ...
	i := bytes.LastIndexByte(stat, ')')
	j := bytes.IndexByte(stat, '(')
	if i < 0 || j < 0 || j > i {
		return "", 0, errors.New("unreadable stat")
	}
	fields := strings.Fields(string(stat[i+1:]))
	if len(fields) < 2 {
		return "", 0, errors.New("unreadable stat")
	}
	ppid, _ = strconv.Atoi(fields[1])
	return string(stat[j+1 : i]), ppid, nil
}

// hidden reports whether the process whose /proc directory is dir is
// non-dumpable: the kernel gives its private files to root although it
// runs as this (unprivileged) user.
func hidden(dir string) bool {
	var st unix.Stat_t
	return os.Getuid() != 0 && unix.Stat(dir+"/environ", &st) == nil && st.Uid == 0
}

// codeSize returns VmExe, the size of the code its executable mapped, of
// the process whose /proc directory is dir: the same for every process of
// one executable file, and readable even when the process is non-dumpable.
func codeSize(dir string) (string, error) {
	b, err := os.ReadFile(dir + "/status")
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmExe:"); ok {
			return strings.TrimSpace(v), nil
		}
	}
	return "", errors.New("no VmExe in status")
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
