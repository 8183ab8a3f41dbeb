package ui

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tessera-app/tessera/app/confirm"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

func TestDescribeRelease(t *testing.T) {
	labels := map[string]string{"p1": "Home"}
	at := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		name        string
		r           vault.Release
		summary     string
		outcome     string
		tone, frame string
	}{
		{"release", vault.Release{Event: vault.EventRelease, Site: "shop.example", ProfileID: "p1", Frame: "0,7",
			Concepts: []string{profile.ConceptName, profile.ConceptEmail, profile.ConceptTelephone, profile.ConceptPostalCode, profile.ConceptStreetAddress}},
			"Filled 5 details on shop.example from Home", "approved", "ok", "main page, frame 7"},
		{"one detail", vault.Release{Event: vault.EventRelease, Site: "shop.example", ProfileID: "p1", Concepts: []string{profile.ConceptEmail}},
			"Filled 1 detail on shop.example from Home", "approved", "ok", ""},
		{"timeout", vault.Release{Event: vault.EventDecline, Site: "shop.example", ProfileID: "p1", Reason: confirm.DeclineTimeout},
			"Nothing filled on shop.example from Home", "declined (timed out)", "warn", ""},
		{"denied", vault.Release{Event: vault.EventDecline, Site: "shop.example", Reason: confirm.DeclineDenied},
			"Nothing filled on shop.example", "declined", "warn", ""},
		{"report", vault.Release{Event: vault.EventReport, Site: "shop.example", Outcomes: map[string]int{"filled": 4, "rejected": 1}},
			"Page on shop.example accepted 4 of 5", "1 rejected", "warn", ""},
		{"report, all taken", vault.Release{Event: vault.EventReport, Site: "shop.example", Outcomes: map[string]int{"filled": 3}},
			"Page on shop.example accepted 3 of 3", "all taken", "ok", ""},
		{"learn", vault.Release{Event: vault.EventLearn, Site: "shop.example", ProfileID: "p1", Concepts: []string{profile.ConceptEmail, profile.ConceptTelephone}},
			"Saved 2 values learnt from shop.example to Home", "saved", "ok", ""},
		{"no learn", vault.Release{Event: vault.EventNoLearn, Site: "shop.example", Reason: confirm.DeclineTimeout},
			"Did not save what was typed on shop.example", "not saved (timed out)", "warn", ""},
		{"proposal", vault.Release{Event: vault.EventProposal, Site: "shop.example", ProfileID: "gone"},
			"Offered masked matches to shop.example from a deleted profile", "nothing sent", "info", ""},
		{"reveal", vault.Release{Event: vault.EventRelease, Site: RevealSite, ProfileID: "p1"},
			"Showed the values of Home to a command on this computer", "approved", "ok", ""},
		{"agent call", vault.Release{Event: vault.EventAgent, Site: "shop.example", Tool: "webmcp.page.search", Reason: "ok"},
			"An agent called webmcp.page.search on shop.example", "ok", "info", ""},
		{"agent call, no page", vault.Release{Event: vault.EventAgent, Tool: "tessera.tabs.list", Reason: "error"},
			"An agent called tessera.tabs.list", "error", "warn", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.r.Time = at
			e := describeRelease(3, tt.r, labels)
			if e.Summary != tt.summary || e.Outcome != tt.outcome || e.Tone != tt.tone || e.Frame != tt.frame {
				t.Errorf("describeRelease(%+v) = %q / %q / %q / %q, want %q / %q / %q / %q", tt.r,
					e.Summary, e.Outcome, e.Tone, e.Frame, tt.summary, tt.outcome, tt.tone, tt.frame)
			}
			if e.Seq != 3 || e.Time != "2026-11-24T10:00:00Z" {
				t.Errorf("describeRelease: seq %d time %q, want 3 and the record's time", e.Seq, e.Time)
			}
		})
	}
}

func TestConceptLabelsOf(t *testing.T) {
	got := conceptLabelsOf([]string{profile.ConceptEmail, "schema:email", profile.ConceptStreetAddress + "#line2", "https://example.org/onto/passportNumber"})
	want := []string{"Email", "Street address (line2)", "Passport number"}
	if !slices.Equal(got, want) {
		t.Errorf("conceptLabelsOf = %q, want %q", got, want)
	}
}

// activityUI returns a UI over an unlocked vault with a profile "Home"
// and an audit log of five records, oldest first, one a minute.
func activityUI(t *testing.T) (*UI, *vault.Vault, string) {
	t.Helper()
	u, v, _ := newVaultUI(t, nil)
	if _, err := u.SetUpVault(goodPass, goodPass); err != nil {
		t.Fatal(err)
	}
	home, err := u.CreateProfile("Home")
	if err != nil {
		t.Fatal(err)
	}
	work, err := u.CreateProfile("Work")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	rs := []vault.Release{
		{Event: vault.EventProposal, Site: "shop.example", Origin: "https://shop.example", ProfileID: home.ID, Client: "Chromium 156"},
		{Event: vault.EventRelease, Site: "shop.example", Origin: "https://shop.example", Frame: "0", ProfileID: home.ID, Client: "Chromium 156",
			Concepts: []string{profile.ConceptEmail, profile.ConceptTelephone}},
		{Event: vault.EventReport, Site: "shop.example", Origin: "https://shop.example", ProfileID: home.ID, Client: "Chromium 156", Outcomes: map[string]int{"filled": 2}},
		{Event: vault.EventDecline, Site: "bank.example", Origin: "https://www.bank.example", ProfileID: work.ID, Client: "Firefox", Reason: confirm.DeclineTimeout},
		{Event: vault.EventLearn, Site: "news.example", Origin: "https://news.example", ProfileID: work.ID, Client: "Firefox", Concepts: []string{profile.ConceptGivenName}},
	}
	for i, r := range rs {
		r.Time = at.Add(time.Duration(i) * time.Minute)
		if err := v.RecordRelease(r); err != nil {
			t.Fatal(err)
		}
	}
	return u, v, home.ID
}

