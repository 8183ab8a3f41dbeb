//go:build linux

package nativemsg

import (
	"os"
	"os/exec"
	"testing"

	"golang.org/x/sys/unix"
)

// TestParentOfChecksTheParent guards the read of a peer's parent against
// pid reuse (issue 23): /proc names the parent by pid, and a parent that
// ended may have left its pid to another process — a program of the same
// user that looks like a browser. Inspect read /proc/<ppid> with no pidfd
// and took whatever ran there for the parent. parentOf takes the process
// that pid names now only while it still is the live child's parent.
func TestParentOfChecksTheParent(t *testing.T) {
	start := func() *exec.Cmd {
		t.Helper()
		cmd := exec.Command("sleep", "30")
		if err := cmd.Start(); err != nil {
			t.Skipf("cannot start a process: %v", err)
		}
		t.Cleanup(func() {
			cmd.Process.Kill()
			cmd.Wait()
		})
		return cmd
	}
	child := start()
	cfd, err := unix.PidfdOpen(child.Process.Pid, 0)
	if err != nil {
		t.Skipf("no pidfd_open here: %v", err)
	}
	defer unix.Close(cfd)

	// The real parent: this test process.
	p, err := parentOf(cfd, child.Process.Pid, os.Getpid())
	if err != nil || p.PID != os.Getpid() || !p.SameExe {
		t.Fatalf("parentOf(child, its parent) = %+v, %v; want this process", p, err)
	}

	// Another live process given as the parent, as a pid reused after the
	// parent ended would be: refused.
	other := start()
	if p, err := parentOf(cfd, child.Process.Pid, other.Process.Pid); err == nil {
		t.Errorf("parentOf(child, a process that is not its parent) = %+v, want an error", p)
	}

	// A parent pid that names no process any more: refused.
	gone := start()
	gone.Process.Kill()
	gone.Wait()
	if p, err := parentOf(cfd, child.Process.Pid, gone.Process.Pid); err == nil {
		t.Errorf("parentOf(child, an ended process) = %+v, want an error", p)
	}

	// The child itself ended: its /proc entry could be another's.
	child.Process.Kill()
	child.Wait()
	if p, err := parentOf(cfd, child.Process.Pid, os.Getpid()); err == nil {
		t.Errorf("parentOf(an ended child, ...) = %+v, want an error", p)
	}
}

// TestStillRuns: a process named by pid and start time still runs until it
// ends; the same pid with another start time is another process.
func TestStillRuns(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Skipf("cannot start a process: %v", err)
	}
	p, err := processInfo(cmd.Process.Pid)
	if err != nil {
		cmd.Process.Kill()
		t.Fatal(err)
	}
	if p.Start == 0 || !StillRuns(p) {
		t.Errorf("StillRuns(%+v) = false for a running process", p)
	}
	other := p
	other.Start++
	if StillRuns(other) {
		t.Errorf("StillRuns with another start time = true")
	}
	cmd.Process.Kill()
	cmd.Wait()
	if StillRuns(p) {
		t.Errorf("StillRuns(%+v) = true after it ended", p)
	}
}
