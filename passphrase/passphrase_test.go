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

// The meter shows what the rule decides: every accepted passphrase scores
// at least MinScore, every refused one below it, and scores grow with a
// passphrase built up word by word.
func TestStrengthAgreesWithCheck(t *testing.T) {
	for _, p := range []string{"", "a", "ééééééé", "password123", "qwertyuiop", "sunny", "sunny meadow", "sunny meadow river", "ufk2-Wq9-zzp", "Abc!1", "correct horse battery staple"} {
		score, err := Strength(p)
		if (err == nil) != (Check(p) == nil) {
			t.Errorf("Strength(%q) error %v, Check %v", p, err, Check(p))
		}
		if score < 0 || score > 4 {
			t.Errorf("Strength(%q) = %d, want 0..4", p, score)
		}
		if (err == nil) != (score >= MinScore) {
			t.Errorf("Strength(%q) = %d with error %v: the meter and the rule disagree", p, score, err)
		}
	}
	prev := -1
	for _, p := range []string{"sun", "sunny meadow", "sunny meadow river quartz"} {
		s, _ := Strength(p)
		if s < prev {
			t.Errorf("Strength(%q) = %d, lower than the shorter passphrase's %d", p, s, prev)
		}
		prev = s
	}
	if s, _ := Strength("sunny meadow river quartz"); s < MinScore {
		t.Errorf("four unrelated words score %d", s)
	}
}

func TestSuggest(t *testing.T) {
	if n := len(words()); n != wordListSize {
		t.Fatalf("word list holds %d words, want %d", n, wordListSize)
	}
	seen := map[string]bool{}
	known := map[string]bool{}
	for _, w := range words() {
		known[w] = true
	}
	for range 20 {
		p, err := Suggest()
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(p); err != nil {
			t.Errorf("Suggest() = %q, refused by Check: %v", p, err)
		}
		ws := strings.Fields(p)
		if len(ws) != SuggestWords {
			t.Errorf("Suggest() = %q: %d words, want %d", p, len(ws), SuggestWords)
		}
		for _, w := range ws {
			if !known[w] {
				t.Errorf("Suggest() word %q is not from the list", w)
			}
		}
		if seen[p] {
			t.Errorf("Suggest() repeated %q", p)
		}
		seen[p] = true
	}
}
