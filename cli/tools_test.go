package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tessera-app/tessera/form"
)

// TestToolsCommand runs `tessera tools` as a user meets it: listing, a
// planned call, a rejected call (exit status 1), and a bad command line.
func TestToolsCommand(t *testing.T) {
	page := filepath.Join(t.TempDir(), "page.html")
	html := `<form toolname="find" tooldescription="Find" toolautosubmit><input name="q" required></form>
<form toolname="find" tooldescription="Again"><input name="z"></form>`
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, error) {
		var out, errOut bytes.Buffer
		err := Run(context.Background(), append([]string{"tools"}, args...), testEnv(&out, &errOut, nil))
		return out.String(), err
	}

	// The duplicate is reported beside the first tool, not as a failure.
	out, err := run(page)
	if err != nil {
		t.Errorf("tools PAGE error = %v, want none (the duplicate in _meta)", err)
	}
	var list struct {
		Tools []map[string]any `json:"tools"`
		Meta  struct {
			Problems []struct {
				Name     string   `json:"name"`
				Elements []string `json:"elements"`
				Problem  string   `json:"problem"`
			} `json:"problems"`
		} `json:"_meta"`
	}
	if jerr := json.Unmarshal([]byte(out), &list); jerr != nil || len(list.Tools) != 1 || list.Tools[0]["name"] != "find" {
		t.Errorf("tools PAGE printed %s (%v), want the one tool find", out, jerr)
	}
	if p := list.Meta.Problems; len(p) != 1 || p[0].Name != "find" || strings.Join(p[0].Elements, ",") != "f0,f1" || p[0].Problem != form.ErrDuplicateTool.Error() {
		t.Errorf("tools PAGE _meta.problems = %+v, want the duplicate find at f0, f1", p)
	}

	out, err = run("--call", "find", "--args", `{"q":"shoes"}`, page)
	if err != nil || !strings.Contains(out, `"value": "shoes"`) || !strings.Contains(out, `"submit": true`) {
		t.Errorf("tools --call find = %s, %v", out, err)
	}

	out, err = run("--call", "find", "--args", `{"nope":1}`, page)
	if !errors.Is(err, form.ErrRejected) || !strings.Contains(out, `"reason": "unknown"`) || !strings.Contains(out, `"reason": "required"`) {
		t.Errorf("tools --call find (bad args) = %s, %v, want a rejection naming nope and q", out, err)
	}

	if _, err := run(); !errors.Is(err, ErrUsage) {
		t.Errorf("tools without a page = %v, want ErrUsage", err)
	}
	if _, err := run("--args", "{}", page); !errors.Is(err, ErrUsage) {
		t.Errorf("tools --args without --call = %v, want ErrUsage", err)
	}
}

// TestToolsInvalidName checks that one invalid tool name leaves the page's
// valid tools listed in document order, the invalid one on stderr and in
// _meta, and the command successful.
func TestToolsInvalidName(t *testing.T) {
	page := filepath.Join(t.TempDir(), "page.html")
	html := `<form tool-name="search"><input name="q"></form>
<a href="/help" tool-name="get help">Help</a>
<button tool-name="clear">Clear</button>`
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if err := Run(context.Background(), []string{"tools", page}, testEnv(&out, &errOut, nil)); err != nil {
		t.Fatalf("tools PAGE = %v, want success; stderr %s", err, errOut.String())
	}
	var list struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
		Meta struct {
			Problems []struct {
				Name     string   `json:"name"`
				Elements []string `json:"elements"`
				Problem  string   `json:"problem"`
			} `json:"problems"`
		} `json:"_meta"`
	}
	if err := json.Unmarshal(out.Bytes(), &list); err != nil {
		t.Fatalf("tools PAGE printed %s: %v", out.String(), err)
	}
	var names []string
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	if got := strings.Join(names, ","); got != "search,clear" {
		t.Errorf("tools = %s, want search,clear", got)
	}
	if p := list.Meta.Problems; len(p) != 1 || p[0].Name != "get help" || strings.Join(p[0].Elements, ",") != "t0" || p[0].Problem != form.ErrInvalidToolName.Error() {
		t.Errorf("_meta.problems = %+v, want the invalid name \"get help\" at t0", p)
	}
	if !strings.Contains(errOut.String(), `tool "get help" (t0): invalid tool name`) {
		t.Errorf("stderr = %q, want the invalid name reported", errOut.String())
	}
}
