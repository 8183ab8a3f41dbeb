package syncthingtest

import (
	"errors"
	"net"
	"os"
	"os/exec"
	"strconv"
	"testing"
)

func needSyncthing(t *testing.T) {
	if os.Getenv("TESSERA_TEST_SYNCTHING") != "1" {
		t.Skip("set TESSERA_TEST_SYNCTHING=1 to run Syncthing")
	}
	if _, err := exec.LookPath("syncthing"); err != nil {
		t.Skip("syncthing is not installed")
	}
}

// TestStartTakenPort gives the first instance a GUI port another program
// already listens on, as happens when a port is taken between freePort's
// check and Syncthing binding it: start reports errPortTaken (so Start
// tries again) and leaves no instance running.
func TestStartTakenPort(t *testing.T) {
	needSyncthing(t)
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	calls := 0
	port := func(t testing.TB) int {
		calls++
		if calls == 2 { // the first instance's GUI port
			return taken.Addr().(*net.TCPAddr).Port
		}
		return freePort(t)
	}
	sts, err := start(t, 2, port)
	if !errors.Is(err, errPortTaken) {
		t.Fatalf("start with a taken GUI port: %v, want errPortTaken", err)
	}
	for _, s := range sts {
		if s.cmd != nil {
			t.Errorf("instance %s still running after a failed start", s.id)
		}
	}
	// And Start, on ports it chooses, brings up instances that answer.
	for _, s := range Start(t, 2) {
		if err := s.rest("GET", "/rest/system/ping"); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFreePort: ports are below the ephemeral range, free, and never
// given twice.
func TestFreePort(t *testing.T) {
	seen := map[int]bool{}
	low := ephemeralLow()
	for range 50 {
		p := freePort(t)
		if seen[p] {
			t.Fatalf("port %d given twice", p)
		}
		seen[p] = true
		if p >= low {
			t.Fatalf("port %d is in the ephemeral range", p)
		}
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
		if err != nil {
			t.Fatalf("port %d is not free: %v", p, err)
		}
		l.Close()
	}
}
