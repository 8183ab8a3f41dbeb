//go:build selftest

package app

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tessera-app/tessera/app/fill"
	"github.com/tessera-app/tessera/app/ui"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

// The self-test's profile editor and Activity steps (profilesSelfTestScript):
// the page creates a profile through the window, adds an email, a wrong
// then a right phone number and a second email, makes the second preferred,
// renames the profile, duplicates it and deletes the copy through the
// confirmation; lays the editor out at 800x600 and 400x300; then approves a
// fill confirmation asked through the app's real queue for that profile,
// whose release Go writes to the audit log as a fill does, and finds it in
// Activity, filtered by site and searched. Go then checks the vault
// (profileChecks). With $TESSERA_SELFTEST_SHOTS set, the editor and the
// Activity section are screenshotted there (profiles.png, activity.png).

// What the page types, and what Go expects the vault to hold afterwards.
const (
	selfTestEditLabel   = "Home"
	selfTestEditRenamed = "Home (Ada)"
	selfTestEmail       = "ada@example.org"
	selfTestEmail2      = "ada@analytical.example"
	selfTestPhone       = "+44 20 7946 0018"
	selfTestPhoneE164   = "+442079460018"
	selfTestBadPhone    = "12 34"
	selfTestFillSite    = "shop.example"
	// Once the profile's country is GB, the phone reads as the UK writes it.
	selfTestPhoneNational = "020 7946 0018"
	selfTestBirthDate     = "1815-12-10"
)

// selfTestProfileExpectations are the editor steps' expectations for the
// page.
func selfTestProfileExpectations() map[string]any {
	return map[string]any{
		"label": selfTestEditLabel, "renamed": selfTestEditRenamed,
		"email": selfTestEmail, "email2": selfTestEmail2,
		"phone": selfTestPhone, "phoneShown": selfTestPhone, "badPhone": selfTestBadPhone,
		"emailIRI": profile.ConceptEmail, "phoneIRI": profile.ConceptTelephone, "bdayIRI": profile.ConceptBirthDate, "lastIRI": profile.ConceptFamilyName,
		"site": selfTestFillSite, "shot": selfTestEditorShot,
		"phoneNational": selfTestPhoneNational, "bday": selfTestBirthDate,
		"more": [][2]string{
			{profile.ConceptGivenName, "Ada"}, {profile.ConceptFamilyName, "Lovelace"},
			{profile.ConceptBirthDate, selfTestBirthDate},
			{profile.ConceptStreetAddress, "12 St James's Square\nFlat 3"},
			{profile.ConceptAddressLocality, "London"}, {profile.ConceptAddressCountry, "gb"},
		},
	}
}

// AskActivityFill puts a fill confirmation for the profile labelled label
// (its email and phone) in the app's real queue, after logging two other
// events (a proposal to news.example, a timed-out decline on bank.example)
// through the app's audit path; it returns once the fill is queued. When
// the page answers, the release (or decline) is logged as a fill logs it.
func (s *SelfTest) AskActivityFill(label string) error { return s.st.askActivityFill(label) }

// Screenshot writes the window's screen to $TESSERA_SELFTEST_SHOTS/name.png,
// when that is set.
func (s *SelfTest) Screenshot(name string) error { return s.st.screenshot(name) }

