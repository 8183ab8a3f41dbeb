//go:build selftest

package app

import (
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tessera-app/tessera/app/ui"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/transfer"
	"github.com/tessera-app/tessera/vault"
)

// The self-test's import, export and backup steps
// (transferSelfTestScript), run once Settings is done: the page imports a
// vCard of two contacts, sees the preview (two profiles, what each brings,
// the conflict when one goes into the profile edited earlier), imports
// only the first, into that profile; exports that profile to a passphrase
// and backs everything up from Settings; locks, unlocks with the
// passphrase and finds the import in Activity. With real keys the second
// contact is then imported with the keyboard alone. Go checks the vault,
// the files and the log (transferChecks).

// The contacts the self-test imports: the first goes into the edited
// profile, whose email differs (a conflict).
const selfTestVCard = `BEGIN:VCARD
VERSION:4.0
FN:Ada Lovelace
N:Lovelace;Ada;;;
EMAIL;PREF=1:` + selfTestImportEmail + `
ORG:Analytical Engines
TITLE:Analyst
END:VCARD
BEGIN:VCARD
VERSION:3.0
FN:Charles Babbage
N:Babbage;Charles;;;
EMAIL:charles@engine.example
ADR:;;1 Dorset Street;London;;W1U 4EG;GB
END:VCARD
`

// selfTestImportEmail is the email of the first contact: another than the
// edited profile's, so a conflict.
const selfTestImportEmail = "ada@lovelace.example"

// The export's and the backup's passphrase.
const selfTestExportPass = "lantern orchard velvet"

// WriteImportFile writes the self-test's vCard to a new temporary
// directory and returns its path, and the directory exports go to.
func (s *SelfTest) WriteImportFile() (map[string]string, error) { return s.st.writeImportFile() }

func (st *selfTest) writeImportFile() (map[string]string, error) {
	dir, err := os.MkdirTemp("", "tessera-selftest-transfer-")
	if err != nil {
		return nil, err
	}
	st.mu.Lock()
	st.transferDir = dir
	st.mu.Unlock()
	p := filepath.Join(dir, "contacts.vcf")
	if err := os.WriteFile(p, []byte(selfTestVCard), 0o600); err != nil {
		return nil, err
	}
	return map[string]string{"vcf": p, "export": filepath.Join(dir, "home.tessera"), "backup": filepath.Join(dir, "backup.tessera")}, nil
}

func (st *selfTest) selfTestTransferExpectations() map[string]any {
	lv := st.ui.Locale()
	gb := ""
	for _, n := range lv.Countries {
		if n.Code == "GB" {
			gb = n.Name
		}
	}
	return map[string]any{"into": selfTestEditRenamed, "first": "Ada Lovelace", "second": "Charles Babbage", "pass": selfTestExportPass, "gbName": gb, "countries": len(lv.Countries),
		"usName": usName(lv), "usRegions": len(st.ui.RegionsOf("US"))}
}

// usName is the United States' name in the person's language.
func usName(lv ui.LocaleView) string {
	for _, n := range lv.Countries {
		if n.Code == "US" {
			return n.Name
		}
	}
	return ""
}

// transferChecks checks in Go what the page's import, export and backup
// did: the first contact's values in the edited profile (its email as a
// candidate beside the one typed), the export and backup files that open
// with the passphrase, and the import in the audit log.
func (st *selfTest) transferChecks() []SelfTestCheck {
	st.mu.Lock()
	dir := st.transferDir
	st.mu.Unlock()
	if dir == "" {
		return []SelfTestCheck{{Name: "transfer: the page asked for the file to import", Detail: "never asked"}}
	}
	defer os.RemoveAll(dir)
	v, ok := st.app.cfg.Vault, st.app.cfg.Vault != nil
	if !ok {
		return []SelfTestCheck{{Name: "transfer: the vault", Detail: ui.ErrNoVault.Error()}}
	}
	ps, err := v.Profiles()
	var into *profile.UserProfile
	var labels []string
	for i := range ps {
		labels = append(labels, ps[i].Label)
		if ps[i].Label == selfTestEditRenamed {
			into = &ps[i]
		}
	}
	var checks []SelfTestCheck
	org, cands := "", []string{}
	if into != nil {
		org, _ = into.Concepts[profile.ConceptOrganization].StringValue()
		cs, _ := v.Candidates(into.ID, vault.ConceptKey(profile.ConceptEmail))
		for _, c := range cs {
			s, _ := c.StringValue()
			cands = append(cands, s)
		}
	}
	wantSecond := st.realKeys()
	checks = append(checks, SelfTestCheck{
		Name: "transfer: the first contact went into the chosen profile, its email a candidate beside the one typed; the second only with real keys, as a new profile",
		OK: err == nil && into != nil && org == "Analytical Engines" && slices.Contains(cands, selfTestImportEmail) &&
			!slices.Contains(labels, "Ada Lovelace") && slices.Contains(labels, "Charles Babbage") == wantSecond,
		Detail: fmt.Sprintf("profiles %q, organisation %q, email candidates %q, %v", labels, org, cands, err),
	})
	ids, _ := transfer.PassphraseIdentity(selfTestExportPass)
	for _, f := range []struct{ name, file string }{{"export", "home.tessera"}, {"backup", "backup.tessera"}} {
		data, rerr := os.ReadFile(filepath.Join(dir, f.file))
		var got []profile.UserProfile
		if rerr == nil {
			got, rerr = transfer.Parse(transfer.FormatBundle, data, "2026-01-01T00:00:00Z", ids...)
		}
		fi, _ := os.Stat(filepath.Join(dir, f.file))
		var names []string
		for _, p := range got {
			names = append(names, p.Label)
		}
		want := 1
		if f.name == "backup" {
			// Every profile but the one imported afterwards with real keys.
			want = len(ps)
			if wantSecond {
				want--
			}
		}
		checks = append(checks, SelfTestCheck{
			Name:   "transfer: the " + f.name + " file opens with its passphrase, mode 0600, holding what was chosen",
			OK:     rerr == nil && len(got) == want && fi != nil && fi.Mode().Perm() == 0o600 && (f.name == "backup" || names[0] == selfTestEditRenamed),
			Detail: fmt.Sprintf("%q, %v", names, rerr),
		})
	}
	rs, err := v.Releases()
	var events []string
	for _, r := range rs {
		if r.Event == vault.EventImport || r.Event == vault.EventExport {
			events = append(events, r.Event+":"+r.Reason)
		}
	}
	return append(checks, SelfTestCheck{
		Name:   "transfer: the audit log holds the import, the export and the backup",
		OK:     err == nil && slices.Contains(events, "import:vCard file") && slices.Contains(events, "export:export") && slices.Contains(events, "export:backup"),
		Detail: strings.Join(events, " "),
	})
}

// transferSelfTestScript is called by selfTestScript with its helpers, the
// vault unlocked; it leaves the window on the status screen, unlocked.
//
//go:embed selftest/transfer.js
var transferSelfTestScript string
