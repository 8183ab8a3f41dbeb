package form

import (
	"reflect"
	"testing"
)

// TestSchemaProblems checks the validator keyword by keyword, including
// the JSON Schema semantics a hand-written one gets wrong: numbers compared
// by exact value (0.3 is a multiple of 0.1, 1.0 is an integer), lengths in
// code points, patterns unanchored, and JS-only patterns not enforced.
func TestSchemaProblems(t *testing.T) {
	tests := []struct {
		schema, value string
		want          []string // "param:reason"
	}{
		{`{"type":"string"}`, `"a"`, nil},
		{`{"type":"string"}`, `1`, []string{":type"}},
		{`{"type":"string"}`, `null`, []string{":type"}},
		{`{"type":"integer"}`, `1.0`, nil},
		{`{"type":"integer"}`, `1.5`, []string{":type"}},
		{`{"type":"number","multipleOf":0.1}`, `0.3`, nil},
		{`{"type":"number","multipleOf":0.1}`, `0.35`, []string{":range"}},
		{`{"type":"number","minimum":1,"maximum":5}`, `0`, []string{":range"}},
		{`{"type":"number","minimum":1,"maximum":5}`, `5`, nil},
		{`{"type":"number","maximum":5}`, `1e500`, []string{":range"}},
		{`{"type":"number","exclusiveMinimum":1}`, `1`, []string{":range"}},
		{`{"type":"string","minLength":2,"maxLength":3}`, `"日本"`, nil},
		{`{"type":"string","maxLength":3}`, `"日本語です"`, []string{":length"}},
		{`{"type":"string","pattern":"^[A-Z]+$"}`, `"ab"`, []string{":pattern"}},
		{`{"type":"string","pattern":"[0-9]"}`, `"a1b"`, nil},
		{`{"type":"string","pattern":"(?=x)y"}`, `"anything"`, nil},
		{`{"type":"string","enum":["a","b"]}`, `"c"`, []string{":enum"}},
		{`{"type":"string","anyOf":[{"const":"a"},{"const":"b"}]}`, `"b"`, nil},
		{`{"type":"string","anyOf":[{"const":"a"},{"const":"b"}]}`, `"c"`, []string{":enum"}},
		{`{"type":"array","items":{"type":"string","enum":["x","y"]},"uniqueItems":true,"maxItems":2}`, `["x","z"]`, []string{":enum"}},
		{`{"type":"array","items":{"type":"string"},"uniqueItems":true}`, `["x","x"]`, []string{":duplicate"}},
		{`{"type":"array","items":{"type":"number"},"uniqueItems":true}`, `[1,1.0]`, []string{":duplicate"}},
		{`{"type":"array","maxItems":1}`, `[1,2]`, []string{":items"}},
		{`{"type":"object","additionalProperties":false,"properties":{"a":{"type":"object","additionalProperties":false,"properties":{"b":{"type":"string"}},"required":["b"]}},"required":["a"]}`,
			`{"a":{"c":1}}`, []string{"a.b:required", "a.c:unknown"}},
		{`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`, `{}`, []string{"a:required"}},
		{`{"type":"string","format":"email","contentEncoding":"base64"}`, `"not an address"`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.schema+" "+tt.value, func(t *testing.T) {
			s, err := decodeJSON([]byte(tt.schema))
			if err != nil {
				t.Fatal(err)
			}
			v, err := decodeJSON([]byte(tt.value))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range schemaProblems(s.(map[string]any), v) {
				got = append(got, p.Param+":"+p.Reason)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("schemaProblems(%s, %s) = %q, want %q", tt.schema, tt.value, got, tt.want)
			}
		})
	}
}

func TestDecodeJSONRefusesTrailingData(t *testing.T) {
	for _, in := range []string{`{"a":1} {"b":2}`, `{"a":1} x`, `1 2`} {
		if _, err := decodeJSON([]byte(in)); err == nil {
			t.Errorf("decodeJSON(%q) = nil error, want one", in)
		}
	}
	if _, err := decodeJSON([]byte(" {\"a\":1}\n ")); err != nil {
		t.Errorf("decodeJSON with surrounding space: %v", err)
	}
}
