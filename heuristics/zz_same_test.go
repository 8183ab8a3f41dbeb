package heuristics

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/tessera-app/tessera/form"
	"github.com/tessera-app/tessera/heuristics/internal/corpus"
)

// ZZSAME=out.txt go test -run ZZSame : hash of every page's snapshot and results.
func TestZZSame(t *testing.T) {
	out := os.Getenv("ZZSAME")
	if out == "" {
		t.Skip()
	}
	pages, err := corpus.Find("../../shared/corpus")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, p := range pages {
		data, _ := os.ReadFile(p.Path)
		s, err := form.Extract(bytes.NewReader(data), form.ExtractOptions{})
		if err != nil {
			fmt.Fprintln(&b, p.Rel, err)
			continue
		}
		js, _ := json.Marshal(s)
		rs, _ := json.Marshal(Classify(s))
		fmt.Fprintf(&b, "%s %x %x\n", p.Rel, sha256.Sum256(js), sha256.Sum256(rs))
	}
	os.WriteFile(out, b.Bytes(), 0o644)
}
