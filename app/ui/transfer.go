package ui

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tessera-app/tessera/app/confirm"
	"github.com/tessera-app/tessera/app/fill"
	"github.com/tessera-app/tessera/internal/safefile"
	"github.com/tessera-app/tessera/passphrase"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/transfer"
	"github.com/tessera-app/tessera/vault"
)

// Import and export from the window, with the command line's formats and
// rules (package transfer). An import is two steps: PreviewImport reads
// and parses the file and says, profile by profile and value by value,
// what importing would do (new, already there, or a conflict kept beside
// the current value); ApplyImport then imports the profiles the person
// chose, each into a new profile or one of theirs. Export and backup
// write an encrypted bundle (a passphrase, or age recipients) to a file the
// person names. Each import and export is in the audit log, values never.

// TransferProgressEvent is the event Go emits while an import, export or
// backup runs: a TransferProgress.
const TransferProgressEvent = "transfer-progress"

// TransferProgress says how far a long operation is. Total is 0 while the
// amount of work is not known.
type TransferProgress struct {
	Op    string `json:"op"`    // "import", "export" or "backup"
	Phase string `json:"phase"` // in words: "Reading the file", ...
	Done  int    `json:"done"`
	Total int    `json:"total"`
}

// ImportRequest names the file to import. Format is "vcf", "json",
// "bundle" or "" (from the file); Passphrase opens a bundle.
type ImportRequest struct {
	Path       string `json:"path"`
	Format     string `json:"format"`
	Passphrase string `json:"passphrase"`
}

// ImportEntry is one value an import would bring, named, never shown.
type ImportEntry struct {
	Label  string `json:"label"`
	Group  string `json:"group"`
	Change string `json:"change"` // "new", "same" or "conflict"
}

// ImportItem is one profile of the file, and what importing it would do.
type ImportItem struct {
	Index int    `json:"index"`
	Label string `json:"label"`
	// Into is the profile it would merge into ("" for a new profile);
	// IntoLabel that profile's label.
	Into      string        `json:"into"`
	IntoLabel string        `json:"intoLabel,omitempty"`
	Entries   []ImportEntry `json:"entries"`
	New       int           `json:"new"`
	Same      int           `json:"same"`
	Conflicts int           `json:"conflicts"`
}

// ImportPreview is what PreviewImport found in a file.
type ImportPreview struct {
	// Token names this preview for ApplyImport.
	Token string `json:"token"`
	// Format is "vcf", "json" or "bundle"; FormatLabel says it in words.
	Format      string       `json:"format"`
	FormatLabel string       `json:"formatLabel"`
	Items       []ImportItem `json:"items"`
	// Profiles are the vault's profiles an item can be imported into.
	Profiles []confirm.ProfileSummary `json:"profiles"`
}

// ImportChoice is one profile of the preview to import, into a profile of
// the vault ("" for a new one).
type ImportChoice struct {
	Index int    `json:"index"`
	Into  string `json:"into"`
}

// ImportDone is what ApplyImport did.
type ImportDone struct {
	Profiles int `json:"profiles"`
	vault.ImportResult
}

// pendingImport is a previewed import waiting for the person's choice.
type pendingImport struct {
	token  string
	format string
	ps     []profile.UserProfile
	at     time.Time
}

// importTTL bounds how long a preview waits for ApplyImport.
const importTTL = 30 * time.Minute

// formatLabels name the import formats.
var formatLabels = map[string]string{
	transfer.FormatVCard:  "vCard file",
	transfer.FormatJSON:   "Formspec profile file",
	transfer.FormatBundle: "Tessera encrypted bundle",
}

// Errors of import and export the person can fix.
var (
	ErrNoFile        = errors.New("choose a file")
	ErrStaleImport   = errors.New("this preview is no longer current: choose the file again")
	ErrNothingChosen = errors.New("tick at least one profile to import")
	ErrFileExists    = errors.New("a file of that name exists already: choose another name")
	ErrNoProfiles    = errors.New("this file holds no profile and no contact")
)

// transferVault is what import and export need of the vault.
type transferVault interface {
	editVault
	ExportProfiles(ids ...string) ([]profile.UserProfile, error)
	RecordRelease(vault.Release) error
}

func (u *UI) transferVault() (transferVault, error) {
	v, ok := u.cfg.Vault, u.cfg.Vault != nil
	if !ok {
		return nil, ErrNoVault
	}
	return v, nil
}

