package heuristics

import (
	_ "embed"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/tessera-app/tessera/form"
	"github.com/tessera-app/tessera/heuristics/internal/linear"
	"github.com/tessera-app/tessera/internal/parallel"
)

// fieldModel is the learned model: a multinomial logistic regression over
// the words of a field (label, aria, name, id, placeholder, title,
// legends, a select's first options), its neighbours' rule verdicts and
// the kinds of field its form's other controls hold; the rules' verdict
// for the field itself is weighed against it (applyModel), not read by
// it (featuresOf says why). The form's own words (id, action, buttons) and text near
// the field were measured too (heuristics/cmd/train -cv) and taught
// nothing more; so did the neighbours' words and tags, the field's
// position in its form, the options' shape and conjunctions of the
// rules' verdict with the label's words (2 to 4 times the buckets gained
// 0.2 points for 2 to 4 times the file). Even the
// neighbours' true labels in place of their rule verdicts (the ceiling of
// a second pass over first-pass predictions) gained under one point of
// cross-validated recall: what the model misses is the field's own
// evidence and the sources' labelling conventions, not its context.
// `go run ./heuristics/cmd/train` learns it from the tuning half of the
// dev corpus.
//
//go:embed fieldmodel.bin
var fieldModel []byte

// model is the decoded field model, or nil when the file is missing or
// unreadable (then the rules alone decide).
var model = sync.OnceValue(func() *linear.Model {
	if len(fieldModel) == 0 {
		return nil
	}
	m, err := linear.Decode(fieldModel)
	if err != nil {
		return nil
	}
	return m
})

// The feature hash is FNV-1a over the feature's parts joined by ':': the
// model file stores weights by hash bucket, so the hash must be the same
// in every process and every version.
const (
	fnvOffset = 2166136261
	fnvPrime  = 16777619
)

// fnv extends hash h by s.
func fnv(h uint32, s string) uint32 {
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= fnvPrime
	}
	return h
}

// hashFeature hashes the feature named by parts joined with ':'.
func hashFeature(parts ...string) uint32 {
	h := uint32(fnvOffset)
	for i, p := range parts {
		if i > 0 {
			h = fnv(h, ":")
		}
		h = fnv(h, p)
	}
	return h
}

// maxWordsPerSource bounds the words read from one text source.
const maxWordsPerSource = 12

// featurizer collects one control's features.
type featurizer struct {
	out []uint32
}

func (f *featurizer) add(parts ...string) {
	f.out = append(f.out, hashFeature(parts...))
}

// words adds the first words of one normalized text (words separated by
// single spaces; the last words with fromRight) under a prefix, and each word again under "w" (the same word
// wherever it appears). Pairs of words and pieces of words were measured
// too (heuristics/cmd/train -cv): they learn sites, not fields.
func (f *featurizer) words(prefix, text string, fromRight bool) {
	if text == "" {
		return
	}
	if fromRight {
		// Identifiers name the field last ("checkout ctl00 billing ...
		// tb city"): keep their last words.
		for n, i := 0, len(text)-1; i >= 0; i-- {
			if text[i] == ' ' {
				if n++; n == maxWordsPerSource {
					text = text[i+1:]
					break
				}
			}
		}
	}
	f.add(prefix, "any")
	f.eachWord(prefix, text, true)
}

// ownWords adds the first words of text under prefix alone, without the
// shared word features words adds.
func (f *featurizer) ownWords(prefix, text string) {
	f.eachWord(prefix, text, false)
}

// eachWord adds each of the first words of text under prefix, and again
// under "w" when shared.
func (f *featurizer) eachWord(prefix, text string, shared bool) {
	head := fnv(fnv(fnvOffset, prefix), ":")
	w0 := fnv(fnvOffset, "w:")
	for n := 0; text != "" && n < maxWordsPerSource; n++ {
		w, rest, _ := strings.Cut(text, " ")
		text = rest
		if w == "" {
			continue
		}
		f.out = append(f.out, fnv(head, w))
		if shared {
			f.out = append(f.out, fnv(w0, w))
		}
	}
}

