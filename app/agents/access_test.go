package agents

import (
	"encoding/json"
	"testing"
)

// FuzzAgentAccessFile feeds the agent access file's parser: it never
// panics, and what it accepts holds only web origins and tools on open
// sites, within the limits, and survives being written and read again.
func FuzzAgentAccessFile(f *testing.F) {
	f.Add([]byte(`{"version":1,"sites":["https://shop.example"],"tools":[{"site":"https://shop.example","tool":"search"}]}`))
	f.Add([]byte(`{"version":1,"sites":["http://127.0.0.1:8080"],"tools":[]}`))
	f.Add([]byte(`{"version":1,"sites":null,"tools":null}`))
	f.Add([]byte(`{"version":1,"sites":["javascript://x"],"tools":[]}`))
	f.Add([]byte(`{"version":1,"sites":["https://a.example"],"tools":[{"site":"https://b.example","tool":"t"}]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		acc, err := ParseAccess(b)
		if err != nil {
			return
		}
		if len(acc.Sites) > MaxSites || len(acc.Tools) > maxAgentTools {
			t.Fatalf("over the limits: %d %d", len(acc.Sites), len(acc.Tools))
		}
		open := map[string]bool{}
		for _, s := range acc.Sites {
			if !validAgentOrigin(s) {
				t.Fatalf("accepted site %q", s)
			}
			open[s] = true
		}
		for _, tl := range acc.Tools {
			if !open[tl.Site] || tl.Tool == "" || len(tl.Tool) > maxToolName {
				t.Fatalf("accepted tool %+v", tl)
			}
		}
		out, err := json.Marshal(agentAccessDoc{Version: agentAccessVersion, Sites: acc.Sites, Tools: acc.Tools})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseAccess(out); err != nil {
			t.Fatalf("what was accepted does not read back: %v", err)
		}
	})
}
