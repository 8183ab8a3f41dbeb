package matcher

import "testing"

// TestSplitPostcode checks the two parts a two-box postcode form gets,
// Japanese postcodes written with the postal mark or full-width digits
// included (issue 12, part 5: both boxes were INVALID_VALUE).
func TestSplitPostcode(t *testing.T) {
	tests := []struct{ v, country, first, second string }{
		{"150-0002", "JP", "150", "0002"},
		{"1500002", "JP", "150", "0002"},
		{"〒150-0002", "JP", "150", "0002"},
		{"〒 150-0002", "", "150", "0002"},
		{"１５０－０００２", "JP", "150", "0002"},
		{"１５００００２", "JP", "150", "0002"},
		{"1000-001", "PT", "1000", "001"},
		{"12345", "", "12345", ""},
	}
	for _, tt := range tests {
		if f, s := splitPostcode(tt.v, tt.country); f != tt.first || s != tt.second {
			t.Errorf("splitPostcode(%q, %q) = %q, %q; want %q, %q", tt.v, tt.country, f, s, tt.first, tt.second)
		}
	}
}
