package ui

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/tessera-app/tessera/app/agents"
	"github.com/tessera-app/tessera/app/confirm"
	"github.com/tessera-app/tessera/vault"
)

// RevealSite is where the command line's reveal sends values, as its
// dialog and the audit log name it: the person's own command line. The
// Activity section tells such a record from a fill by it.
const RevealSite = "this computer"

// The Activity section: the vault's audit log read for the window, newest
// first, each record put in words. The log holds no values (vault.Release
// names concepts, never what was sent), so nothing here can show one.

// MaxActivity is the most entries one Activity call returns; the window
// asks for more by raising ActivityQuery.Limit.
const MaxActivity = 500

// ActivityQuery narrows the log. Empty fields match everything.
type ActivityQuery struct {
	// Text matches, case-insensitively, any word the entry shows: its
	// summary, site, origin, profile, client or a field's label.
	Text string `json:"text"`
	// Site keeps the entries of one site (registrable domain).
	Site string `json:"site"`
	// Profile keeps the entries of one profile id.
	Profile string `json:"profile"`
	// Limit is how many entries to return; 0 or more than MaxActivity
	// means MaxActivity.
	Limit int `json:"limit"`
}

// ActivityEntry is one audit record as the window shows it.
type ActivityEntry struct {
	// Seq is the record's position in the log (0 the oldest): a stable key.
	Seq   int    `json:"seq"`
	Time  string `json:"time"` // RFC 3339
	Event string `json:"event"`
	// Summary says what happened in a sentence: "Filled 5 details on
	// shop.example from Home".
	Summary string `json:"summary"`
	// Outcome is the short verdict ("approved", "declined (timed out)",
	// "page accepted 4 of 5", ...) and Tone its colour: "ok", "warn" or
	// "info".
	Outcome string `json:"outcome"`
	Tone    string `json:"tone"`
	Site    string `json:"site"`
	Origin  string `json:"origin,omitempty"`
	// Frame names the frames values went to ("main page", "frame 7").
	Frame     string   `json:"frame,omitempty"`
	Fields    []string `json:"fields"` // human labels of the concepts
	ProfileID string   `json:"profileId,omitempty"`
	Profile   string   `json:"profile,omitempty"` // its label, or "a deleted profile"
	Client    string   `json:"client,omitempty"`
}

// ActivityPage is one answer to Activity: the entries that match, and what
// the filters can offer.
type ActivityPage struct {
	Entries []ActivityEntry `json:"entries"`
	// Matched counts every entry that matches, Total the whole log.
	Matched int `json:"matched"`
	Total   int `json:"total"`
	// Sites are every site in the log, sorted; Profiles every profile the
	// log names that still exists, by label.
	Sites    []string                 `json:"sites"`
	Profiles []confirm.ProfileSummary `json:"profiles"`
}

// Activity returns the audit log, newest first, narrowed by q.
func (u *UI) Activity(q ActivityQuery) (ActivityPage, error) {
	v, err := u.editVault()
	if err != nil {
		return ActivityPage{}, err
	}
	u.cfg.Agents.FlushAudit()
	rs, err := v.Releases()
	if err != nil {
		return ActivityPage{}, PlainError("read activity", err)
	}
	ps, err := v.ProfileSummaries()
	if err != nil {
		return ActivityPage{}, PlainError("read activity", err)
	}
	return activityPage(rs, ps, q), nil
}

// activityPage builds the page for q from the log rs and the profiles ps.
func activityPage(rs []vault.Release, ps []vault.ProfileSummary, q ActivityQuery) ActivityPage {
	labels := map[string]string{}
	for _, p := range ps {
		labels[p.ID] = p.Label
	}
	limit := q.Limit
	if limit <= 0 || limit > MaxActivity {
		limit = MaxActivity
	}
	text := strings.ToLower(strings.TrimSpace(q.Text))
	page := ActivityPage{Entries: []ActivityEntry{}, Total: len(rs), Sites: []string{}, Profiles: []confirm.ProfileSummary{}}
	sites, named := map[string]bool{}, map[string]bool{}
	for i := len(rs) - 1; i >= 0; i-- {
		r := rs[i]
		if r.Site != "" {
			sites[r.Site] = true
		}
		named[r.ProfileID] = true
		if q.Site != "" && r.Site != q.Site || q.Profile != "" && r.ProfileID != q.Profile {
			continue
		}
		e := describeRelease(i, r, labels)
		if text != "" && !strings.Contains(e.searchText(), text) {
			continue
		}
		page.Matched++
		if len(page.Entries) < limit {
			page.Entries = append(page.Entries, e)
		}
	}
	for s := range sites {
		page.Sites = append(page.Sites, s)
	}
	sort.Strings(page.Sites)
	for _, p := range ps {
		if named[p.ID] {
			page.Profiles = append(page.Profiles, confirm.ProfileSummary{ID: p.ID, Label: p.Label, Entries: p.Entries, Updated: p.Updated})
		}
	}
	return page
}

func (e ActivityEntry) searchText() string {
	return strings.ToLower(strings.Join(append([]string{e.Summary, e.Outcome, e.Site, e.Origin, e.Profile, e.Client}, e.Fields...), "\n"))
}

// declineWords says why a request was declined, for each decline reason.
var declineWords = map[string]string{
	confirm.DeclineDenied:    "declined",
	confirm.DeclineTimeout:   "declined (timed out)",
	confirm.DeclineCancelled: "cancelled by the page",
}

