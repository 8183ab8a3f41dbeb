package passphrase

import (
	"errors"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		p    string
		want error
	}{
		{"", ErrWeak},
		{"a", ErrWeak},
		// Length counts characters: 7 two-byte runes are short.
		{"ééééééé", ErrWeak},
		{"password123", ErrWeak},
		{"qwertyuiop", ErrWeak},
		{"abcdefghijkl", ErrWeak},
		{"aaaaaaaaaaaaaaaa", ErrWeak},
		{"tesseravault", ErrWeak},
		{"correcthorse", ErrWeak},
		{"19841984", ErrWeak},
		{"correct horse battery", nil},
		{"sunny meadow river", nil},
		{"ufk2-Wq9-zzp", nil},
		{strings.Repeat("x", MaxLength+1), ErrTooLong},
		// Only a prefix is estimated; a long strong passphrase passes fast.
		{strings.Repeat("Quartz fjord nymph vex! ", 40), nil},
	}
	for _, tt := range tests {
		err := Check(tt.p)
		if !errors.Is(err, tt.want) || (tt.want == nil && err != nil) {
			t.Errorf("Check(%.30q) = %v, want %v", tt.p, err, tt.want)
		}
		if err != nil && len(tt.p) >= 4 && strings.Contains(err.Error(), tt.p) {
			t.Errorf("Check(%.30q) error %q quotes the passphrase", tt.p, err)
		}
	}
}

func TestCheckSaysWhy(t *testing.T) {
	for p, want := range map[string]string{
		"hjkl;'[]":     "keyboard pattern",
		"password123":  "common words",
		"abcdefghijkl": "sequence",
		"12121212ab":   "repeats",
	} {
		if err := Check(p); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Check(%q) = %v, want it to say %q", p, err, want)
		}
	}
}

func BenchmarkCheckLong(b *testing.B) {
	p := strings.Repeat("Quartz fjord nymph vex! ", 40)
	for b.Loop() {
		Check(p)
	}
}
