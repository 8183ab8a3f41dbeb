package nativemsg

import (
	"bufio"
	"bytes"
	"debug/elf"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
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
	p, _, err := inspectPeer(c, false)
	return p, err
}

// peerWithParent is peerProcess and the process that started the peer,
// read under the same kind of check (parentOf); parent is nil when it
// cannot be shown to be the peer's parent.
func peerWithParent(c net.Conn) (Process, *Process, error) {
	return inspectPeer(c, true)
}

func inspectPeer(c net.Conn, withParent bool) (Process, *Process, error) {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return Process{}, nil, fmt.Errorf("%w: not a Unix socket", ErrNotVerified)
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return Process{}, nil, err
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
		return Process{}, nil, fmt.Errorf("%w: peer credentials: %v", ErrNotVerified, err)
	}
	defer unix.Close(pidfd)
	if p, ok := pidOfPidfd(pidfd); ok {
		pid = p
	}
	p, err := processInfo(pid)
	if err != nil {
		return Process{}, nil, err
	}
	// Still alive: the pid named the peer while /proc was read.
	if !alive(pidfd) {
		return Process{}, nil, fmt.Errorf("%w: the peer process ended", ErrNotVerified)
	}
	if !withParent || p.PPID <= 0 {
		return p, nil, nil
	}
	parent, err := parentOf(pidfd, pid, p.PPID)
	if err != nil {
		return p, nil, nil
	}
	return p, &parent, nil
}

// alive reports whether the process pidfd names has not ended.
func alive(pidfd int) bool {
	return unix.PidfdSendSignal(pidfd, 0, nil, 0) == nil
}