func (st *selfTest) askActivityFill(label string) error {
	v, ok := st.app.cfg.Vault, st.app.cfg.Vault != nil
	if !ok {
		return ui.ErrNoVault
	}
	ps, err := v.ProfileSummaries()
	if err != nil {
		return err
	}
	i := slices.IndexFunc(ps, func(p vault.ProfileSummary) bool { return p.Label == label })
	if i < 0 {
		return fmt.Errorf("no profile %q", label)
	}
	p, err := v.Profile(ps[i].ID)
	if err != nil {
		return err
	}
	email, _ := p.Concepts[profile.ConceptEmail].StringValue()
	phone, _ := p.Concepts[profile.ConceptTelephone].StringValue()
	st.app.audit(vault.Release{Event: vault.EventProposal, Site: "news.example", Origin: "https://news.example", ProfileID: p.ID, Client: "Chromium 156"})
	st.app.audit(vault.Release{Event: vault.EventDecline, Site: "bank.example", Origin: "https://www.bank.example", ProfileID: p.ID, Client: "Firefox 153", Reason: DeclineTimeout})

	page := "https://checkout." + selfTestFillSite
	c := Confirmation{
		Kind: ConfirmFill, Site: selfTestFillSite, Origin: page, URL: page + "/contact", Title: "Your contact details",
		Frames:   []FrameInfo{{ID: 0, Origin: page}},
		Client:   ClientInfo{Kind: KindBrowser, Name: "Chromium 156", Origin: selfTestClientOrigin, Verified: true},
		Profiles: []ProfileSummary{fill.Summarize(p)}, Profile: p.ID,
		Rows: []Row{
			{ID: "r1", Ref: "t1", Label: "Email", Value: email, Concept: profile.ConceptEmail, ConceptLabel: "Email", Confidence: 0.99, Section: SectionFill, Checked: true},
			{ID: "r2", Ref: "t2", Label: "Phone", Value: phone, Concept: profile.ConceptTelephone, ConceptLabel: "Phone", Confidence: 0.95, Section: SectionFill, Checked: true},
		},
		ApproveDelayMs: int(DefaultApproveDelay / time.Millisecond),
	}
	concepts := map[string]string{"r1": profile.ConceptEmail, "r2": profile.ConceptTelephone}
	queued := make(chan struct{})
	go func() {
		d := st.app.confirms.Ask(context.Background(), c, time.Minute, func(string) { close(queued) })
		r := vault.Release{Event: vault.EventDecline, Origin: page, Site: selfTestFillSite, ProfileID: p.ID, Client: c.Client.Name, Fill: d.ID, Reason: d.Reason}
		if d.Approve {
			r.Event, r.Reason, r.Frame = vault.EventRelease, "", "0"
			for _, row := range d.Rows {
				r.Concepts = append(r.Concepts, concepts[row])
			}
		}
		st.app.audit(r)
		if d.Approve {
			// What the page accepted, as the extension reports it.
			st.app.audit(vault.Release{Event: vault.EventReport, Origin: page, Site: selfTestFillSite, ProfileID: p.ID, Client: c.Client.Name, Fill: d.ID,
				Outcomes: map[string]int{"filled": len(d.Rows)}})
		}
	}()
	<-queued
	return nil
}

