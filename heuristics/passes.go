package heuristics

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/tessera-app/tessera/form"
	"github.com/tessera-app/tessera/internal/parallel"
)

// A pass is a structural rule over neighbouring controls of one form: it
// reads and refines the per-control results. Passes run in order.
type pass struct {
	id  string
	run func(g *group)
}

// passes is the ordered table of structural passes.
var passes = []pass{
	{"lang-sense", langSenses},
	{"radio-group", radioGroups},
	{"surnames", surnames},
	{"initials-part", initials},
	{"sei-mei", seiMei},
	{"name-pair", namePairs},
	{"name-row", nameRows},
	{"bare-name", bareNames},
	{"name-suffix", nameSuffixes},
	{"address-run", addressRuns},
	{"street-alone", streetAlone},
	{"suburb", suburbs},
	{"place-town", placeTowns},
	{"region-ladder", regionLadders},
	{"address-row", addressRows},
	{"phone-split", phoneSplits},
	{"area-code-alone", areaCodesAlone},
	{"dial-code", dialCodes},
	{"country-code", countryCodes},
	{"code-boxes", codeBoxes},
	{"postal-split", postalSplits},
	{"birth-date", birthDates},
	{"card-expiry", cardExpiry},
	{"card-fields", cardFields},
	{"passwords", passwords},
	{"login-identifier", loginIdentifiers},
	{"signup-email", signupEmail},
	{"locale-picker", localePickers},
	{"sender-recipient", senderRecipient},
	{"someone-else", someoneElse},
}

// someoneElse clears the boxes of a section the form gives to someone
// other than the person filling it, by its heading or its fieldset's
// legend ("Emergency contact", "Next of kin", "Notfallkontakt",
// "Parrainer un ami", "Passenger 2": laterParty): a name, an e-mail or a
// phone there is that other person's, and the person's own profile does
// not belong in it. A box whose own words say it is the sender's ("From",
// "Your name") stays the person's, and so does one the page declared
// (autocomplete).
func someoneElse(g *group) {
	var name string
	var other bool
	for k := range g.seq {
		tok := g.tok(k)
		if tok == "" || IsGuardToken(tok) {
			continue
		}
		if s := section(g.c(k)); s != name {
			name = s
			n := normalize(s)
			other = strings.Count(n, " ") < someoneElseWords && (someoneElseSection().MatchString(n) || laterParty().MatchString(n))
		}
		if !other || senderWord().MatchString(shownText(g, k)) {
			continue
		}
		g.set(k, "", 0)
		if r := g.r(k); r.Evidence[0].Signal == "pass:"+g.pass {
			r.Evidence[0].Text = normalize(name)
		}
	}
}

// someoneElseWords bounds the words of a section's name: a longer heading
// is a slogan (someoneElseSection).
const someoneElseWords = 5

// laterParty matches, over normalized text, the heading of a form's
// section for one more member of a party: "Passenger 2", "Guest 3",
// "Second driver", "Reisender 2", or for a child ("Child 1", "Enfant",
// "Your child's details"; "Kids club" is no child's section).
// The first passenger, guest or traveller is most often the person
// filling the form (and the one the booking's contact details are
// asked for); the others are not.
var laterParty = lazyRE(`(?:^| )(?:passenger|guest|travell?er|attendee|participant|adult|person|occupant|driver|player|member|applicant|reisende[rn]?|teilnehmer(?:in)?|gast|passager|voyageur|pasajero|viajero|huesped|passeggero|viaggiatore|ospite|passageiro|hospede|passagier|reiziger|deelnemer|pasazer|uczestnik|пассажир|участник|гость) (?:no |nr )?(?:[2-9]|[1-9][0-9])(?: |$)` +
	`|(?:^| )(?:second|2nd|third|3rd|additional|another|other) (?:passenger|guest|travell?er|attendee|participant|adult|person|occupant|driver|applicant)` +
	`|^(?:your |votre |tu |il tuo )?(?:child(?:ren)?|kids?|infant|baby|enfant|nino|nina|bambino|crianca|dziecko|ребенок|ребенка)(?:'?s)?(?: [0-9]+)?(?: details| information| info)?$`)

// someoneElseSection matches, over normalized text, the headings and
// legends of a form's sections for someone else: an emergency contact or
// next of kin, a friend invited or referred, a beneficiary, a spouse.
// Recipients and gifts are left out ("Gift message" heads a note, and the
// address after it may be the person's own), and so are parents or
// guardians, as in the keyword rules (other-person): on shipping forms and
// children's sign-ups they are most often the person filling the form.
// Headings of more than someoneElseWords words are slogans ("Sign up to
// see photos from your friends"), not a section's name.
var someoneElseSection = lazyRE(`(?:^| )(?:emergency|next of kin|friends?'?s?|referee|beneficiar(?:y|ies)|spouse'?s?` +
	`|notfall\S*|angehorige\S*|freund(?:e|in|es)?|ehepartner\S*` +
	`|urgence|ami(?:e|s|es)?|parrain\S*|beneficiaire|conjoint` +
	`|emergencia|amig[oa]s?|beneficiario|conyuge` +
	`|emergenza|amic[oi]|coniuge` +
	`|noodgeval\S*|noodcontact\S*|vriend(?:en|in)?|begunstigde|acil durum|(?:ال|لل)?طواری|לחירום|חירום` +
	`|awaryjn\S*|znajom\S*` +
	`|nodkontakt|anhorig\S*` +
	`|экстренн\S*|друг|друга|друзеи)(?: |$)` +
	`|緊急連絡先|友人|友達|紧急联系人|緊急聯絡人|朋友|비상 ?연락처`)

// senderRecipient clears the boxes for a recipient's e-mail or phone on
// a form that also asks for the sender's ("Your email", "Recipient's
// email": a gift card, a message to pass on): the recipient is someone
// else there. A recipient's name is left alone (a gift order's "Recipient
// name" is where it ships, most often to the person), and so is a
// recipient alone (a shipping form's).
func senderRecipient(g *group) {
	senders := map[string]bool{}
	var recipients []int
	for k := range g.seq {
		tok := g.tok(k)
		if tok != "email" && tok != "tel" {
			continue
		}
		switch t := shownText(g, k); {
		case recipientWord().MatchString(t):
			recipients = append(recipients, k)
		case senderWord().MatchString(t):
			senders[tok] = true
		}
	}
	for _, k := range recipients {
		if senders[g.tok(k)] || giftSection().MatchString(normalize(section(g.c(k)))) {
			g.set(k, "", 0)
		}
	}
}

// giftSection matches, over normalized text, the heading or legend of a
// form's section about a gift ("Send as a gift", "Geschenkoptionen"): a
// recipient's e-mail or phone there is the one the gift goes to.
var giftSection = lazyRE(`(?:^| )(?:gift|geschenk\S*|cadeau|regalo|presente|prezent\S*|подарок|подарка)(?: |$)|ギフト|プレゼント|贈り物|礼物|禮物`)

// section returns the name of the section a control sits in: its
// fieldset's legend, else the heading before it in its form.
func section(c *form.Control) string {
	if len(c.Legends) > 0 && c.Legends[0] != "" {
		return c.Legends[0]
	}
	return c.Heading
}

// recipientWord and senderWord match the words that say a box is for
// the recipient of what the form sends, or for its sender, over
// normalized text ("To", "From" and "Your" only where the label starts
// with them: "Phone number to reach you" and "Email on your account" are
// the person's own).
var (
	recipientWord = lazyRE(`^(?:send )?to(?: |$)|(?:^| )(?:recipient'?s?|empfangers?|beschenkten|destinataire|destinatario|destinataria|ontvanger|odbiorcy|mottagarens?|vastaanottajan)(?: |$)`)
	senderWord    = lazyRE(`^(?:from|your|ihre?n?|votre|vos|tu|tuo|tua|seu|sua|uw|twoj\S*|din|ditt)(?: |$)|(?:^| )(?:sender'?s?|absenders?|expediteur|remitente|mittente|remetente|afzender|nadawcy|avsandarens?|lahettajan)(?: |$)`)
)

// A group is the sequence of fillable controls of one form (or of
// the controls outside any form) that passes look at.
type group struct {
	s    *form.Snapshot
	out  []Result
	seq  []int // indexes into s.Controls, document order
	pass string
	// shadows pairs each hidden copy left out of seq (dropShadows) with
	// the shown box it copies: after the passes it is told what that box
	// is told.
	shadows [][2]int
	// cardElsewhere: a control of another group asks for card data other
	// than a security code, by the rules before any pass. The groups'
	// passes run at once on several cores (applyPasses), so a group reads
	// the others as they were before.
	cardElsewhere bool
}

func (g *group) c(k int) *form.Control { return &g.s.Controls[g.seq[k]] }
func (g *group) r(k int) *Result       { return &g.out[g.seq[k]] }
func (g *group) tok(k int) string      { return g.out[g.seq[k]].Token }

// set records a pass's decision for the k-th control of the group. A token
// the page declared in autocomplete is kept: neighbours are weaker evidence.
func (g *group) set(k int, token string, conf float64) {
	r := g.r(k)
	if len(r.Evidence) > 0 && r.Evidence[0].Rule == "autocomplete" {
		return
	}
	r.Token, r.Confidence = token, conf
	r.Evidence = append([]Evidence{{Signal: "pass:" + g.pass, Rule: token}}, r.Evidence...)
}

// setPart records a pass's decision that the k-th control holds one part
// of token's value, unless the page declared the control's token.
func (g *group) setPart(k int, token, part string, conf float64) {
	if ev := g.r(k).Evidence; len(ev) > 0 && ev[0].Rule == "autocomplete" {
		return
	}
	g.set(k, token, conf)
	g.r(k).Part = part
}

// rule returns the id of the keyword rule that decided the k-th control
// ("" when none did).
func (g *group) rule(k int) string {
	for _, e := range g.r(k).Evidence {
		if !strings.HasPrefix(e.Signal, "pass:") && e.Signal != "options" {
			return e.Rule
		}
	}
	return ""
}

// text returns the normalized text that decided the k-th control.
func (g *group) text(k int) string {
	for _, e := range g.r(k).Evidence {
		if !strings.HasPrefix(e.Signal, "pass:") && e.Signal != "options" {
			return e.Text
		}
	}
	return ""
}

// blank reports whether the k-th control carried no text evidence at all:
// such controls take their meaning from the neighbour they follow.
func (g *group) blank(k int) bool {
	return g.tok(k) == "" && len(g.r(k).Evidence) == 0
}

// wordless reports whether the k-th control shows no words of its own
// beyond those of the ref-th: an unlabelled box continues the line before
// it, but a box labelled "Age" that no rule knows does not.
func (g *group) wordless(k, ref int) bool {
	words := func(c *form.Control) string {
		for _, t := range []string{c.Label, c.AriaLabel, c.Placeholder} {
			if n := normalize(t); n != "" {
				return n
			}
		}
		return ""
	}
	w := words(g.c(k))
	return w == "" || w == words(g.c(ref))
}

// applyPasses runs every structural pass over each form's controls, and
// over the controls outside any form.
func applyPasses(s *form.Snapshot, out []Result) {
	gs := groupsOf(s, out)
	cards, total := make([]int, len(gs)), 0
	for i, g := range gs {
		for _, j := range g.seq {
			if cardData(out[j].Token) {
				cards[i]++
			}
		}
		total += cards[i]
	}
	// Each group (a form, the controls of none) on a core of its own
	// (parallel.Chunks): a pass reads and writes its own group's controls only.
	parallel.Chunks(len(gs), 1, func(lo, hi int) {
		for i, g := range gs[lo:hi] {
			g.cardElsewhere = total > cards[lo+i]
			for _, p := range passes {
				g.pass = p.id
				p.run(g)
			}
			g.followShadows()
		}
	})
}

// dropShadows returns seq without the hidden boxes that sit right beside a
// shown box of the same kind with the same words and id or name, and those boxes
// paired with the shown ones they copy. Such a box is a copy the page
// keeps in step with the one a person sees (some frameworks render a
// hidden twin of each field to measure it): left in the sequence, it
// reads to the passes as a second box of its kind ("Street", "Street":
// line 1 and line 2; "House number" after a hidden "Street": no street
// box beside it).
func dropShadows(s *form.Snapshot, seq []int) (kept []int, shadows [][2]int) {
	kept = seq[:0:0]
	for k, i := range seq {
		if j := shadowOf(s, seq, k); j >= 0 {
			shadows = append(shadows, [2]int{i, j})
			continue
		}
		kept = append(kept, i)
	}
	if shadows == nil {
		return seq, nil
	}
	return kept, shadows
}