// describeRelease puts audit record r, the seq-th of the log, in words.
func describeRelease(seq int, r vault.Release, labels map[string]string) ActivityEntry {
	e := ActivityEntry{
		Seq: seq, Time: r.Time.UTC().Format(time.RFC3339), Event: r.Event, Site: r.Site, Origin: r.Origin,
		Frame: frameWords(r.Frame), Fields: conceptLabelsOf(r.Concepts), ProfileID: r.ProfileID, Client: r.Client,
	}
	if r.ProfileID != "" {
		e.Profile = labels[r.ProfileID]
		if e.Profile == "" {
			e.Profile = "a deleted profile"
		}
	}
	site := r.Site
	if site == "" {
		site = "a page"
	}
	from := ""
	if e.Profile != "" {
		from = " from " + e.Profile
	}
	declined := declineWords[r.Reason]
	if declined == "" {
		declined = "declined"
		if r.Reason != "" {
			declined += " (" + r.Reason + ")"
		}
	}
	reveal := r.Site == RevealSite
	switch r.Event {
	case vault.EventRelease:
		e.Tone, e.Outcome = "ok", "approved"
		switch {
		case reveal:
			e.Summary = fmt.Sprintf("Showed the values of %s to a command on this computer", e.profileOr("a profile"))
		default:
			e.Summary = fmt.Sprintf("Filled %s on %s%s", count(len(r.Concepts), "detail", "details"), site, from)
		}
	case vault.EventDecline:
		e.Tone, e.Outcome = "warn", declined
		if reveal {
			e.Summary = fmt.Sprintf("Did not show %s to a command on this computer", e.profileOr("a profile"))
		} else {
			e.Summary = fmt.Sprintf("Nothing filled on %s%s", site, from)
		}
	case vault.EventReport:
		filled, all := r.Outcomes["filled"], 0
		for _, n := range r.Outcomes {
			all += n
		}
		e.Tone, e.Outcome = "ok", "all taken"
		if rest := outcomeWords(r.Outcomes); rest != "" {
			e.Tone, e.Outcome = "warn", rest
		}
		e.Summary = fmt.Sprintf("Page on %s accepted %d of %d", site, filled, all)
	case vault.EventLearn:
		e.Tone, e.Outcome = "ok", "saved"
		to := ""
		if e.Profile != "" {
			to = " to " + e.Profile
		}
		e.Summary = fmt.Sprintf("Saved %s learnt from %s%s", count(len(r.Concepts), "value", "values"), site, to)
	case vault.EventNoLearn:
		e.Tone, e.Outcome = "warn", strings.Replace(declined, "declined", "not saved", 1)
		e.Summary = fmt.Sprintf("Did not save what was typed on %s", site)
	case vault.EventProposal:
		e.Tone, e.Outcome = "info", "nothing sent"
		e.Summary = fmt.Sprintf("Offered masked matches to %s%s", site, from)
	case vault.EventImport:
		e.Tone, e.Outcome = "ok", "imported"
		src := "a file"
		if r.Reason != "" {
			src = "a " + r.Reason
		}
		e.Summary = fmt.Sprintf("Imported %s into %s from %s", count(len(r.Concepts), "detail", "details"), e.profileOr("a profile"), src)
	case vault.EventExport:
		e.Tone, e.Outcome = "info", "encrypted"
		if r.Reason == "backup" {
			e.Outcome = "backed up"
			e.Summary = fmt.Sprintf("Backed up %s to an encrypted file", e.profileOr("a profile"))
		} else {
			e.Summary = fmt.Sprintf("Exported %s to an encrypted file", e.profileOr("a profile"))
		}
	case vault.EventAgent:
		e.Tone, e.Outcome = "info", r.Reason
		if r.Reason != "ok" {
			e.Tone = "warn"
		}
		where := ""
		if r.Site != "" {
			where = " on " + site
		}
		e.Summary = fmt.Sprintf("An agent called %s%s", r.Tool, where)
		if n := r.Outcomes["unrecorded"]; n > 0 {
			e.Summary = fmt.Sprintf("%s refused while the vault was locked, beyond those listed one by one", count(n, "more agent call was", "more agent calls were"))
		}
	case agents.EventAgentAccess:
		e.Tone, e.Outcome = "info", r.Reason
		if r.Tool != "" {
			e.Summary = fmt.Sprintf("Agents must ask again before %s runs on %s", r.Tool, site)
		} else {
			e.Summary = fmt.Sprintf("Closed %s to agents", site)
		}
	default:
		e.Tone, e.Outcome = "info", r.Event
		e.Summary = fmt.Sprintf("%s on %s", capital(r.Event), site)
	}
	return e
}

func (e ActivityEntry) profileOr(s string) string {
	if e.Profile != "" {
		return e.Profile
	}
	return s
}

// outcomeWords lists what the page did with the values it did not take,
// in a fixed order: "1 rejected, 2 gone".
func outcomeWords(outcomes map[string]int) string {
	var keys []string
	for k, n := range outcomes {
		if k != "filled" && n > 0 {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%d %s", outcomes[k], k)
	}
	return strings.Join(parts, ", ")
}

// frameWords names the frames of a release ("0,7" as the log keeps them).
func frameWords(frames string) string {
	if frames == "" {
		return ""
	}
	var out []string
	for _, f := range strings.Split(frames, ",") {
		if f == "0" {
			out = append(out, "main page")
		} else {
			out = append(out, "frame "+f)
		}
	}
	return strings.Join(out, ", ")
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func capital(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
