//go:build testhooks

package app

import (
	"context"
	"testing"
	"time"
)

// The scripted presenter presses Approve on the dialog exactly as
// presented: the rows checked by default, no attention row.
func TestScriptedPresenterApprovesDefaults(t *testing.T) {
	env := getenvFrom(map[string]string{"TESSERA_TEST_DECISION": "approve", "TESSERA_TEST_CONFIRM_TIMEOUT": "3s"})
	a, err := New(Config{Getenv: env})
	if err != nil {
		t.Fatal(err)
	}
	if a.confirmTimeout != 3*time.Second {
		t.Errorf("confirm timeout = %v, want 3s", a.confirmTimeout)
	}
	a.setScriptedPresenter(scriptedPresenter(a, env))
	a.SetPresenter(nil) // the window must not replace it
	c := Confirmation{Rows: []Row{{ID: "r1", Checked: true}, {ID: "r2"}, {ID: "r3", Section: SectionAttention}}}
	d := a.confirms.Ask(context.Background(), c, time.Minute, nil)
	if !d.Approve || len(d.Rows) != 1 || d.Rows[0] != "r1" {
		t.Fatalf("decision = %+v, want approve of r1 only", d)
	}
}