// shadowOf returns the shown box next to seq[k] in seq that seq[k] is a
// hidden copy of, or -1.
func shadowOf(s *form.Snapshot, seq []int, k int) int {
	c := &s.Controls[seq[k]]
	if !c.Visibility.Hidden {
		return -1
	}
	words := normalize(c.Label)
	if words == "" {
		return -1
	}
	for _, j := range []int{k + 1, k - 1} {
		if j < 0 || j >= len(seq) {
			continue
		}
		o := &s.Controls[seq[j]]
		if o.Visibility.Hidden || o.Tag != c.Tag || o.Type != c.Type || normalize(o.Label) != words {
			continue
		}
		if c.ID != "" && c.ID == o.ID || c.Name != "" && c.Name == o.Name || c.Name == "" && o.Name != "" {
			// The same words and the same id or name: a copy, not two
			// boxes a label near both was read for. So is a hidden box
			// without a name (it submits nothing) beside a named one: a
			// widget's original box, kept hidden while a styled one in
			// its place takes what is typed.
			return seq[j]
		}
	}
	return -1
}

// followShadows tells each hidden copy the passes did not read what the
// shown box it copies is told (after the rules' passes, and again after
// the learned model's), unless the page declared its own autocomplete
// token.
func (g *group) followShadows() {
	for _, p := range g.shadows {
		r, twin := &g.out[p[0]], g.out[p[1]]
		if len(r.Evidence) > 0 && r.Evidence[0].Rule == "autocomplete" {
			continue
		}
		if len(r.Evidence) > 0 && r.Evidence[0].Signal == "pass:shadow" {
			r.Evidence = r.Evidence[1:]
		}
		r.Token, r.Part, r.Confidence, r.Decision = twin.Token, twin.Part, twin.Confidence, twin.Decision
		r.Evidence = append([]Evidence{{Signal: "pass:shadow", Rule: twin.Token}}, r.Evidence...)
	}
}

// cardData reports whether a token asks for payment card data other than
// its security code.
func cardData(tok string) bool {
	return strings.HasPrefix(tok, "cc-") && tok != "cc-csc"
}

// afterModel runs the passes that must see the learned model's verdicts,
// over each group once:
//   - the radio-group pass again: the model weighs each radio button alone
//     and may clear one member of a group ("Male" beside "Female" under
//     "Gender"), which would leave that choice out of the field;
//   - streetParts.
func afterModel(s *form.Snapshot, out []Result) {
	gs := groupsOf(s, out)
	parallel.Chunks(len(gs), 1, func(lo, hi int) {
		for _, g := range gs[lo:hi] {
			g.pass = "radio-group"
			radioGroups(g)
			g.pass = "street-parts"
			streetParts(g)
			g.followShadows()
		}
	})
}

// streetParts: a box the model read as the house number ("House", "Дом"
// where no rule knew the word) beside a street box the rules read as the
// whole first line makes that box the street name, as the address-run
// pass does for a house-number box the rules found. Otherwise both boxes
// would take the number: the whole line in one, the number again in the
// other.
func streetParts(g *group) {
	for k := range g.seq {
		if r := g.r(k); r.Token != "address-line1" || r.Part != "house-number" || len(r.Evidence) == 0 || r.Evidence[0].Signal != "model" {
			continue
		}
		for _, j := range []int{k - 1, k + 1} {
			if j < 0 || j >= len(g.seq) {
				continue
			}
			if r := g.r(j); (r.Token == "address-line1" || r.Token == "street-address") && r.Part == "" && controlKind(g.c(j)) == ckText && g.c(j).Tag != "textarea" {
				// Even a box the page declared "street-address"
				// (setPart would keep it): with the number asked apart,
				// the whole line would repeat it.
				r.Token, r.Part = "address-line1", "street-name"
				r.Evidence = append([]Evidence{{Signal: "pass:" + g.pass, Rule: "address-line1"}}, r.Evidence...)
				break
			}
		}
	}
}

// groupsOf returns the groups the passes look at: each form's fillable
// controls, and those outside any form.
func groupsOf(s *form.Snapshot, out []Result) []*group {
	var groups [][]int
	for _, f := range s.Forms {
		groups = append(groups, f.Controls)
	}
	var loose []int
	for i := range s.Controls {
		if s.Controls[i].FormIndex < 0 || s.Controls[i].FormIndex >= len(s.Forms) {
			loose = append(loose, i)
		}
	}
	groups = append(groups, loose)
	// A control is in one group at most, the first that lists it: the
	// groups' passes run at once (applyPasses), and a snapshot built by
	// hand may list a control in two forms.
	seen := make([]bool, len(s.Controls))
	var gs []*group
	for _, idx := range groups {
		g := &group{s: s, out: out}
		for _, i := range idx {
			if i < 0 || i >= len(s.Controls) || seen[i] {
				continue
			}
			seen[i] = true
			c := &s.Controls[i]
			// Hidden controls stay in the sequence: a billing block hidden
			// until "same as shipping" is unticked has the same structure.
			if controlKind(c) == 0 {
				continue
			}
			g.seq = append(g.seq, i)
		}
		g.seq, g.shadows = dropShadows(s, g.seq)
		gs = append(gs, g)
	}
	return gs
}

// A sense is the meaning a word has in one language where the keyword
// tables, which know no page, read it in another language's sense.
type sense struct {
	re    *regexp.Regexp // over the normalized text that decided the control
	token string
}

// senses lists, by the page's language (primary subtag, or the whole tag
// for a regional usage), the words whose meaning the html element's lang
// attribute settles: Catalan "Nom" is the given name (French "nom" is the
// surname), Czech and Slovak "kraj" the region and Slovenian "kraj" the
// town (Polish "kraj" is the country), Bulgarian "презиме" the father's
// name (Serbian "презиме" is the surname), and "departamento" the state in
// the Spanish of countries divided into departments (elsewhere a flat).
var senses = sync.OnceValue(func() map[string][]sense {
	s := func(re, tok string) sense { return sense{regexp.MustCompile(re), tok} }
	departamento := []sense{s(`^departamento$`, "address-level1")}
	kraj := []sense{s(`^kraj$`, "address-level1")}
	m := map[string][]sense{
		"ca": {s(`^(el teu |el vostre )?nom$`, "given-name")},
		"cs": kraj,
		"sk": kraj,
		"sl": {s(`^kraj$`, "address-level2")},
		"bg": {s(`^презиме$`, "additional-name")},
		// Japanese "名字" is the surname; Chinese "名字" the given name.
		"zh": {s(`^名字$`, "given-name")},
		// Brazilian "apelido" is a nickname; European Portuguese the surname.
		"pt-pt": {s(`^apelidos?$`, "family-name")},
	}
	for _, r := range []string{"co", "uy", "py", "bo", "gt", "hn", "sv", "ni"} {
		m["es-"+r] = departamento
	}
	return m
})

// langSenses re-reads the words of senses by the page's language. A
// select whose options showed what it holds keeps that reading.
func langSenses(g *group) {
	lang, primary := pageLang(g.s)
	list := slices.Concat(senses()[lang], senses()[primary])
	if len(list) == 0 {
		return
	}
	for k := range g.seq {
		if g.tok(k) == "" || slices.ContainsFunc(g.r(k).Evidence, func(e Evidence) bool { return e.Signal == "options" || e.Rule == "autocomplete" }) {
			continue
		}
		t := g.text(k)
		for _, sn := range list {
			if sn.re.MatchString(t) {
				// The page's language settles the word: as sure as a
				// plain keyword match, whatever the other reading's weight.
				g.set(k, sn.token, max(g.r(k).Confidence, 0.85))
				break
			}
		}
	}
}

// radioGroups gives every radio button of a group the token of any member
// (name="gender" with labels "Male"/"Female" is one field).
func radioGroups(g *group) {
	byName := map[string][]int{}
	for k := range g.seq {
		c := g.c(k)
		if c.Type == "radio" && c.Name != "" {
			byName[c.Name] = append(byName[c.Name], k)
		}
	}
	for _, ks := range byName {
		tok, conf := "", 0.0
		for _, k := range ks {
			if t := g.tok(k); t == "sex" || t == "honorific-prefix" {
				if g.r(k).Confidence > conf {
					tok, conf = t, g.r(k).Confidence
				}
			}
		}
		if tok == "" {
			continue
		}
		if tok == "sex" && slices.ContainsFunc(ks, func(k int) bool { return g.rule(k) == "honorific-prefix" }) && slices.ContainsFunc(ks, func(k int) bool { return titleOnly(g.c(k)) }) {
			// "Frau" is a woman and a title, "Herr" only a title: a
			// group the page calls a salutation ("Anrede") that offers
			// a title naming no sex asks how to address the person,
			// whatever the model makes of "Frau" alone.
			tok = "honorific-prefix"
		}
		for _, k := range ks {
			if g.tok(k) != tok {
				g.set(k, tok, conf)
			}
		}
	}
}

// titleOnly reports whether a radio button offers a title that names no
// sex ("Herr", "Mr", "Mme"; not "Frau", also a woman).
func titleOnly(c *form.Control) bool {
	if len(c.Options) == 0 {
		return false
	}
	t := normalize(c.Options[0].Text)
	return honorificWords()[t] && !genderWords()[t]
}

// namePairs resolves a generic "Name" next to an explicit first or last
// name: "Name" + "Surname" is given + family, "Name" + "Vorname" is family +
// given.
// apelido matches the Portuguese word that is a surname in Portugal and a
// nickname in Brazil.
var apelido = lazyRE(`^apelidos?$`)

func namePairs(g *group) {
	// taken reports whether a box near k already asks for tok: then the
	// generic "Name" is not that part (a decoy or a duplicate box between
	// "First name" and "Last name" is neither).
	taken := func(k int, tok string) bool {
		for j := max(0, k-2); j < min(len(g.seq), k+3); j++ {
			if j != k && g.tok(j) == tok {
				return true
			}
		}
		return false
	}
	for k := 0; k < len(g.seq); k++ {
		if g.tok(k) == "name" && g.rule(k) == "name" && taken(k, "given-name") && taken(k, "family-name") {
			// A bare "Name" among "First name" and "Last name" boxes asks
			// for neither whole name nor a part the others lack.
			g.set(k, "", 0)
		}
	}
	for k := 0; k+1 < len(g.seq); k++ {
		a, b := g.rule(k), g.rule(k+1)
		if g.tok(k) == "name" && a == "name" && g.tok(k+1) == "additional-name" && k+2 < len(g.seq) && g.tok(k+2) == "family-name" {
			// "Name", "Middle name", "Surname": the middle name
			// between them does not part the pair.
			g.set(k, "given-name", 0.8)
			continue
		}
		switch {
		case g.tok(k) == "name" && g.tok(k+1) == "nickname" && apelido().MatchString(g.text(k+1)):
			// "Nome", "Apelido": after a name, the Portuguese surname,
			// not the Brazilian nickname.
			g.set(k, "given-name", 0.8)
			g.set(k+1, "family-name", 0.8)
		case (a == "name" || wholeName(a)) && g.tok(k) == "name" && g.tok(k+1) == "family-name" && !taken(k, "given-name"):
			g.set(k, "given-name", 0.8)
		case a == "name" && g.tok(k) == "name" && g.tok(k+1) == "given-name" && !taken(k, "family-name"):
			g.set(k, "family-name", 0.8)
		case b == "name" && g.tok(k+1) == "name" && g.tok(k) == "given-name" && !taken(k+1, "family-name"):
			g.set(k+1, "family-name", 0.8)
		case b == "name" && g.tok(k+1) == "name" && g.tok(k) == "family-name" && !taken(k+1, "given-name"):
			g.set(k+1, "given-name", 0.8)
		}
	}
}

// localePickers clears a country or language select that is all a form
// asks for: that is the site's region or language switcher (often sent on
// change), not the person's address. So is a combobox that shows only the
// country picked ("Deutschland ▾").
func localePickers(g *group) {
	var picks []int
	for k := range g.seq {
		switch t := g.tok(k); {
		case t == "":
		case (t == "country" || t == "language") && g.c(k).Tag == "select":
			picks = append(picks, k)
		case t == "country" && controlKind(g.c(k)) == ckText && countryNames()[g.text(k)]:
			picks = append(picks, k)
		case IsGuardToken(t):
		default:
			return
		}
	}
	for _, k := range picks {
		g.set(k, "", 0)
	}
}

