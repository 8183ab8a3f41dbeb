//go:build unix

package nativemsg

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// install --system registers a binary every user's browser runs: one that
// someone other than root could replace would run their code in every
// user's session, so it is refused, saying which path fails and what to do.
func TestCheckSystemBinary(t *testing.T) {
	root := t.TempDir()
	mk := func(rel string, mode os.FileMode) string {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	plain := mk("a/tessera", 0o755)
	groupW := mk("b/tessera", 0o775)
	otherW := mk("c/tessera", 0o757)
	link := filepath.Join(root, "link")
	if err := os.Symlink(plain, link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, exe string
		// why is what the error must name ("" when accepted).
		why []string
	}{
		// Every temporary directory sits in a world-writable /tmp (or is
		// the user's own): each fails on the way up.
		{"in a temporary directory", plain, []string{"--system"}},
		{"group-writable file", groupW, []string{groupW}},
		{"others-writable file", otherW, []string{otherW}},
		{"symlink to a temporary file", link, []string{"--system"}},
		{"relative path", "tessera", []string{"not an absolute path"}},
	}
	if os.Getuid() == 0 {
		// Running as root, the files are root's: only the mode bits and
		// the directories fail them.
		tests[1].why = append(tests[1].why, "writable by its group")
		tests[2].why = append(tests[2].why, "writable by others")
	} else {
		tests[1].why = append(tests[1].why, "not root")
	}
	if sh, err := filepath.EvalSymlinks("/bin/sh"); err == nil && CheckSystemBinary(sh) == nil {
		// A system binary: root's, in root's directories.
		tests = append(tests, struct {
			name, exe string
			why       []string
		}{"a system binary", sh, nil})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckSystemBinary(tt.exe)
			if tt.why == nil {
				if err != nil {
					t.Fatalf("CheckSystemBinary(%q) = %v, want nil", tt.exe, err)
				}
				return
			}
			if !errors.Is(err, ErrUnsafeBinary) {
				t.Fatalf("CheckSystemBinary(%q) = %v, want ErrUnsafeBinary", tt.exe, err)
			}
			for _, w := range tt.why {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("CheckSystemBinary(%q) = %q, want it to say %q", tt.exe, err, w)
				}
			}
		})
	}
}