func (st *selfTest) screenshot(name string) error {
	dir := st.cfg.getenv("TESSERA_SELFTEST_SHOTS")
	if dir == "" {
		return nil
	}
	if strings.ContainsAny(name, `/\.`) {
		return fmt.Errorf("bad screenshot name %q", name)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("screenshot: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out := filepath.Join(dir, name+".png")
	// The window sits at 0,0 (SetWindowSize); Xvfb has no window manager.
	w, h := selfTestEditorShot[0], selfTestEditorShot[1]
	// With $TESSERA_SELFTEST_ZOOM=2 (and GDK_SCALE=2, scripts/screenshots.sh)
	// the shot is the window at 200 %: half the size in CSS pixels, drawn at
	// twice the scale, so the same number of screen pixels.
	if st.cfg.getenv("TESSERA_SELFTEST_ZOOM") == "2" {
		if z, ok := st.shell().(windowSizer); ok {
			cw, ch := st.currentSize()
			z.setSize(w/2, h/2)
			time.Sleep(600 * time.Millisecond)
			// What has the focus is what the shot is of: in view, centred.
			if sh := st.shell(); sh != nil {
				sh.ExecJS(`{ const a = document.activeElement; if (a && a !== document.body) a.scrollIntoView({ block: "center" }); }`)
			}
			time.Sleep(400 * time.Millisecond)
			defer func() {
				z.setSize(cw, ch)
				time.Sleep(300 * time.Millisecond)
			}()
		}
	}
	cmd := exec.CommandContext(ctx, "import", "-window", "root", "-crop", fmt.Sprintf("%dx%d+0+0", w, h), "+repage", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("screenshot %s: %v: %s", name, err, b)
	}
	return nil
}

// currentSize is the window's size in CSS pixels, as the page last set it
// (SetWindowSize), else the editor shot's.
func (st *selfTest) currentSize() (int, int) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.size[0] > 0 {
		return st.size[0], st.size[1]
	}
	return selfTestEditorShot[0], selfTestEditorShot[1]
}

// selfTestEditorShot is the window size of the editor and Activity
// screenshots.
var selfTestEditorShot = [2]int{1100, 860}

// profileChecks checks in Go that the editor steps reached the vault: the
// renamed profile holds the second email as preferred with the first
// beside it and the phone in E.164, its copy is gone, and the audit log
// holds the release the page approved.
func (st *selfTest) profileChecks() []SelfTestCheck {
	v, ok := st.app.cfg.Vault, st.app.cfg.Vault != nil
	if !ok {
		return []SelfTestCheck{{Name: "the editor's profile is in the vault", Detail: ui.ErrNoVault.Error()}}
	}
	ps, err := v.ProfileSummaries()
	var labels []string
	id := ""
	for _, p := range ps {
		labels = append(labels, p.Label)
		if p.Label == selfTestEditRenamed {
			id = p.ID
		}
	}
	checks := []SelfTestCheck{{
		Name:   "the profile created and renamed in the window is in the vault, its copy deleted",
		OK:     err == nil && id != "" && !slices.Contains(labels, selfTestEditLabel) && !slices.Contains(labels, selfTestEditRenamed+" (copy)"),
		Detail: fmt.Sprintf("%q, %v", labels, err),
	}}
	if id == "" {
		return checks
	}
	prof, err1 := v.Profile(id)
	email := prof.Concepts[profile.ConceptEmail]
	cands, err2 := v.Candidates(id, vault.ConceptKey(profile.ConceptEmail))
	got, _ := email.StringValue()
	var others []string
	for _, c := range cands {
		s, _ := c.StringValue()
		others = append(others, s)
	}
	checks = append(checks, SelfTestCheck{
		Name: "the second email is preferred, the first kept beside it, both typed in Tessera",
		// The import step (selftest_transfer.go) adds its email beside them.
		OK:     errors.Join(err1, err2) == nil && got == selfTestEmail2 && slices.Equal(slices.DeleteFunc(others, func(s string) bool { return s == selfTestImportEmail }), []string{selfTestEmail}) && email.Source.Type == "manual",
		Detail: fmt.Sprintf("preferred %q (%s), others %q, %v", got, email.Source.Type, others, errors.Join(err1, err2)),
	})
	ph, _ := prof.Concepts[profile.ConceptTelephone].StringValue()
	checks = append(checks, SelfTestCheck{
		Name: "the phone is stored in E.164", OK: err1 == nil && ph == selfTestPhoneE164,
		Detail: fmt.Sprintf("%q, %v", ph, err1),
	})
	rs, err := v.Releases()
	found := false
	for _, r := range rs {
		if r.Event == vault.EventRelease && r.Site == selfTestFillSite && r.ProfileID == id &&
			slices.Contains(r.Concepts, profile.ConceptEmail) && slices.Contains(r.Concepts, profile.ConceptTelephone) {
			found = true
		}
	}
	return append(checks, SelfTestCheck{
		Name: "the audit log holds the fill the page approved", OK: err == nil && found,
		Detail: fmt.Sprintf("%d records, %v", len(rs), err),
	})
}

// profilesSelfTestScript is called by selfTestScript with its helpers, the
// vault unlocked; it leaves the window on the status screen.
//
//go:embed selftest/profiles.js
var profilesSelfTestScript string