// bucket names a number by rough size.
func bucket(n int) string {
	switch {
	case n <= 0:
		return "0"
	case n <= 2:
		return "1-2"
	case n <= 4:
		return "3-4"
	case n <= 6:
		return "5-6"
	case n <= 10:
		return "7-10"
	case n <= 20:
		return "11-20"
	case n <= 60:
		return "21-60"
	}
	return "61+"
}

// neighbours are the places around a control whose rule verdicts the
// model reads.
var neighbours = []struct {
	d        int
	name, id string
}{{-2, "prev2", "prev2id"}, {-1, "prev", "previd"}, {1, "next", "nextid"}, {2, "next2", "next2id"}}

// neighbourWords are the controls whose words the model reads besides
// the control's own, by distance in the form.
var neighbourWords = []struct {
	d      int
	prefix string
}{{-1, "prevw"}, {1, "nextw"}}

// formTokenList are the tokens (and rules: "house-number") the model
// reads a form as asking for when one of its controls has it.
var formTokenList = [...]string{"postal-code", "address-level2", "address-level1", "address-line1", "address-line2", "street-address", "cc-number", "username", "given-name", "tel", "tel-country-code", "email", "country", "house-number"}

// formTokenIndex is formTokenList's index of each of its tokens, and
// formHas the hashed feature "form-has:" of each.
var formTokenIndex, formHas = func() (map[string]int, []uint32) {
	idx, hashes := map[string]int{}, make([]uint32, len(formTokenList))
	for k, t := range formTokenList {
		idx[t], hashes[k] = k, hashFeature("form-has", t)
	}
	return idx, hashes
}()

// formFacts are what the model reads of a control's form as a whole.
type formFacts struct {
	passwords int
	fillable  int
	// tokens counts the controls whose rule verdict is each token of
	// formTokenList or comes from the rule of that name: the model reads
	// those some control has as what the form asks for.
	tokens [len(formTokenList)]int
}

