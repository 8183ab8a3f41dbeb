//go:build e2e && linux

// Command pkgcheck is the browser half of scripts/test-package.sh: run
// inside the clean Debian root where the .deb is installed, it starts that
// root's Chromium with the extension's test build and a fresh profile (so
// no per-user host manifest exists), waits for the service worker to reach
// the installed app through the system-wide manifest
// (/etc/chromium/native-messaging-hosts → /usr/lib/tessera/tessera-host),
// and prints the connection status as JSON. It fails unless the state,
// the app's version and the vault state are the ones asked for.
//
//	pkgcheck -extension DIR [-state unpaired] [-version V] [-vault unlocked]
//
// TESSERA_HOME and TESSERA_RUNTIME_DIR pass through the browser to the host.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/tessera-app/tessera/e2e"
)

type status struct {
	State string `json:"state"`
	App   *struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"app"`
	Vault   string `json:"vault"`
	Session string `json:"session"`
	Detail  string `json:"detail"`
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "pkgcheck:", err)
		os.Exit(1)
	}
}

func run() error {
	ext := flag.String("extension", "", "the extension's unpacked test build")
	state := flag.String("state", "unpaired", "the connection state to wait for")
	version := flag.String("version", "", "the app version hello must report (empty: any)")
	vaultState := flag.String("vault", "", "the vault state hello must report (empty: any)")
	flag.Parse()
	udd, err := os.MkdirTemp("", "pkgcheck-udd-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(udd)
	var log strings.Builder
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	env := []string{"TESSERA_HOME=" + os.Getenv("TESSERA_HOME"), "TESSERA_RUNTIME_DIR=" + os.Getenv("TESSERA_RUNTIME_DIR")}
	b, err := e2e.StartBrowser(ctx, e2e.BrowserConfig{Extension: *ext, UserDataDir: udd, Env: env, Log: &log})
	if err != nil {
		return err
	}
	defer b.Close()
	sw, err := b.ServiceWorker(30 * time.Second)
	if err != nil {
		return fmt.Errorf("%w\nbrowser output:\n%s", err, log.String())
	}
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if ok, err := e2e.Eval[bool](sw, `globalThis.tesseraTest !== undefined`); err == nil && ok {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the service worker never installed its test hooks")
		}
	}
	s, err := e2e.Eval[status](sw, fmt.Sprintf(`tesseraTest.waitFor(%q, 30000).catch(() => tesseraTest.status())`, *state))
	if err != nil {
		return fmt.Errorf("status: %w\nbrowser output:\n%s", err, log.String())
	}
	out, _ := json.Marshal(s)
	fmt.Println(string(out))
	switch {
	case s.State != *state:
		return fmt.Errorf("state %q (%s), want %q\nbrowser output:\n%s", s.State, s.Detail, *state, log.String())
	case s.App == nil || s.App.Name != "tessera" || s.Session == "":
		return fmt.Errorf("hello reached no tessera app: %s", out)
	case *version != "" && s.App.Version != *version:
		return fmt.Errorf("app version %q, want %q (the installed package's)", s.App.Version, *version)
	case *vaultState != "" && s.Vault != *vaultState:
		return fmt.Errorf("vault %q, want %q", s.Vault, *vaultState)
	}
	return nil
}
