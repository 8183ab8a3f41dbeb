package vault

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"

	"github.com/emersion/go-vcard"
	"github.com/nyaruka/phonenumbers"
	"github.com/tessera-app/tessera/profile"
	"golang.org/x/text/unicode/norm"
	"golang.org/x/text/width"
)

// The schema.org concepts vCard properties map to; the same IRIs as the
// heuristics package's concept table, repeated here so that storage does not
// depend on the form classifier.
const (
	cAdditionalName  = "https://schema.org/additionalName"
	cAddressCountry  = "https://schema.org/addressCountry"
	cAddressLocality = "https://schema.org/addressLocality"
	cAddressRegion   = "https://schema.org/addressRegion"
	cAlternateName   = "https://schema.org/alternateName"
	cBirthDate       = "https://schema.org/birthDate"
	cEmail           = "https://schema.org/email"
	cFamilyName      = "https://schema.org/familyName"
	cGender          = "https://schema.org/gender"
	cGivenName       = "https://schema.org/givenName"
	cHonorificPrefix = "https://schema.org/honorificPrefix"
	cHonorificSuffix = "https://schema.org/honorificSuffix"
	cJobTitle        = "https://schema.org/jobTitle"
	cName            = "https://schema.org/name"
	cOrganization    = "https://schema.org/worksFor"
	cPostOfficeBox   = "https://schema.org/postOfficeBoxNumber"
	cPostalCode      = "https://schema.org/postalCode"
	cStreetAddress   = "https://schema.org/streetAddress"
	cTelephone       = "https://schema.org/telephone"
	cURL             = "https://schema.org/url"
)

// MaxVCards bounds the number of cards one vCard import may hold.
const MaxVCards = 1000

// ParseVCards reads vCard 3.0 or 4.0 cards (a .vcf file) into one profile
// per card, mapping properties to schema.org concepts: N and FN to the name
// parts, NICKNAME, EMAIL, TEL (E.164 when the number parses, with the
// card's country as the default region), ADR to street, locality, region,
// postal code and country, ORG, TITLE, BDAY (ISO date when it parses),
// GENDER (see gender), URL, and the reading of the name (see phoneticName). Of a repeated property the preferred value is taken; cards with none
// of these are skipped. Profiles get fresh ids; now stamps their import
// source.
func ParseVCards(r io.Reader, now string) ([]profile.UserProfile, error) {
	data, err := readLimited(r)
	if err != nil {
		return nil, fmt.Errorf("parse vCard: %w", err)
	}
	dec := vcard.NewDecoder(bytes.NewReader(data))
	var out []profile.UserProfile
	for {
		card, err := dec.Decode()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("parse vCard %d: %w", len(out)+1, err)
		}
		if len(out) == MaxVCards {
			return nil, fmt.Errorf("parse vCard: %w: more than %d cards", ErrTooLarge, MaxVCards)
		}
		p, err := cardProfile(card, now)
		if err != nil {
			return nil, fmt.Errorf("parse vCard %d: %w", len(out)+1, err)
		}
		// A card with nothing we map (only a PHOTO, say) would become an
		// empty profile the person has to delete by hand.
		if len(p.Concepts) > 0 {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("parse vCard: no card with a name, address or contact detail")
	}
	return out, nil
}

func cardProfile(card vcard.Card, now string) (profile.UserProfile, error) {
	p := profile.UserProfile{ID: newProfileID(), Created: now, Updated: now,
		Concepts: map[string]profile.Entry{}, Fields: map[string]profile.Entry{}}
	set := func(concept, value string) {
		value = strings.TrimSpace(value)
		if value == "" {
			return
		}
		v, _ := json.Marshal(value)
		p.Concepts[concept] = profile.Entry{Value: v, Confidence: 1,
			Source: profile.Source{Type: "import", Source: "vcard", Timestamp: now}}
	}
	fn := card.PreferredValue(vcard.FieldFormattedName)
	set(cName, fn)
	if n := card.Name(); n != nil {
		set(cGivenName, n.GivenName)
		set(cFamilyName, n.FamilyName)
		set(cAdditionalName, n.AdditionalName)
		set(cHonorificPrefix, n.HonorificPrefix)
		set(cHonorificSuffix, n.HonorificSuffix)
		if fn == "" {
			fn = strings.TrimSpace(n.GivenName + " " + n.FamilyName)
		}
	}
	set(cAlternateName, firstComponent(card.PreferredValue(vcard.FieldNickname), ','))
	set(cEmail, card.PreferredValue(vcard.FieldEmail))
	set(cJobTitle, card.PreferredValue(vcard.FieldTitle))
	set(cOrganization, firstComponent(card.PreferredValue(vcard.FieldOrganization), ';'))
	set(cURL, card.PreferredValue(vcard.FieldURL))
	set(cBirthDate, isoDate(card.PreferredValue(vcard.FieldBirthday)))
	set(cGender, gender(card))
	family, given := phoneticName(card)
	set(profile.ConceptPhoneticFamilyName, family)
	set(profile.ConceptPhoneticGivenName, given)
	region := ""
	if a := preferredAddress(card); a != nil {
		street := a.StreetAddress
		if a.ExtendedAddress != "" {
			street = strings.TrimSpace(street + "\n" + a.ExtendedAddress)
		}
		set(cStreetAddress, street)
		set(cPostOfficeBox, a.PostOfficeBox)
		set(cAddressLocality, a.Locality)
		set(cAddressRegion, a.Region)
		set(cPostalCode, a.PostalCode)
		country := strings.TrimSpace(a.Country)
		if len(country) == 2 {
			country = strings.ToUpper(country)
			region = country
		}
		set(cAddressCountry, country)
	}
	set(cTelephone, e164(card.PreferredValue(vcard.FieldTelephone), region))
	p.Label = fn
	if p.Label == "" {
		p.Label = "Imported contact"
	}
	if len(p.Label) > MaxLabelSize {
		return p, fmt.Errorf("label: %w", ErrTooLarge)
	}
	for name, e := range p.Concepts {
		if err := checkEntry(ConceptKey(name), e); err != nil {
			return p, err
		}
	}
	return p, nil
}