// surnames marks the two family-name boxes of a form that asks for the
// first and the second surname apart (apellido paterno, apellido materno):
// each holds its part of the family name, not the whole.
func surnames(g *group) {
	second, first := -1, -1
	for k := range g.seq {
		if g.tok(k) != "family-name" {
			continue
		}
		switch g.rule(k) {
		case "second-surname":
			second = k
		case "first-surname", "family-name":
			if first < 0 {
				first = k
			}
		}
	}
	if second < 0 {
		return
	}
	if first < 0 {
		// A second surname box with no box for the first asks for a part
		// the form cannot be given alone.
		g.set(second, "", 0)
		return
	}
	for k, part := range map[int]string{first: "first-surname", second: "second-surname"} {
		r := g.r(k)
		r.Part = part
		r.Evidence = append([]Evidence{{Signal: "pass:" + g.pass, Rule: part}}, r.Evidence...)
	}
}

// initials marks a box for the initials of the given names (Dutch
// "Voorletters", "Initials"): it holds the given name's initials, not the
// name. Beside a box for the first name it asks for something else (the
// initials of every name, as an academic sign-up does), and is left alone.
func initials(g *group) {
	var boxes []int
	for k := range g.seq {
		if g.tok(k) != "given-name" {
			continue
		}
		if g.rule(k) != "initials" {
			boxes = nil
			for j := range g.seq {
				if g.tok(j) == "given-name" && g.rule(j) == "initials" {
					g.set(j, "", 0)
				}
			}
			return
		}
		boxes = append(boxes, k)
	}
	for _, k := range boxes {
		r := g.r(k)
		r.Part = "initials"
		r.Evidence = append([]Evidence{{Signal: "pass:" + g.pass, Rule: "initials"}}, r.Evidence...)
	}
}

// bareName matches the words that mean both "name" and one part of it in
// their language: French and Romanian "Nom"/"Nume" (surname beside a
// first-name box, the whole name alone), Czech "Jméno", Polish "Imię",
// Slovak "Meno", Russian and Ukrainian "Имя"/"Ім'я", Greek "Όνομα", the
// South Slavic "Име"/"Ime", Turkish "Ad"/"İsim", Vietnamese "Tên", Persian
// "نام", Thai "ชื่อ", each alone or as "your ...". Text is normalized.
var bareName = lazyRE(`^(your |votre |vase |twoje |tvoje |ваше |ваш )?(nom|nume|jmeno|imie|meno|имя|ім'я|ονομα|име|ime|ad|adi|adiniz|isim|ten|نام|ชื่อ)$`)

// bareNames reads a lone bare name word as the whole name: with no box for
// the other part of the name anywhere in the form, "Nom" or "Имя" asks
// for the person's name, not half of it.
func bareNames(g *group) {
	parts := 0
	for k := range g.seq {
		switch g.tok(k) {
		case "given-name", "family-name", "additional-name", "name":
			parts++
		}
	}
	if parts != 1 {
		return
	}
	for k := range g.seq {
		if t := g.tok(k); (t == "given-name" || t == "family-name") && bareName().MatchString(g.text(k)) {
			g.set(k, "name", g.r(k).Confidence)
		}
	}
}

// nameSuffixes gives a box the rules read as a name's suffix ("Suffix",
// "Jr./Sr.") the confidence that fills it when it sits right after a box
// for a part of the person's name: there it is the suffix of that name
// (American forms ask "First", "Middle", "Last", "Suffix"). Alone, the
// word is too weak to fill from (a street's suffix, a file's).
func nameSuffixes(g *group) {
	for k := 1; k < len(g.seq); k++ {
		if g.tok(k) != "honorific-suffix" || controlKind(g.c(k)) == 0 {
			continue
		}
		switch g.tok(k - 1) {
		case "family-name", "given-name", "additional-name", "name":
			g.set(k, "honorific-suffix", max(g.r(k).Confidence, 0.75))
		}
	}
}

// nameRows splits a whole-name label over the two boxes of its row: "お名前"
// above [山田] [太郎], "Name" beside two boxes. The second box carries no
// words of its own (at most an example placeholder). The order is the
// page's: family name first in Japanese, Chinese, Korean, Hungarian and
// Vietnamese, given name first elsewhere.
//
// The same holds for a name's reading: "フリガナ" above [ヤマダ] [タロウ]
// is the family name's reading, then the given name's. There the second
// box may carry the first's name stem as its only word (kana1, kana2).
func nameRows(g *group) {
	for k := 0; k+1 < len(g.seq); k++ {
		phonetic := g.tok(k) == "phonetic-name" && g.rule(k) == "phonetic-name"
		if !phonetic && (g.tok(k) != "name" || (g.rule(k) != "name" && !wholeName(g.rule(k)))) {
			continue
		}
		cur, next := g.c(k), g.c(k+1)
		switch cur.LabelSource {
		case "", "placeholder", "title":
			continue // the whole-name word must be a label the row shows
		}
		ev := g.r(k + 1).Evidence
		stemOnly := phonetic && g.tok(k+1) == "phonetic-name" && len(ev) > 0 && ev[0].Signal == "name"
		if controlKind(next) != ckText || !g.blank(k+1) && !stemOnly || next.LabelSource != "" && next.LabelSource != "placeholder" {
			continue
		}
		if (next.Name != "" || stemOnly) && nameStem(next.Name) != nameStem(cur.Name) {
			continue // a box of its own ("comment", "text"), not the name's second half
		}
		if k+2 < len(g.seq) && g.blank(k+2) && controlKind(g.c(k+2)) == ckText {
			continue // three boxes: not a first/last pair
		}
		first, second := "given-name", "family-name"
		if familyFirst(g.s, g.c(k).Label) {
			first, second = second, first
		}
		if phonetic {
			first, second = "phonetic-"+first, "phonetic-"+second
		}
		g.set(k, first, 0.75)
		g.set(k+1, second, 0.75)
		k++
	}
}

// postalSplits marks a postcode asked in two short boxes, as Japanese
// (〒123-4567), Portuguese (1000-001) and Polish (00-950) forms do: a
// postcode box and the unlabelled box after it, each holding at most five
// characters, are the two parts of one postcode.
func postalSplits(g *group) {
	short := func(c *form.Control) bool {
		return c.Constraints.MaxLength >= 2 && c.Constraints.MaxLength <= 5
	}
	for k := 0; k+1 < len(g.seq); k++ {
		if g.tok(k) != "postal-code" || g.r(k).Part != "" || !short(g.c(k)) {
			continue
		}
		next := g.c(k + 1)
		if controlKind(next) != ckText || !short(next) || g.r(k+1).Part != "" {
			continue
		}
		// The second box says nothing of its own, or only what the
		// first says (name="zip2"); a "-" between the boxes is no label.
		if t := g.tok(k + 1); t != "" && t != "postal-code" || normalize(next.Label) != "" && next.LabelSource != "placeholder" {
			continue
		}
		conf := g.r(k).Confidence
		for i, part := range []string{"postal-code-1", "postal-code-2"} {
			g.set(k+i, "postal-code", conf)
			g.r(k + i).Part = part
		}
		k++
	}
}

// nameStem is a control name without a trailing number or bracketed part:
// "n1" and "n2", "name[0]" and "name[1]" share theirs.
func nameStem(n string) string {
	return stemSuffix().ReplaceAllString(strings.ToLower(n), "")
}

var stemSuffix = lazyRE(`(\[[^\]]*\]|[_.-]?\d+)$`)

// pageLang returns the page's language tag, lower case with "-" ("pt-br"),
// and its primary subtag ("pt").
func pageLang(s *form.Snapshot) (tag, primary string) {
	tag = strings.ToLower(strings.ReplaceAll(s.Lang, "_", "-"))
	primary, _, _ = strings.Cut(tag, "-")
	return tag, primary
}

// familyFirst reports whether a page writes the family name first: by its
// language, or by a label in an East Asian script.
func familyFirst(s *form.Snapshot, label string) bool {
	switch _, primary := pageLang(s); primary {
	case "ja", "zh", "ko", "hu", "vi":
		return true
	}
	for _, r := range label {
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
			return true
		}
	}
	return false
}

// addressRuns numbers runs of street address lines: "Address" followed by
// another "Address" (or an unlabelled box) is line 1 and line 2.
func addressRuns(g *group) {
	streetNumberAlone(g)
	finderAlone(g)
	numberForFinder(g)
	streetInSecondLine(g)
	buildingBoxes(g)
	for k := 0; k < len(g.seq); k++ {
		if g.tok(k) == "address-line2" && g.rule(k) == "address-line2" && k+1 < len(g.seq) &&
			g.tok(k+1) == "address-line2" && g.rule(k+1) == "address-line2" && g.text(k+1) != g.text(k) {
			a, b := linePart(g.c(k)), linePart(g.c(k+1))
			if numberedOneTwo(g.c(k), g.c(k+1)) {
				// "address_1" and "address_2" whose labels both read as
				// the second line ("Name of building or estate", "Unit
				// number"): the site's own numbering says which line
				// each is.
				g.set(k, "address-line1", g.r(k).Confidence)
				k++
				continue
			}
			if a == "" && b != "" && k+2 < len(g.seq) && g.tok(k+2) == "address-line2" && g.rule(k+2) == "address-line2" {
				if c := linePart(g.c(k + 2)); c != "" && c != b && lineWhole(g.c(k)) {
					// A box for the whole second line followed by boxes
					// for its parts ("Address line 2", "Floor",
					// "Apartment"): each keeps what it asks for.
					continue
				}
			}
			if a != "" && b != "" && a != b {
				// Boxes for two parts of the second line ("Piso",
				// "Depto"): each takes its part of the line (matcher:
				// lineComponents), never the whole line.
				g.setPart(k, "address-line2", a, g.r(k).Confidence)
				g.setPart(k+1, "address-line2", b, g.r(k+1).Confidence)
				k++
				continue
			}
			if a == "" && b == "" && (hasWord(wholeLine2(), g.text(k+1)) || lineWhole(g.c(k)) && lineWhole(g.c(k+1))) {
				// Two boxes for whole lines ("Address line 2",
				// "Complement"): the second and third lines.
				g.set(k+1, "address-line3", g.r(k+1).Confidence)
				k++
				continue
			}
			if a != "" && b == "" && hasWord(landmark(), g.text(k+1)) {
				// A part of the second line and then a box for what lies
				// near ("Floor", "Landmark"): the part, and line 3.
				g.setPart(k, "address-line2", a, g.r(k).Confidence)
				g.set(k+1, "address-line3", g.r(k+1).Confidence)
				k++
				continue
			}
			if a != "" && b == "" {
				// A part of the second line and then a box asking for the
				// line, whole ("Emelet", "Kiegészítés a címhez"; "Floor",
				// "Address addition"): the part, and the whole line, so
				// that what the part leaves out (the flat, the door) is
				// still given.
				g.setPart(k, "address-line2", a, g.r(k).Confidence)
				k++
				continue
			}
			// Two second-line boxes in a row ("Address 2", "Unit";
			// "Building", "Floor, apartment") split a line the profile
			// holds whole in a way their words do not tell: the first
			// takes what it asks for (the whole line, or its one part),
			// as a person would write it, and the second nothing.
			g.set(k+1, "", 0)
			k++
			continue
		}
		if g.tok(k) != "address-line1" && g.rule(k) != "street-name" {
			continue
		}
		if hn := houseNumberBeside(g, k); hn >= 0 {
			// A street box beside a house-number box (or after house
			// number and addition, as Dutch forms ask them) holds the
			// street name only; the number goes in its own box. Both are
			// filled from the profile's first street line, split where
			// the country puts the number (matcher: splitStreet).
			conf := max(g.r(k).Confidence, 0.8)
			g.setPart(k, "address-line1", "street-name", conf)
			g.setPart(hn, "address-line1", "house-number", conf)
			continue
		}
		if g.rule(k) == "street-name" && g.tok(k) == "" && controlKind(g.c(k)) == ckText && !houseNumberBox(g) &&
			k+1 < len(g.seq) && g.tok(k+1) == "address-line2" {
			// "Street name" followed by the second line's boxes (the
			// building, floor and flat) on a form with no box for the
			// house number asks for the street line.
			g.set(k, "address-line1", max(g.r(k).Confidence, 0.75))
		}
		if g.tok(k) != "address-line1" {
			continue
		}
		if g.c(k).Tag == "textarea" {
			// A multi-line box takes the whole street address.
			g.set(k, "street-address", g.r(k).Confidence)
			continue
		}
		line := 1
		for j := k + 1; j < len(g.seq) && line < 3; j++ {
			c := g.c(j)
			if controlKind(c) != ckText {
				break
			}
			if twin(g.c(k), c) {
				// The same box twice (a labelled box and the unlabelled
				// copy a script keeps in step): no second line.
				if g.tok(j) == "" {
					g.set(j, g.tok(k), g.r(k).Confidence)
				}
				break
			}
			same := g.tok(j) == "address-line1" && g.text(j) == g.text(k)
			cont := g.tok(j) == "address-line1" && line == 1
			if !same && firstLine().MatchString(g.text(j)) && !zeroBased(g.c(k), g.c(j)) {
				// "Address line 1" starts its own run: the box before it
				// (an "Attention" line, a finder) was no street line.
				break
			}
			if !same && g.rule(k) == "address" && g.rule(j) != "address" && identOnly(g.r(k)) {
				// A box only its name calls "address" ("addressline2"
				// under "Reference") does not make the box its label
				// calls "Street" a second line.
				break
			}
			if !same && !cont && !(g.blank(j) && g.wordless(j, k)) {
				break
			}
			line++
			g.set(j, "address-line"+string(rune('0'+line)), 0.75)
			k = j
		}
	}
}

