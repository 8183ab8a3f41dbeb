package form

import "strings"

// fieldNames are the WHATWG autofill field names that take no contact token.
var fieldNames = map[string]bool{
	"name": true, "honorific-prefix": true, "given-name": true,
	"additional-name": true, "family-name": true, "honorific-suffix": true,
	"nickname": true, "username": true, "new-password": true,
	"current-password": true, "one-time-code": true, "organization-title": true,
	"organization": true, "street-address": true, "address-line1": true,
	"address-line2": true, "address-line3": true, "address-level4": true,
	"address-level3": true, "address-level2": true, "address-level1": true,
	"country": true, "country-name": true, "postal-code": true, "cc-name": true,
	"cc-given-name": true, "cc-additional-name": true, "cc-family-name": true,
	"cc-number": true, "cc-exp": true, "cc-exp-month": true, "cc-exp-year": true,
	"cc-csc": true, "cc-type": true, "transaction-currency": true,
	"transaction-amount": true, "language": true, "bday": true, "bday-day": true,
	"bday-month": true, "bday-year": true, "sex": true, "url": true, "photo": true,
}

// contactFieldNames are the field names that may follow a contact token
// (home, work, mobile, fax, pager).
var contactFieldNames = map[string]bool{
	"tel": true, "tel-country-code": true, "tel-national": true,
	"tel-area-code": true, "tel-local": true, "tel-local-prefix": true,
	"tel-local-suffix": true, "tel-extension": true, "email": true, "impp": true,
}

var contactTokens = map[string]bool{"home": true, "work": true, "mobile": true, "fax": true, "pager": true}

// ParseAutocomplete parses an autocomplete attribute value following the
// WHATWG autofill detail tokens grammar:
//
//	[section-*] [shipping|billing] [home|work|mobile|fax|pager] field [webauthn]
//
// where a contact token is only allowed before a contact field name (tel*,
// email, impp), and "on"/"off" stand alone. It returns nil for an empty or
// all-whitespace value. An invalid value yields an info with Field "" and no
// other fact, as browsers then ignore the attribute.
func ParseAutocomplete(value string) *AutocompleteInfo {
	tokens := strings.Fields(strings.ToLower(value))
	if len(tokens) == 0 {
		return nil
	}
	if len(tokens) == 1 {
		switch tokens[0] {
		case "on":
			return &AutocompleteInfo{On: true}
		case "off":
			return &AutocompleteInfo{Off: true}
		}
	}
	var info AutocompleteInfo
	if tokens[len(tokens)-1] == "webauthn" {
		info.Webauthn = true
		tokens = tokens[:len(tokens)-1]
	}
	if len(tokens) == 0 {
		return &AutocompleteInfo{}
	}
	field := tokens[len(tokens)-1]
	tokens = tokens[:len(tokens)-1]
	switch {
	case fieldNames[field]:
	case contactFieldNames[field]:
		if n := len(tokens); n > 0 && contactTokens[tokens[n-1]] {
			info.Contact = tokens[n-1]
			tokens = tokens[:n-1]
		}
	default:
		return &AutocompleteInfo{}
	}
	info.Field = field
	if n := len(tokens); n > 0 && (tokens[n-1] == "shipping" || tokens[n-1] == "billing") {
		info.Mode = tokens[n-1]
		tokens = tokens[:n-1]
	}
	if n := len(tokens); n > 0 && strings.HasPrefix(tokens[n-1], "section-") {
		info.Section = tokens[n-1]
		tokens = tokens[:n-1]
	}
	if len(tokens) > 0 {
		return &AutocompleteInfo{}
	}
	return &info
}