// progress tells the window how far op is.
func (u *UI) progress(op, phase string, done, total int) {
	if sh := u.shell(); sh != nil {
		sh.Emit(TransferProgressEvent, TransferProgress{Op: op, Phase: phase, Done: done, Total: total})
	}
}

// PreviewImport reads the file at req.Path and says what importing each
// profile in it would do. Nothing is imported yet.
func (u *UI) PreviewImport(req ImportRequest) (ImportPreview, error) {
	v, err := u.transferVault()
	if err != nil {
		return ImportPreview{}, err
	}
	u.personActed()
	path := strings.TrimSpace(req.Path)
	if path == "" {
		return ImportPreview{}, fmt.Errorf("import: %w", ErrNoFile)
	}
	u.progress("import", "Reading the file", 0, 0)
	data, err := readImportFile(path)
	if err != nil {
		return ImportPreview{}, fmt.Errorf("import: %w", err)
	}
	format := transfer.DetectFormat(req.Format, path, data)
	now := u.cfg.Now().UTC().Format(time.RFC3339)
	var ps []profile.UserProfile
	if format == transfer.FormatBundle {
		if req.Passphrase == "" {
			return ImportPreview{}, fmt.Errorf("import: this looks like an encrypted bundle: %w", transfer.ErrNeedsKey)
		}
		u.progress("import", "Decrypting the bundle", 0, 0)
		key, kerr := transfer.PassphraseIdentity(req.Passphrase)
		if kerr != nil {
			return ImportPreview{}, fmt.Errorf("import: %w", kerr)
		}
		ps, err = transfer.Parse(format, data, now, key...)
	} else {
		ps, err = transfer.Parse(format, data, now)
	}
	if err != nil {
		return ImportPreview{}, PlainError("import", err)
	}
	// A JSON file that is no profile at all parses as one empty profile.
	ps = slices.DeleteFunc(ps, func(p profile.UserProfile) bool { return p.Label == "" && len(p.Concepts)+len(p.Fields) == 0 })
	if len(ps) == 0 {
		return ImportPreview{}, fmt.Errorf("import: %w", ErrNoProfiles)
	}
	have, err := v.Profiles()
	if err != nil {
		return ImportPreview{}, PlainError("import", err)
	}
	byID := map[string]*profile.UserProfile{}
	for i := range have {
		byID[have[i].ID] = &have[i]
	}
	tok := make([]byte, 12)
	rand.Read(tok)
	pi := &pendingImport{token: hex.EncodeToString(tok), format: format, ps: ps, at: u.cfg.Now()}
	out := ImportPreview{Token: pi.token, Format: format, FormatLabel: formatLabels[format], Items: make([]ImportItem, 0, len(ps)), Profiles: fill.Summaries(have)}
	for i, p := range ps {
		// A profile Tessera exported comes back into itself; a card is new.
		out.Items = append(out.Items, importItem(i, p, byID[p.ID]))
	}
	u.mu.Lock()
	u.pendingImport = pi
	u.mu.Unlock()
	u.progress("import", "Ready to import", 1, 1)
	return out, nil
}

// importItem says what importing p into target (nil: a new profile) does.
func importItem(i int, p profile.UserProfile, target *profile.UserProfile) ImportItem {
	pl := transfer.PlanImport(p, target)
	it := ImportItem{Index: i, Label: p.Label, Into: pl.Into, New: pl.New, Same: pl.Same, Conflicts: pl.Conflicts, Entries: make([]ImportEntry, 0, len(pl.Entries))}
	if target != nil {
		it.IntoLabel = target.Label
	}
	for _, e := range pl.Entries {
		ie := ImportEntry{Change: string(e.Change)}
		if e.Field {
			ie.Label, ie.Group = e.Key, "fields"
		} else {
			c := conceptInfo(e.Key)
			ie.Label, ie.Group = c.Label, c.Group
		}
		it.Entries = append(it.Entries, ie)
	}
	return it
}

// currentImport returns the preview named token, if it is still current.
func (u *UI) currentImport(token string) (*pendingImport, error) {
	locked := u.vaultState() != "unlocked"
	u.mu.Lock()
	defer u.mu.Unlock()
	pi := u.pendingImport
	if locked {
		// The file's values are not kept past a lock.
		u.pendingImport = nil
	}
	if pi == nil || locked || pi.token != token || u.cfg.Now().Sub(pi.at) > importTTL {
		return nil, ErrStaleImport
	}
	return pi, nil
}