// twin reports whether two boxes are one field the page shows twice: a
// box and an unlabelled copy that shares its name, or whose name is the
// other's id ("street" labelled "Rue et n°" beside a box named "street").
// Two labelled boxes of one name ("Prefecture" and "Address", both named
// "address") are two fields, and an array's name ("street[]") names each
// of its lines alike.
func twin(a, b *form.Control) bool {
	if shows(a) && shows(b) {
		return false
	}
	key := func(s string) string {
		if strings.HasSuffix(s, "[]") {
			return ""
		}
		return s
	}
	an, ai, bn, bi := key(a.Name), key(a.ID), key(b.Name), key(b.ID)
	return an != "" && (an == bn || an == bi) || ai != "" && (ai == bn || ai == bi)
}

// shows reports whether a box shows words of its own: a label, an
// aria-label or a placeholder.
func shows(c *form.Control) bool {
	return normalize(c.Label) != "" || normalize(c.AriaLabel) != "" || normalize(c.Placeholder) != ""
}

// numberedOneTwo reports whether two boxes are the first and second of
// one array of lines by their names ("billing_address_1" and
// "billing_address_2", "street[1]" and "street[2]").
func numberedOneTwo(a, b *form.Control) bool {
	sa, ia := cutIndex(a.Name)
	sb, ib := cutIndex(b.Name)
	return sa != "" && sa == sb && ia == "1" && ib == "2"
}

// houseNumberBox reports whether the group has a box the house-number
// rule decided that no pass gave a token.
func houseNumberBox(g *group) bool {
	for j := range g.seq {
		if g.rule(j) == "house-number" && g.tok(j) == "" {
			return true
		}
	}
	return false
}

// buildingBoxes gives a "Building number" box followed by a box for the
// floor or the flat the building part of the second line: the building,
// floor and flat of a block of flats (Egyptian, Gulf and other forms),
// where a "Building number" beside the street alone (a Saudi national
// address) is the house number.
func buildingBoxes(g *group) {
	for j := 0; j+1 < len(g.seq); j++ {
		if g.rule(j) != "house-number" || g.tok(j) != "" || !buildingWord().MatchString(g.text(j)) {
			continue
		}
		if g.tok(j+1) != "address-line2" {
			continue
		}
		if p := linePart(g.c(j + 1)); p == "floor" || p == "apartment" {
			g.setPart(j, "address-line2", "building", max(g.r(j).Confidence, 0.75))
		}
	}
}

// buildingWord matches the words for a building that the house-number
// rule reads ("Building no.", "رقم المبنى"), over normalized text.
var buildingWord = lazyRE(`(?:^| )(?:building|bldg)(?: |$)|مبنى`)

// zeroBased reports whether two boxes are the first two of an array
// the site numbers from zero ("street[0]", "street[1]", as Magento names
// its street lines): the second's "1" numbers no first line.
func zeroBased(a, b *form.Control) bool {
	sa, ia := cutIndex(a.Name)
	sb, ib := cutIndex(b.Name)
	return sa != "" && sa == sb && ia == "0" && ib == "1"
}

// cutIndex splits a name into its stem and a trailing index
// ("street[1]", "street.1", "street_1").
func cutIndex(name string) (stem, index string) {
	m := indexSuffix().FindStringSubmatch(name)
	if m == nil {
		return name, ""
	}
	return m[1], m[2] + m[3]
}

var indexSuffix = lazyRE(`^(.*?)(?:\[(\d+)\]|[._-](\d+))(?:\.value)?$`)

// streetNumberAlone gives a box the house-number rule found by a label
// that names the street too ("Street no.", "Número de calle"; the words
// of the first street line's rule in any language: Thai "บ้านเลขที่ ถนน
// ซอย", house number, road, lane) the first
// street line when the form has no other box for the street: such a label
// asks for the number beside a street box, else for the street with its
// number.
func streetNumberAlone(g *group) {
	if k := loneHouseNumber(g); k >= 0 && controlKind(g.c(k)) == ckText && (streetWord().MatchString(g.text(k)) || table().find(ruleByID("address-line1"), g.text(k)) >= 0) {
		g.set(k, "address-line1", max(g.r(k).Confidence, 0.75))
	}
}

// finderAlone gives an address finder ("Start typing your address", a
// search box named "addressSearch") the first street line when the form
// has no other box for the street: then it is where the street goes (the
// site's own line 1 with suggestions attached, or a finder that fills
// the rest), not a look-up beside the real boxes. The form must ask for
// other profile data too: a store finder alone in a page's header is no
// street line.
func finderAlone(g *group) {
	k, others := -1, 0
	for j := range g.seq {
		switch rule := g.rule(j); {
		case streetBox(g, j):
			return
		case (rule == "address-lookup" || rule == "search") && g.tok(j) == "" && controlKind(g.c(j)) == ckText && namesAddress(g.c(j)):
			if k >= 0 {
				return
			}
			k = j
		case g.tok(j) != "" && !IsGuardToken(g.tok(j)):
			others++
		}
	}
	if k >= 0 && others >= 2 {
		g.set(k, "address-line1", 0.75)
	}
}

// streetBox reports whether the j-th box of the group is one for the
// street: a street line, or what the rules read as the street's name, its
// house number or an address.
func streetBox(g *group, j int) bool {
	switch g.rule(j) {
	case "street-name", "house-number", "address":
		return true
	}
	return g.tok(j) == "address-line1" || g.tok(j) == "street-address"
}

// loneHouseNumber returns the form's one box the house-number rule read
// that no pass gave a token, when no box asks for the street; else -1.
func loneHouseNumber(g *group) int {
	k := -1
	for j := range g.seq {
		switch {
		case g.rule(j) == "house-number" && g.tok(j) == "":
			if k >= 0 {
				return -1
			}
			k = j
		case streetBox(g, j):
			return -1
		}
	}
	return k
}

// numberForFinder gives a house-number box right beside the postcode box
// the house number, part of the first street line, when the form has no
// box for the street: the postcode and house number an address finder
// looks the street up by ("House number or name", "Postcode", "Find
// address"; the Dutch "Postcode", "Huisnummer"). A house number alone,
// with no postcode beside it, stays unfilled.
func numberForFinder(g *group) {
	hn := loneHouseNumber(g)
	if hn < 0 || controlKind(g.c(hn)) != ckText {
		return
	}
	for _, j := range []int{hn - 1, hn + 1} {
		if j >= 0 && j < len(g.seq) && g.tok(j) == "postal-code" && g.r(j).Part == "" {
			g.setPart(hn, "address-line1", "house-number", max(g.r(hn).Confidence, 0.75))
			return
		}
	}
}

// streetInSecondLine gives the first street line to a box the rules read
// as the second line for a part of it it names ("Street / Building",
// "Calle y edificio") when its words also name the street and the form
// has no other box for the street: there it is where the street goes,
// and given only the building it would leave the street out.
func streetInSecondLine(g *group) {
	k := -1
	for j := range g.seq {
		switch {
		case streetBox(g, j):
			return
		case k < 0 && g.tok(j) == "address-line2" && controlKind(g.c(j)) == ckText && table().find(ruleByID("address-line1"), shownText(g, j)) >= 0:
			k = j
		}
	}
	if k >= 0 {
		g.set(k, "address-line1", max(g.r(k).Confidence, 0.75))
	}
}

// namesAddress reports whether one of a box's texts (its label,
// aria-label, placeholder, name or id) names an address or a street.
func namesAddress(c *form.Control) bool {
	for _, t := range []string{c.Label, c.AriaLabel, c.Placeholder, c.Name, c.ID} {
		if n := normalize(t); n != "" && (table().find(ruleByID("address"), n) >= 0 || table().find(ruleByID("address-line1"), n) >= 0) {
			return true
		}
	}
	return false
}

// streetWord matches the words for a street in the labels the
// house-number rule reads, over normalized text.
var streetWord = lazyRE(`(?:^| )(?:street|st|calle|rue|voie)(?: |$)`)

// houseNumberBeside returns the house-number box that goes with the
// street box k: the next box, the one before, or the one before an
// addition box (Dutch forms ask number, addition, street). -1 if none.
func houseNumberBeside(g *group, k int) int {
	hn := func(j int) bool {
		if j < 0 || j >= len(g.seq) {
			return false
		}
		if g.rule(j) == "house-number" && g.tok(j) == "" {
			return true
		}
		// A box labelled just "Number" beside the street box, whatever
		// its name says ("address2", "num_building").
		return (g.tok(j) == "" || identOnly(g.r(j))) && controlKind(g.c(j)) == ckText && houseNumberWord().MatchString(shownText(g, j))
	}
	switch {
	case hn(k + 1):
		return k + 1
	case hn(k - 1):
		return k - 1
	case hn(k-2) && g.tok(k-1) == "address-line2":
		return k - 2
	case hn(k+2) && g.blank(k+1) && noWords(g.c(k+1)):
		// A control with no words at all between them (a widget's empty
		// list of suggestions): no part of the address.
		return k + 2
	case hn(k+2) && g.rule(k+1) == "street-type":
		// "Közterület neve", "Közterület jellege", "Házszám": the
		// street's kind between its name and its number.
		return k + 2
	}
	return -1
}

// noWords reports whether a control carries no words at all: no label,
// name, id, placeholder or aria-label (the method wordless compares a
// box's shown words with another's).
func noWords(c *form.Control) bool {
	return strings.TrimSpace(c.Label+c.Name+c.ID+c.Placeholder+c.AriaLabel) == ""
}

// houseNumberWord matches a label that asks for a number and names
// nothing else ("Number", "No.", "Будинок"): beside a street box, the
// house number.
var houseNumberWord = lazyRE(`^(?:number|no|nr|num|numero|n|broj|cislo|szam|nummer|номер|будинок|дом|αριθμοσ)$`)

// streetAlone gives a box labelled just "Address" with no other address
// line near it the whole street address: address-line1 is the first of
// several lines, and a lone box must also carry what a second line would (a
// flat or suite number), which the profile's line 1 alone loses. A box
// that says "Street" or "Address line 1" keeps line 1.
func streetAlone(g *group) {
	for k := 0; k < len(g.seq); k++ {
		if g.tok(k) != "address-line1" || g.r(k).Part != "" || numberedLine(shownText(g, k)) {
			// A part of the line (the house number) is no line.
			// "Address line 1" or "Street 1" names the first line
			// whatever follows (a second line is often revealed by a
			// link). A street box alone ("Street", "Street and house
			// number", "Adresse") takes the whole street address.
			continue
		}
		alone := true
		for j := max(0, k-3); j < min(len(g.seq), k+6); j++ {
			// A line after the street box makes it line 1; a box for
			// the second line before it ("C/O", a reference) does not.
			if t := g.tok(j); j > k && (t == "address-line2" || t == "address-line3") || j != k && t == "address-line1" && !twin(g.c(k), g.c(j)) && !otherAddress(g, min(j, k), max(j, k)) {
				alone = false
				break
			}
		}
		if alone {
			g.set(k, "street-address", g.r(k).Confidence)
		}
	}
}

// otherAddress reports whether a box between the a-th and b-th asks for
// a part of an address other than its street (its town, region, postcode
// or country): the street boxes on either side belong to two addresses
// (billing then delivery), not to two lines of one.
func otherAddress(g *group, a, b int) bool {
	for j := a + 1; j < b; j++ {
		switch t := g.tok(j); {
		case t == "postal-code", t == "country", t == "country-name", strings.HasPrefix(t, "address-level"):
			return true
		}
	}
	return false
}

// suburbs reads a "Suburb" box beside a box for the town or city
// (New Zealand, South African forms) as the district inside the town;
// alone (Australian forms) the suburb is the town itself.
func suburbs(g *group) {
	for k := range g.seq {
		if g.tok(k) != "address-level2" || !suburbWord().MatchString(g.text(k)) {
			continue
		}
		for j := range g.seq {
			if j != k && g.tok(j) == "address-level2" && !suburbWord().MatchString(g.text(j)) {
				g.set(k, "address-level3", g.r(k).Confidence)
				break
			}
		}
	}
}

