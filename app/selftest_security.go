//go:build selftest

package app

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"os"
	"time"

	"github.com/tessera-app/tessera/app/trust"
)

// The self-test's "Paired browsers" and "Trusted browsers" steps: Go pairs
// a stand-in extension install (a real P-256 key) and has the app refuse a
// browser executable (this very program, which the built-in rule does not
// know), and the page unpairs, trusts and removes through the cards' own
// buttons; Go reads back what the app holds.

// SeedSecurity pairs a stand-in install and lists this program as a
// browser refused lately; it returns that program's path.
func (s *SelfTest) SeedSecurity() (string, error) { return s.st.seedSecurity() }

// SecurityState reports how many installs are paired and browsers trusted.
func (s *SelfTest) SecurityState() (map[string]int, error) {
	return map[string]int{"paired": len(s.st.app.pairs.All()), "trusted": len(s.st.app.trusted.View().Trusted)}, nil
}

func (st *selfTest) seedSecurity() (string, error) {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return "", err
	}
	raw, err := k.PublicKey.Bytes()
	if err != nil {
		return "", err
	}
	now := time.Now()
	if err := st.app.pairs.Add(trust.PairedBrowser{ID: trust.KeyID(raw), Key: raw, Origin: selfTestClientOrigin, Browser: "chromium", Exe: "/usr/lib/chromium/chromium", Name: selfTestClientName, Paired: now.Add(-time.Hour)}); err != nil {
		return "", err
	}
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	st.app.trusted.Refuse(exe, "it was started by "+exe+", which is not a known browser", false, now)
	return exe, nil
}
