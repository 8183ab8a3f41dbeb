package ui

import (
	"errors"
	"unicode"
	"unicode/utf8"

	"github.com/tessera-app/tessera/passphrase"
)

// The first run's passphrase strength meter. The window asks Go, so the
// meter and the rule that SetUpVault applies (passphrase.Check, the command
// line's too) are one estimator and never disagree.

// Strength is what the meter shows of a passphrase being typed.
type Strength struct {
	// Score is zxcvbn's 0..4; Acceptable whether SetUpVault would take it.
	Score      int  `json:"score"`
	Acceptable bool `json:"acceptable"`
	// Words names the score ("too weak", "weak", "fair", "strong", "very
	// strong"); Advice says how to do better, without quoting the
	// passphrase ("" when acceptable).
	Words  string `json:"words"`
	Advice string `json:"advice,omitempty"`
}

// strengthWords name zxcvbn's scores.
var strengthWords = [...]string{"too weak", "weak", "fair", "strong", "very strong"}

// PassphraseStrength rates a new passphrase for the meter. It keeps no copy
// and logs nothing.
func (u *UI) PassphraseStrength(p string) Strength {
	if len(p) > MaxPassphraseLen {
		return Strength{Score: 0, Words: "too long", Advice: "Use at most 1024 bytes."}
	}
	score, err := passphrase.Strength(p)
	s := Strength{Score: score, Acceptable: err == nil, Words: strengthWords[max(0, min(score, 4))]}
	if err != nil {
		s.Advice = adviceOf(err)
	}
	if p == "" {
		s.Words, s.Advice = "", ""
	} else if utf8.RuneCountInString(p) < passphrase.MinLength {
		s.Words = "too short"
	}
	return s
}

// adviceOf turns Check's error into a sentence for the meter.
func adviceOf(err error) string {
	msg := err.Error()
	for _, prefix := range []string{passphrase.ErrWeak.Error() + ": ", passphrase.ErrTooLong.Error() + ": "} {
		if len(msg) > len(prefix) && msg[:len(prefix)] == prefix {
			msg = msg[len(prefix):]
		}
	}
	if msg == "" || !errors.Is(err, passphrase.ErrWeak) {
		return msg
	}
	return upperFirst(msg) + "."
}

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// SuggestPassphrase returns a new recovery passphrase of
// passphrase.SuggestWords random words, for the first run to show once:
// the person writes it down and types it again to confirm, and SetUpVault
// takes it like any other. Go keeps no copy.
func (u *UI) SuggestPassphrase() (string, error) {
	return passphrase.Suggest()
}
