package corpus

import "testing"

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
