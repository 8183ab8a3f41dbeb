package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tessera-app/tessera/nativemsg"
)

// The hardening is tested on the real binary as a person runs it: the app
// (--headless) and the host (started with the extension's origin), each as
// an unprivileged user, read from outside through /proc. Before issue 18
// both could dump core, and any process of the same user could read their
// /proc/<pid>/environ and mem.
func TestHardenedProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the tessera binary")
	}
	u := newUnprivileged(t)
	// The pair as installed: tessera and the small tessera-host beside it.
	bin, hostBin := filepath.Join(u.dir, "tessera"), filepath.Join(u.dir, "tessera-host")
	for out, pkg := range map[string]string{bin: "github.com/tessera-app/tessera", hostBin: "github.com/tessera-app/tessera/cmd/tessera-host"} {
		build := exec.Command("go", "build", "-o", out, pkg)
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if b, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, b)
		}
	}
	env := []string{
		"TESSERA_HOME=" + u.mkdir(t, "home"), "TESSERA_RUNTIME_DIR=" + filepath.Join(u.mkdir(t, "run"), "ch"),
		"TESSERA_KEYRING=none", "DBUS_SESSION_BUS_ADDRESS=unix:path=" + filepath.Join(u.dir, "no-bus"),
		"PATH=/usr/bin:/bin", "TESSERA_HARDEN_TEST=secret-in-the-environment",
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	app := u.command(ctx, bin, env, "--headless")
	var appLog bytes.Buffer
	app.Stdout, app.Stderr = &appLog, &appLog
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { app.Process.Signal(os.Interrupt); app.Wait() })

	// The command line still finds and verifies the hardened app: its
	// executable is hidden from this user now, so this also attacks
	// VerifyApp's view of a non-dumpable server (run through the host
	// below).
	deadline := time.Now().Add(30 * time.Second)
	for {
		st := u.command(ctx, bin, env, "vault", "status")
		out, _ := st.CombinedOutput()
		if bytes.Contains(out, []byte("app: running")) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("tessera vault status never reached the app: %s\napp log: %s", out, appLog.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	u.checkHardened(t, "app", app.Process.Pid)

	hello := `{"jsonrpc":"2.0","id":"1","method":"session.hello","params":{"protocol":[1],"client":{"kind":"browser","name":"chromium"}}}`
	// Both hosts: tessera's host mode, and tessera-host, which knows the
	// hidden app only by its likeness to the tessera beside it.
	for _, hb := range []string{bin, hostBin} {
		name := filepath.Base(hb)
		host := u.command(ctx, hb, env, "chrome-extension://"+nativemsg.ChromeExtensionID+"/")
		stdin, err := host.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		stdout, err := host.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var hostLog bytes.Buffer
		host.Stderr = &hostLog
		if err := host.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { stdin.Close(); host.Wait() })
		if err := nativemsg.WriteFrameLimit(stdin, []byte(hello), nativemsg.MaxIncoming); err != nil {
			t.Fatal(err)
		}
		reply, err := nativemsg.ReadFrame(bufio.NewReader(stdout), nativemsg.MaxOutgoing)
		// The host reached the hardened app and relayed its answer. It was
		// started by this test, not by a browser, so the app answers hello
		// unverified, but having read the host's executable: a host hidden
		// before the app inspected it would be "could not be verified".
		if err != nil || !bytes.Contains(reply, []byte(`"result"`)) || !bytes.Contains(reply, []byte("Tessera's host was not started by a trusted browser")) {
			t.Fatalf("hello through %s = %s, %v; want a result naming Tessera's host\nhost log: %s\napp log: %s", name, reply, err, hostLog.String(), appLog.String())
		}
		u.checkHardened(t, name, host.Process.Pid)
	}

	t.Run("impostor app", func(t *testing.T) {
		// A program of the same user that hides itself as the app does and
		// calls itself tessera still does not look like it (its code is not
		// tessera's): the host sends it nothing.
		// The system's python: the unprivileged user may not reach one
		// under the tester's home.
		python := "/usr/bin/python3"
		if _, err := os.Stat(python); err != nil {
			t.Skip("no /usr/bin/python3 to play the impostor")
		}
		ch := filepath.Join(u.mkdir(t, "run2"), "ch")
		env2 := append(slices.Clone(env), "TESSERA_RUNTIME_DIR="+ch)
		imp := u.command(ctx, python, env2, "-c", impostor, ch)
		out, err := imp.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := imp.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { imp.Process.Kill(); imp.Wait() })
		if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "ready\n" {
			t.Fatalf("impostor: %q, %v", line, err)
		}
		for _, hb := range []string{bin, hostBin} {
			h := u.command(ctx, hb, env2, "chrome-extension://"+nativemsg.ChromeExtensionID+"/")
			h.Stdin = bytes.NewReader(binary.NativeEndian.AppendUint32(nil, uint32(len(hello))))
			h.Stdin = io.MultiReader(h.Stdin, strings.NewReader(hello))
			var hlog bytes.Buffer
			h.Stderr = &hlog
			reply, _ := h.Output()
			if !bytes.Contains(reply, []byte("APP_UNAVAILABLE")) || !strings.Contains(hlog.String(), "does not look like this Tessera") {
				t.Errorf("%s with an impostor app answered %q, logged %q; want APP_UNAVAILABLE, the impostor refused", filepath.Base(hb), reply, hlog.String())
			}
		}
	})
}

