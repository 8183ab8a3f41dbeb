//go:build unix

package hostrun

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// The browser's pipe, blocking as browsers hand it over, becomes a file
// the poller waits on (only such files take deadlines), and still reads.
func TestPollableStdin(t *testing.T) {
	var p [2]int
	if err := syscall.Pipe(p[:]); err != nil {
		t.Fatal(err)
	}
	r, w := os.NewFile(uintptr(p[0]), "stdin"), os.NewFile(uintptr(p[1]), "w")
	defer w.Close()
	if err := r.SetReadDeadline(time.Now()); err == nil {
		t.Fatal("a blocking pipe took a deadline: the test cannot tell")
	}
	pr := pollable(r)
	defer pr.Close()
	if err := pr.SetReadDeadline(time.Now().Add(time.Minute)); err != nil {
		t.Fatalf("pollable(pipe) is not waited on by the poller: %v", err)
	}
	if _, err := w.Write([]byte("hi")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 2)
	if n, err := pr.Read(buf); err != nil || string(buf[:n]) != "hi" {
		t.Fatalf("read %q, %v", buf[:n], err)
	}
	// A regular file is left as it is.
	f, err := os.CreateTemp(t.TempDir(), "f")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if pollable(f) != f {
		t.Error("pollable replaced a regular file")
	}
}
