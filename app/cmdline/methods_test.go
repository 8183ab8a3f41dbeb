package cmdline

import (
	"strings"
	"testing"

	"github.com/tessera-app/tessera/vault"
)

func TestScriptHint(t *testing.T) {
	for state, want := range map[string]string{
		vault.StateUninitialized: "tessera vault init --passphrase-file FILE",
		vault.StateLocked:        "tessera vault unlock --passphrase-file FILE",
		vault.StateUnlocked:      "",
	} {
		got := ScriptHint(state)
		if (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("ScriptHint(%q) = %q, want it to say %q", state, got, want)
		}
	}
}