// ladderTier ranks the words Spanish- and Portuguese-speaking countries
// name their divisions by, largest first. Which division a word names
// depends on the country: Peru's "Departamento", "Provincia", "Distrito"
// are its three levels, Panama's "Provincia", "Distrito",
// "Corregimiento" and Costa Rica's "Provincia", "Cantón", "Distrito"
// too, Portugal's "Distrito", "Concelho", "Freguesia"; Argentina's
// "Departamento" is a flat.
var ladderTier = map[string]int{
	"departamento": 1, "estado": 1,
	"provincia": 2,
	"distrito":  3, "canton": 3, "municipio": 3, "concelho": 3,
	"corregimiento": 4, "parroquia": 4, "freguesia": 4,
}

// regionLadders reads two or three boxes named by those words, in
// document order from the largest division down, as the address's levels
// 1, 2 and 3 in that order, where the words alone gave two of them one
// level or one of them none ("Departamento" read as a flat): the form
// lists one country's divisions, largest first.
func regionLadders(g *group) {
	var ks []int
	tier, clash := 0, false
	seen := map[string]bool{}
	for k := range g.seq {
		// Only a box read as a division, as a flat or as nothing can
		// be one; its words are normalized only then (normalize costs
		// more than the rest of this pass).
		tok := g.tok(k)
		if tok != "" && tok != "address-line2" && !strings.HasPrefix(tok, "address-level") || controlKind(g.c(k))&ckDefault == 0 {
			continue
		}
		t, ok := ladderTier[shownWords(g.c(k))]
		if !ok {
			continue
		}
		if t < tier || len(ks) == 3 {
			return // not largest first, or more than three
		}
		tier = t
		clash = clash || seen[tok] || !strings.HasPrefix(tok, "address-level")
		seen[tok] = true
		ks = append(ks, k)
	}
	if len(ks) < 2 || !clash {
		return
	}
	for i, k := range ks {
		g.set(k, "address-level"+strconv.Itoa(i+1), max(g.r(k).Confidence, 0.8))
	}
}

// shownWords returns the words a person sees on a box, normalized: its
// label, else its aria-label or placeholder.
func shownWords(c *form.Control) string {
	for _, t := range []string{c.Label, c.AriaLabel, c.Placeholder} {
		if n := normalize(t); n != "" {
			return n
		}
	}
	return ""
}

// placeTowns reads a box labelled only "Location" or "Place" (what
// translations make of "Ort", "Lieu", "Mjesto", "Település") as the town
// where it stands in an address: a box for the postcode, the street, the
// region or the district beside it, and no other box for the town near
// it. Elsewhere ("Location" of an event, a job) it asks for no profile
// data.
func placeTowns(g *group) {
	for k := range g.seq {
		c := g.c(k)
		if !g.blank(k) || c.Tag != "input" || controlKind(c) != ckText || !placeWord().MatchString(normalize(c.Label)) {
			continue
		}
		beside, town := false, false
		for j := max(0, k-3); j < min(len(g.seq), k+4); j++ {
			switch g.tok(j) {
			case "postal-code", "street-address", "address-line1", "address-level1", "address-level3":
				beside = beside || j >= k-2 && j <= k+2
			case "address-level2":
				town = true
			}
		}
		if beside && !town {
			g.set(k, "address-level2", 0.8)
		}
	}
}

// placeWord matches a label that names a place and nothing else.
var placeWord = lazyRE(`^(?:location|place|locality|settlement)$`)

// suburbWord matches a text that names the suburb and not the town.
var suburbWord = lazyRE(`^(?:.* )?suburb(?: [^/]*)?$`)

// shownText returns the text that numbers the k-th box's line: the one
// that decided it, unless only its name or id did and the person sees a
// label that does not number the line ("Address" on a box named
// "addressLine1"): the words shown say what the box asks for.
func shownText(g *group, k int) string {
	if !identOnly(g.r(k)) {
		return g.text(k)
	}
	if n := shownWords(g.c(k)); n != "" {
		return n
	}
	return g.text(k)
}

// streetAddress reports whether a text that names a street also says
// "address" and no line number: "Street address" asks for the address's
// street part, all of it, where "Street" or "Street address line 1" asks
// for a first line.
// numberedLine reports whether a label numbers the line it asks for
// ("Address line 1", "Street 1").
func numberedLine(text string) bool {
	return strings.ContainsAny(text, "0123456789") || lineWord().MatchString(text)
}

func streetAddress(text string) bool {
	if strings.ContainsAny(text, "0123456789") || lineWord().MatchString(text) {
		return false
	}
	return table().find(ruleByID("address"), text) >= 0
}

// identOnly reports whether a result was decided by a control's name or
// id, no text the person sees.
func identOnly(r *Result) bool {
	for _, e := range r.Evidence {
		if !strings.HasPrefix(e.Signal, "pass:") && e.Signal != "options" {
			return e.Signal == "name" || e.Signal == "id"
		}
	}
	return false
}

// firstLine matches a text that numbers its line the first ("Address line
// 1", "address one").
var firstLine = lazyRE(`(?:^| )(?:1|one|first)(?: |$)`)

// lineWord matches the words that number an address line.
var lineWord = lazyRE(`(?:^| )(?:line|one|first|ligne|linea|zeile|regel|riga)(?: |$)`)

// addressRows spreads a combined label ("City, State, ZIP" or "PLZ / Ort")
// over the controls of its row, in the order the label names them.
func addressRows(g *group) {
	postcodeHouseRows(g)
	for k := 0; k < len(g.seq); k++ {
		if !addressPart[g.rule(k)] || !addressPart[g.tok(k)] {
			continue
		}
		text := g.text(k)
		parts := labelParts(text)
		if len(parts) < 2 {
			continue
		}
		next := 1
		for j := k + 1; j < len(g.seq) && next < len(parts); j++ {
			if !(g.blank(j) || g.text(j) == text || slices.Contains(parts, g.tok(j))) {
				break
			}
			if controlKind(g.c(j))&(ckText|ckSelect) == 0 {
				// A radio button or a check box is a choice, not a part
				// of the row: the row ends before it.
				break
			}
			if n := g.c(j).Name; n != "" && n == g.c(k).Name && !strings.HasSuffix(n, "[]") {
				// The same name again: a copy of the box (one drawn for
				// each screen size), not the row's next part.
				break
			}
			if optionShape(g.c(j)) != shapeNone {
				// A list that says what it is (countries, states) speaks
				// for itself.
				if t := g.tok(j); slices.Contains(parts[next:], t) {
					next = slices.Index(parts, t) + 1
				}
				continue
			}
			if t := g.tok(j); slices.Contains(parts[next:], t) && g.text(j) != text {
				// The control named itself (a state picker, say): keep it
				// and move past its part.
				next = slices.Index(parts, t) + 1
				continue
			}
			g.set(j, parts[next], 0.7)
			next++
		}
	}
}

// postcodeHouseRows: "Postcode + huisnummer" over two boxes (the Dutch
// address finder's row) is the postcode, then the house number, which
// the finder completes to the street; the house-number rule read the
// label and left both boxes empty.
func postcodeHouseRows(g *group) {
	t := table()
	for k := 0; k+1 < len(g.seq); k++ {
		if g.rule(k) != "house-number" || g.tok(k) != "" || !g.blank(k+1) || controlKind(g.c(k+1)) != ckText {
			continue
		}
		text := g.text(k)
		p, h := t.find(ruleByID("postal-code"), text), t.find(ruleByID("house-number"), text)
		if p < 0 || h < 0 || p > h {
			continue
		}
		g.set(k, "postal-code", 0.7)
		g.setPart(k+1, "address-line1", "house-number", 0.7)
		k++
	}
}

// labelParts lists the address parts a combined label names, in the order
// they appear in it.
func labelParts(text string) []string {
	type at struct {
		pos int
		tok string
	}
	var found []at
	for id := range addressPart {
		if id == "country" {
			// "Country/Region" names one field, not a row of two.
			continue
		}
		r := ruleByID(id)
		if p := table().find(r, text); p >= 0 {
			found = append(found, at{p, r.token})
		}
	}
	slices.SortFunc(found, func(a, b at) int { return a.pos - b.pos })
	out := make([]string, len(found))
	for i, f := range found {
		out[i] = f.tok
	}
	return out
}

// phoneSplits recognises a telephone number split over adjacent short boxes
// (country code, area code, local prefix, local suffix), by their lengths.
func phoneSplits(g *group) {
	for k := 0; k < len(g.seq); k++ {
		if !strings.HasPrefix(g.tok(k), "tel") {
			continue
		}
		if numberedParts(g, k, 3) {
			// "tel1", "tel2", "tel3" under one label, with no length to
			// tell: the parts of one number, not the whole number three
			// times.
			for i, t := range []string{"tel-area-code", "tel-local-prefix", "tel-local-suffix"} {
				g.set(k+i, t, 0.8)
			}
			k += 2
			continue
		}
		if j := k + 1; g.tok(k) == "tel-area-code" && labelNamed(*g.r(k)) && !holdsDialCode(g.c(k)) &&
			j < len(g.seq) && controlKind(g.c(j)) == ckText && !short(g.c(j)) &&
			(g.tok(j) == "tel" || g.tok(j) == "" && bareNumber().MatchString(g.text(j))) {
			// "Area code" then "Phone" (or a bare "Número"), with no
			// length to tell and no calling code in the first ("+43": see
			// the run below): the words ask for the area code apart, so
			// the box after it takes the rest of the number, not the
			// whole number with the area code again.
			g.set(j, "tel-local", max(g.r(j).Confidence, 0.8))
			k = j
			continue
		}
		run := []int{k}
		limit := 3
		if g.tok(k) == "tel-country-code" || g.c(k).Tag == "select" {
			limit = 4
		}
		for j := k + 1; j < len(g.seq) && len(run) < limit; j++ {
			c := g.c(j)
			if c.Tag == "select" && len(c.Options) == 0 && g.blank(j) {
				// An empty list without words (a widget's, filled by its
				// script): no part of the number, nor its end.
				continue
			}
			if controlKind(c) != ckText && !(c.Tag == "select" && (g.tok(j) == "" || strings.HasPrefix(g.tok(j), "tel-") && g.tok(j) != "tel-extension")) {
				// A list continues a run when it says nothing or names a
				// part of the number (an area code list after the code).
				break
			}
			if !(g.blank(j) || strings.HasPrefix(g.tok(j), "tel") && g.tok(j) != "tel-extension" || len(run) == 1 && g.tok(k) == "tel-area-code" && bareNumber().MatchString(g.text(j))) {
				// A bare "Número" after "Código de área" is the rest of
				// the phone number, not a house number.
				break
			}
			if g.blank(j) && c.Visibility.Hidden && j+1 < len(g.seq) && g.tok(j+1) == "tel" && !g.c(j+1).Visibility.Hidden {
				// A hidden box without a word (a script's helper) before
				// the phone box the page shows: not a part of the number.
				break
			}
			if strings.HasPrefix(g.tok(j), "tel") && g.text(j) != g.text(k) && g.tok(j) == "tel" && !short(g.c(j-1)) {
				break
			}
			run = append(run, j)
			if !short(c) {
				// Only the last part of a number is long: a list or box
				// after it belongs to something else.
				break
			}
		}
		if len(run) < 2 {
			continue
		}
		shortAll := true
		for _, j := range run[:len(run)-1] {
			if !short(g.c(j)) {
				shortAll = false
			}
		}
		if !shortAll {
			continue
		}
		var toks []string
		first := g.c(run[0])
		code := g.tok(run[0]) == "tel-country-code" || first.Tag == "select" && g.tok(run[0]) != "tel-area-code" ||
			holdsDialCode(first)
		switch len(run) {
		case 2:
			toks = []string{"tel-area-code", "tel-local"}
			if code {
				toks = []string{"tel-country-code", "tel-national"}
			}
		case 3:
			toks = []string{"tel-area-code", "tel-local-prefix", "tel-local-suffix"}
			if code {
				toks = []string{"tel-country-code", "tel-area-code", "tel-local"}
			}
		case 4:
			toks = []string{"tel-country-code", "tel-area-code", "tel-local-prefix", "tel-local-suffix"}
		}
		for i, j := range run {
			if toks[i] == "tel-local" && g.rule(j) == "tel-national" || toks[i] == "tel-national" && intlExample(g.c(j)) {
				// "National number" after the code and an area code list
				// the page shows for some countries only, or a box whose
				// example is a whole "+44 ..." number: the box says what
				// it holds.
				continue
			}
			g.set(j, toks[i], 0.8)
		}
		k = run[len(run)-1]
	}
}