// PlanImportInto says what importing item index of the preview token into
// the profile into ("" for a new one) would do.
func (u *UI) PlanImportInto(token string, index int, into string) (ImportItem, error) {
	v, err := u.transferVault()
	if err != nil {
		return ImportItem{}, err
	}
	pi, err := u.currentImport(token)
	if err != nil {
		return ImportItem{}, fmt.Errorf("import: %w", err)
	}
	if index < 0 || index >= len(pi.ps) {
		return ImportItem{}, fmt.Errorf("import: no profile %d in this file", index)
	}
	if into == "" {
		return importItem(index, pi.ps[index], nil), nil
	}
	t, err := v.Profile(into)
	if err != nil {
		return ImportItem{}, PlainError("import", err)
	}
	return importItem(index, pi.ps[index], &t), nil
}

// ApplyImport imports the profiles chosen from the preview token, in one
// transaction, and logs each in the audit log.
func (u *UI) ApplyImport(token string, choices []ImportChoice) (ImportDone, error) {
	v, err := u.transferVault()
	if err != nil {
		return ImportDone{}, err
	}
	u.personActed()
	pi, err := u.currentImport(token)
	if err != nil {
		return ImportDone{}, fmt.Errorf("import: %w", err)
	}
	if len(choices) == 0 {
		return ImportDone{}, fmt.Errorf("import: %w", ErrNothingChosen)
	}
	var ps []profile.UserProfile
	entries, seen := 0, map[int]bool{}
	for _, c := range choices {
		if c.Index < 0 || c.Index >= len(pi.ps) || seen[c.Index] {
			return ImportDone{}, fmt.Errorf("import: no profile %d in this file", c.Index)
		}
		seen[c.Index] = true
		p := pi.ps[c.Index]
		if c.Into != "" {
			if _, err := v.Profile(c.Into); err != nil {
				return ImportDone{}, PlainError("import", err)
			}
			p.ID = c.Into
		} else if _, err := v.Profile(p.ID); err == nil || p.ID == "" {
			// A new profile was chosen: a profile file's id that is in
			// the vault would merge instead.
			p.ID = newImportID()
		}
		entries += len(p.Concepts) + len(p.Fields)
		ps = append(ps, p)
	}
	u.progress("import", fmt.Sprintf("Importing %d values", entries), 0, len(ps))
	res, err := v.Import(ps)
	if err != nil {
		return ImportDone{}, PlainError("import", err)
	}
	u.mu.Lock()
	u.pendingImport = nil
	u.mu.Unlock()
	for _, p := range ps {
		id := p.ID
		concepts := make([]string, 0, len(p.Concepts))
		for k := range p.Concepts {
			concepts = append(concepts, k)
		}
		slices.Sort(concepts)
		u.cfg.App.Audit(vault.Release{Event: vault.EventImport, ProfileID: id, Concepts: concepts, Client: windowClient, Reason: formatLabels[pi.format]})
	}
	u.progress("import", "Imported", len(ps), len(ps))
	u.changed()
	return ImportDone{Profiles: len(ps), ImportResult: res}, nil
}

// newImportID is a fresh profile id, as the vault makes them.
func newImportID() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// CancelImport forgets the preview waiting for a choice.
func (u *UI) CancelImport() {
	u.mu.Lock()
	u.pendingImport = nil
	u.mu.Unlock()
}

// windowClient names who asked for an import or export in the log: the
// person, in the window.
const windowClient = "you, in this window"

