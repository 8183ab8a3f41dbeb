package form

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestModelContextToolsMatchChromium compares Tessera's toolname synthesis
// with what Chromium 156 itself produced for the same pages (the goldens the
// browser oracle, chromium_test.go, records). They must be equal as JSON
// values, down to key order inside inputSchema.properties.
func TestModelContextToolsMatchChromium(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join("testdata", "webmcp-chromium", "*.html"))
	if err != nil || len(pages) == 0 {
		t.Skip("no Chromium goldens yet")
	}
	for _, page := range pages {
		golden := strings.TrimSuffix(page, ".html") + ".chromium.json"
		want, err := os.ReadFile(golden)
		if err != nil {
			continue // the oracle has not recorded this page yet
		}
		t.Run(filepath.Base(page), func(t *testing.T) {
			got, err := json.Marshal(ModelContextTools(extractFile(t, page)))
			if err != nil {
				t.Fatal(err)
			}
			var g, w any
			if err := json.Unmarshal(got, &g); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(want, &w); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(g, w) {
				t.Errorf("ModelContextTools(%s) =\n%s\nwant\n%s", page, got, compact(want))
			}
			if gk, wk := propertyOrder(got), propertyOrder(want); !reflect.DeepEqual(gk, wk) {
				t.Errorf("ModelContextTools(%s) parameter order = %q, want %q", page, gk, wk)
			}
		})
	}
}

func compact(b []byte) string {
	var v any
	_ = json.Unmarshal(b, &v)
	out, _ := json.Marshal(v)
	return string(out)
}

// propertyOrder lists each tool's parameter names in the order written.
func propertyOrder(b []byte) [][]string {
	var tools []struct {
		InputSchema struct {
			Properties json.RawMessage `json:"properties"`
		} `json:"inputSchema"`
	}
	if err := json.Unmarshal(b, &tools); err != nil {
		return nil
	}
	var out [][]string
	for _, tl := range tools {
		dec := json.NewDecoder(strings.NewReader(string(tl.InputSchema.Properties)))
		var keys []string
		depth := 0
		for {
			tok, err := dec.Token()
			if err != nil {
				break
			}
			switch v := tok.(type) {
			case json.Delim:
				if v == '{' || v == '[' {
					depth++
				} else {
					depth--
				}
			case string:
				if depth == 1 && dec.More() {
					keys = append(keys, v)
					// skip the value
					var skip json.RawMessage
					if err := dec.Decode(&skip); err != nil {
						return out
					}
				}
			}
		}
		out = append(out, keys)
	}
	return out
}
