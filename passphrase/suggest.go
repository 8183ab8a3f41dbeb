package passphrase

import (
	"crypto/rand"
	"math/big"
	"strings"
	"sync"

	"github.com/trustelem/zxcvbn/frequency"
)

// SuggestWords is how many words Suggest picks: with wordListSize words
// to pick from that is 72 bits, far beyond guessing at one scrypt per
// guess.
const SuggestWords = 6

// wordListSize is how many words Suggest picks from (2^12).
const wordListSize = 4096

// words are the first wordListSize common English words of four to eight
// plain letters that are nobody's name, from the frequency list zxcvbn
// itself ships: words a person can read back and type.
var words = sync.OnceValue(func() []string {
	names := map[string]bool{}
	for _, l := range []string{"female_names", "male_names", "surnames"} {
		for _, n := range frequency.FrequencyLists[l] {
			names[n] = true
		}
	}
	out := make([]string, 0, wordListSize)
	for _, w := range frequency.FrequencyLists["english_wikipedia"] {
		if len(out) == wordListSize {
			break
		}
		if len(w) < 4 || len(w) > 8 || names[w] || strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") != "" {
			continue
		}
		out = append(out, w)
	}
	return out
})

// Suggest returns a new passphrase of SuggestWords words picked uniformly
// at random (crypto/rand), separated by spaces. It always passes Check:
// a draw that the estimator would refuse (vanishingly rare) is drawn again.
func Suggest() (string, error) {
	ws := words()
	n := big.NewInt(int64(len(ws)))
	for {
		pick := make([]string, SuggestWords)
		for i := range pick {
			k, err := rand.Int(rand.Reader, n)
			if err != nil {
				return "", err
			}
			pick[i] = ws[k.Int64()]
		}
		p := strings.Join(pick, " ")
		if Check(p) == nil {
			return p, nil
		}
	}
}