// parentOf reads the process ppid, which /proc said is the parent of the
// live process child (whose pidfd is childFD), and returns it only if it
// is: the parent may have ended since, its child been handed to another
// process, and its pid been given to a new one (a program of the same
// user, started to look like a browser). So a pidfd of ppid is taken
// first; it names child's parent if child, still alive, still has ppid as
// its parent pid afterwards (a process that ended cannot be child's parent
// again, and a new process of that pid cannot adopt child). /proc/<ppid>
// is then read, and kept only if that pidfd is still alive after.
func parentOf(childFD, child, ppid int) (Process, error) {
	pfd, err := unix.PidfdOpen(ppid, 0)
	if err != nil {
		return Process{}, fmt.Errorf("%w: parent process %d: %v", ErrNotVerified, ppid, err)
	}
	defer unix.Close(pfd)
	_, now, err := readStat("/proc/" + strconv.Itoa(child))
	if err != nil || now != ppid || !alive(childFD) {
		return Process{}, fmt.Errorf("%w: process %d is no longer the parent of %d", ErrNotVerified, ppid, child)
	}
	p, err := processInfo(ppid)
	if err != nil {
		return Process{}, err
	}
	if !alive(pfd) {
		return Process{}, fmt.Errorf("%w: the parent process ended", ErrNotVerified)
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
// compared with this process and, in tessera-host, with the app beside it
// (SameImage).
func processInfo(pid int) (Process, error) {
	dir := "/proc/" + strconv.Itoa(pid)
	comm, ppid, start, err := readStatStart(dir)
	if err != nil {
		return Process{}, fmt.Errorf("%w: process %d: %v", ErrNotVerified, pid, err)
	}
	sib := Sibling(selfExe())
	exe, err := os.Readlink(dir + "/exe")
	if errors.Is(err, os.ErrPermission) && hidden(dir) {
		code, cerr := codeSize(dir)
		same := cerr == nil && code != "" && (looksLikeSelf(comm, code) || siblingIsApp(sib) && looksLike(sib, comm, code))
		return Process{PID: pid, PPID: ppid, Start: start, Hidden: true, SameImage: same,
			Replaced: !same && siblingIsApp(sib) && comm == commName(sib) && changedSince(sib, dir)}, nil
	}
	if err != nil {
		return Process{}, fmt.Errorf("%w: process %d: %v", ErrNotVerified, pid, err)
	}
	old, deleted := strings.CutSuffix(exe, " (deleted)")
	return Process{
		PID: pid, PPID: ppid, Start: start, Exe: exe,
		SameExe:  sameFile(dir+"/exe", "/proc/self/exe"),
		Sibling:  sib != "" && trustedSibling(sib) && sameFile(dir+"/exe", sib),
		Replaced: deleted && siblingIsApp(sib) && old == sib,
	}, nil
}

// commName is the command name the kernel keeps for a process of the
// executable at path: its file name, at most 15 bytes.
func commName(path string) string {
	name := filepath.Base(path)
	if len(name) > 15 {
		name = name[:15]
	}
	return name
}

// changedSince reports whether the file at path changed (its inode's
// change time) after the process whose /proc directory is dir started
// (the directory's own change time, which the kernel sets when it makes
// the process's entry).
func changedSince(path, dir string) bool {
	var f, p unix.Stat_t
	if unix.Stat(path, &f) != nil || unix.Stat(dir, &p) != nil {
		return false
	}
	return f.Ctim.Sec > p.Ctim.Sec || f.Ctim.Sec == p.Ctim.Sec && f.Ctim.Nsec > p.Ctim.Nsec
}

// looksLikeSelf reports whether a hidden process's command name and code
// size are this process's.
func looksLikeSelf(comm, code string) bool {
	selfComm, _, serr := readStat("/proc/self")
	selfCode, cerr := codeSize("/proc/self")
	return serr == nil && cerr == nil && comm == selfComm && code == selfCode
}

// looksLike reports whether a hidden process's command name and code size
// are those a process of the executable file exe shows: its file name as
// the kernel keeps it (at most 15 bytes) and the size of the code its
// executable segments map. exe must be a trusted sibling.
func looksLike(exe, comm, code string) bool {
	if comm != commName(exe) || !trustedSibling(exe) {
		return false
	}
	want, err := elfCodeSize(exe)
	return err == nil && code == want
}

// elfCodeSize returns the VmExe Linux reports for a process of the ELF
// executable at path, in /proc/<pid>/status's form ("1234 kB"): from the
// page of the lowest executable segment's start to the page end of the
// highest one's file contents (fs/binfmt_elf.c start_code, end_code; the
// load bias of a position-independent executable is page-aligned and
// cancels out).
func elfCodeSize(path string) (string, error) {
	f, err := elf.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	start, end := ^uint64(0), uint64(0)
	for _, p := range f.Progs {
		if p.Type == elf.PT_LOAD && p.Flags&elf.PF_X != 0 {
			start, end = min(start, p.Vaddr), max(end, p.Vaddr+p.Filesz)
		}
	}
	if end == 0 {
		return "", errors.New("no executable segment")
	}
	page := uint64(os.Getpagesize())
	size := (end+page-1)&^(page-1) - start&^(page-1)
	return strconv.FormatUint(size>>10, 10) + " kB", nil
}

// trustedSibling reports whether the sibling executable at path may stand
// for Tessera: a regular file owned by this user or root that neither
// group nor others may write (else another user could put their program
// in its place).
func trustedSibling(path string) bool {
	var st unix.Stat_t
	if unix.Stat(path, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return false
	}
	return (st.Uid == uint32(os.Getuid()) || st.Uid == 0) && st.Mode&(syscall.S_IWGRP|syscall.S_IWOTH) == 0
}

// readStat returns the command name and parent pid of the process whose
// /proc directory is dir.
func readStat(dir string) (comm string, ppid int, err error) {
	comm, ppid, _, err = readStatStart(dir)
	return comm, ppid, err
}

// readStatStart is readStat with the process's start time (clock ticks
// after boot).
func readStatStart(dir string) (comm string, ppid int, start uint64, err error) {
	stat, err := os.ReadFile(dir + "/stat")
	if err != nil {
		return "", 0, 0, err
	}
	// The command name is in parentheses and may hold anything; the fields
	// after the last ')' are state, ppid, ... and the 20th is starttime.
	i := bytes.LastIndexByte(stat, ')')
	j := bytes.IndexByte(stat, '(')
	if i < 0 || j < 0 || j > i {
		return "", 0, 0, errors.New("unreadable stat")
	}
	fields := strings.Fields(string(stat[i+1:]))
	if len(fields) < 20 {
		return "", 0, 0, errors.New("unreadable stat")
	}
	ppid, _ = strconv.Atoi(fields[1])
	start, err = strconv.ParseUint(fields[19], 10, 64)
	if err != nil {
		return "", 0, 0, errors.New("unreadable stat")
	}
	return string(stat[j+1 : i]), ppid, start, nil
}

// stillRuns reports whether p's pid still names the process p describes:
// the one that started at p.Start.
func stillRuns(p Process) bool {
	if p.PID <= 0 || p.Start == 0 {
		return false
	}
	_, _, start, err := readStatStart("/proc/" + strconv.Itoa(p.PID))
	return err == nil && start == p.Start
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
