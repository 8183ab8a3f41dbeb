package main

import (
	"os/exec"
	"strings"
	"testing"
)

// tessera-host starts fast because it links only the host: the app's
// packages and their third-party dependencies, whose package initialisers
// cost tessera ~45 ms and ~20 MB on every start (issue 12), stay out.
func TestDependenciesStaySmall(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	forbidden := []string{
		"github.com/tessera-app/tessera/app", "github.com/tessera-app/tessera/cli",
		"github.com/tessera-app/tessera/vault", "github.com/tessera-app/tessera/passphrase",
		"github.com/tessera-app/tessera/matcher", "github.com/tessera-app/tessera/heuristics",
		"github.com/tessera-app/tessera/form", "github.com/tessera-app/tessera/profile",
		"github.com/trustelem/zxcvbn", "github.com/nyaruka/phonenumbers", "github.com/wailsapp/wails",
	}
	var deps []string
	for _, pkg := range strings.Fields(string(out)) {
		for _, f := range forbidden {
			if pkg == f || strings.HasPrefix(pkg, f+"/") {
				t.Errorf("tessera-host depends on %s", pkg)
			}
		}
		if strings.HasPrefix(pkg, "github.com/tessera-app/tessera") {
			deps = append(deps, pkg)
		}
	}
	if len(deps) == 0 {
		t.Fatalf("go list -deps printed no Tessera package: %q", out)
	}
}
