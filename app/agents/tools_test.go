package agents

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCheckArgsNamesEveryBadParameter(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer","maximum":3},"c":{"enum":["x","y"]}},"required":["a","c"],"additionalProperties":false}`)
	for _, tt := range []struct {
		args map[string]any
		want []string
	}{
		{map[string]any{"a": "ok", "c": "x"}, nil},
		{map[string]any{"a": 1, "b": 9.0, "c": "z", "d": 1}, []string{"a:", "b:", "c:", "d: not a parameter"}},
		{map[string]any{}, []string{"a: required", "c: required"}},
	} {
		got := checkArgs(schema, tt.args)
		if (got == "") != (tt.want == nil) {
			t.Errorf("checkArgs(%v) = %q", tt.args, got)
		}
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("checkArgs(%v) = %q, want it to name %q", tt.args, got, w)
			}
		}
	}
}

func TestToolNamesAreSafeAndUnique(t *testing.T) {
	taken := map[string]bool{"tessera.tabs.list": true}
	for _, tt := range []struct{ prefix, in, want string }{
		{prefixPage, "search", "webmcp.page.search"},
		{prefixPage, "search", "webmcp.page.search-2"},
		{prefixPage, "a b/c", "webmcp.page.a_b_c"},
		{prefixForm, strings.Repeat("x", 300), "webmcp.form." + strings.Repeat("x", maxToolName-4-len(prefixForm))},
	} {
		if got := toolName(tt.prefix, tt.in, taken); got != tt.want {
			t.Errorf("toolName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
