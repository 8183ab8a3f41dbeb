package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestFieldHelp runs `tessera help --definition` on the real grant
// application with two References documents and two Ontologies: the same
// resolver the app's formspec.help answers with (formspec package goldens).
func TestFieldHelp(t *testing.T) {
	var out, errb bytes.Buffer
	env := testEnv(&out, &errb, nil)
	err := Run(context.Background(), []string{"help",
		"--definition", "../matcher/testdata/formspec/grant-application.definition.json",
		"--references", "../formspec/testdata/grant.references.json",
		"--references", "../formspec/testdata/grant.references-agency.json",
		"--ontology", "../matcher/testdata/formspec/grant-application.ontology.json",
		"--ontology", "../formspec/testdata/grant.ontology-override.json",
		"budget.lineItems[3].unitCost"}, env)
	if err != nil {
		t.Fatalf("help: %v\n%s", err, errb.String())
	}
	var h struct {
		Path       string
		References map[string][]struct{ ID string }
		Concept    struct{ Concept string }
	}
	if err := json.Unmarshal(out.Bytes(), &h); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if h.Path != "budget.lineItems[3].unitCost" || h.Concept.Concept != "https://schema.org/price" || len(h.References["regulation"]) != 3 || h.References["regulation"][1].ID != "agency-cap" {
		t.Errorf("help = %s", out.String())
	}
	if !strings.Contains(errb.String(), "outside compatibleVersions") {
		t.Errorf("no version warning on stderr: %q", errb.String())
	}
	// help COMMAND still prints that command's usage.
	out.Reset()
	errb.Reset()
	if err := Run(context.Background(), []string{"help", "match"}, env); err != nil || !strings.Contains(errb.String(), "usage: tessera match") {
		t.Errorf("help match: %v %q", err, errb.String())
	}
	// A path the definition lacks and a missing PATH are errors.
	if err := Run(context.Background(), []string{"help", "--definition", "../matcher/testdata/formspec/grant-application.definition.json", "budget.nope"}, env); err == nil || !strings.Contains(err.Error(), "NOT_FOUND") {
		t.Errorf("unknown path: %v", err)
	}
	if err := Run(context.Background(), []string{"help", "--definition", "x.json"}, env); !errors.Is(err, ErrUsage) {
		t.Errorf("no path: %v", err)
	}
}
