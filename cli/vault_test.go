package cli

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/tessera-app/tessera/app"
	"github.com/tessera-app/tessera/nativemsg"
	"github.com/tessera-app/tessera/vault"
)

// TestMain lets testscript run this test binary as the tessera command, so
// the scripts in testdata/script drive the CLI the way a person does.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"tessera": tesseraMain})
}

// tesseraMain mirrors package main, with the app always without a window
// (no frontend is embedded). The scrypt floor comes from
// TESSERA_TEST_MIN_WORK_FACTOR, which only this test binary reads: main
// never lowers it.
func tesseraMain() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	exe, _ := os.Executable()
	minWF, _ := strconv.Atoi(os.Getenv("TESSERA_TEST_MIN_WORK_FACTOR"))
	env := &Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Executable: exe,
		MinWorkFactor: minWF,
		Desktop: func(ctx context.Context, o DesktopOptions) error {
			return app.RunDesktop(ctx, fstest.MapFS{}, app.DesktopOptions{Hidden: o.Hidden, Headless: o.Headless, Version: Version})
		},
	}
	if err := Run(ctx, os.Args[1:], env); err != nil {
		fmt.Fprintln(os.Stderr, "tessera:", err)
		if errors.Is(err, ErrUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// TestScripts runs the scripts in testdata/script with an isolated
// TESSERA_HOME, a private app channel (TESSERA_RUNTIME_DIR, so no script
// reaches a Tessera app the developer runs) and no OS keyring, so only
// passphrases unlock; the scrypt floor is lowered to 10 for speed
// (TESSERA_TEST_MIN_WORK_FACTOR, read by tesseraMain only). An app started
// by a script (`exec tessera --headless &app&`) finds no session bus
// either. The condition [keyring] holds when TESSERA_TEST_REAL_KEYRING=1
// and a session bus is set (scripts/test-keyring.sh); scripts that use it
// clear TESSERA_KEYRING. The command waitapp waits until an app answers on
// the channel.
func TestScripts(t *testing.T) {
	bus := os.Getenv("DBUS_SESSION_BUS_ADDRESS")
	realKeyring := os.Getenv("TESSERA_TEST_REAL_KEYRING") == "1" && bus != ""
	files, err := filepath.Glob(filepath.Join("testdata", "script", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts in testdata/script: %v", err)
	}
	testscript.Run(t, testscript.Params{
		Files: files,
		Setup: func(e *testscript.Env) error {
			e.Setenv("TESSERA_HOME", filepath.Join(e.WorkDir, "home"))
			e.Setenv("TESSERA_KEYRING", "none")
			e.Setenv("TESSERA_TEST_MIN_WORK_FACTOR", "10")
			// Socket paths are short (108 bytes); the work directory may
			// not be.
			run, err := os.MkdirTemp("", "tsr")
			if err != nil {
				return err
			}
			e.Defer(func() { os.RemoveAll(run) })
			e.Setenv("TESSERA_RUNTIME_DIR", filepath.Join(run, "run"))
			if !realKeyring {
				bus = "unix:path=" + filepath.Join(e.WorkDir, "no-session-bus")
			}
			e.Setenv("DBUS_SESSION_BUS_ADDRESS", bus)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"waitapp": waitApp,
			"perm":    checkPerm,
		},
		Condition: func(cond string) (bool, error) {
			if cond == "keyring" {
				return realKeyring, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
	})
}

// waitApp is the script command waitapp: it waits (up to a minute) until
// an app answers on $TESSERA_RUNTIME_DIR.
func waitApp(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) > 0 {
		ts.Fatalf("usage: waitapp")
	}
	dir := ts.Getenv("TESSERA_RUNTIME_DIR")
	for i := 0; i < 600; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		c, err := nativemsg.Dial(ctx, dir)
		cancel()
		if err == nil {
			c.Close()
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	ts.Fatalf("no app answers on %s", dir)
}

// checkPerm is the script command `perm MODE FILE`: FILE's permission bits
// must be MODE (octal).
func checkPerm(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: perm MODE FILE")
	}
	want, err := strconv.ParseUint(args[0], 8, 32)
	if err != nil {
		ts.Fatalf("perm %s: %v", args[0], err)
	}
	fi, err := os.Lstat(ts.MkAbs(args[1]))
	ts.Check(err)
	if got := fi.Mode().Perm(); (got == os.FileMode(want)) == neg {
		ts.Fatalf("%s has mode %#o; want %s%#o", args[1], got, map[bool]string{true: "not ", false: ""}[neg], want)
	}
}

// TestVaultBusy runs profile and vault commands while another holder (the
// app, in real use) has the vault open: each must fail with ErrBusy and a
// hint, and the holder must keep its data.
func TestVaultBusy(t *testing.T) {
	home := t.TempDir()
	pass := filepath.Join(t.TempDir(), "pass.txt")
	if err := os.WriteFile(pass, []byte("busy pw\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	v, err := vault.Create(home, vault.Options{ScryptWorkFactor: 10}, vault.InitOptions{Passphrase: []byte("busy pw")})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if _, err := v.CreateProfile("home", "Home"); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"vault", "status"},
		{"vault", "unlock", "--passphrase-file", pass},
		{"profile", "list", "--passphrase-file", pass},
		{"profile", "set", "--passphrase-file", pass, "--value-file", pass, "home", "email"},
	} {
		var out, errOut bytes.Buffer
		env := testEnv(&out, &errOut, map[string]string{"TESSERA_HOME": home, "TESSERA_KEYRING": "none", "TESSERA_RUNTIME_DIR": t.TempDir()})
		err := Run(context.Background(), args, env)
		if !errors.Is(err, vault.ErrBusy) || !strings.Contains(err.Error(), "is the Tessera app running") {
			t.Errorf("Run(%q) on a held vault = %v, want ErrBusy with a hint", args, err)
		}
	}
	p, err := v.Profile("home")
	if err != nil || len(p.Concepts) != 0 {
		t.Fatalf("holder's profile after refused commands = %+v, %v; want it unchanged", p, err)
	}
}

// TestUnlockTamperedFile edits the vault file as sqlite3 could: every
// command that unlocks it refuses with ErrTampered and says what to do,
// never "give --passphrase-file" (the passphrase would not help).
func TestUnlockTamperedFile(t *testing.T) {
	home := t.TempDir()
	pass := filepath.Join(t.TempDir(), "pass.txt")
	if err := os.WriteFile(pass, []byte("tamper pw\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	v, err := vault.Create(home, vault.Options{ScryptWorkFactor: 10}, vault.InitOptions{Passphrase: []byte("tamper pw")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.CreateProfile("home", "Home"); err != nil {
		t.Fatal(err)
	}
	v.Close()
	db, err := sql.Open("sqlite", filepath.Join(home, "vault.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("DELETE FROM profiles"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, args := range [][]string{
		{"vault", "unlock", "--passphrase-file", pass},
		{"profile", "list", "--passphrase-file", pass},
		{"vault", "rekey", "--passphrase-file", pass},
	} {
		var out, errOut bytes.Buffer
		env := testEnv(&out, &errOut, map[string]string{"TESSERA_HOME": home, "TESSERA_KEYRING": "none", "TESSERA_RUNTIME_DIR": t.TempDir()})
		err := Run(context.Background(), args, env)
		if !errors.Is(err, vault.ErrTampered) || !strings.Contains(err.Error(), "Restore vault.db from a backup you trust") ||
			strings.Contains(err.Error(), "--passphrase-file") {
			t.Errorf("Run(%q) on an edited vault file = %v, want ErrTampered with what to do", args, err)
		}
	}
}