// areaCodesAlone drops the area code a list owes to its name or id alone
// ("areaCode" on the "Area" list of a Gulf address, between the emirate
// and the building) when no part of a phone number follows it: an area
// code starts a number and is never asked for on its own.
func areaCodesAlone(g *group) {
	for k := range g.seq {
		if g.tok(k) != "tel-area-code" || g.c(k).Tag != "select" {
			continue
		}
		if ev := g.r(k).Evidence; len(ev) == 0 || ev[0].Signal != "name" && ev[0].Signal != "id" {
			continue
		}
		if k+1 < len(g.seq) && strings.HasPrefix(g.tok(k+1), "tel") {
			continue
		}
		g.set(k, "", 0)
	}
}

// dialCodes gives a phone box the national number when the box right
// before it asks for the calling code: a box the rules call
// tel-country-code, whatever its length, or a list that shows a calling
// code beside each entry ("Austria (+43)"), which in front of a phone box
// picks the code, not the address's country. The whole number with its
// code would be typed twice over. A phone box whose example is a whole
// "+44 ..." number keeps the whole number.
func dialCodes(g *group) {
	shownCodes(g)
	countries := 0
	for k := range g.seq {
		if g.tok(k) == "country" {
			countries++
		}
	}
	for k := 0; k+1 < len(g.seq); k++ {
		if g.tok(k+1) != "tel" || controlKind(g.c(k+1)) != ckText {
			continue
		}
		// A list of countries with their codes is the phone's code only
		// when the form asks for the country elsewhere too, or when the
		// list shows the code it holds as its label ("+39"): a form's one
		// country list is otherwise its country, whatever it shows
		// beside each.
		c := g.c(k)
		own := g.tok(k) == "" || g.tok(k) == "country" && (countries > 1 || showsOwnCode(c))
		if g.tok(k) != "tel-country-code" && c.Tag == "select" && own && showsDialCodes(c) {
			g.set(k, "tel-country-code", max(g.r(k).Confidence, 0.8))
		}
		if (g.tok(k) == "" || g.tok(k) == "tel" || g.tok(k) == "tel-area-code") && controlKind(c) == ckText && bareDialCode().MatchString(c.Value) {
			// A box before the phone box that holds a calling code
			// ("+43"), whatever its label says ("Area code"): an area
			// code is never written with a plus.
			g.set(k, "tel-country-code", max(g.r(k).Confidence, 0.8))
		}
		if (g.tok(k) == "" || g.tok(k) == "tel") && controlKind(c) == ckText && showsPickedCode(c) {
			// A box that shows the country picked with its code
			// ("France +33", "BR +55") right before the phone box: the
			// calling-code picker of a phone widget (intl-tel-input,
			// a combobox), or the search box of its country list.
			g.set(k, "tel-country-code", max(g.r(k).Confidence, 0.8))
		}
		if g.tok(k) == "tel-country-code" && !intlExample(g.c(k+1)) {
			g.set(k+1, "tel-national", g.r(k+1).Confidence)
		}
	}
}

// shownCodes: a phone box behind a calling code the page prints right in
// front of it ("Phone" then "+1" in a span) is read with the code as its
// label ("Phone +1"), which the rules take for the first of three boxes
// ("phone1"), the area code: it asks for the number. (The fill writes it
// the way the form's country dials it: "(217) 555-0134" on a US form.)
func shownCodes(g *group) {
	for k := range g.seq {
		c := g.c(k)
		if g.tok(k) != "tel-area-code" || g.rule(k) != "tel-area-code" || controlKind(c) != ckText || !pickedCode().MatchString(c.Label) {
			continue
		}
		if k+1 < len(g.seq) && strings.HasPrefix(g.tok(k+1), "tel-local") {
			continue // an area code box before the local number's
		}
		g.set(k, "tel", g.r(k).Confidence)
	}
}

// countryCodeWord matches the words "country code" (normalized), which
// name a calling code beside a phone number and an ISO country code in
// an address alike; phoneWord matches words that settle it for the phone.
var (
	countryCodeWord = lazyRE(`(?:^| )(?:country ?(?:code|prefix)|codigo (?:de |do )?pais|codice (?:del )?paese|landcode|code (?:du )?pays|landercode|код страны|ulke kodu|kode negara)(?: |$)|国家代码|국가 ?코드`)
	phoneWord       = lazyRE(`(?:^| )(?:phone|tel|telephone|mobile?|cell|dial(?:l?ing)?|calling|international|telefon\w*|telefoon|puhelin|телефон\w*|indicatif|vorwahl|prefijo|prefisso|ddi)(?: |$)|電話|电话|전화`)
)

// countryCodes gives the address's country to a box that only says
// "country code" when no phone box is beside it and nothing in it shows
// a calling code ("+49"): an address's ISO code ("countryCode" between
// the postcode and the city), not a phone's.
func countryCodes(g *group) {
	telPart := func(k int) bool {
		t := g.tok(k)
		return strings.HasPrefix(t, "tel") && t != "tel-extension"
	}
	for k := range g.seq {
		c := g.c(k)
		if g.tok(k) != "tel-country-code" || controlKind(c) != ckText {
			continue
		}
		if t := g.text(k); !countryCodeWord().MatchString(t) || phoneWord().MatchString(t) {
			continue
		}
		if holdsDialCode(c) {
			continue
		}
		if k+1 < len(g.seq) && telPart(k+1) || k > 0 && telPart(k-1) {
			continue
		}
		g.set(k, "country", g.r(k).Confidence)
	}
}

// intlNumber matches an example of a whole international number
// ("+44 7700 900123", "+3585012345678").
var intlNumber = lazyRE(`(?:^|\s)\+ ?\d[\d ()./-]{5,}\d`)

// intlExample reports whether a box's placeholder shows a whole
// international number: it asks for the number with its calling code,
// whatever is beside it.
func intlExample(c *form.Control) bool {
	return intlNumber().MatchString(c.Placeholder)
}

// bareDialCode matches a text that is a calling code alone ("+39",
// "(+49)").
var bareDialCode = lazyRE(`^\s*\(?\+ ?\d{1,4}\)?\s*$`)

// holdsDialCode reports whether a box's value or placeholder is a calling
// code alone ("+43" in an "Area code" box): what the box holds, whatever
// its label calls it.
func holdsDialCode(c *form.Control) bool {
	return bareDialCode().MatchString(c.Value) || bareDialCode().MatchString(c.Placeholder)
}

// showsOwnCode reports whether a control's label is a calling code alone:
// a picker that shows the code it holds ("+39" over a list of countries),
// as the pickers in front of phone boxes do.
func showsOwnCode(c *form.Control) bool {
	return bareDialCode().MatchString(c.Label) || bareDialCode().MatchString(c.AriaLabel)
}

// pickedCode matches a country picked with its calling code as a phone
// widget shows it: "France +33", "BR +55", "(+49)"; group 1 is what
// precedes the code.
var pickedCode = lazyRE(`^\s*(.{0,40}?)\s*\(?\+ ?\d{1,4}\)?\s*$`)

// showsPickedCode reports whether the text beside a box (the text before
// it, its label) is a country, by name or two-letter code, followed by
// its calling code, or a calling code alone: the selected entry of a
// calling-code picker. "Phone (+44)" names the phone, not a country.
func showsPickedCode(c *form.Control) bool {
	for _, t := range []string{c.NearbyText, c.Label} {
		m := pickedCode().FindStringSubmatch(t)
		if m == nil {
			continue
		}
		name := normalize(m[1])
		if name == "" || countryNames()[name] || len(name) == 2 && strings.IndexFunc(name, func(r rune) bool { return r < 'a' || r > 'z' }) < 0 {
			return true
		}
	}
	return false
}

// showsDialCodes reports whether most options of a list that offers any
// show a calling code ("+49", "Germany (+49)").
func showsDialCodes(c *form.Control) bool {
	n, dial := 0, 0
	for i, o := range c.Options {
		if i >= maxOptions {
			break
		}
		if strings.TrimSpace(o.Text) == "" && strings.TrimSpace(o.Label) == "" {
			continue
		}
		n++
		if dialCode().MatchString(o.Text) || dialCode().MatchString(o.Label) {
			dial++
		}
	}
	return dial > 0 && dial*10 >= n*6
}

// short reports whether a text box is sized for a part of a number (at most
// five characters), or is a select (a country-code picker).
func short(c *form.Control) bool {
	if c.Tag == "select" {
		return true
	}
	m := c.Constraints.MaxLength
	return m > 0 && m <= 5
}

// datePart matches words naming a day, month or year part of a date, in the
// supported languages.
var (
	dayPart   = lazyRE(`(?:^| )(?:day|dd|d|tag|tt|jour|jj|dia|giorno|gg|dag|dzien|paiva|den|nap|ziua|день|ден|ημερα|дд|日|일|gun|gunu|یوم|יום|hari|tgl|dan|paev|diena|zz|pp)(?: |$)`)
	monthPart = lazyRE(`(?:^| )(?:month|mm|mon|m|monat|mois|mes|mese|maand|miesiac|manad|maned|kuukausi|mesic|honap|luna|месяц|місяць|месец|μηνασ|мм|月|월|ay|ayi|شهر|חודש|thang|bulan|bln|माह|mjesec|mesec|kuu|menesis|menuo|ll|kk)(?: |$)`)
	yearPart  = lazyRE(`(?:^| )(?:year|yyyy|yy|y|jahr|jjjj|annee|aaaa|ano|anio|anyo|anno|jaar|rok|rrrr|ar|aar|vuosi|ev|anul|год|рік|година|ετοσ|гггг|年|년|연도|yil|yili|سنة|שנת|nam|tahun|thn|वर्ष|godina|leto|aasta|gads|metai|vvvv)(?: |$)`)
)

// partOf names the date part a control asks for, from its option shape,
// its own words, its length (a four-character box is a year) or, last, the
// text before it, or "" when it does not say. The text before a box is
// weighed last, and not at all for a two-character box, because in pages
// that put units after the boxes ("[____]년 [__]월 [__]일") it names the
// previous box's part.
func partOf(c *form.Control) string {
	if p := shapePart(c); p != "" {
		return p
	}
	p, whole := wordPart(c.Placeholder, c.Name, c.ID, c.LabelElementText, c.AriaLabel)
	if p != "" || whole {
		return p
	}
	if c.Constraints.MaxLength == 4 {
		return "year"
	}
	if twoChars(c) {
		// Left to the order of the run, which stays right when the
		// text before the box is the unit of the previous one.
		return ""
	}
	p, _ = wordPart(c.Label)
	return p
}

// namedPart is the date part a control's options or words name.
func namedPart(c *form.Control) string {
	if p := shapePart(c); p != "" {
		return p
	}
	p, _ := wordPart(c.Placeholder, c.Name, c.ID, c.LabelElementText, c.AriaLabel, c.Label)
	return p
}

// shapePart is the date part a select's options list.
func shapePart(c *form.Control) string {
	switch optionShape(c) {
	case shapeDay:
		return "day"
	case shapeMonth:
		return "month"
	case shapeYearPast, shapeYearFuture:
		return "year"
	}
	return ""
}

// wordPart is the date part the first text naming one names; whole reports
// that a text names a whole date ("TT.MM.JJJJ", "MM/DD/YYYY"): the box
// takes the date, not the first part its pattern lists.
func wordPart(texts ...string) (part string, whole bool) {
	for _, t := range texts {
		n := normalize(t)
		if n == "" {
			continue
		}
		if wholeDate(n) {
			return "", true
		}
		switch {
		case dayPart().MatchString(n):
			return "day", false
		case monthPart().MatchString(n):
			return "month", false
		case yearPart().MatchString(n):
			return "year", false
		}
	}
	return "", false
}

// wholeDate reports whether a normalized text names the day, the month
// and the year of a date together: the format of one box taking a whole
// date.
func wholeDate(n string) bool {
	return dayPart().MatchString(n) && monthPart().MatchString(n) && yearPart().MatchString(n) || dayAyYear().MatchString(n)
}

// dayAyYear matches the Turkish layout "GG.AA.YYYY" (gün, ay, yıl), whose
// month letters elsewhere write a year ("JJ/MM/AA").
var dayAyYear = lazyRE(`(?:^| )gg aa yy(?:yy)?(?: |$)`)