// featuresOf returns the hashed features of every control, given the rules'
// results for the snapshot. Controls that hold no data get none.
func featuresOf(s *form.Snapshot, rules []Result, m *memo) [][]uint32 {
	out := make([][]uint32, len(s.Controls))
	_, lang := pageLang(s)
	// Each form's facts and fillable controls, by form index + 1 (0:
	// the controls of no form).
	facts := make([]formFacts, len(s.Forms)+1)
	seqs := make([][]int, len(s.Forms)+1)
	for i := range s.Controls {
		c := &s.Controls[i]
		fi := c.FormIndex
		if fi < 0 || fi >= len(s.Forms) {
			fi = -1
		}
		ff := &facts[fi+1]
		if c.Type == "password" {
			ff.passwords++
		}
		if controlKind(c) == 0 {
			continue
		}
		ff.fillable++
		tok, rule := verdictOf(rules[i])
		if k, ok := formTokenIndex[tok]; ok {
			ff.tokens[k]++
		}
		if k, ok := formTokenIndex[rule]; ok && rule != tok {
			ff.tokens[k]++
		}
		seqs[fi+1] = append(seqs[fi+1], i)
	}
	// Where each control stands: its form's fillable controls in order,
	// and its place among them.
	type place struct {
		seq []int
		k   int
		ff  *formFacts
	}
	places := make([]place, len(s.Controls))
	for f, seq := range seqs {
		ff := &facts[f]
		for k, i := range seq {
			places[i] = place{seq, k, ff}
		}
	}
	// The controls on every core (parallel.Chunks), each chunk with one
	// backing array for its controls' features.
	parallel.Chunks(len(places), controlChunk, func(lo, hi int) {
		var fz featurizer
		var backing []uint32
		for i := lo; i < hi; i++ {
			seq, k, ff := places[i].seq, places[i].k, places[i].ff
			if seq == nil {
				continue
			}
			c := &s.Controls[i]
			fz.out = fz.out[:0]
			fz.add("bias")
			fz.add("tag", c.Tag, c.Type)
			if c.Visibility.Hidden {
				fz.add("hidden")
			}
			if c.InputMode != "" {
				fz.add("inputmode", c.InputMode)
			}
			fz.add("maxlen", bucket(c.Constraints.MaxLength))
			if c.Constraints.Pattern != "" {
				fz.add("pattern")
			}
			if c.Constraints.Required {
				fz.add("required")
			}
			if c.Tag == "select" {
				fz.add("options", bucket(len(c.Options)))
				for j, o := range c.Options {
					if j >= 4 {
						break
					}
					fz.words("opt", m.normalize(o.Text), false)
				}
			}
			if lang != "" {
				fz.add("lang", lang)
			}
			// The control's own rule verdict is no feature: the rules were
			// written looking at the very pages the model learns from, so
			// there they are right far more often than on a new site, and
			// a model taught to lean on them repeats them where they are
			// wrong (measured on the calibration quarter: 0.3 points of
			// precision and 0.9 of recall lost). The model is a second
			// voice, from the field's words, its neighbours' verdicts and
			// its form; applyModel weighs it against the rules' verdict.
			own, ownRule := verdictOf(rules[i])
			for _, nb := range neighbours {
				d, name := nb.d, nb.name
				j := k + d
				if j < 0 || j >= len(seq) {
					fz.add(name, "none")
					continue
				}
				fz.add(name, rules[seq[j]].Token)
				if ev := rules[seq[j]].Evidence; len(ev) > 0 {
					fz.add(nb.id, ev[0].Rule)
				}
			}
			// The words of the controls just before and after, as the
			// person reads them (a label, else a placeholder): a box
			// after "Street" and before "City" is a house number or a
			// second line whatever its own words are. Apart from the
			// control's own words (no shared "w:" feature): a
			// neighbour's "Email" says little of this box's meaning.
			// Measured out of fold (train -cv 5): Mozilla 0.914/0.903 to
			// 0.916/0.905; two controls away as well did no better.
			for _, nb := range neighbourWords {
				if j := k + nb.d; j >= 0 && j < len(seq) {
					nc := &s.Controls[seq[j]]
					t := m.normalize(nc.Label)
					if t == "" {
						t = m.normalize(nc.Placeholder)
					}
					fz.ownWords(nb.prefix, t)
				}
			}
			read := m.ownOf(i)
			for si, src := range sources {
				if src.signal == "nearby" {
					// Text near a control names its neighbours as often
					// as itself; the neighbours' verdicts say it better.
					continue
				}
				var t string
				if read != nil && read.kept {
					t = read.texts[si] // as classifyWords read it
				} else {
					t = m.normalize(src.raw(c))
				}
				fz.words(src.signal, t, src.ident)
			}
			for _, l := range c.Legends {
				fz.words("legend", m.normalize(l), false)
			}
			fz.add("form-passwords", bucket(ff.passwords))
			fz.add("form-fields", bucket(ff.fillable))
			for k, n := range ff.tokens {
				mine := 0 // the control's own count in ff.tokens: one at most
				if t := formTokenList[k]; t == own || t == ownRule {
					mine = 1
				}
				if n > mine {
					// Another control of the form has it.
					fz.out = append(fz.out, formHas[k])
				}
			}
			if len(backing)+len(fz.out) > cap(backing) {
				backing = make([]uint32, 0, max(len(fz.out), 64*(hi-i)))
			}
			n := len(backing)
			backing = append(backing, fz.out...)
			out[i] = backing[n:len(backing):len(backing)]
		}
	})
	return out
}

// verdictOf returns a rule result's token and the rule that gave it.
func verdictOf(r Result) (token, rule string) {
	if len(r.Evidence) > 0 {
		rule = r.Evidence[0].Rule
	}
	return r.Token, rule
}

// Veto is the class Features gives a control the rules decided holds no
// profile data.
const Veto = "-"

