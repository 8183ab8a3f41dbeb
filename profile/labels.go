package profile

import "strings"

// The one table of what concepts are called for people: the editor's
// catalog (label, group, kind of value) and the labels of the parts of a
// value a field may ask for (an autocomplete token such as tel-area-code).

// Value kinds: how the editor asks for and checks a concept's value.
const (
	KindText      = "text"
	KindMultiline = "multiline" // street address lines
	KindDate      = "date"      // ISO 8601 date
	KindTel       = "tel"       // stored E.164
	KindEmail     = "email"
	KindURL       = "url"
	KindCountry   = "country" // ISO 3166-1 alpha-2
)

// ConceptInfo is one concept the editor knows: its IRI, human label,
// group and kind of value.
type ConceptInfo struct {
	IRI   string `json:"iri"`
	Label string `json:"label"`
	Group string `json:"group"`
	Kind  string `json:"kind"`
}

// ConceptGroups are the editor's groups, in the order shown.
var ConceptGroups = []struct{ ID, Label string }{
	{"name", "Name"}, {"contact", "Contact"}, {"address", "Address"}, {"dates", "Dates"},
	{"organisation", "Organisation"}, {"documents", "Documents"}, {"other", "Other"},
}

// Catalog is every concept a person can add a value for, in the
// order the editor shows them. Credentials and payment cards are absent:
// profile data is never filled into them (rule 2).
var Catalog = []ConceptInfo{
	{ConceptName, "Full name", "name", KindText},
	{ConceptHonorificPrefix, "Title", "name", KindText},
	{ConceptGivenName, "First name", "name", KindText},
	{ConceptAdditionalName, "Middle name", "name", KindText},
	{ConceptFamilyName, "Last name", "name", KindText},
	{ConceptHonorificSuffix, "Suffix", "name", KindText},
	{ConceptAlternateName, "Nickname", "name", KindText},
	{ConceptPhoneticName, "Name reading (furigana)", "name", KindText},
	{ConceptPhoneticFamilyName, "Last name reading", "name", KindText},
	{ConceptPhoneticGivenName, "First name reading", "name", KindText},
	{ConceptEmail, "Email", "contact", KindEmail},
	{ConceptTelephone, "Phone", "contact", KindTel},
	{ConceptFax, "Fax", "contact", KindTel},
	{ConceptURL, "Website", "contact", KindURL},
	{ConceptIMPP, "Messaging address", "contact", KindText},
	{ConceptStreetAddress, "Street address", "address", KindMultiline},
	{ConceptAddressLevel4, "Neighbourhood", "address", KindText},
	{ConceptDependentLocal, "District", "address", KindText},
	{ConceptAddressLocality, "City / town", "address", KindText},
	{ConceptAddressRegion, "State / region", "address", KindText},
	{ConceptPostalCode, "Postcode", "address", KindText},
	{ConceptPostOfficeBox, "PO box", "address", KindText},
	{ConceptAddressCountry, "Country", "address", KindCountry},
	{ConceptBirthDate, "Birth date", "dates", KindDate},
	{ConceptOrganization, "Organisation", "organisation", KindText},
	{ConceptJobTitle, "Job title", "organisation", KindText},
	{"https://schema.org/taxID", "Tax number", "documents", KindText},
	{"https://schema.org/vatID", "VAT number", "documents", KindText},
	{ConceptGender, "Gender", "other", KindText},
	{ConceptLanguage, "Language", "other", KindText},
	{ConceptImage, "Photo (web address)", "other", KindURL},
}

// catalogIndex finds a concept of the catalog by its canonical IRI.
var catalogIndex = func() map[string]int {
	m := map[string]int{}
	for i, c := range Catalog {
		m[c.IRI] = i
	}
	return m
}()

// CatalogOrder returns the place of a canonical concept IRI in Catalog.
func CatalogOrder(iri string) (int, bool) {
	i, ok := catalogIndex[iri]
	return i, ok
}

// CatalogConcept returns the catalog's entry for a canonical concept IRI.
func CatalogConcept(iri string) (ConceptInfo, bool) {
	i, ok := catalogIndex[iri]
	if !ok {
		return ConceptInfo{}, false
	}
	return Catalog[i], true
}

// partLabels name the tokens that ask for part of a concept's value, and
// those whose field names it otherwise than the catalog.
var partLabels = map[string]string{
	"tel-national": "Phone (national)", "tel-country-code": "Phone country code",
	"tel-area-code": "Phone area code", "tel-local": "Phone number", "tel-local-prefix": "Phone (first part)",
	"tel-local-suffix": "Phone (last part)", "tel-extension": "Phone extension",
	"address-line1": "Address line 1", "address-line2": "Address line 2", "address-line3": "Address line 3",
	"bday-day": "Birth day", "bday-month": "Birth month", "bday-year": "Birth year",
	"phonetic-name": "Name reading",
	// Parts of a value a form splits over boxes (heuristics' Result.Part).
	"house-number": "House number", "street-name": "Street name",
	"floor": "Floor", "apartment": "Apartment or unit", "building": "Building", "staircase": "Staircase",
	"first-surname": "First surname", "second-surname": "Second surname",
	"postal-code-1": "Postcode (first part)", "postal-code-2": "Postcode (second part)",
	"international":        "Phone (international)",
	"postal-code-and-city": "Postcode and town", "city-and-postal-code": "Town and postcode",
	"city-region-postal-code": "Town, region and postcode",
}

// HasPartLabel reports whether part (a heuristics Result.Part) has a label
// of its own.
func HasPartLabel(part string) bool {
	_, ok := partLabels[part]
	return ok
}

// Label names what a field asks for: the label of its autocomplete token
// when it asks for a part of a value, else the catalog's label of the
// token's concept or of concept, else the token or the concept's last
// segment in words.
func Label(token, concept string) string {
	if l, ok := partLabels[token]; ok {
		return l
	}
	if c, ok := ConceptForToken(token); ok {
		if ci, ok := CatalogConcept(c); ok {
			return ci.Label
		}
	}
	if ci, ok := CatalogConcept(concept); ok {
		return ci.Label
	}
	if token != "" {
		return strings.ReplaceAll(token, "-", " ")
	}
	if i := strings.LastIndexAny(concept, "/#:"); i >= 0 {
		return concept[i+1:]
	}
	return concept
}
