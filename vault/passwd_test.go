package vault

import (
	"errors"
	"testing"
)

// TestChangePassphraseFrom: a wrong current passphrase changes nothing; the
// right one re-seals every record, reporting each step from 0 to the
// total, after which only the new passphrase unlocks and the data is there.
func TestChangePassphraseFrom(t *testing.T) {
	dir := t.TempDir()
	v := newTestVault(t, dir, nil)
	if _, err := v.CreateProfile("me", "Me"); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"a", "b", "c"} {
		if err := v.SetEntry("me", FieldKey(k), manual("value "+k)); err != nil {
			t.Fatal(err)
		}
	}
	var calls [][2]int
	record := func(done, total int) { calls = append(calls, [2]int{done, total}) }
	if err := v.ChangePassphraseFrom([]byte("wrong horse"), []byte("new battery staple"), record); !errors.Is(err, ErrBadPassphrase) {
		t.Fatalf("wrong current passphrase: %v, want ErrBadPassphrase", err)
	}
	if len(calls) != 0 {
		t.Fatalf("progress reported for a refused change: %v", calls)
	}
	if err := v.ChangePassphraseFrom([]byte("correct horse"), nil, record); err == nil {
		t.Fatal("an empty new passphrase was accepted")
	}
	if err := v.ChangePassphraseFrom([]byte("correct horse"), []byte("new battery staple"), record); err != nil {
		t.Fatal(err)
	}
	// The check passed, then 1 profile and 3 entries, plus whatever the
	// audit log holds.
	if len(calls) < 6 || calls[0] != [2]int{0, -1} {
		t.Fatalf("progress calls %v, want (0, -1), then one per record and the start", calls)
	}
	calls = calls[1:]
	total := calls[0][1]
	if total < 4 || calls[0][0] != 0 || calls[len(calls)-1] != [2]int{total, total} {
		t.Fatalf("progress %v: want 0..%d of %d", calls, total, total)
	}
	for i := 1; i < len(calls); i++ {
		if calls[i][0] != calls[i-1][0]+1 || calls[i][1] != total {
			t.Fatalf("progress not one record at a time: %v", calls)
		}
	}
	v.Lock()
	if err := v.UnlockPassphrase([]byte("correct horse")); !errors.Is(err, ErrBadPassphrase) {
		t.Fatalf("old passphrase after the change: %v, want ErrBadPassphrase", err)
	}
	if err := v.UnlockPassphrase([]byte("new battery staple")); err != nil {
		t.Fatalf("new passphrase: %v", err)
	}
	e, err := v.Entry("me", FieldKey("b"))
	if err != nil || mustValue(t, e) != "value b" {
		t.Fatalf("entry after the change: %v %v", e, err)
	}
	// Locked: refused before anything is asked of the passphrase.
	v.Lock()
	if err := v.ChangePassphraseFrom([]byte("new battery staple"), []byte("x y z w"), nil); !errors.Is(err, ErrLocked) {
		t.Fatalf("locked: %v, want ErrLocked", err)
	}
}