// Features returns the hashed features the learned model reads for every
// control of a snapshot (nil for controls that hold no data), and the
// class the rules alone give each control: its token, or
// address-housenumber and address-streetname for those parts of a street
// line; Veto where they vetoed; and whether they read it in the control's
// own label or list (ModelMayOverride). It exists for the command that
// learns the model: training and classification must see the same
// features, and cross-validation decide as classification does.
func Features(s *form.Snapshot) (features [][]uint32, rules []string, named []bool) {
	if s == nil {
		return nil, nil, nil
	}
	m := newMemo(len(s.Controls))
	rs := classifyRules(s, m)
	for _, r := range rs {
		c := modelClass(r)
		if c == "" && decided(r) {
			c = Veto
		}
		rules = append(rules, c)
		named = append(named, labelNamed(r))
	}
	return featuresOf(s, rs, m), rules, named
}

// declared reports whether the page declared a result's field: a valid
// autocomplete token or a WebMCP parameter description.
func declared(r Result) bool {
	if len(r.Evidence) == 0 {
		return false
	}
	switch r.Evidence[0].Signal {
	case "autocomplete", "tool-param":
		return true
	}
	return false
}

// ruleSure reports whether the rules' verdict stands without the model:
// the page declared the field (a valid autocomplete token, a WebMCP
// parameter description), the box is masked, it is a sign-in form's
// login identifier, its label asks for the whole phone number with its
// code, or its words ask for an address the person lived at before.
func ruleSure(c *form.Control, r Result) bool {
	if c.Type == "password" || len(r.Evidence) == 0 {
		return c.Type == "password"
	}
	switch r.Evidence[0].Signal {
	case "autocomplete", "tool-param":
		return true
	case "pass:login-identifier":
		// Profile values never go into login forms.
		return true
	case "pass:sender-recipient", "pass:phone-split":
		// Whose data a box asks for (a recipient's box beside the
		// sender's), or which part of one number ("Area code" then
		// "Phone"): told by the boxes around it, which the model,
		// weighing one box's words, cannot weigh; it would read the
		// phone box as the whole number, the area code then twice.
		return true
	}
	if IsGuardToken(r.Token) {
		// A box the rules read as a credential or a code ("E-mail ou
		// celular" to sign in): no profile value goes there, whatever
		// the model makes of its words.
		return true
	}
	if r.Evidence[0].Rule == "previous-address" {
		// "Previous city": whose address the words say, not what kind
		// of box it is, which the model reads from the same words.
		return true
	}
	if r.Evidence[0].Rule == "coupon" && r.Evidence[0].Signal != "nearby" {
		// "Code de réduction", "Gutschein": the box's own words say it
		// takes a code the shop gave, never the person's data; the model
		// reads "code" and guesses a card's security code.
		return true
	}
	if r.Evidence[0].Signal == "pass:address-run" && streetPart[r.Part] {
		// A street box and the house-number box beside it, paired by
		// their place ("Street name", "Building number"): the model
		// weighs each box alone, and taking one of the two away leaves
		// the other holding half the line (the number lost, or twice).
		return true
	}
	if r.Evidence[0].Signal == "pass:address-row" {
		// A box of a row under one label that names the parts ("PLZ /
		// Ort" over two boxes): its place in the row says which part;
		// the model sees a box without words of its own, or the whole
		// label's, and reads it as nothing or as the first part.
		return true
	}
	if r.Evidence[0].Rule == "tel-with-area" {
		// "Phone with country code", "DDD e número": phrases that name
		// the whole number and nothing else, whose words the model knows
		// from calling-code and area-code boxes.
		return true
	}
	return false
}

// SpeakRules is how sure the model must be, on its own odds (temperature
// 1), to speak where the rules found nothing; OverrideRules, to
// contradict their verdict. Measured by heuristics/cmd/train -cv and on
// the calibration quarter of the held-out half (corpus.Calibration).
const (
	SpeakRules    = 0.8
	OverrideRules = 0.95
)

