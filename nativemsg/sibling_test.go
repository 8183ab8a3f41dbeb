package nativemsg_test

import (
	"path/filepath"
	"testing"

	"github.com/tessera-app/tessera/nativemsg"
)

func TestSibling(t *testing.T) {
	for _, tc := range []struct{ exe, want string }{
		{"/opt/tessera/tessera", "/opt/tessera/tessera-host"},
		{"/opt/tessera/tessera-host", "/opt/tessera/tessera"},
		{"/opt/tessera/tessera.exe", "/opt/tessera/tessera-host.exe"},
		{"/opt/tessera/tessera-host.exe", "/opt/tessera/tessera.exe"},
		// Only the pair's own names pair: a renamed or test binary has no
		// sibling to trust or start.
		{"/opt/tessera/tessera-cli", ""},
		{"/opt/tessera/tessera-selftest", ""},
		{"/tmp/x/nativemsg.test", ""},
		{"/tmp/tessera (deleted)", ""},
	} {
		if got := nativemsg.Sibling(filepath.FromSlash(tc.exe)); got != filepath.FromSlash(tc.want) {
			t.Errorf("Sibling(%s) = %q, want %q", tc.exe, got, tc.want)
		}
	}
}
