package e2e

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tessera-app/tessera/nativemsg"
)

// chromeID computes Chromium's extension ID for a manifest key: the first 32
// hex digits of the SHA-256 of the DER SubjectPublicKeyInfo, mapped 0-f to a-p.
func chromeID(key string) (string, error) {
	der, err := base64.StdEncoding.DecodeString(key)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(der)
	h := hex.EncodeToString(sum[:16])
	return strings.Map(func(r rune) rune {
		if r <= '9' {
			return 'a' + (r - '0')
		}
		return 'k' + (r - 'a')
	}, h), nil
}

// TestManifestKeyGivesChromeExtensionID guards the host's allow-list: if the
// extension's key and nativemsg.ChromeExtensionID drift apart, every
// browser is refused. (The e2e tests also see Chromium load the extension
// under this ID.)
func TestManifestKeyGivesChromeExtensionID(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "extension", "static", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Key string `json:"key"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	got, err := chromeID(m.Key)
	if err != nil {
		t.Fatalf("manifest key: %v", err)
	}
	if got != nativemsg.ChromeExtensionID {
		t.Errorf("chromeID(manifest key) = %q, want nativemsg.ChromeExtensionID %q", got, nativemsg.ChromeExtensionID)
	}
}

func TestChromeID(t *testing.T) {
	tests := []struct {
		key  string
		want string
	}{
		// sha256("") = e3b0c44298fc1c149afbf4c8996fb924…
		{"", "odlameecjipmbmbejkplpemijjgpljce"},
		// sha256("abc") = ba7816bf8f01cfea414140de5dae2223…
		{base64.StdEncoding.EncodeToString([]byte("abc")), "lkhibglpipabmpokebebeanofnkocccd"},
	}
	for _, tt := range tests {
		got, err := chromeID(tt.key)
		if err != nil || got != tt.want {
			t.Errorf("chromeID(%q) = %q, %v, want %q", tt.key, got, err, tt.want)
		}
	}
}
