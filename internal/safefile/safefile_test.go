package safefile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

func TestWriteNew(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out")
	if err := WriteNew(p, false, write("one")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("new file: %v, %v; want mode 0600", fi, err)
	}
	if err := WriteNew(p, false, write("two")); !errors.Is(err, ErrExists) {
		t.Errorf("over an existing file without replace = %v, want ErrExists", err)
	}
	if err := WriteNew(p, true, write("two")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "two" {
		t.Errorf("after replace: %q", b)
	}
	boom := errors.New("boom")
	if err := WriteNew(filepath.Join(dir, "half"), false, func(w io.Writer) error { io.WriteString(w, "x"); return boom }); !errors.Is(err, boom) {
		t.Errorf("failing writer = %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) != 1 {
		t.Errorf("a failed write left files behind: %v", left)
	}
}

// TestSymlinksRefused: a link planted at the path is neither written
// through (even with replace) nor read.
func TestSymlinksRefused(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	os.WriteFile(target, []byte("secret"), 0o644)
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Skip(err)
	}
	for _, replace := range []bool{false, true} {
		if err := WriteNew(link, replace, write("values")); err == nil || !strings.Contains(err.Error(), "symbolic link") {
			t.Errorf("WriteNew through a link (replace %v) = %v", replace, err)
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "secret" {
		t.Errorf("the link's target was written: %q", b)
	}
	if _, err := Read(link, 100); err == nil {
		t.Error("Read followed a symlink")
	}
}

func TestRead(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "state.json")
	if err := Replace(filepath.Join(dir, "sub", "state.json"), []byte("{}")); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(p, []byte("0123456789"), 0o600)
	if b, err := Read(p, 10); err != nil || string(b) != "0123456789" {
		t.Errorf("Read = %q, %v", b, err)
	}
	if _, err := Read(p, 9); err == nil {
		t.Error("Read over the limit succeeded")
	}
	if _, err := Read(dir, 10); err == nil {
		t.Error("Read of a directory succeeded")
	}
}