// birthDates splits a birth date asked in parts (three selects or boxes)
// into day, month and year.
func birthDates(g *group) {
	for k := 0; k < len(g.seq); k++ {
		tok := g.tok(k)
		anchored := strings.HasPrefix(tok, "bday")
		if !anchored && !(g.blank(k) && optionShape(g.c(k)) != shapeNone) {
			continue
		}
		var run, unnamed []int
		parts := map[string]int{}
		for j := k; j < len(g.seq) && len(run) < 3; j++ {
			if j > k && !(g.blank(j) || strings.HasPrefix(g.tok(j), "bday")) {
				break
			}
			p := partOf(g.c(j))
			if p == "" {
				if !anchored || !twoChars(g.c(j)) {
					break
				}
				// A two-character box: day or month, told by the order.
				unnamed = append(unnamed, j)
				run = append(run, j)
				continue
			}
			if _, dup := parts[p]; dup {
				break
			}
			parts[p] = j
			run = append(run, j)
		}
		if !dateOrder(g, run, unnamed, parts) {
			continue
		}
		for _, j := range run {
			// A birth label on a later part covers an unlabelled part
			// before it ([Month ▾] [Day] [Year] under one "Birthday").
			anchored = anchored || strings.HasPrefix(g.tok(j), "bday")
		}
		if len(run) < 2 {
			if tok == "bday" && g.c(k).Type != "date" {
				// One box or list of a birth date that names its part
				// ("Year of birth").
				if p := onlyPart(g.c(k)); p != "" {
					g.set(k, "bday-"+p, 0.8)
				}
			}
			continue
		}
		if !anchored {
			// Without a birth label, only day + month + past-year lists are
			// a birth date (future years are a card expiry).
			y, ok := parts["year"]
			if len(run) < 3 || !ok || optionShape(g.c(y)) != shapeYearPast {
				continue
			}
		}
		conf := 0.85
		if !anchored {
			conf = 0.65
		}
		for p, j := range parts {
			g.set(j, "bday-"+p, conf)
		}
		k = run[len(run)-1]
	}
	for k := 0; k+2 < len(g.seq); k++ {
		// "Ngày sinh", "Tháng sinh", "Năm sinh": a birth date's box
		// before its month and its year is its day, whatever else its
		// words would mean alone (the date of birth).
		if g.tok(k) == "bday" && g.tok(k+1) == "bday-month" && g.tok(k+2) == "bday-year" {
			g.set(k, "bday-day", 0.8)
		}
	}
}

func twoChars(c *form.Control) bool {
	return c.Tag == "input" && c.Constraints.MaxLength == 2
}

// dateOrder names the two-character boxes of a birth date by the order of
// its parts: after a year they are month then day (year-first dates, as in
// East Asia and ISO 8601); before one, month then day in US English pages
// and day then month elsewhere. It reports whether the run is usable.
func dateOrder(g *group, run, unnamed []int, parts map[string]int) bool {
	if len(unnamed) == 0 {
		return true
	}
	if len(run) != 3 || len(unnamed) != 2 {
		return false
	}
	y, ok := parts["year"]
	if !ok {
		return false
	}
	order := []string{"day", "month"}
	switch {
	case y == run[0]:
		order = []string{"month", "day"}
	case strings.EqualFold(g.s.Lang, "en-us") || strings.EqualFold(g.s.Lang, "en"):
		order = []string{"month", "day"}
	}
	for i, j := range unnamed {
		parts[order[i]] = j
	}
	return true
}

// combinedDate matches the text of one box that takes month and year
// together ("MM / YY", "month/year"): it is not half of a pair.
var combinedDate = lazyRE(`(?:^| )(?:mm|month|monat|mois|mes)\s?(?:yy|yyyy|aa|jj|year|jahr)\b`)

// cardExpiry splits an expiry date asked in two parts into month and year.
func cardExpiry(g *group) {
	for k := 0; k+1 < len(g.seq); k++ {
		if g.tok(k) == "" && g.tok(k+1) == "" && optionShape(g.c(k)) == shapeMonth && optionShape(g.c(k+1)) == shapeYearFuture {
			// A list of months beside a list of coming years is an expiry
			// date, whatever the labels say.
			g.set(k, "cc-exp-month", 0.7)
			g.set(k+1, "cc-exp-year", 0.7)
			k++
			continue
		}
		if !strings.HasPrefix(g.tok(k), "cc-exp") {
			continue
		}
		j := k + 1
		if g.tok(k) == "cc-exp" && g.tok(j) == "cc-number" && namedPart(g.c(j)) == "year" && namedPart(g.c(k)) == "month" {
			// "Valid until" over a box that says "MM" and one that says
			// "YYYY", which a card word in its name made the number: the
			// two halves of the expiry date.
			g.set(k, "cc-exp-month", 0.8)
			g.set(j, "cc-exp-year", 0.8)
			k = j
			continue
		}
		if !(g.blank(j) || strings.HasPrefix(g.tok(j), "cc-exp")) || combinedDate().MatchString(g.text(k)) {
			continue
		}
		a, b := partOf(g.c(k)), partOf(g.c(j))
		switch {
		case g.tok(k) == "cc-exp" && g.tok(j) == "cc-exp" || g.tok(k) == "cc-exp" && g.blank(j):
			if a == "year" && b != "year" {
				g.set(k, "cc-exp-year", 0.8)
				g.set(j, "cc-exp-month", 0.8)
			} else if b != "month" {
				g.set(k, "cc-exp-month", 0.8)
				g.set(j, "cc-exp-year", 0.8)
			}
			k = j
		case g.tok(k) == "cc-exp-month" && g.blank(j) && b != "month" && b != "day":
			g.set(j, "cc-exp-year", 0.8)
			k = j
		}
	}
	for k := range g.seq {
		// One box or list of an expiry date that names its part alone
		// ("Utgångsmånad", "Rok ważności") beside no other part.
		if g.tok(k) != "cc-exp" || g.c(k).Type == "month" {
			continue
		}
		if p := onlyPart(g.c(k)); p == "month" || p == "year" {
			g.set(k, "cc-exp-"+p, 0.8)
		}
	}
}

// onlyPart is the one part of a date a control's own texts name, the
// first of them in namedPart's order, or "" when none does or any names
// two ("MM/YY", "ММ/ГГ", "Date of birth (DD/MM)").
// Single letters are no part here: "D.O.B." names the whole date.
func onlyPart(c *form.Control) string {
	if p := shapePart(c); p != "" {
		return p
	}
	found := ""
	for _, t := range []string{c.Placeholder, c.Name, c.ID, c.LabelElementText, c.AriaLabel, c.Label} {
		part, parts := "", 0
		for _, w := range strings.Fields(normalize(t)) {
			if utf8.RuneCountInString(w) == 1 && w < "\u3000" {
				continue
			}
			switch {
			case dateCode(w):
				// "MM", "RR", "ГГ", "LL": a letter written twice or four
				// times stands for one part of a date's format, whichever
				// its language makes it.
				part, parts = "code", parts+1
				if monthPart().MatchString(w) {
					part = "month"
				} else if yearPart().MatchString(w) {
					part = "year"
				}
			case dayPart().MatchString(w):
				part, parts = "day", parts+1
			case monthPart().MatchString(w):
				part, parts = "month", parts+1
			case yearPart().MatchString(w):
				part, parts = "year", parts+1
			}
		}
		switch {
		case parts > 1:
			// Any text naming two parts ("Expiration date (MM/YY)" on
			// a box named creditExpirationMonth) asks for them together.
			return ""
		case parts == 1 && found == "":
			found = part
		}
	}
	if found == "code" {
		return ""
	}
	return found
}

// dateCode reports whether a word is a letter written two or four times
// ("mm", "yyyy", "гг"): one part of a date's written format.
func dateCode(w string) bool {
	rs := []rune(w)
	if len(rs) != 2 && len(rs) != 4 || !unicode.IsLetter(rs[0]) {
		return false
	}
	for _, r := range rs[1:] {
		if r != rs[0] {
			return false
		}
	}
	return true
}

// passwords marks every password box of a form with two or more of them as
// a new password (sign-up and change-password forms ask twice).
func passwords(g *group) {
	var ks []int
	for k := range g.seq {
		if g.c(k).Type == "password" {
			ks = append(ks, k)
		}
	}
	if len(ks) == 1 && signupForm(g) {
		// One password box on a form that says it creates an account:
		// the password to choose.
		if k := ks[0]; g.tok(k) == "current-password" {
			g.set(k, "new-password", 0.9)
		}
		return
	}
	if len(ks) < 2 {
		return
	}
	for _, k := range ks[len(ks)-2:] {
		named := slices.ContainsFunc(g.r(k).Evidence, func(e Evidence) bool { return e.Rule == "old-password" })
		if g.tok(k) == "current-password" && !named {
			g.set(k, "new-password", 0.9)
		}
	}
}

// codeBoxes reads a run of four or more boxes that take one character
// each as a one-time code typed a digit a box: no part of a phone number
// or of a date is one character long.
func codeBoxes(g *group) {
	single := func(k int) bool {
		c := g.c(k)
		return c.Tag == "input" && c.Constraints.MaxLength == 1 && controlKind(c) == ckText
	}
	for k := 0; k < len(g.seq); {
		j := k
		for j < len(g.seq) && single(j) {
			j++
		}
		if j-k >= 4 {
			for i := k; i < j; i++ {
				g.set(i, "one-time-code", 0.9)
			}
		}
		k = max(j, k+1)
	}
}

// loginIdentifiers reads the e-mail or phone box of a sign-in form as the
// login identifier (username), not as the person's e-mail or phone:
// profile values never go into login forms. A sign-in form is one current
// password (or, on a form that says it signs in, a one-time code or
// nothing: the first step of a two-step sign-in) with at most two other
// visible boxes, every one an e-mail, phone or username box (or unknown);
// a name, an address or a new password makes it a sign-up or checkout
// form, whose e-mail box stays e-mail. So do an e-mail box that asks for a
// new address or its confirmation ("New email address", "Confirm email":
// a change of address in the account's settings, a sign-up), and a
// username asked beside the e-mail (a sign-up that asks for both).
func loginIdentifiers(g *group) {
	passwords, codes, emails, ids := 0, 0, 0, []int{}
	named := false // a username box named as such
	for k := range g.seq {
		if g.c(k).Visibility.Hidden {
			continue
		}
		switch g.tok(k) {
		case "current-password":
			if choosesPassword(g, k) {
				return
			}
			passwords++
		case "one-time-code":
			codes++
		case "email", "tel", "username":
			ids = append(ids, k)
			if g.tok(k) == "email" {
				emails++
				if newEmail().MatchString(g.text(k)) {
					return
				}
			}
			if g.tok(k) == "username" && g.rule(k) == "username" && table().find(ruleByID("email"), g.text(k)) < 0 {
				named = true
			}
		case "":
		default:
			return
		}
	}
	if len(ids) == 0 || len(ids) > 2 || named && emails > 0 || signupForm(g) {
		return
	}
	switch {
	case passwords == 1 && codes == 0:
	case passwords == 0 && codes <= 1 && len(ids) == 1 && loginForm(g):
	default:
		return
	}
	for _, k := range ids {
		if t := g.tok(k); t == "email" || t == "tel" {
			g.set(k, "username", 0.9)
		}
	}
}

// choosesPassword reports whether the words the person sees on the k-th
// box ask to choose a password ("Choose a password", "Crie sua senha")
// where its name or type says only "password": a sign-up's box, though its
// token stays the guard its name gives.
func choosesPassword(g *group, k int) bool {
	c := g.c(k)
	for _, t := range []string{c.Label, c.AriaLabel, c.Placeholder} {
		if n := normalize(t); n != "" && table().find(ruleByID("new-password"), n) >= 0 {
			return true
		}
	}
	return false
}

// newEmail matches the words of an e-mail box that asks for an address
// to change to, or to confirm one, over normalized text.
var newEmail = lazyRE(`(?:^| )(?:new|confirm\S*|repeat|re ?enter|retype|verify|neue\S*|nouvel(?:le)?|nuev[oa]|nuov[oa]|nov[oa]|nieuw\S*|now[yea]|novy|nov[ae]|nytt?|uusi|новыи|новая|новую|подтвердите|wiederholen|bestatigen|confirmez|confirmer|repite|repetir|confirma|conferma|ripeti|confirme|bevestig|herhaal|powtorz|potwierdz|upprepa|bekrafta|tekrar)(?: |$)|新しい|確認|新邮箱|确认|새 이메일`)