func TestActivity(t *testing.T) {
	u, _, home := activityUI(t)
	page, err := u.Activity(ActivityQuery{})
	if err != nil {
		t.Fatal(err)
	}
	var events []string
	for _, e := range page.Entries {
		events = append(events, e.Event)
	}
	if want := []string{"learn", "decline", "report", "release", "proposal"}; !slices.Equal(events, want) {
		t.Errorf("Activity() events = %q, want newest first %q", events, want)
	}
	if page.Total != 5 || page.Matched != 5 {
		t.Errorf("Activity() total %d matched %d, want 5 and 5", page.Total, page.Matched)
	}
	if want := []string{"bank.example", "news.example", "shop.example"}; !slices.Equal(page.Sites, want) {
		t.Errorf("Activity() sites = %q, want %q", page.Sites, want)
	}
	if len(page.Profiles) != 2 || page.Profiles[0].Label != "Home" {
		t.Errorf("Activity() profiles = %+v, want Home and Work", page.Profiles)
	}
	rel := page.Entries[3]
	if rel.Summary != "Filled 2 details on shop.example from Home" || !slices.Equal(rel.Fields, []string{"Email", "Phone"}) ||
		rel.Client != "Chromium 156" || rel.Frame != "main page" || rel.Origin != "https://shop.example" {
		t.Errorf("Activity() release entry = %+v", rel)
	}

	filters := []struct {
		name string
		q    ActivityQuery
		want []string // summaries' events
	}{
		{"site", ActivityQuery{Site: "shop.example"}, []string{"report", "release", "proposal"}},
		{"profile", ActivityQuery{Profile: home}, []string{"report", "release", "proposal"}},
		{"site and profile", ActivityQuery{Site: "bank.example", Profile: home}, nil},
		{"text: a field label", ActivityQuery{Text: "phone"}, []string{"release"}},
		{"text: a verdict", ActivityQuery{Text: "TIMED OUT"}, []string{"decline"}},
		{"text: a client", ActivityQuery{Text: "firefox"}, []string{"learn", "decline"}},
		{"limit", ActivityQuery{Limit: 2}, []string{"learn", "decline"}},
	}
	for _, f := range filters {
		t.Run(f.name, func(t *testing.T) {
			page, err := u.Activity(f.q)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range page.Entries {
				got = append(got, e.Event)
			}
			if !slices.Equal(got, f.want) {
				t.Errorf("Activity(%+v) = %q, want %q", f.q, got, f.want)
			}
			if f.q.Limit == 0 && page.Matched != len(f.want) {
				t.Errorf("Activity(%+v) matched %d, want %d", f.q, page.Matched, len(f.want))
			}
		})
	}

	if _, err := u.Lock(); err != nil {
		t.Fatal(err)
	}
	if _, err := u.Activity(ActivityQuery{}); !errors.Is(err, vault.ErrLocked) {
		t.Errorf("Activity() when locked = %v, want %v", err, vault.ErrLocked)
	}
}

// A fill released through the app's own audit path shows in Activity, and
// no value of the profile is in what the window receives.
func TestActivityHasNoValues(t *testing.T) {
	u, _, home := activityUI(t)
	secret := "ada@example.org"
	if _, err := u.AddValue(home, profile.ConceptEmail, secret); err != nil {
		t.Fatal(err)
	}
	u.cfg.App.Audit(vault.Release{Event: vault.EventRelease, Site: "late.example", ProfileID: home, Concepts: []string{profile.ConceptEmail}})
	page, err := u.Activity(ActivityQuery{Site: "late.example"})
	if err != nil || len(page.Entries) != 1 || page.Entries[0].Summary != "Filled 1 detail on late.example from Home" {
		t.Fatalf("Activity(late.example) = %+v, %v, want the release", page, err)
	}
	b, _ := json.Marshal(page)
	if strings.Contains(string(b), secret) {
		t.Errorf("Activity JSON %s carries a stored value", b)
	}
}

// The count of refusals the audit log could not hold reads as such in
// Activity (package agents writes it at the unlock).
func TestActivityCountsUnrecordedAgentCalls(t *testing.T) {
	rs := []vault.Release{{Event: vault.EventAgent, Concepts: []string{}, Reason: "VAULT_LOCKED", Outcomes: map[string]int{"unrecorded": 7}}}
	page := activityPage(rs, nil, ActivityQuery{})
	if len(page.Entries) != 1 || !strings.Contains(page.Entries[0].Summary, "7 more agent calls were refused while the vault was locked") {
		t.Errorf("activity shows %+v", page.Entries)
	}
}