// applyModel lets the learned model decide the controls the rules are not
// sure of, where it is sure itself: its likeliest class becomes the token
// and its probability the confidence. The rules' verdict is one of its
// features; it stands where the model is unsure: below speakRules where
// the rules found nothing, below overrideRules where they decided (a veto
// included). The parts of a street line the model recognises are filled
// from the street line (Result.Part).
func applyModel(s *form.Snapshot, out []Result, m *memo, lm *linear.Model) {
	feats := featuresOf(s, out, m)
	class := make(map[string]int, len(lm.Classes))
	for c, name := range lm.Classes {
		class[name] = c
	}
	// Each control's verdict is its own: on every core (parallel.Chunks).
	parallel.Chunks(len(feats), controlChunk, func(lo, hi int) {
		decideChunk(s, out, feats, lo, hi, class, lm)
	})
}

// decideChunk weighs the model's voice against the rules' verdict for the
// controls lo to hi-1 (applyModel).
func decideChunk(s *form.Snapshot, out []Result, feats [][]uint32, lo, hi int, class map[string]int, lm *linear.Model) {
	p, z := make([]float32, len(lm.Classes)), make([]float32, len(lm.Classes))
	for i := lo; i < hi; i++ {
		f := feats[i]
		r := &out[i]
		if f == nil || ruleSure(&s.Controls[i], *r) {
			continue
		}
		lm.Scores(f, z)
		copy(p, z)
		// The model decides on its own odds, as cross-validation measures
		// them (heuristics/cmd/train -cv); its temperature, fitted for the
		// confidence the dialog shows, never changes what is filled.
		best := linear.Softmax(p, 1)
		rule := modelClass(*r)
		tok, odds, ok := lm.Decide(rule, decided(*r), p, best, SpeakRules, OverrideRules)
		// shown is the model's probability of class c at its temperature:
		// the confidence the dialog shows where the model speaks.
		shown := func(c int) float64 {
			copy(p, z)
			linear.Softmax(p, lm.Temperature)
			return float64(p[c])
		}
		if ok && !ModelMayOverride(rule, tok, labelNamed(*r)) {
			ok = false
		}
		if !ok {
			if c, sc, same := sameFillClasses(class, rule); same && best == sc && !s.Controls[i].Visibility.Hidden {
				// The model's likeliest class fills the same value as the
				// rules' verdict (a street box told address-line1 or
				// street-address, a country box country or country-name:
				// sources label such boxes either way): the two voices
				// agree on what is filled, and the model's probability of
				// that fill is both classes'.
				q := slices.Clone(z)
				linear.Softmax(q, lm.AgreeTemperature)
				if both := float64(q[c] + q[sc]); both >= MinConfidence {
					r.Confidence, r.verdict = both, "agree"
					continue
				}
			}
			if c, known := class[rule]; known && rule != "" && !s.Controls[i].Visibility.Hidden {
				// The rules' verdict stands, but the model is unsure of
				// it: the confidence shown is halfway between the rules'
				// and the model's probability for the verdict, and at
				// least the least confidence that is filled; what is
				// filled is decided by the rules' own (Result.Decision).
				// Hidden boxes already show their doubt.
				r.Decision = max(r.Confidence, MinConfidence)
				r.Confidence = max((r.Confidence+shown(c))/2, MinConfidence)
				r.verdict = "doubted"
			}
			continue
		}
		if tok == rule {
			if !s.Controls[i].Visibility.Hidden {
				// What is filled is the rules' verdict, which the model
				// backs: the confidence shown is the model's, at the
				// temperature of two voices agreeing.
				linear.Softmax(z, lm.AgreeTemperature)
				r.Decision = max(r.Confidence, MinConfidence)
				r.Confidence = float64(z[best])
				r.verdict = "agree"
			}
			continue
		}
		part := ""
		if pt, ok := partClasses[tok]; ok {
			// A box of its own for the house number or the street name:
			// filled from the first street line, split.
			tok, part = "address-line1", pt
		}
		conf := shown(best)
		r.Evidence = append([]Evidence{{Signal: "model", Rule: tok, Text: strconv.FormatFloat(conf, 'f', 2, 64)}}, r.Evidence...)
		r.Token, r.Part, r.Confidence, r.Decision = tok, part, conf, float64(odds)
	}
}

