package matcher

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
)

// maxInitBytes bounds what any of Tessera's packages may allocate while the
// process starts. The keyword rules once compiled at init: 40 MB and ~80 ms
// on every start of the browser's native host and of every CLI command
// (issue 12). Their tables are built on first use now.
const maxInitBytes = 64 << 10

// TestInitIsCheap runs this test binary again with GODEBUG=inittrace=1 and
// fails when a Tessera package linked into it (matcher, heuristics, form,
// regions, profile) allocates more than maxInitBytes in its init.
// Allocation, unlike time, is the same on every run.
func TestInitIsCheap(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var trace bytes.Buffer
	cmd.Stderr = &trace
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", exe, err, trace.Bytes())
	}
	line := regexp.MustCompile(`^init (github\.com/tessera-app/tessera/\S+) @.* (\d+) bytes`)
	seen := 0
	for sc := bufio.NewScanner(&trace); sc.Scan(); {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		seen++
		if n, _ := strconv.Atoi(m[2]); n > maxInitBytes {
			t.Errorf("init of %s allocates %d bytes, want at most %d: build its tables on first use", m[1], n, maxInitBytes)
		}
	}
	if seen == 0 {
		t.Fatalf("no init trace of a tessera package in:\n%s", trace.Bytes())
	}
}
