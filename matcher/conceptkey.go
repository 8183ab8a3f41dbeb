package matcher

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/tessera-app/tessera/profile"
)

// schemaOrgBase prefixes the schema.org concept IRIs.
const schemaOrgBase = "https://schema.org/"

// otherSchemaProperties are the schema.org properties a person may keep a
// value for beyond those an autofill token maps to: the properties of the
// types a profile describes (Thing, Person, PostalAddress, ContactPoint),
// as schema.org spells them.
var otherSchemaProperties = []string{
	// Thing
	"additionalType", "description", "disambiguatingDescription", "identifier",
	"mainEntityOfPage", "sameAs",
	// Person
	"address", "affiliation", "alumniOf", "award", "birthPlace", "callSign",
	"children", "colleague", "contactPoint", "deathDate", "deathPlace", "duns",
	"faxNumber", "globalLocationNumber", "hasCredential", "hasOccupation", "height",
	"homeLocation", "knows", "knowsAbout", "memberOf", "nationality",
	"netWorth", "parent", "sibling", "spouse", "taxID", "vatID", "weight",
	"workLocation",
	// PostalAddress, ContactPoint
	"extendedAddress", "postOfficeBoxNumber", "areaServed", "availableLanguage",
	"contactType", "hoursAvailable",
}

// schemaProperties is every schema.org property name Tessera knows, sorted.
var schemaProperties = func() []string {
	seen := map[string]bool{}
	for _, name := range otherSchemaProperties {
		seen[name] = true
	}
	for _, tok := range profile.Tokens() {
		if c, _ := profile.ConceptForToken(tok); strings.HasPrefix(c, schemaOrgBase) {
			seen[strings.TrimPrefix(c, schemaOrgBase)] = true
		}
	}
	out := make([]string, 0, len(seen))
	for name := range seen {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}()

// KnownSchemaProperty reports whether name is a schema.org property Tessera
// knows, spelt exactly (property names are case-sensitive).
func KnownSchemaProperty(name string) bool {
	i := sort.SearchStrings(schemaProperties, name)
	return i < len(schemaProperties) && schemaProperties[i] == name
}

// ResolveConceptKey is the one rule for a concept key a person gives (the
// command line's `profile set` and the app's profile.set): a bare name is a
// schema.org property; any spelling of a schema.org IRI is made canonical;
// other IRIs (ext:, FHIR, ...) are kept as given. A schema.org property
// Tessera does not know is refused, naming the nearest one it does, since
// a value under a misspelt name would never be filled.
func ResolveConceptKey(key string) (string, error) {
	key = strings.TrimSpace(key)
	if key == "" {
		return "", errors.New("concept key is empty")
	}
	if !strings.Contains(key, ":") {
		key = schemaOrgBase + key
	}
	canon := CanonicalConcept(key)
	prop, ok := strings.CutPrefix(canon, schemaOrgBase)
	if !ok {
		return key, nil
	}
	// A part of a known property ("streetAddress/line2") is known.
	base, _, _ := strings.Cut(prop, "/")
	if KnownSchemaProperty(base) {
		return canon, nil
	}
	return "", fmt.Errorf("unknown schema.org property %q: did you mean %q?", base, nearestSchemaProperty(base))
}

// nearestSchemaProperty returns the known property closest to name by edit
// distance, ignoring case (so "birthdate" finds "birthDate"); ties go to
// the first in sorted order.
func nearestSchemaProperty(name string) string {
	best, bestD := "", -1
	lower := strings.ToLower(name)
	for _, p := range schemaProperties {
		if d := editDistance(lower, strings.ToLower(p)); bestD < 0 || d < bestD {
			best, bestD = p, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
