//go:build !testhooks

package app

import "testing"

// A release build must not let the environment answer dialogs or shorten
// them: TESSERA_TEST_DECISION and TESSERA_TEST_CONFIRM_TIMEOUT mean nothing.
func TestReleaseBuildIgnoresTestDecision(t *testing.T) {
	env := getenvFrom(map[string]string{"TESSERA_TEST_DECISION": "approve", "TESSERA_TEST_CONFIRM_TIMEOUT": "1ms"})
	a, err := New(Config{Getenv: env})
	if err != nil {
		t.Fatal(err)
	}
	if p := scriptedPresenter(a, env); p != nil {
		t.Fatalf("scriptedPresenter = %T in a release build", p)
	}
	if a.confirmTimeout != DefaultConfirmTimeout {
		t.Fatalf("confirm timeout = %v, want %v", a.confirmTimeout, DefaultConfirmTimeout)
	}
}
