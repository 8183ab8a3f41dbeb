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

	out, err := run(page)
	if !errors.Is(err, form.ErrDuplicateTool) {
		t.Errorf("tools PAGE error = %v, want ErrDuplicateTool", err)
	}
	var tools []map[string]any
	if jerr := json.Unmarshal([]byte(out), &tools); jerr != nil || len(tools) != 1 || tools[0]["name"] != "find" {
		t.Errorf("tools PAGE printed %s (%v), want the one tool find", out, jerr)
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
