package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/tessera-app/tessera/vault"
)

// TestMain lets testscript run this test binary as the tessera command, so
// the scripts in testdata/script drive the CLI the way a person does.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"tessera": tesseraMain})
}

// tesseraMain mirrors package main without the desktop app.
func tesseraMain() {
	exe, _ := os.Executable()
	env := &Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Executable: exe}
	if err := Run(context.Background(), os.Args[1:], env); err != nil {
		fmt.Fprintln(os.Stderr, "tessera:", err)
		if errors.Is(err, ErrUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// TestScripts runs the vault_*.txtar and profile_*.txtar scripts with an
// isolated TESSERA_HOME and no OS keyring, so only passphrases unlock. The
// condition [keyring] holds when TESSERA_TEST_REAL_KEYRING=1 and a session
// bus is set (scripts/test-keyring.sh); scripts that use it clear
// TESSERA_KEYRING.
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
			e.Setenv("DBUS_SESSION_BUS_ADDRESS", bus)
			return nil
		},
		Condition: func(cond string) (bool, error) {
			if cond == "keyring" {
				return realKeyring, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
	})
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
		{"profile", "set", "--passphrase-file", pass, "home", "email", "x@example.org"},
	} {
		var out, errOut bytes.Buffer
		env := testEnv(&out, &errOut, map[string]string{"TESSERA_HOME": home, "TESSERA_KEYRING": "none"})
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