// sameFill pairs the tokens whose boxes are filled with the same value
// (matcher: a street box with the first line and the rest of the street
// address where no box holds the second line, with the first line where
// one does, whichever of the two it is told; a country a classifier
// found with its name, or the code where only a code fits).
var sameFill = map[string]string{
	"address-line1": "street-address", "street-address": "address-line1",
	"country": "country-name", "country-name": "country",
}

// SameFill reports whether boxes told token a and token b are filled with
// the same value (sameFill): for the dialog's odds, a fill told either is
// right when the box was labelled the other.
func SameFill(a, b string) bool {
	return a == b || sameFill[a] == b && b != ""
}

// sameFillClasses returns the model's classes of a rules' verdict and of
// the token filled the same way, when the model has both.
func sameFillClasses(class map[string]int, rule string) (c, sibling int, ok bool) {
	other, has := sameFill[rule]
	if !has {
		return 0, 0, false
	}
	c, ok1 := class[rule]
	sibling, ok2 := class[other]
	return c, sibling, ok1 && ok2
}

// ModelMayOverride reports whether the learned model may replace the
// rules' token rule ("" for none or a veto) with its class: not across
// the line between payment card data and the rest, nor between a name
// and its reading. A birth month list the rules found by its label is no
// card's expiry month however much it looks like one, and a card field
// the rules found holds no profile data: card data in the wrong box is
// the costliest wrong fill. A box the rules found for the reading of a
// name (kana, by its script or its identifier) is labelled with the same
// words as the name itself ("セイ", "姓"), which the model cannot tell
// apart.
//
// Nor may it contradict what the rules read in the field's own label or
// list (named, labelNamed): the model, which reads no verdict of the
// rules for the field itself, knows only the languages and words it was
// taught; where the label's are new to it, it sees the field's shape and
// neighbours alone, whose likeliest class is "" (names and dates in
// Hungarian or Indonesian, a Russian ФИО box, an "Address line 3" vetoed
// or renumbered at 0.9 and more when it was let contradict them).
func ModelMayOverride(rule, class string, named bool) bool {
	if rule == "" || rule == class {
		return true
	}
	if named {
		return false
	}
	if class == "" {
		return true
	}
	return strings.HasPrefix(rule, "cc-") == strings.HasPrefix(class, "cc-") &&
		strings.HasPrefix(rule, "phonetic-") == strings.HasPrefix(class, "phonetic-")
}

// labelNamed reports whether the rules found a control by the words a
// person reads beside it (its label, aria-label, placeholder) or by the
// options of its list, rather than by its identifiers or its place.
func labelNamed(r Result) bool {
	for k, e := range r.Evidence {
		switch e.Signal {
		case "options":
			return true
		case "label", "aria-label", "aria-labelledby", "placeholder":
			if k == 0 || k == 1 && r.Evidence[0].Signal == "pass:lang-sense" {
				// The label decided, or the page's language re-read
				// its words (pt-PT "Apelido" is the surname, pt-BR a
				// nickname): a sense of a word by language that the
				// model, reading words and language apart, cannot
				// learn.
				return true
			}
		}
	}
	return false
}

// decided reports whether the rules gave a verdict: a token, or a veto
// (a rule or pass that says the box holds no profile data).
func decided(r Result) bool {
	return r.Token != "" || len(r.Evidence) > 0
}

// partClasses are the model's classes for boxes that hold one part of the
// first street line (Mozilla's labels address-housenumber and
// address-streetname), and the Part each is filled with.
var partClasses = map[string]string{"address-housenumber": "house-number", "address-streetname": "street-name"}

// modelClass is the model's name for a rules' verdict: its token, or the
// part class of a street-line part.
func modelClass(r Result) string {
	if r.Token == "address-line1" {
		for c, part := range partClasses {
			if r.Part == part {
				return c
			}
		}
	}
	return r.Token
}
