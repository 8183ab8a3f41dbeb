package agents

import (
	"encoding/json"
	"testing"
)

// FuzzAgentArguments feeds a page's tool schema and an agent's arguments,
// both untrusted, through what the app does with them before anything
// reaches the person or the page: the schema check, the arguments' decoding
// and their validation. None may panic; an accepted schema is an object
// schema, and a rejection always says why.
func FuzzAgentArguments(f *testing.F) {
	f.Add([]byte(`{"type":"object","properties":{"q":{"type":"string","maxLength":20},"limit":{"type":"integer","minimum":1}},"required":["q"],"additionalProperties":false}`), []byte(`{"q":"shoes","limit":2}`))
	f.Add([]byte(`{"type":"object"}`), []byte(`{"q":5,"extra":true}`))
	f.Add([]byte(`{"type":"object","$defs":{"a":{"$ref":"#/$defs/a"}},"properties":{"x":{"$ref":"#/$defs/a"}}}`), []byte(`{"x":1}`))
	f.Add([]byte(`{"type":"object","properties":{"p":{"pattern":"(a+)+$"}}}`), []byte(`{"p":"aaaaaaaaaaaaaaaaaaaaaaaaaaaa!"}`))
	f.Add([]byte(`{"type":"string"}`), []byte(`[]`))
	f.Add([]byte(`null`), []byte(`null`))
	f.Fuzz(func(t *testing.T, schema, args []byte) {
		s, problem := pageSchema(json.RawMessage(schema))
		if problem != "" {
			return
		}
		var top struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(s, &top) != nil || top.Type != "object" {
			t.Fatalf("pageSchema accepted %q", s)
		}
		obj, bad := argumentObject(json.RawMessage(args))
		if bad != "" {
			if obj != nil {
				t.Fatalf("argumentObject(%q) = %v with problem %q", args, obj, bad)
			}
			return
		}
		checkArgs(s, obj)
	})
}
