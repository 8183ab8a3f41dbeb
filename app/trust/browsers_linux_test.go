//go:build linux

package trust

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tessera-app/tessera/nativemsg"
)

// TestTrustedBrowserPidReused guards the check of an approved browser's
// file against pid reuse (issue 23): the file is read through
// /proc/<pid>/exe after Inspect named the parent, and by then the parent
// may have ended and its pid gone to another process running the approved
// file. A parent whose pid no longer names the process Inspect saw (its
// start time differs) is refused.
func TestTrustedBrowserPidReused(t *testing.T) {
	s, err := LoadBrowsers(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.Readlink("/proc/self/exe")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	s.Refuse(self, "not a known browser", false, now)
	if err := s.Trust(self, now); err != nil {
		t.Fatal(err)
	}
	stat, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		t.Fatal(err)
	}
	fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	var start uint64
	if _, err := fmt.Sscan(fields[19], &start); err != nil {
		t.Fatal(err)
	}
	parent := nativemsg.Process{PID: os.Getpid(), Exe: self, Start: start}
	if name, err := s.Check(&parent, "why", now); err != nil {
		t.Fatalf("check(the approved browser, still running) = %q, %v", name, err)
	}
	reused := parent
	reused.Start = start + 1
	if name, err := s.Check(&reused, "why", now); err == nil {
		t.Errorf("check(a parent whose pid now names another process) = %q, want refused", name)
	}
}
