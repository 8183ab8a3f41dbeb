package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
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
