package profile

// The concept vocabulary lives here, beside the profiles it keys, so that
// classification (heuristics) and matching (matcher) both depend on it rather
// than on each other.

// Concept IRIs. schema.org where a property exists; "ext:" names otherwise
// (credentials and payment data, which Tessera recognises only to keep profile
// data out of them, and a few autofill parts with no schema.org property).
const (
	ConceptName             = "https://schema.org/name"
	ConceptHonorificPrefix  = "https://schema.org/honorificPrefix"
	ConceptGivenName        = "https://schema.org/givenName"
	ConceptAdditionalName   = "https://schema.org/additionalName"
	ConceptFamilyName       = "https://schema.org/familyName"
	ConceptHonorificSuffix  = "https://schema.org/honorificSuffix"
	ConceptAlternateName    = "https://schema.org/alternateName"
	ConceptJobTitle         = "https://schema.org/jobTitle"
	ConceptOrganization     = "https://schema.org/worksFor"
	ConceptStreetAddress    = "https://schema.org/streetAddress"
	ConceptAddressLocality  = "https://schema.org/addressLocality"
	ConceptAddressRegion    = "https://schema.org/addressRegion"
	ConceptAddressCountry   = "https://schema.org/addressCountry"
	ConceptPostalCode       = "https://schema.org/postalCode"
	ConceptPostOfficeBox    = "https://schema.org/postOfficeBoxNumber"
	ConceptDependentLocal   = "ext:address-level3"
	ConceptAddressLevel4    = "ext:address-level4"
	ConceptBirthDate        = "https://schema.org/birthDate"
	ConceptGender           = "https://schema.org/gender"
	ConceptURL              = "https://schema.org/url"
	ConceptImage            = "https://schema.org/image"
	ConceptTelephone        = "https://schema.org/telephone"
	ConceptFax              = "https://schema.org/faxNumber"
	ConceptEmail            = "https://schema.org/email"
	ConceptLanguage         = "https://schema.org/knowsLanguage"
	ConceptIMPP             = "ext:impp"
	ConceptUsername         = "ext:username"
	ConceptPassword         = "ext:password"
	ConceptOneTimeCode      = "ext:one-time-code"
	ConceptCCName           = "ext:cc-name"
	ConceptCCGivenName      = "ext:cc-given-name"
	ConceptCCAdditionalName = "ext:cc-additional-name"
	ConceptCCFamilyName     = "ext:cc-family-name"
	ConceptCCNumber         = "ext:cc-number"
	ConceptCCExp            = "ext:cc-exp"
	ConceptCCExpMonth       = "ext:cc-exp-month"
	ConceptCCExpYear        = "ext:cc-exp-year"
	ConceptCCCSC            = "ext:cc-csc"
	ConceptCCType           = "ext:cc-type"
	ConceptCurrency         = "ext:transaction-currency"
	ConceptAmount           = "ext:transaction-amount"

	// The phonetic reading of a name, as Japanese forms ask for it in
	// katakana or hiragana (フリガナ, セイ/メイ). schema.org and the
	// WHATWG autofill names have none; these follow vCard's
	// X-PHONETIC-FIRST-NAME and X-PHONETIC-LAST-NAME (Apple and Android
	// contacts) and Chrome's "alternative name" of Japanese profiles. A
	// reading is only ever a value the person stored: it cannot be derived
	// from the name.
	ConceptPhoneticName       = "ext:phonetic-name"
	ConceptPhoneticGivenName  = "ext:phonetic-given-name"
	ConceptPhoneticFamilyName = "ext:phonetic-family-name"
)

