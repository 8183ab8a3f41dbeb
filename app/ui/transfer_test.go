package ui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"filippo.io/age"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/transfer"
	"github.com/tessera-app/tessera/vault"
)

const twoCards = `BEGIN:VCARD
VERSION:4.0
FN:Ada Lovelace
N:Lovelace;Ada;;;
EMAIL;PREF=1:ada@analytical.example
TEL;VALUE=uri:tel:+44-20-7946-0018
ADR:;;12 St James's Square;London;;SW1Y 4JH;GB
END:VCARD
BEGIN:VCARD
VERSION:3.0
FN:Charles Babbage
N:Babbage;Charles;;;
EMAIL:charles@engine.example
END:VCARD
`

func writeFile(t *testing.T, name, data string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// A vCard of two contacts: the preview lists both with what each brings;
// the person imports one into an existing profile, whose value that
// differs becomes a candidate (the preview said "conflict"), and the audit
// log names the import without a value.
func TestImportPreviewThenChoose(t *testing.T) {
	u, v, home := editorUI(t)
	if _, err := u.SetValue(home, profile.ConceptEmail, "ada@example.org"); err != nil {
		t.Fatal(err)
	}
	path := writeFile(t, "contacts.vcf", twoCards)
	pv, err := u.PreviewImport(ImportRequest{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	if pv.Format != transfer.FormatVCard || len(pv.Items) != 2 || pv.Items[0].Label != "Ada Lovelace" || pv.Items[1].Label != "Charles Babbage" {
		t.Fatalf("preview = %+v", pv)
	}
	if pv.Items[0].Into != "" || pv.Items[0].Conflicts != 0 || pv.Items[0].New != len(pv.Items[0].Entries) {
		t.Errorf("a card previews as a new profile: %+v", pv.Items[0])
	}
	if got, _ := v.ProfileSummaries(); len(got) != 1 {
		t.Fatalf("the preview imported something: %d profiles", len(got))
	}
	for _, e := range pv.Items[0].Entries {
		if strings.Contains(e.Label, "@") || strings.Contains(e.Label, "Lovelace") {
			t.Errorf("the preview shows a value: %+v", e)
		}
	}
	into, err := u.PlanImportInto(pv.Token, 0, home)
	if err != nil {
		t.Fatal(err)
	}
	if into.Conflicts != 1 || into.IntoLabel != "Home" {
		t.Errorf("Ada into Home: %+v, want the email as the one conflict", into)
	}
	if _, err := u.ApplyImport(pv.Token, nil); !errors.Is(err, ErrNothingChosen) {
		t.Errorf("nothing chosen: %v", err)
	}
	if _, err := u.ApplyImport("stale", []ImportChoice{{Index: 0}}); !errors.Is(err, ErrStaleImport) {
		t.Errorf("stale token: %v", err)
	}
	done, err := u.ApplyImport(pv.Token, []ImportChoice{{Index: 0, Into: home}})
	if err != nil {
		t.Fatal(err)
	}
	if done.Profiles != 1 || done.Candidates != 1 || done.Created != 0 || done.Learned != into.New {
		t.Errorf("import did %+v, the preview said %+v", done, into)
	}
	ps, _ := v.ProfileSummaries()
	if len(ps) != 1 {
		t.Errorf("Charles was imported too, or Ada as a new profile: %+v", ps)
	}
	p, _ := v.Profile(home)
	if got, _ := p.Concepts[profile.ConceptEmail].StringValue(); got != "ada@example.org" {
		t.Errorf("the import overwrote the email: %q", got)
	}
	if _, err := u.ApplyImport(pv.Token, []ImportChoice{{Index: 1}}); !errors.Is(err, ErrStaleImport) {
		t.Errorf("a preview applied twice: %v", err)
	}
	page, err := u.Activity(ActivityQuery{Text: "imported"})
	if err != nil || page.Matched != 1 || !strings.Contains(page.Entries[0].Summary, "into Home from a vCard file") {
		t.Fatalf("activity = %+v, %v", page, err)
	}
	if strings.Contains(page.Entries[0].Summary+strings.Join(page.Entries[0].Fields, " "), "analytical") {
		t.Errorf("the log shows a value: %+v", page.Entries[0])
	}
}

// Export to a passphrase writes a new 0600 bundle that import opens with
// that passphrase only; an existing file is not replaced unasked; export
// to an age recipient opens with its identity.
func TestExportThenImportBundle(t *testing.T) {
	u, _, home := editorUI(t)
	if _, err := u.SetValue(home, profile.ConceptGivenName, "Ada"); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "home.tessera")
	if _, err := u.ExportProfiles(ExportRequest{IDs: []string{home}, Passphrase: "short", Confirm: "short", Path: out}); !errors.Is(err, ErrWeakPassphrase) {
		t.Errorf("weak export passphrase: %v", err)
	}
	if _, err := u.ExportProfiles(ExportRequest{IDs: []string{home}, Passphrase: goodPass, Confirm: goodPass + "x", Path: out}); !errors.Is(err, ErrPassphraseMismatch) {
		t.Errorf("mistyped confirmation: %v", err)
	}
	if _, err := u.ExportProfiles(ExportRequest{IDs: []string{home}, Passphrase: goodPass, Confirm: goodPass, Path: "relative.tessera"}); err == nil {
		t.Error("a relative path was accepted")
	}
	done, err := u.ExportProfiles(ExportRequest{IDs: []string{home}, Passphrase: goodPass, Confirm: goodPass, Path: out})
	if err != nil || done.Profiles != 1 || done.Bytes == 0 {
		t.Fatalf("export: %+v, %v", done, err)
	}
	if fi, _ := os.Stat(out); fi.Mode().Perm() != 0o600 {
		t.Errorf("export mode %v", fi.Mode().Perm())
	}
	if _, err := u.ExportProfiles(ExportRequest{IDs: []string{home}, Passphrase: goodPass, Confirm: goodPass, Path: out}); !errors.Is(err, ErrFileExists) {
		t.Errorf("existing file: %v", err)
	}
	if _, err := u.PreviewImport(ImportRequest{Path: out}); !errors.Is(err, transfer.ErrNeedsKey) {
		t.Errorf("bundle without passphrase: %v", err)
	}
	if _, err := u.PreviewImport(ImportRequest{Path: out, Passphrase: "not the passphrase"}); !errors.Is(err, vault.ErrBadPassphrase) {
		t.Errorf("bundle with the wrong passphrase: %v", err)
	}
	pv, err := u.PreviewImport(ImportRequest{Path: out, Passphrase: goodPass})
	if err != nil {
		t.Fatal(err)
	}
	if len(pv.Items) != 1 || pv.Items[0].Into != home || pv.Items[0].Same != 1 || pv.Items[0].New != 0 {
		t.Errorf("a profile's own export previews as the same values into itself: %+v", pv.Items)
	}
	// Imported as a new profile instead: a copy, not a merge.
	if _, err := u.ApplyImport(pv.Token, []ImportChoice{{Index: 0}}); err != nil {
		t.Fatal(err)
	}
	if ps, _ := u.Profiles(); len(ps) != 2 {
		t.Errorf("import as new: %d profiles, want 2", len(ps))
	}

	id, _ := age.GenerateX25519Identity()
	out2 := filepath.Join(dir, "backup.tessera")
	if _, err := u.ExportProfiles(ExportRequest{Backup: true, Recipients: []string{id.Recipient().String()}, Path: out2}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(out2)
	ps, err := transfer.Parse(transfer.FormatBundle, data, "2026-01-01T00:00:00Z", id)
	if err != nil || len(ps) != 2 {
		t.Errorf("backup to a recipient: %d profiles, %v; want both", len(ps), err)
	}
	page, _ := u.Activity(ActivityQuery{Text: "backed up"})
	if page.Matched != 2 {
		t.Errorf("backups in the log: %d, want 2", page.Matched)
	}
}

// BenchmarkImportThousandCards previews and imports a vCard file of
// vault.MaxVCards contacts (about 6,000 values) from the window, into new
// profiles: the long import the progress bar is for.
func BenchmarkImportThousandCards(b *testing.B) {
	var sb strings.Builder
	for i := range vault.MaxVCards {
		fmt.Fprintf(&sb, "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Person %d\r\nN:Person;%d;;;\r\nEMAIL:p%d@example.org\r\nTEL:+44 20 7946 %04d\r\nADR:;;%d High Street;London;;SW1A 1AA;GB\r\nEND:VCARD\r\n", i, i, i, i%10000, i)
	}
	path := filepath.Join(b.TempDir(), "contacts.vcf")
	if err := os.WriteFile(path, []byte(sb.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		b.StopTimer()
		u, _, _ := editorUI(b)
		b.StartTimer()
		pv, err := u.PreviewImport(ImportRequest{Path: path})
		if err != nil {
			b.Fatal(err)
		}
		choices := make([]ImportChoice, len(pv.Items))
		for i := range choices {
			choices[i].Index = i
		}
		done, err := u.ApplyImport(pv.Token, choices)
		if err != nil || done.Profiles != vault.MaxVCards {
			b.Fatalf("%+v, %v", done, err)
		}
	}
}

// A Formspec profile JSON file previews as such, each profile by its
// label; a file that is no profile is refused with a reason.
func TestImportPreviewJSON(t *testing.T) {
	u, _, _ := editorUI(t)
	doc := `{"$formspecProfile": "1.0", "profiles": [
	  {"id": "work", "label": "Work", "concepts": {"https://schema.org/email": {"value": "noor@work.example"}}, "fields": {}},
	  {"id": "kid", "label": "Sami", "concepts": {"https://schema.org/birthDate": {"value": "2015-09-30"}}}]}`
	pv, err := u.PreviewImport(ImportRequest{Path: writeFile(t, "profiles.json", doc)})
	if err != nil {
		t.Fatal(err)
	}
	if pv.Format != transfer.FormatJSON || pv.FormatLabel != "Formspec profile file" || len(pv.Items) != 2 || pv.Items[0].Label != "Work" || pv.Items[1].Entries[0].Label != "Birth date" {
		t.Errorf("preview = %+v", pv)
	}
	if _, err := u.PreviewImport(ImportRequest{Path: writeFile(t, "notes.json", `{"hello": 1}`)}); err == nil {
		t.Error("a JSON file holding no profile was previewed")
	}
	if _, err := u.PreviewImport(ImportRequest{Path: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "not a file") {
		t.Errorf("a directory: %v", err)
	}
}

// A preview does not outlive a lock: its values are dropped and applying
// it afterwards is refused.
func TestImportPreviewDroppedOnLock(t *testing.T) {
	u, _, _ := editorUI(t)
	pv, err := u.PreviewImport(ImportRequest{Path: writeFile(t, "c.vcf", twoCards)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := u.Lock(); err != nil {
		t.Fatal(err)
	}
	if _, err := u.PlanImportInto(pv.Token, 0, ""); !errors.Is(err, ErrStaleImport) {
		t.Errorf("plan after lock: %v", err)
	}
	u.mu.Lock()
	kept := u.pendingImport != nil
	u.mu.Unlock()
	if kept {
		t.Error("the preview's values are still held after the lock")
	}
	if _, err := u.Unlock(goodPass); err != nil {
		t.Fatal(err)
	}
	if _, err := u.ApplyImport(pv.Token, []ImportChoice{{Index: 0}}); !errors.Is(err, ErrStaleImport) {
		t.Errorf("apply after lock and unlock: %v", err)
	}
}
