package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestClassifyCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	env := testEnv(&out, &errOut, nil)
	page := "testdata/classify-signup.html"
	if err := Run(context.Background(), []string{"classify", page}, env); err != nil {
		t.Fatalf("classify: %v (stderr %q)", err, errOut.String())
	}
	want := []string{"given-name", "family-name", "email", "", "new-password", "", "country", ""}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(want) {
		t.Fatalf("classify printed %d lines, want %d:\n%s", len(lines), len(want), out.String())
	}
	for i, l := range lines {
		var got map[string]any
		if err := json.Unmarshal([]byte(l), &got); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		for _, k := range []string{"file", "control_index", "token", "concept", "confidence", "label"} {
			if _, ok := got[k]; !ok {
				t.Errorf("line %d lacks %q: %s", i, k, l)
			}
		}
		if got["file"] != page || got["control_index"] != float64(i) {
			t.Errorf("line %d: file, index = %v, %v, want %q, %d", i, got["file"], got["control_index"], page, i)
		}
		tok, _ := got["token"].(string)
		if tok != want[i] {
			t.Errorf("line %d token = %q, want %q", i, tok, want[i])
		}
		if want[i] == "" && got["token"] != nil {
			// Regression: "no token" must be JSON null, not "".
			t.Errorf("line %d token = %#v, want null", i, got["token"])
		}
	}
	if !strings.Contains(lines[0], `"label":"First name"`) {
		t.Errorf("line 0 = %s, want label First name", lines[0])
	}
}

func TestClassifyUsage(t *testing.T) {
	env := testEnv(&bytes.Buffer{}, &bytes.Buffer{}, nil)
	for _, args := range [][]string{{"classify"}, {"classify", "--frob"}} {
		if err := Run(context.Background(), args, env); !errors.Is(err, ErrUsage) {
			t.Errorf("Run(%q) = %v, want ErrUsage", args, err)
		}
	}
	if err := Run(context.Background(), []string{"classify", "testdata/does-not-exist.html"}, env); err == nil || errors.Is(err, ErrUsage) {
		t.Errorf("classify of a missing file = %v, want a non-usage error", err)
	}
}

// TestClassifyOptional checks that a field the dialog offers unticked (a
// company box the page calls optional) says so, and a required one does
// not.
func TestClassifyOptional(t *testing.T) {
	var out, errOut bytes.Buffer
	page := `<form><label>First name <input name="fn"></label><label>Company (optional) <input name="co"></label></form>`
	env := testEnv(&out, &errOut, nil)
	env.Stdin = strings.NewReader(page)
	if err := Run(context.Background(), []string{"classify", "-"}, env); err != nil {
		t.Fatalf("classify: %v (stderr %q)", err, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("classify printed %d lines, want 2:\n%s", len(lines), out.String())
	}
	for i, want := range []struct {
		token    string
		optional bool
	}{{"given-name", false}, {"organization", true}} {
		var got struct {
			Token    string `json:"token"`
			Optional bool   `json:"optional"`
		}
		if err := json.Unmarshal([]byte(lines[i]), &got); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		if got.Token != want.token || got.Optional != want.optional {
			t.Errorf("line %d = %s, want token %q optional %v", i, lines[i], want.token, want.optional)
		}
	}
}
