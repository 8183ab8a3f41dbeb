// Package passphrase owns the rule a new passphrase must meet before it
// protects a vault or an exported bundle, and the scrypt cost such a
// passphrase is stretched with. The command line and the app's window both
// call Check, so a passphrase one refuses the other refuses too.
package passphrase

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/trustelem/zxcvbn"
)

const (
	// MinLength is the fewest characters (not bytes) a new passphrase may
	// have: NIST SP 800-63B's floor for chosen secrets, which it pairs with
	// a check against guessable ones (MinScore).
	MinLength = 8
	// MaxLength bounds, in bytes, what is handed to scrypt.
	MaxLength = 1024
	// MinScore is the lowest zxcvbn score (0..4) accepted: 3 means the
	// estimator expects at least 10^8 guesses, which at one scrypt
	// (MinWorkFactor) per guess is years of a laptop's work.
	MinScore = 3
	// MinWorkFactor is the lowest scrypt work factor (log2 N) a new
	// passphrase wrap may use outside tests: about a second per guess.
	MinWorkFactor = 18
	// estimateRunes bounds the prefix given to the estimator, whose cost
	// grows faster than linearly (1,000 characters take seconds). A longer
	// passphrase is at least as strong as its prefix.
	estimateRunes = 100
)

var (
	// ErrWeak is wrapped by Check's error for a passphrase that is too
	// short or too easy to guess.
	ErrWeak = errors.New("passphrase too weak")
	// ErrTooLong is wrapped by Check's error for a passphrase over
	// MaxLength bytes.
	ErrTooLong = errors.New("passphrase too long")
)

// contextWords are words an attacker tries first against Tessera's own
// vault; zxcvbn counts them as known words.
var contextWords = []string{"tessera", "vault", "passphrase", "password"}

// patternHints says, for the zxcvbn pattern that makes a passphrase
// guessable, what the person should avoid. The passphrase itself never
// appears in a message.
var patternHints = map[string]string{
	"dictionary": "it is made of common words, names or passwords",
	"spatial":    "it follows a keyboard pattern",
	"repeat":     "it repeats characters or words",
	"sequence":   "it contains a sequence such as abcd or 1234",
	"regex":      "it contains a recent year",
	"date":       "it contains a date",
}

// Check returns nil when p may protect a vault: at least MinLength
// characters, at most MaxLength bytes, and a zxcvbn score of at least
// MinScore. Its error wraps ErrWeak or ErrTooLong and says how to choose a
// better one, without quoting p.
func Check(p string) error {
	_, err := Strength(p)
	return err
}

// Strength returns p's zxcvbn score (0..4, what a strength meter shows;
// 0 for a passphrase too short to be estimated) and Check's verdict on it,
// so that a meter and the rule never disagree.
func Strength(p string) (int, error) {
	n := utf8.RuneCountInString(p)
	switch {
	case len(p) > MaxLength:
		return 4, fmt.Errorf("%w: use at most %d bytes", ErrTooLong, MaxLength)
	case n == 0:
		return 0, fmt.Errorf("%w: use at least %d characters", ErrWeak, MinLength)
	}
	est := p
	if n > estimateRunes {
		est = string([]rune(p)[:estimateRunes])
	}
	r := zxcvbn.PasswordStrength(est, contextWords)
	if n < MinLength {
		return min(r.Score, MinScore-1), fmt.Errorf("%w: use at least %d characters", ErrWeak, MinLength)
	}
	if r.Score >= MinScore {
		return r.Score, nil
	}
	why := "it is short and simple"
	longest := 0
	for _, m := range r.Sequence {
		if h, ok := patternHints[m.Pattern]; ok && m.J-m.I+1 > longest {
			why, longest = h, m.J-m.I+1
		}
	}
	return r.Score, fmt.Errorf("%w: easy to guess (%s); use four or more unrelated words, or a longer mix", ErrWeak, why)
}
