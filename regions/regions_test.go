package regions

import "testing"

// TestRegionTables guards the subdivision data: the complete first-level
// ISO 3166-2 lists of the countries whose forms ask for a region by name or
// code, no duplicate codes, and every region named.
func TestRegionTables(t *testing.T) {
	complete := map[string]int{
		"US": 57, // 50 states, DC and the 6 outlying areas with USPS codes
		"CA": 13, "AU": 8, "DE": 16, "AT": 9, "CH": 26, "ES": 19 + 50, "FR": 13, "NL": 12, "MX": 32, "BR": 27, "IN": 36, "JP": 47,
		"CN": 34, "KR": 17, "AR": 24, "CO": 33,
		// Italy's regions and provinces, Spain's communities and provinces:
		// the forms of both ask for the province.
		"IT": 20 + 107,
	}
	for cc, n := range complete {
		if got := len(ByCountry()[cc]); got != n {
			t.Errorf("regions[%s] has %d subdivisions, want %d", cc, got, n)
		}
	}
	for cc, rs := range ByCountry() {
		seen := map[string]bool{}
		for _, rg := range rs {
			if seen[rg.Code] || rg.Code == "" || len(rg.Names) == 0 || rg.Names[0] == "" {
				t.Errorf("regions[%s]: bad or duplicate entry %+v", cc, rg)
			}
			seen[rg.Code] = true
		}
	}
}
