//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package vault

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The test binary re-executes itself as a child process (another process
// holding the vault, a process killed mid-write) when this variable names a
// mode; the arguments follow in TESSERA_VAULT_CHILD_ARGS.
const childEnv = "TESSERA_VAULT_CHILD"

func TestMain(m *testing.M) {
	if mode := os.Getenv(childEnv); mode != "" {
		os.Exit(childMain(mode, strings.Split(os.Getenv(childEnv+"_ARGS"), "\x1f")))
	}
	os.Exit(m.Run())
}

func childMain(mode string, args []string) int {
	switch mode {
	case "busy":
		v, err := Open(args[0], testOptions(nil))
		if err == nil {
			v.Close()
		}
		fmt.Printf("busy: %v (%v)\n", errors.Is(err, ErrBusy), err)
	case "readonly":
		fmt.Println(readOnlyProbe(args[0]))
	case "writer":
		if err := crashWriter(args[0], args[1]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	default:
		fmt.Fprintf(os.Stderr, "unknown child mode %q\n", mode)
		return 2
	}
	return 0
}

func childCmd(t *testing.T, exe, mode string, args ...string) *exec.Cmd {
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), childEnv+"="+mode, childEnv+"_ARGS="+strings.Join(args, "\x1f"))
	return cmd
}

func runChild(t *testing.T, mode string, args ...string) (string, error) {
	t.Helper()
	out, err := childCmd(t, os.Args[0], mode, args...).CombinedOutput()
	return string(out), err
}

// runChildAs runs a child as another user. The test binary is copied to a
// world-readable place first because go test keeps it in a private
// directory.
func runChildAs(t *testing.T, uid uint32, mode string, args ...string) (string, error) {
	t.Helper()
	bin := filepath.Join(os.TempDir(), fmt.Sprintf("vault-test-child-%d", os.Getpid()))
	src, err := os.ReadFile(os.Args[0])
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(bin, src, 0o755); err != nil {
		return "", err
	}
	defer os.Remove(bin)
	cmd := childCmd(t, bin, mode, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: uid}}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// readOnlyProbe tries to open and write the vault in dir and describes the
// error it got.
func readOnlyProbe(dir string) string {
	v, err := Open(dir, testOptions(nil))
	if err == nil {
		defer v.Close()
		if err = v.UnlockPassphrase([]byte("correct horse")); err == nil {
			err = v.SetEntry("me", FieldKey("x"), manual("y"))
		}
	}
	return fmt.Sprintf("permission: %v (%v)", errors.Is(err, fs.ErrPermission), err)
}

func TestSecondOpenIsBusy(t *testing.T) {
	dir := t.TempDir()
	v := newTestVault(t, dir, nil)
	if _, err := v.CreateProfile("me", "Me"); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir, testOptions(nil)); !errors.Is(err, ErrBusy) {
		t.Fatalf("second Open = %v, want ErrBusy", err)
	}
	// Another process, too: the child reports what Open returned.
	out, err := runChild(t, "busy", dir)
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if !strings.Contains(out, "busy: true") {
		t.Fatalf("child Open on a held vault said %q, want ErrBusy", out)
	}
	if _, err := v.Profile("me"); err != nil {
		t.Fatalf("holder lost data after a refused open: %v", err)
	}
	v.Close()
	v2, err := Open(dir, testOptions(nil))
	if err != nil {
		t.Fatalf("Open after Close = %v", err)
	}
	v2.Close()
}

// TestReadOnlyDir opens a vault in a directory the process may not write.
// Root ignores permissions, so as root the check runs in a child process
// with the nobody user.
func TestReadOnlyDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ro")
	v := newTestVault(t, dir, nil)
	if _, err := v.CreateProfile("me", "Me"); err != nil {
		t.Fatal(err)
	}
	v.Close()
	chmodTree(t, dir, 0o555, 0o444)
	defer chmodTree(t, dir, 0o700, 0o600)
	var msg string
	if os.Geteuid() == 0 {
		out, err := runChildAs(t, 65534, "readonly", dir)
		if err != nil {
			t.Skipf("cannot run a child as nobody: %v\n%s", err, out)
		}
		msg = out
	} else {
		msg = readOnlyProbe(dir)
	}
	t.Logf("open as a user who cannot write: %s", msg)
	if !strings.Contains(msg, "permission: true") {
		t.Fatalf("open read-only vault said %q, want a permission error", msg)
	}
	chmodTree(t, dir, 0o700, 0o600)
	v, err := Open(dir, testOptions(nil))
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if err := v.UnlockPassphrase([]byte("correct horse")); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Profile("me"); err != nil {
		t.Fatalf("data lost after read-only open attempt: %v", err)
	}
}

func chmodTree(t *testing.T, dir string, dirMode, fileMode os.FileMode) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.Chmod(p, dirMode)
		}
		return os.Chmod(p, fileMode)
	})
	// The child runs as another user: it must reach dir through the test's
	// private temporary directories.
	os.Chmod(filepath.Dir(dir), 0o755)
	os.Chmod(filepath.Dir(filepath.Dir(dir)), 0o755)
}
