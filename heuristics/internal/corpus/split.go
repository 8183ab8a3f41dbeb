package corpus

import (
	"hash/fnv"
	"path"
	"regexp"
	"strings"
)

// domainLike matches a host name inside a page's file name.
var domainLike = regexp.MustCompile(`[a-z0-9-]+(?:\.[a-z0-9-]+)+`)

// countryPrefix matches the country and language prefixes of the Mozilla
// collection's file names ("QA_DE_", "EN_", "QA_EG_ar_").
var countryPrefix = regexp.MustCompile(`^(?:(?:qa|[a-z]{2})_)+`)

// genericSecond lists the second-level labels under which countries
// register names ("co.uk", "com.au").
var genericSecond = map[string]bool{
	"co": true, "com": true, "org": true, "net": true, "ac": true, "gov": true, "edu": true, "ne": true, "or": true,
}

// SiteOf returns the site a corpus page comes from, from its file name:
// the registrable domain's own label when the name holds a host name
// (www.thomann.de and www.thomann.fr are both "thomann": one retailer in
// two countries is one site), else the file name's first word ("amazon"
// for amazon_login.html). It is a key for splitting, not a domain.
func SiteOf(rel string) string {
	base := strings.ToLower(strings.TrimSuffix(path.Base(rel), ".html"))
	if d := domainLike.FindString(base); d != "" {
		labels := strings.Split(d, ".")
		labels = labels[:len(labels)-1] // the top-level domain
		if n := len(labels); n > 1 && genericSecond[labels[n-1]] {
			labels = labels[:n-1]
		}
		return strings.TrimRight(labels[len(labels)-1], "-0123456789")
	}
	base = strings.TrimLeft(base, "0123456789_")
	if strings.HasPrefix(path.Dir(rel), "mozilla") || strings.Contains(rel, "/training/") {
		// Mozilla's captures without a host name are named by country and
		// an id of Mozilla's own ("EN_B378b"): the id is the site.
		base = countryPrefix.ReplaceAllString(base, "")
		return base
	}
	words := strings.Split(base, "_")
	for i := 1; i < len(words); i++ {
		if genericSecond[words[i]] {
			// A host name written with underscores ("www_aa_com_signup").
			return words[i-1]
		}
	}
	if words[0] == "bug" && len(words) > 2 {
		words = words[2:] // Chromium's "bug_971402_opentable_checkout"
	}
	return words[0]
}

// HeldOut reports whether a site belongs to the held-out half: the half no
// tuning looks at and no model learns from. The split is a hash of the
// site, so it is the same on every machine and for every new page of a
// site already split.
func HeldOut(site string) bool {
	return siteHash(site)%2 == 1
}

// Calibration reports whether a site belongs to the calibration quarter:
// half of the held-out half, whose labels fit only the maps from the
// confidence the classifier computes to the confidence the dialog shows
// (heuristics/cmd/train). Those maps change what the dialog shows, never
// which token a box gets, so the held-out half's precision and recall
// stay untouched; and because no rule was written and no weight learned
// looking at these sites, they say how often a fill is right on forms
// nobody tuned for, which the tuning half, where the rules were written,
// overstates. The other quarter is untouched by anything: the
// calibration is judged there.
func Calibration(site string) bool {
	return siteHash(site)%4 == 1
}

// siteHash is the hash the split is made from.
func siteHash(site string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(site))
	return h.Sum32()
}