// impostor serves a Tessera channel (argv[1]) from python, non-dumpable
// and named tessera, accepting connections and saying nothing.
const impostor = `
import ctypes, os, socket, sys
libc = ctypes.CDLL(None)
libc.prctl(15, b"tessera", 0, 0, 0)  # PR_SET_NAME
libc.prctl(4, 0, 0, 0, 0)            # PR_SET_DUMPABLE
os.makedirs(sys.argv[1], 0o700, exist_ok=True)
s = socket.socket(socket.AF_UNIX)
s.bind(os.path.join(sys.argv[1], "app.sock"))
os.chmod(os.path.join(sys.argv[1], "app.sock"), 0o600)
s.listen(8)
print("ready", flush=True)
conns = []
while True:
    conns.append(s.accept()[0])
`

// unprivileged runs processes as a user without privileges: the test's
// own when it has none, else nobody (root reads every process's /proc
// files, so it cannot see the difference).
type unprivileged struct {
	dir  string
	cred *syscall.Credential
}

func newUnprivileged(t *testing.T) *unprivileged {
	t.Helper()
	// Short: the channel's socket path must fit in 108 bytes.
	dir, err := os.MkdirTemp("", "tsh")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	u := &unprivileged{dir: dir}
	if os.Getuid() == 0 {
		u.cred = &syscall.Credential{Uid: 65534, Gid: 65534}
		if err := os.Chown(dir, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	return u
}

func (u *unprivileged) mkdir(t *testing.T, name string) string {
	t.Helper()
	d := filepath.Join(u.dir, name)
	if err := os.Mkdir(d, 0o700); err != nil {
		t.Fatal(err)
	}
	if u.cred != nil {
		if err := os.Chown(d, int(u.cred.Uid), int(u.cred.Gid)); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

func (u *unprivileged) command(ctx context.Context, bin string, env []string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = env
	cmd.Dir = u.dir
	if u.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: u.cred}
	}
	return cmd
}

// checkHardened attacks process pid as its own user would: it must write
// no core file, and its environment and memory must be root's alone.
func (u *unprivileged) checkHardened(t *testing.T, name string, pid int) {
	t.Helper()
	proc := fmt.Sprintf("/proc/%d", pid)
	limits, err := os.ReadFile(proc + "/limits")
	if err != nil {
		t.Fatal(err)
	}
	var core []string
	for _, line := range strings.Split(string(limits), "\n") {
		if strings.HasPrefix(line, "Max core file size") {
			core = strings.Fields(strings.TrimPrefix(line, "Max core file size"))
		}
	}
	if len(core) < 2 || core[0] != "0" || core[1] != "0" {
		t.Errorf("%s: core file size limit (soft, hard) = %q, want 0 0", name, core)
	}
	for _, f := range []string{"environ", "mem", "exe"} {
		var st syscall.Stat_t
		if err := syscall.Lstat(proc+"/"+f, &st); err != nil {
			t.Fatal(err)
		}
		if st.Uid != 0 {
			t.Errorf("%s: %s/%s is owned by uid %d, want root (the process is dumpable)", name, proc, f, st.Uid)
		}
	}
	// And reading it as the process's own user fails.
	cat := u.command(context.Background(), "/bin/cat", nil, proc+"/environ")
	if out, err := cat.Output(); err == nil || bytes.Contains(out, []byte("secret-in-the-environment")) {
		t.Errorf("%s: its own user read %s/environ (%v): %q", name, proc, err, out)
	}
}