// tokenConcepts maps every WHATWG autofill field name to exactly one concept.
// Parts of a value (bday-day, tel-area-code, address-line2, ...) map to the
// concept of the whole; the token says which part.
var tokenConcepts = map[string]string{
	"name":                 ConceptName,
	"honorific-prefix":     ConceptHonorificPrefix,
	"given-name":           ConceptGivenName,
	"additional-name":      ConceptAdditionalName,
	"family-name":          ConceptFamilyName,
	"honorific-suffix":     ConceptHonorificSuffix,
	"nickname":             ConceptAlternateName,
	"username":             ConceptUsername,
	"new-password":         ConceptPassword,
	"current-password":     ConceptPassword,
	"one-time-code":        ConceptOneTimeCode,
	"organization-title":   ConceptJobTitle,
	"organization":         ConceptOrganization,
	"street-address":       ConceptStreetAddress,
	"address-line1":        ConceptStreetAddress,
	"address-line2":        ConceptStreetAddress,
	"address-line3":        ConceptStreetAddress,
	"address-level4":       ConceptAddressLevel4,
	"address-level3":       ConceptDependentLocal,
	"address-level2":       ConceptAddressLocality,
	"address-level1":       ConceptAddressRegion,
	"country":              ConceptAddressCountry,
	"country-name":         ConceptAddressCountry,
	"postal-code":          ConceptPostalCode,
	"cc-name":              ConceptCCName,
	"cc-given-name":        ConceptCCGivenName,
	"cc-additional-name":   ConceptCCAdditionalName,
	"cc-family-name":       ConceptCCFamilyName,
	"cc-number":            ConceptCCNumber,
	"cc-exp":               ConceptCCExp,
	"cc-exp-month":         ConceptCCExpMonth,
	"cc-exp-year":          ConceptCCExpYear,
	"cc-csc":               ConceptCCCSC,
	"cc-type":              ConceptCCType,
	"transaction-currency": ConceptCurrency,
	"transaction-amount":   ConceptAmount,
	"language":             ConceptLanguage,
	"bday":                 ConceptBirthDate,
	"bday-day":             ConceptBirthDate,
	"bday-month":           ConceptBirthDate,
	"bday-year":            ConceptBirthDate,
	"sex":                  ConceptGender,
	"url":                  ConceptURL,
	"photo":                ConceptImage,
	"tel":                  ConceptTelephone,
	"tel-country-code":     ConceptTelephone,
	"tel-national":         ConceptTelephone,
	"tel-area-code":        ConceptTelephone,
	"tel-local":            ConceptTelephone,
	"tel-local-prefix":     ConceptTelephone,
	"tel-local-suffix":     ConceptTelephone,
	"tel-extension":        ConceptTelephone,
	"email":                ConceptEmail,
	"impp":                 ConceptIMPP,
}

// ownTokens are Tessera's own field names for concepts the WHATWG list
// lacks. The classifier predicts them; no page can declare them (the form
// package reads autocomplete against the standard's list only).
var ownTokens = map[string]string{
	"phonetic-name":        ConceptPhoneticName,
	"phonetic-given-name":  ConceptPhoneticGivenName,
	"phonetic-family-name": ConceptPhoneticFamilyName,
}

// ConceptForToken returns the concept IRI of a WHATWG autofill field name or
// of one of Tessera's own (OwnTokens), and reports whether the token is one.
func ConceptForToken(token string) (string, bool) {
	if c, ok := tokenConcepts[token]; ok {
		return c, true
	}
	c, ok := ownTokens[token]
	return c, ok
}

// Tokens returns every field name Tessera knows: the WHATWG autofill field
// names and its own (OwnTokens).
func Tokens() []string {
	out := make([]string, 0, len(tokenConcepts)+len(ownTokens))
	for t := range tokenConcepts {
		out = append(out, t)
	}
	for t := range ownTokens {
		out = append(out, t)
	}
	return out
}

// OwnTokens returns Tessera's own field names, those that are not WHATWG
// autofill field names: the phonetic name parts.
func OwnTokens() []string {
	out := make([]string, 0, len(ownTokens))
	for t := range ownTokens {
		out = append(out, t)
	}
	return out
}

// sensitiveTokens are never filled from profile data: credentials, one-time
// codes and payment card data.
var sensitiveTokens = map[string]bool{
	"username": true, "new-password": true, "current-password": true,
	"one-time-code": true, "cc-name": true, "cc-given-name": true,
	"cc-additional-name": true, "cc-family-name": true, "cc-number": true,
	"cc-exp": true, "cc-exp-month": true, "cc-exp-year": true, "cc-csc": true,
	"cc-type": true,
}

// IsSensitiveToken reports whether a field with this autofill token must never
// be filled from profile data (credentials, one-time codes, payment cards).
func IsSensitiveToken(token string) bool { return sensitiveTokens[token] }
