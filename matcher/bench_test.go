package matcher

import (
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/regions"
)

// benchForm builds a 50-field form of the usual kinds (names, contact,
// address with a 57-state select and a 250-country select, phone parts,
// date parts, patterns) and a 500-entry profile.
func benchForm() ([]Field, *profile.UserProfile) {
	p := &profile.UserProfile{Concepts: map[string]profile.Entry{}}
	for k, v := range map[string]string{
		profile.ConceptName: "Jane Q. Public", profile.ConceptEmail: "jane@example.com",
		profile.ConceptTelephone: "+12025550123", profile.ConceptStreetAddress: "1600 Pennsylvania Ave NW\nSuite 200",
		profile.ConceptAddressLocality: "Washington", profile.ConceptAddressRegion: "District of Columbia",
		profile.ConceptPostalCode: "20500", profile.ConceptAddressCountry: "US", profile.ConceptBirthDate: "1985-07-04",
		profile.ConceptHonorificPrefix: "Dr", profile.ConceptOrganization: "Example Corp", profile.ConceptJobTitle: "Engineer",
	} {
		p.Concepts[k] = entryOf(v, 0.9)
	}
	for i := len(p.Concepts); i < 500; i++ {
		p.Concepts[fmt.Sprintf("https://example.org/concepts/c%d", i)] = entryOf(fmt.Sprintf("value %d", i), 1)
	}
	var states, countries []Option
	for _, r := range regions.ByCountry()["US"] {
		states = append(states, Option{Value: r.Code, Text: r.Names[0]})
	}
	for _, cc := range allCountries() {
		countries = append(countries, Option{Value: cc, Text: cc + " country"})
	}
	tokens := []string{"honorific-prefix", "given-name", "additional-name", "family-name", "name", "email", "tel",
		"tel-country-code", "tel-area-code", "tel-local-prefix", "tel-local-suffix", "tel-national", "address-line1",
		"address-line2", "street-address", "address-level2", "address-level1", "postal-code", "country", "country-name",
		"bday", "bday-day", "bday-month", "bday-year", "organization", "organization-title", "current-password", "username"}
	var fields []Field
	for i := 0; len(fields) < 50; i++ {
		tok := tokens[i%len(tokens)]
		c, _ := profile.ConceptForToken(tok)
		f := Field{Index: len(fields), Path: fmt.Sprintf("f%d", i), InputType: "text", Lang: "en-US",
			Evidence: []Evidence{{Kind: EvidenceHeuristic, Concept: c, Token: tok, Strength: 0.8}}}
		switch tok {
		case "address-level1":
			f.InputType, f.Options = "select-one", states
		case "country", "country-name":
			f.InputType, f.Options = "select-one", countries
		case "postal-code":
			f.Constraints.Pattern = `\d{5}`
		case "bday":
			f.Placeholder = "MM/DD/YYYY"
		case "email":
			f.InputType = "email"
		}
		fields = append(fields, f)
	}
	return fields, p
}

// BenchmarkMatch matches a 50-field form against a 500-entry profile and
// reports the median and 99th-percentile time of one Match call (p50-ns,
// p99-ns); the budget is p99 under 1 ms.
func BenchmarkMatch(b *testing.B) {
	fields, p := benchForm()
	Match(fields, p, Options{}) // warm the lazily built tables
	times := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		Match(fields, p, Options{})
		times = append(times, time.Since(t0))
	}
	b.StopTimer()
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(times[len(times)*99/100].Nanoseconds()), "p99-ns")
}