// signupWords and loginWords are the words (normalized) that name a
// sign-up and a sign-in, with those of scripts written without spaces
// apart; signupWord and loginWord find them among the words of a form's
// id, name or action, signupStart and loginStart at the start of a text
// (the heading over a form's first box).
const (
	signupWords = `sign ?up|register|registration|join(?: now| us)?|create (?:your |an |a new )?account|new account|open an account|` +
		`konto erstellen|kundenkonto (?:erstellen|anlegen)|registrier\S*|neu registrieren|creer (?:un|votre) compte|inscription|` +
		`inscrivez vous|crear (?:una |tu )?cuenta|registrate|registro|crea (?:un )?account|registrati|registrazione|` +
		`criar (?:uma |sua )?conta|cadastre se|cadastro|account aanmaken|registreren|zaloz konto|rejestracja|registrace|` +
		`регистрац\S*|создать (?:аккаунт|учетную запись)`
	signupCJK  = `会員登録|新規登録|新規会員登録|注册|회원가입`
	loginWords = `log ?in|sign ?in|logon|auth|authenticate|session|anmelden|anmeldung|einloggen|connexion|se connecter|` +
		`iniciar sesion|inicia sesion|acceder|accedi|entrar|inloggen|logowanie|zaloguj\S*|prihlaseni|prihlasit se|giris|` +
		`giris yap|logga in|kirjaudu\S*|воити|вход|авторизация`
	loginCJK = `登录|登入|ログイン|로그인`
)

var (
	signupWord  = lazyRE(`(?:^| )(?:` + signupWords + `)(?: |$)|` + signupCJK)
	signupStart = lazyRE(`^(?:` + signupWords + `)(?: |$)|^(?:` + signupCJK + `)`)
	loginWord   = lazyRE(`(?:^| )(?:` + loginWords + `)(?: |$)|` + loginCJK)
	loginStart  = lazyRE(`^(?:` + loginWords + `)(?: |$)|^(?:` + loginCJK + `)`)
)

// formWords returns the normalized id, name and action of the group's form
// ("" outside any form).
func formWords(g *group) string {
	if len(g.seq) == 0 {
		return ""
	}
	fi := g.c(0).FormIndex
	if fi < 0 || fi >= len(g.s.Forms) {
		return ""
	}
	f := &g.s.Forms[fi]
	return normalize(f.ID + " " + f.Name + " " + f.Action)
}

// signupForm reports whether the group's form says it creates an account:
// its id, name or action, or the words its first box's text begins with
// (a heading "Create your account" over an e-mail and a password box).
func signupForm(g *group) bool {
	return signupWord().MatchString(formWords(g)) || startsWith(g, signupStart())
}

// startsWith reports whether the text before the group's first shown box
// (its heading, as the box's nearby text reads it, or the heading of its
// section further up: Control.Heading) begins with what re matches, over
// normalized text.
func startsWith(g *group, re *regexp.Regexp) bool {
	for k := range g.seq {
		if c := g.c(k); !c.Visibility.Hidden {
			return re.MatchString(normalize(c.NearbyText)) || re.MatchString(normalize(c.Heading))
		}
	}
	return false
}

// loginForm reports whether the group's form says it signs a person in:
// its id, name or action, or the words its first box's text begins with
// (a heading "Log in with your phone" over a box that is sent a code).
// "Already have an account? Sign in" above a guest's e-mail box does not
// begin so.
func loginForm(g *group) bool {
	if loginWord().MatchString(formWords(g)) {
		return true
	}
	return startsWith(g, loginStart())
}

// signupEmail reads a login box whose label also takes an e-mail ("Mobile
// number or email") as the e-mail on a form that signs a person up, one
// that asks for their name: that box is the account's e-mail, which the
// profile holds. On a login form, or when only an identifier says it
// ("username_or_email"), it stays a username.
func signupEmail(g *group) {
	signup := false
	for k := range g.seq {
		switch g.tok(k) {
		case "name", "given-name", "family-name":
			signup = true
		}
	}
	if !signup {
		return
	}
	for k := range g.seq {
		r := g.r(k)
		if r.Token != "username" || len(r.Evidence) == 0 {
			continue
		}
		switch e := r.Evidence[0]; e.Signal {
		case "label", "aria-label", "aria-labelledby", "placeholder":
			if table().find(ruleByID("email"), e.Text) >= 0 {
				g.set(k, "email", r.Confidence)
			}
		}
	}
}

// vagueCode matches the card-code words that also name other codes: a
// comment form's "security code", a "cid".
var vagueCode = lazyRE(`(^| )(security (code|number)|cid|vcode|verification (code|number))( |$)`)

// cardFields reads a bare "Name" or "Number" inside a payment card block
// (next to a card number, expiry or security code) as the card's holder or
// number: the profile's name does not belong there.
func cardFields(g *group) {
	// card reports whether the k-th control is one of the card's own
	// boxes: a choice of payment method (a radio, a checkbox) or a guess
	// too weak to fill says nothing of where the card's block is (nor
	// does a list named for the cardholder: the first loop below clears it).
	card := func(k int) bool {
		if k < 0 || k >= len(g.seq) || !strings.HasPrefix(g.tok(k), "cc-") || g.r(k).Confidence < MinConfidence {
			return false
		}
		switch g.c(k).Type {
		case "radio", "checkbox":
			return false
		}
		return true
	}
	// namePart reports whether the k-th control asks for part of a name:
	// then a "Name" beside it is the other part, not the name on a card.
	namePart := func(k int) bool {
		if k < 0 || k >= len(g.seq) {
			return false
		}
		t := g.tok(k)
		return t == "family-name" || t == "additional-name"
	}
	// cardOnPage reports whether any control of the page, in any form,
	// asks for card data other than a security code.
	cardOnPage := func() bool {
		return g.cardElsewhere || slices.ContainsFunc(g.seq, func(i int) bool { return cardData(g.out[i].Token) })
	}
	for k := range g.seq {
		if g.tok(k) == "cc-csc" && vagueCode().MatchString(g.text(k)) && !cardOnPage() {
			// "Security code" alone, with no card anywhere on the page, is
			// the anti-spam code of a comment or sign-up form. (A saved
			// card's code asked alone comes with the page's card fields.)
			g.set(k, "", 0)
		}
		if g.tok(k) == "cc-name" && g.c(k).Tag == "select" {
			// A name on a card is typed: a list named for the cardholder
			// offers their saved addresses or cards.
			g.set(k, "", 0)
		}
	}
	for k := range g.seq {
		if !card(k-1) && !card(k+1) && !(card(k-2) && card(k+2)) {
			continue
		}
		switch {
		case g.c(k).Tag == "select":
			// A list beside the card's boxes holds no name.
		case g.tok(k) == "name" || g.tok(k) == "given-name" && g.text(k) == "name" && !namePart(k+1) && !namePart(k-1):
			g.set(k, "cc-name", 0.8)
		case g.tok(k) == "" && bareNumber().MatchString(g.text(k)) && g.c(k).Tag == "input":
			g.set(k, "cc-number", 0.75)
		}
	}
	for k := range g.seq {
		// "First name" and "Last name" boxes named for the cardholder
		// ("cardHolderFirstName") ask for the names on the card, which
		// need not be the person's own.
		if tok, ok := cardholderPart[g.tok(k)]; ok && g.c(k).Tag == "input" && (holderIdent(g.c(k).Name) || holderIdent(g.c(k).ID)) {
			g.set(k, tok, g.r(k).Confidence)
		}
	}
}

// cardholderPart maps the parts of a person's name to the same parts of
// the name on a card.
var cardholderPart = map[string]string{"given-name": "cc-given-name", "family-name": "cc-family-name", "additional-name": "cc-additional-name"}

// holderIdent reports whether an identifier names the holder of a card
// (holderWord), normalizing only those that can.
func holderIdent(s string) bool {
	return (maySayFold(s, "holder") || maySayFold(s, "owner")) && holderWord().MatchString(normalize(s))
}

// holderWord matches an identifier that names the holder of a card.
var holderWord = lazyRE(`(?:^| )(?:card ?holders?|card owner|cc holder|holder of (?:the )?card)(?: |$)`)

// bareNumber matches a control named only "number" (in a card block,
// after an area code box).
var bareNumber = lazyRE(`^(number|num|no|nummer|numero|numer|номер)$`)

// seiMei: two boxes side by side whose names end in the romanized
// Japanese words for the family name and the given name ("sei", "mei":
// name="Sei", name="Mei", id="userNameSei", id="userNameMei") and are
// otherwise the same ask for those two names, whatever labels they show
// ("e.g. Hanako"); followed by "kana" ("SeiKana", "MeiKana"), for their
// readings, whatever one label over both says ("フリガナ").
func seiMei(g *group) {
	ident := func(k int) (prefix, part string, kana bool) {
		for _, t := range []string{g.c(k).Name, g.c(k).ID} {
			if !maySayFold(t, "sei") && !maySayFold(t, "mei") {
				continue
			}
			w := strings.Fields(normalize(t))
			if n := len(w); n > 1 && readingWord[w[n-1]] {
				w, kana = w[:n-1], true
			}
			if n := len(w); n > 0 && (w[n-1] == "sei" || w[n-1] == "mei") {
				// "kana_sei" reads the name as much as "sei_kana".
				return strings.Join(w[:n-1], " "), w[n-1], kana || slices.ContainsFunc(w[:n-1], func(x string) bool { return readingWord[x] })
			}
			kana = false
		}
		return "", "", false
	}
	free := func(k int, kana bool) bool {
		c, t := g.c(k), g.tok(k)
		if controlKind(c) != ckText || c.Type == "password" || c.Type == "email" {
			return false
		}
		if kana {
			return t == "" || strings.HasPrefix(t, "phonetic-")
		}
		// "userNameMei" says "user name" too: no login, with "Sei"
		// beside it.
		return !strings.HasPrefix(t, "phonetic-") && t != "email" && (t == "username" || !IsGuardToken(t))
	}
	for k := 0; k+1 < len(g.seq); k++ {
		p1, w1, kana1 := ident(k)
		p2, w2, kana2 := ident(k + 1)
		if w1 != "sei" || w2 != "mei" || p1 != p2 || kana1 != kana2 || !free(k, kana1) || !free(k+1, kana2) {
			continue
		}
		family, given := "family-name", "given-name"
		if kana1 {
			family, given = "phonetic-family-name", "phonetic-given-name"
		}
		g.set(k, family, max(g.r(k).Confidence, 0.85))
		g.set(k+1, given, max(g.r(k+1).Confidence, 0.85))
		k++
	}
}

// maySayFold reports whether normalizing identifier s could give the
// lower-case ASCII word w: s holds w in any case, or s is not all ASCII
// (normalize folds wide and accented letters). It spares normalizing the
// identifiers of every box to look for one word.
func maySayFold(s, w string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return true
		}
	}
	for i := 0; i+len(w) <= len(s); i++ {
		j := 0
		for j < len(w) && s[i+j]|0x20 == w[j] {
			j++
		}
		if j == len(w) {
			return true
		}
	}
	return false
}

// readingWord lists the romanized words for a name's reading in kana
// that Japanese forms put in the names of its boxes.
var readingWord = map[string]bool{"kana": true, "furigana": true, "furi": true, "yomi": true, "katakana": true, "hiragana": true}

// numberedParts reports whether the n text boxes from the k-th are one
// field's numbered parts: their names (or ids) are one stem numbered 1 to
// n ("tel1", "tel_2", "phone[3]"), the rules read the same kind of field
// in each, and only the first shows a label of its own (boxes labelled
// "Phone 1", "Phone 2" are numbers of their own).
func numberedParts(g *group, k, n int) bool {
	if k+n > len(g.seq) {
		return false
	}
	stem := func(c *form.Control, want string) (string, bool) {
		for _, t := range []string{c.Name, c.ID} {
			w := normalize(t)
			if s, ok := strings.CutSuffix(w, " "+want); ok && s != "" {
				return s, true
			}
		}
		return "", false
	}
	first, ok := stem(g.c(k), "1")
	if !ok {
		return false
	}
	for i := range n {
		c := g.c(k + i)
		// The first may be a list (of area codes, of mobile prefixes);
		// the others may carry no word at all but their names.
		text := controlKind(c) == ckText && c.Tag != "textarea"
		if !text && !(i == 0 && c.Tag == "select") {
			return false
		}
		if t := g.tok(k + i); t == "tel-extension" || !strings.HasPrefix(t, "tel") && !(i > 0 && t == "" && g.blank(k+i)) {
			return false
		}
		if s, ok := stem(c, strconv.Itoa(i+1)); !ok || s != first {
			return false
		}
		if i > 0 && labelText(c, true) != "" && labelText(c, true) != labelText(g.c(k), true) {
			return false
		}
	}
	if k+n < len(g.seq) {
		// A fourth box of the stem: not three parts.
		if s, ok := stem(g.c(k+n), strconv.Itoa(n+1)); ok && s == first {
			return false
		}
	}
	return true
}