func preferredAddress(card vcard.Card) *vcard.Address {
	f := card.Preferred(vcard.FieldAddress)
	if f == nil {
		return nil
	}
	for _, a := range card.Addresses() {
		if a.Field == f {
			return a
		}
	}
	return nil
}

func firstComponent(s string, sep byte) string {
	if i := strings.IndexByte(s, sep); i >= 0 {
		return s[:i]
	}
	return s
}

// e164 formats a telephone number in E.164 when it parses; otherwise the
// number is kept as written rather than guessed at. vCard 4 writes TEL as a
// "tel:" URI.
func e164(tel, region string) string {
	tel = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(tel), "tel:"))
	if tel == "" || len(tel) > 64 {
		return tel
	}
	n, err := phonenumbers.Parse(tel, region)
	if err != nil || !phonenumbers.IsPossibleNumber(n) {
		return tel
	}
	return phonenumbers.Format(n, phonenumbers.E164)
}

// isoDate turns the vCard date forms (19850412, 1985-04-12, with or
// without a time) into an ISO date; other forms (--0412, free text) are kept.
func isoDate(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, 'T'); i > 0 {
		s = s[:i]
	}
	for _, layout := range []string{"2006-01-02", "20060102"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.Format("2006-01-02")
		}
	}
	return s
}

// gender reads a vCard 4.0 GENDER as schema.org's gender text: "Male" or
// "Female" for the sex M or F (schema.org's GenderType names, which forms'
// options match), else the identity text the card gives ("O;nonbinary"
// is "nonbinary"); "" for none, unknown or not applicable without one.
func gender(card vcard.Card) string {
	sex, identity := card.Gender()
	switch sex {
	case vcard.SexMale:
		return "Male"
	case vcard.SexFemale:
		return "Female"
	}
	return identity
}

// phoneticName reads the reading of a card's name (family, given), as
// contacts apps write it: X-PHONETIC-LAST-NAME and X-PHONETIC-FIRST-NAME
// (Apple, Android, Google), else a vCard 4 N;SORT-AS whose parts are
// all kana (SORT-AS is a sort key in general; written in kana it is the
// reading Japanese address books sort by). Half-width katakana are
// widened. Nothing is derived from the name itself. (The IrMC reading of
// Japanese phones, SOUND;X-IRMC-N, is not read: its bare parameter is
// mis-parsed by the vCard decoder.)
func phoneticName(card vcard.Card) (family, given string) {
	// Widening ﾀﾞ gives タ and a combining voiced mark: compose them.
	clean := func(s string) string { return strings.TrimSpace(norm.NFC.String(width.Fold.String(s))) }
	family, given = clean(card.PreferredValue("X-PHONETIC-LAST-NAME")), clean(card.PreferredValue("X-PHONETIC-FIRST-NAME"))
	if family != "" || given != "" {
		return family, given
	}
	if n := card.Get(vcard.FieldName); n != nil {
		parts := strings.Split(strings.Join(n.Params[vcard.ParamSortAs], ","), ",")
		for i := range parts {
			parts[i] = clean(parts[i])
		}
		if len(parts) >= 2 && allKana(parts[0]) && allKana(parts[1]) {
			return parts[0], parts[1]
		}
	}
	return "", ""
}

// allKana reports whether s is a non-empty word of hiragana or katakana
// (with the prolonged sound mark and spaces).
func allKana(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !unicode.In(r, unicode.Hiragana, unicode.Katakana) && r != 'ー' && r != ' ' && r != '\u3000' {
			return false
		}
	}
	return true
}
