package app

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/tessera-app/tessera/app/broker"
	"github.com/tessera-app/tessera/app/trust"
	"github.com/tessera-app/tessera/nativemsg"
)

// FuzzPairParams: whatever a browser sends as pair.prove's params, the
// proof check answers an error or a key, never panics, and never accepts
// without a valid signature.
func FuzzPairParams(f *testing.F) {
	f.Add([]byte(`{"key":"","signature":""}`))
	f.Add([]byte(`{"key":"BAAA","signature":"AAAA"}`))
	f.Add([]byte(`{"key":"!!","signature":"!!","x":1}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"key":"` + string(bytes.Repeat([]byte("A"), 88)) + `","signature":"` + string(bytes.Repeat([]byte("A"), 88)) + `"}`))
	s := broker.NewDetached(Client{ID: "s1", Kind: KindBrowser, Verified: true}, "", bytes.Repeat([]byte{5}, trust.ChallengeSize))
	f.Fuzz(func(t *testing.T, params []byte) {
		raw, e := checkProof(s, PairProveMethod, json.RawMessage(params))
		if e == nil && raw == nil {
			t.Fatalf("checkProof(%q) accepted without a key", params)
		}
		if e == nil {
			t.Fatalf("checkProof(%q) accepted a proof the fuzzer made up", params)
		}
		if e.Data.Code != nativemsg.CodeInvalidParams && e.Data.Code != nativemsg.CodeNotPaired {
			t.Fatalf("checkProof(%q) = %s, want INVALID_PARAMS or NOT_PAIRED", params, e.Data.Code)
		}
	})
}

// FuzzStateFiles: whatever the paired-browsers and trusted-browsers files
// hold, loading them gives a store or an error, never a panic, and keeps
// only well-formed entries.
func FuzzStateFiles(f *testing.F) {
	f.Add([]byte(`[]`))
	f.Add([]byte(`[{"id":"x","key":"BAAA","origin":"o"}]`))
	f.Add([]byte(`[{"path":"/usr/bin/x","sha256":"00","dev":1,"ino":2}]`))
	f.Add([]byte(`{`))
	f.Fuzz(func(t *testing.T, b []byte) {
		home := t.TempDir()
		for _, name := range []string{trust.PairedFile, trust.TrustedFile} {
			if err := os.WriteFile(filepath.Join(home, name), b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		ps, _ := trust.LoadPairs(home)
		for _, p := range ps.All() {
			if _, err := trust.ParseKey(p.Key); err != nil || p.ID != trust.KeyID(p.Key) {
				t.Fatalf("loaded a malformed paired install %+v", p)
			}
		}
		ts, _ := trust.LoadBrowsers(home)
		for _, tb := range ts.View().Trusted {
			if !filepath.IsAbs(tb.Path) || len(tb.SHA256) != 64 {
				t.Fatalf("loaded a malformed trusted browser %+v", tb)
			}
		}
	})
}
