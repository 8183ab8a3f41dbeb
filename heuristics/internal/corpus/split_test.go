package corpus

import (
	"slices"
	"strconv"
	"testing"

	"github.com/tessera-app/tessera/form"
)

func TestSiteOf(t *testing.T) {
	tests := []struct{ rel, want string }{
		// One retailer in two countries is one site.
		{"mozilla_firefox_ai/data/training/QA_DE_www.thomann.de.html", "thomann"},
		{"mozilla_firefox_ai/data/training/FR_www.thomann.fr.html", "thomann"},
		{"mozilla_firefox_ai/data/training/QA_ID_www.mouser.co.id.html", "mouser"},
		{"mozilla_firefox_ai/data/training/QA_EG_ar_eg.hm.com.html", "hm"},
		{"mozilla_firefox_ai/data/training/EN_B378b.html", "b378b"},
		{"ddg_autofill/test-forms/amazon_login.html", "amazon"},
		{"ddg_autofill/test-forms/www_aa_com_signup.html", "aa"},
		{"formasaurus/data/html/belepes.t-online.hu-0.html", "t-online"},
		{"chromium/input/157_bug_971402_opentable_checkout.html", "opentable"},
		{"chromium/input/093_checkout_m_walmart.com.html", "walmart"},
	}
	for _, tt := range tests {
		if got := SiteOf(tt.rel); got != tt.want {
			t.Errorf("SiteOf(%q) = %q, want %q", tt.rel, got, tt.want)
		}
	}
}

// TestHeldOutStable pins the split: moving a site between halves would
// let tuning see pages it was measured on.
func TestHeldOutStable(t *testing.T) {
	for site, want := range map[string]bool{"thomann": false, "amazon": true, "walmart": true, "etsy": false, "google": false} {
		if got := HeldOut(site); got != want {
			t.Errorf("HeldOut(%q) = %v, want %v", site, got, want)
		}
	}
}

// TestCalibrationQuarter: the calibration quarter is half of the
// held-out half, never a tuning site, and the split is stable.
func TestCalibrationQuarter(t *testing.T) {
	var cal, rest int
	for i := range 400 {
		site := "site" + strconv.Itoa(i)
		switch {
		case Calibration(site) && !HeldOut(site):
			t.Fatalf("Calibration(%q) but not HeldOut", site)
		case Calibration(site):
			cal++
		case HeldOut(site):
			rest++
		}
	}
	if cal < 70 || rest < 70 {
		t.Errorf("of 400 sites, %d in the calibration quarter and %d in the untouched one, want about 100 each", cal, rest)
	}
	for site, want := range map[string]bool{"amazon": true, "walmart": false, "thomann": false} {
		if got := Calibration(site); got != want {
			t.Errorf("Calibration(%q) = %v, want %v", site, got, want)
		}
	}
}

// TestAlign: a capture that counted the controls of an inert <template>
// (two consent checkboxes first) numbers every later control two higher
// than the snapshot does; Align matches them by tag, name and id.
func TestAlign(t *testing.T) {
	p := &Page{Controls: []Control{
		{"input", "cookie[]", "c1"}, {"input", "cookie[]", "c2"},
		{"input", "q", "search"}, {"input", "firstname", "firstname"}, {"select", "country", ""},
	}}
	s := &form.Snapshot{Controls: []form.Control{
		{Tag: "input", Name: "q", ID: "search"}, {Tag: "input", Name: "firstname", ID: "firstname"}, {Tag: "select", Name: "country"},
	}}
	want := []int{-1, -1, 0, 1, 2}
	if got := Align(p, s); !slices.Equal(got, want) {
		t.Errorf("Align() = %v, want %v", got, want)
	}
	s.Controls = append(s.Controls, form.Control{Tag: "input"}, form.Control{Tag: "input"})
	if got := Align(p, s); !slices.Equal(got, []int{0, 1, 2, 3, 4}) {
		t.Errorf("Align(as many controls) = %v, want the identity", got)
	}
}