// readImportFile reads a regular file of at most vault.MaxImportSize.
func readImportFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a file", filepath.Base(path))
	}
	data, err := io.ReadAll(io.LimitReader(f, vault.MaxImportSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > vault.MaxImportSize {
		return nil, fmt.Errorf("%s: %w: over %d MB", filepath.Base(path), vault.ErrTooLarge, vault.MaxImportSize>>20)
	}
	return data, nil
}

// ExportRequest says what to export, to whom and where. Exactly one of
// Passphrase (with Confirm) and Recipients (age public keys) encrypts it.
// IDs empty exports every profile. Backup marks a backup (every profile).
type ExportRequest struct {
	IDs        []string `json:"ids"`
	Passphrase string   `json:"passphrase"`
	Confirm    string   `json:"confirm"`
	Recipients []string `json:"recipients"`
	Path       string   `json:"path"`
	Overwrite  bool     `json:"overwrite"`
	Backup     bool     `json:"backup"`
}

// ExportDone says what was written where.
type ExportDone struct {
	Profiles int    `json:"profiles"`
	Path     string `json:"path"`
	Bytes    int64  `json:"bytes"`
}

// ExportProfiles writes the profiles req names, encrypted, to req.Path
// (a new file, 0600, unless Overwrite).
func (u *UI) ExportProfiles(req ExportRequest) (ExportDone, error) {
	op := "export"
	if req.Backup {
		op, req.IDs = "backup", nil
	}
	v, err := u.transferVault()
	if err != nil {
		return ExportDone{}, err
	}
	u.personActed()
	path := strings.TrimSpace(req.Path)
	if path == "" {
		return ExportDone{}, fmt.Errorf("%s: %w", op, ErrNoFile)
	}
	if !filepath.IsAbs(path) {
		return ExportDone{}, fmt.Errorf("%s: give the whole path of the file, from /", op)
	}
	recips := slices.DeleteFunc(slices.Clone(req.Recipients), func(s string) bool { return strings.TrimSpace(s) == "" })
	var pp []byte
	switch {
	case req.Passphrase != "" && len(recips) > 0:
		return ExportDone{}, fmt.Errorf("%s: choose a passphrase or age recipients, not both", op)
	case req.Passphrase != "":
		if err := passphrase.Check(req.Passphrase); err != nil {
			return ExportDone{}, fmt.Errorf("%s: %w", op, err)
		}
		if req.Passphrase != req.Confirm {
			return ExportDone{}, fmt.Errorf("%s: %w", op, ErrPassphraseMismatch)
		}
		pp = []byte(req.Passphrase)
		defer clear(pp)
	case len(recips) == 0:
		return ExportDone{}, fmt.Errorf("%s: give a passphrase or an age recipient to encrypt it to", op)
	}
	rs, err := transfer.Recipients(recips, pp, u.cfg.ExportWorkFactor)
	if err != nil {
		return ExportDone{}, fmt.Errorf("%s: %w", op, err)
	}
	u.progress(op, "Reading the profiles", 0, 0)
	ps, err := v.ExportProfiles(req.IDs...)
	if err != nil {
		return ExportDone{}, PlainError(op, err)
	}
	u.progress(op, fmt.Sprintf("Encrypting %d profiles", len(ps)), 0, 0)
	n, err := writeExport(path, req.Overwrite, func(w io.Writer) error {
		return vault.WriteBundle(w, ps, u.cfg.Now().UTC().Format(time.RFC3339), rs...)
	})
	if err != nil {
		return ExportDone{}, fmt.Errorf("%s: %w", op, err)
	}
	for _, p := range ps {
		u.cfg.App.Audit(vault.Release{Event: vault.EventExport, ProfileID: p.ID, Client: windowClient, Reason: op})
	}
	u.progress(op, "Written", 1, 1)
	u.changed()
	return ExportDone{Profiles: len(ps), Path: path, Bytes: n}, nil
}

// writeExport writes a new file at path (replacing one only when
// overwrite) through a temporary file in the same directory, 0600.
func writeExport(path string, overwrite bool, write func(io.Writer) error) (int64, error) {
	if err := safefile.WriteNew(path, overwrite, write); err != nil {
		if errors.Is(err, safefile.ErrExists) {
			return 0, ErrFileExists
		}
		return 0, err
	}
	var size int64
	if fi, err := os.Stat(path); err == nil {
		size = fi.Size()
	}
	return size, nil
}

// SuggestExportPath proposes where an export (or, with backup, a backup)
// goes: the person's Documents folder, else home, named by today's date.
func (u *UI) SuggestExportPath(backup bool) string {
	home := u.cfg.Getenv("HOME")
	dir := home
	if d := filepath.Join(home, "Documents"); home != "" {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			dir = d
		}
	}
	if dir == "" {
		dir = u.cfg.Home
	}
	kind := "export"
	if backup {
		kind = "backup"
	}
	return filepath.Join(dir, fmt.Sprintf("tessera-%s-%s.tessera", kind, u.cfg.Now().Format("2006-01-02")))
}

// errNoChooser is returned when there is no window to show a file
// chooser in.
var errNoChooser = errors.New("this window cannot show a file chooser: type the file's path")

// ChooseImportFile asks the person for a file to import with the system's
// file chooser; "" when they cancel.
func (u *UI) ChooseImportFile() (string, error) {
	sh := u.shell()
	if sh == nil {
		return "", errNoChooser
	}
	return sh.OpenFile("Import into Tessera")
}

// ChooseExportFile asks the person where to save an export or backup,
// starting from suggested; "" when they cancel.
func (u *UI) ChooseExportFile(suggested string) (string, error) {
	sh := u.shell()
	if sh == nil {
		return "", errNoChooser
	}
	return sh.SaveFile("Save the encrypted file", suggested)
}
