package cmdline

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/tessera-app/tessera/app/broker"
	"github.com/tessera-app/tessera/app/confirm"
	"github.com/tessera-app/tessera/app/fill"
	"github.com/tessera-app/tessera/app/ui"
	"github.com/tessera-app/tessera/matcher"
	"github.com/tessera-app/tessera/nativemsg"
	"github.com/tessera-app/tessera/passphrase"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

// Register adds the methods served to `cli` sessions (PROTOCOL.md §4.2)
// to b's method table: the CLI scripting the running app. vault.unlock is
// shared: a cli session unlocks, any other brings the unlock screen
// forward (§4). A method registered twice is an error.
func (c *Service) Register(b *broker.Broker) error {
	err := b.Handle("vault.unlock", c.bind(vaultUnlock))
	for method, h := range map[string]handler{
		"vault.init":     cliVaultInit,
		"vault.lock":     cliVaultLock,
		"vault.passwd":   cliVaultPasswd,
		"vault.rekey":    cliVaultRekey,
		"profile.import": cliProfileImport,
		"profile.set":    cliProfileSet,
		"profile.unset":  cliProfileUnset,
		"profile.delete": cliProfileDelete,
		"profile.show":   cliProfileShow,
		"profile.export": cliProfileExport,
		"site.list":      cliSiteList,
		"site.forget":    cliSiteForget,
		"sync.status":    cliSyncStatus,
		"sync.now":       cliSyncNow,
		"sync.setup":     cliSyncSetup,
	} {
		err = errors.Join(err, b.Handle(method, c.bind(cliOnly(method, h))))
	}
	return err
}

// cliOnly serves h to cli sessions and answers FORBIDDEN to any other.
func cliOnly(method string, h handler) handler {
	return func(ctx context.Context, a *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
		if s.Client().Kind != broker.KindCLI {
			return nil, forbidden(method)
		}
		return h(ctx, a, s, params)
	}
}

// vaultUnlock answers vault.unlock: a cli session unlocks with the
// passphrase (or the app's keyring); a browser's or an agent's request only
// brings the window's unlock screen forward, whatever it sends.
func vaultUnlock(ctx context.Context, a *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	if s.Client().Kind == broker.KindCLI {
		return cliVaultUnlock(ctx, a, s, params)
	}
	return a.cfg.ShowUnlock(s)
}

func forbidden(method string) *nativemsg.Error {
	return nativemsg.NewError(nativemsg.CodeForbidden, "%s is served to the tessera command line only", method)
}

// StateResult is the result of vault.init, vault.unlock and vault.lock.
type StateResult struct {
	State string `json:"state"`
}

// PassphraseParams are the params of vault.init and vault.unlock: without
// a passphrase the app's keyring is used.
type PassphraseParams struct {
	Passphrase string `json:"passphrase,omitempty"`
}

func cliVaultInit(ctx context.Context, a *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	var p PassphraseParams
	if err := broker.DecodeParams(params, &p); err != nil {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "vault.init: %v", err)
	}
	u := a.cfg.Window
	if p.Passphrase != "" {
		if _, err := u.SetUpVault(p.Passphrase, p.Passphrase); err != nil {
			return nil, cliError("vault.init", err)
		}
		return StateResult{a.cfg.VaultState()}, nil
	}
	v, err := a.cliVault()
	if err == nil {
		err = v.Init(vault.InitOptions{Keyring: true})
	}
	if err != nil {
		return nil, cliError("vault.init", err)
	}
	a.cfg.VaultChanged()
	return StateResult{a.cfg.VaultState()}, nil
}

func cliVaultUnlock(ctx context.Context, a *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	var p PassphraseParams
	if err := broker.DecodeParams(params, &p); err != nil {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "vault.unlock: %v", err)
	}
	u := a.cfg.Window
	var err error
	if p.Passphrase != "" {
		_, err = u.Unlock(p.Passphrase)
	} else {
		_, err = u.UnlockWithKeyring()
	}
	if err != nil {
		return nil, cliError("vault.unlock", err)
	}
	return StateResult{a.cfg.VaultState()}, nil
}

func cliVaultLock(ctx context.Context, a *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	if len(params) > 0 {
		var p struct{}
		if err := broker.DecodeParams(params, &p); err != nil {
			return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "vault.lock: %v", err)
		}
	}
	if _, err := a.cfg.Window.Lock(); err != nil {
		return nil, cliError("vault.lock", err)
	}
	return StateResult{a.cfg.VaultState()}, nil
}

// PasswdParams are the params of vault.passwd: the current passphrase
// (none for a vault that only the keyring opens, which gets its first) and
// the new one, which must pass the passphrase rule.
type PasswdParams struct {
	Passphrase    string `json:"passphrase,omitempty"`
	NewPassphrase string `json:"newPassphrase"`
}

// DoneResult is the result of the methods that only succeed or fail.
type DoneResult struct {
	Done bool `json:"done"`
}

func cliVaultPasswd(ctx context.Context, a *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	var p PasswdParams
	if err := broker.DecodeParams(params, &p); err != nil {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "vault.passwd: %v", err)
	}
	u := a.cfg.Window
	if p.Passphrase == "" {
		// The window's way for a keyring-only vault; it refuses to
		// replace a passphrase without the current one.
		if _, err := u.SetPassphrase(p.NewPassphrase, p.NewPassphrase); err != nil {
			return nil, cliError("vault.passwd", err)
		}
		return DoneResult{true}, nil
	}
	if err := ui.CheckNewPassphrase(p.NewPassphrase, p.NewPassphrase); err != nil {
		return nil, cliError("vault.passwd", err)
	}
	v, err := a.cliVault()
	if err == nil {
		// The current passphrase is proven the way an unlock proves it.
		_, err = u.Unlock(p.Passphrase)
	}
	if err != nil {
		return nil, cliError("vault.passwd", err)
	}
	pp, old := []byte(p.NewPassphrase), []byte(p.Passphrase)
	defer clear(pp)
	defer clear(old)
	if err := v.ChangePassphrase(pp); err != nil {
		return nil, cliError("vault.passwd", err)
	}
	a.cfg.VaultChanged()
	// The sync folder follows, as it does from Settings.
	a.cfg.Sync.PassphraseChanged(old, pp)
	return DoneResult{true}, nil
}

func cliVaultRekey(ctx context.Context, a *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	var p PassphraseParams
	if err := broker.DecodeParams(params, &p); err != nil {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "vault.rekey: %v", err)
	}
	v, err := a.cliVault()
	if err == nil {
		pp := []byte(p.Passphrase)
		defer clear(pp)
		err = v.Rekey(pp)
	}
	if err != nil {
		return nil, cliError("vault.rekey", err)
	}
	return DoneResult{true}, nil
}

func (a *Service) cliVault() (Vault, error) {
	v, ok := a.cfg.Vault, a.cfg.Vault != nil
	if !ok {
		return nil, ui.ErrNoVault
	}
	return v, nil
}

// ImportParams are the params of profile.import: Data in Format ("json",
// the Formspec profile format, or "vcard"); Profile, when set, is the id
// the one profile in Data is imported as.
type ImportParams struct {
	Format  string `json:"format"`
	Data    string `json:"data"`
	Profile string `json:"profile,omitempty"`
}

// ImportResult is the result of profile.import: the ids imported (a JSON
// profile without an id gets a new one, not listed) and what was done.
type ImportResult struct {
	Imported []string `json:"imported"`
	vault.ImportResult
}

func cliProfileImport(ctx context.Context, a *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	var p ImportParams
	if err := broker.DecodeParams(params, &p); err != nil {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "profile.import: %v", err)
	}
	now := a.cfg.Now().UTC().Format(time.RFC3339)
	var ps []profile.UserProfile
	var err error
	switch p.Format {
	case "json":
		ps, err = vault.ParseProfilesJSON(strings.NewReader(p.Data), now)
	case "vcard":
		ps, err = vault.ParseVCards(strings.NewReader(p.Data), now)
	default:
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "profile.import: format %q: want json or vcard", p.Format)
	}
	if err != nil {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidValue, "profile.import: %v", err)
	}
	if p.Profile != "" {
		if len(ps) != 1 {
			return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "profile.import: the data holds %d profiles; a target profile takes exactly one", len(ps))
		}
		ps[0].ID = p.Profile
	}
	v, err := a.cliVault()
	if err != nil {
		return nil, cliError("profile.import", err)
	}
	res, err := v.Import(ps)
	if err != nil {
		return nil, cliError("profile.import", err)
	}
	a.cfg.Changed()
	out := ImportResult{Imported: []string{}, ImportResult: res}
	for _, up := range ps {
		if up.ID != "" {
			out.Imported = append(out.Imported, up.ID)
		}
	}
	return out, nil
}

// SetParams are the params of profile.set. Key is "field:PATH" for a form
// field, else a concept IRI (optionally "concept:IRI"); Value is the
// entry's JSON value. A profile that does not exist is created with Label
// (default: its id).
type SetParams struct {
	Profile string          `json:"profile"`
	Key     string          `json:"key"`
	Value   json.RawMessage `json:"value"`
	Label   string          `json:"label,omitempty"`
}

// SetResult is the result of profile.set.
type SetResult struct {
	Profile string `json:"profile"`
	Key     string `json:"key"`
	Created bool   `json:"created"`
}

// parseKey reads a profile.set key: "field:PATH", "concept:IRI" or an IRI.
func parseKey(s string) vault.Key {
	if path, ok := strings.CutPrefix(s, "field:"); ok {
		return vault.FieldKey(path)
	}
	return vault.ConceptKey(strings.TrimPrefix(s, "concept:"))
}

func cliProfileSet(ctx context.Context, a *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	var p SetParams
	if err := broker.DecodeParams(params, &p); err != nil {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "profile.set: %v", err)
	}
	if p.Profile == "" || p.Key == "" || len(p.Value) == 0 || string(p.Value) == "null" {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "profile.set: profile, key and a non-null value are required")
	}
	v, err := a.cliVault()
	if err != nil {
		return nil, cliError("profile.set", err)
	}
	key := parseKey(p.Key)
	if !key.Field {
		// The command line applies the same rule before it calls.
		iri, err := matcher.ResolveConceptKey(key.Name)
		if err != nil {
			return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "profile.set: %v", err)
		}
		key = vault.ConceptKey(iri)
	}
	created, err := setEntry(v, p.Profile, p.Label, key, p.Value, a.cfg.Now())
	if err != nil {
		return nil, cliError("profile.set", err)
	}
	a.cfg.Changed()
	return SetResult{Profile: p.Profile, Key: key.String(), Created: created}, nil
}

// setEntry sets key in profile id to value as a value the person typed
// (verified, full confidence, source "manual"), creating the profile,
// labelled label or else id, when it does not exist, as `tessera profile
// set` does without an app. It reports whether it created the profile.
func setEntry(v Vault, id, label string, key vault.Key, value json.RawMessage, now time.Time) (created bool, err error) {
	if _, err := v.Profile(id); errors.Is(err, vault.ErrNotFound) {
		if label == "" {
			label = id
		}
		if _, err := v.CreateProfile(id, label); err != nil {
			return false, err
		}
		created = true
	} else if err != nil {
		return false, err
	}
	e := profile.Entry{Value: value, Confidence: 1, Verified: true,
		Source: profile.Source{Type: "manual", Timestamp: now.UTC().Format(time.RFC3339)}}
	return created, v.SetEntry(id, key, e)
}

// UnsetParams are the params of profile.unset: the key (as for
// profile.set) to remove from the profile.
type UnsetParams struct {
	Profile string `json:"profile"`
	Key     string `json:"key"`
}

func cliProfileUnset(ctx context.Context, a *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	var p UnsetParams
	if err := broker.DecodeParams(params, &p); err != nil {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "profile.unset: %v", err)
	}
	v, err := a.cliVault()
	if err == nil {
		err = v.DeleteEntry(p.Profile, parseKey(p.Key))
	}
	if err != nil {
		return nil, cliError("profile.unset", err)
	}
	a.cfg.Changed()
	return DoneResult{true}, nil
}

// DeleteParams are the params of profile.delete.
type DeleteParams struct {
	Profile string `json:"profile"`
}

func cliProfileDelete(ctx context.Context, a *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	var p DeleteParams
	if err := broker.DecodeParams(params, &p); err != nil {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "profile.delete: %v", err)
	}
	v, err := a.cliVault()
	if err == nil {
		err = v.DeleteProfile(p.Profile)
	}
	if err != nil {
		return nil, cliError("profile.delete", err)
	}
	a.cfg.Changed()
	return DoneResult{true}, nil
}

// ShowParams are the params of profile.show. Revealing values takes the
// person's say-so: a cli session is any program of the person's, so either
// the vault passphrase proves the person is behind it, or, without one, the
// person approves the reveal in the app's window.
type ShowParams struct {
	Profile    string `json:"profile"`
	Passphrase string `json:"passphrase,omitempty"`
}

func cliProfileShow(ctx context.Context, a *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	var p ShowParams
	if err := broker.DecodeParams(params, &p); err != nil {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "profile.show: %v", err)
	}
	ps, nerr := a.reveal(ctx, s, "profile.show", p.Passphrase, []string{p.Profile})
	if nerr != nil {
		return nil, nerr
	}
	return ps[0], nil
}

// ExportParams are the params of profile.export: the profiles to export
// (none: all), and the vault passphrase or none, as for profile.show.
type ExportParams struct {
	Profiles   []string `json:"profiles,omitempty"`
	Passphrase string   `json:"passphrase,omitempty"`
}

// ExportResult is the result of profile.export: the profiles, values
// included, each as the release gate handed it out (a profile.UserProfile
// in JSON).
type ExportResult struct {
	Profiles []confirm.Document `json:"profiles"`
}

func cliProfileExport(ctx context.Context, a *Service, s *broker.Session, params json.RawMessage) (any, *nativemsg.Error) {
	var p ExportParams
	if err := broker.DecodeParams(params, &p); err != nil {
		return nil, nativemsg.NewError(nativemsg.CodeInvalidParams, "profile.export: %v", err)
	}
	ps, nerr := a.reveal(ctx, s, "profile.export", p.Passphrase, p.Profiles)
	if nerr != nil {
		return nil, nerr
	}
	return ExportResult{Profiles: ps}, nil
}

// reveal hands the values of profiles ids (every profile when ids is
// empty) to the command s, through the release gate, and returns the
// profiles released, each a JSON document. The person's say-so is either pass,
// the vault passphrase (checked by an unlock, so a locked vault is unlocked
// from then on, as with vault.unlock), or, without it, their approval in
// the app's window of a dialog with one row per profile (its label and
// entry count): only the profiles left ticked are released. An app without
// a window refuses a reveal without the passphrase (FORBIDDEN). The gate
// writes the audit log, a record per profile.
func (a *Service) reveal(ctx context.Context, s *broker.Session, method, pass string, ids []string) ([]confirm.Document, *nativemsg.Error) {
	if pass == "" && !a.cfg.HasWindow() {
		return nil, nativemsg.NewError(nativemsg.CodeForbidden, "%s reveals values: give the vault passphrase (--passphrase-file FILE); this app has no window to approve it in", method)
	}
	v, err := a.cliVault()
	if err != nil {
		return nil, cliError(method, err)
	}
	if pass != "" {
		if _, err := a.cfg.Window.Unlock(pass); err != nil {
			return nil, cliError(method, err)
		}
	}
	all, err := v.ProfileSummaries()
	if err != nil {
		return nil, cliError(method, err)
	}
	byID := map[string]vault.ProfileSummary{}
	for _, p := range all {
		byID[p.ID] = p
	}
	if len(ids) == 0 {
		for _, p := range all {
			ids = append(ids, p.ID)
		}
	}
	if len(ids) == 0 {
		return nil, nativemsg.NewError(nativemsg.CodeNotFound, "%s: the vault has no profile", method)
	}
	c := confirm.Confirmation{
		Kind: confirm.ConfirmReveal, Site: revealSite,
		ApproveDelayMs: int(confirm.DefaultApproveDelay / time.Millisecond),
	}
	rows := map[string]string{} // row id → profile id
	var rowIDs []string
	for i, id := range ids {
		p, ok := byID[id]
		if !ok {
			return nil, nativemsg.NewError(nativemsg.CodeNotFound, "%s: no profile %q", method, id)
		}
		r := confirm.Row{
			ID: "r" + strconv.Itoa(i+1), Label: p.Label, Value: entriesText(p.Entries),
			ConceptLabel: "every value of this profile", Evidence: []string{"profile " + p.ID},
			Section: confirm.SectionFill, Checked: true,
		}
		rows[r.ID] = id
		rowIDs = append(rowIDs, r.ID)
		c.Rows = append(c.Rows, r)
	}
	offer := confirm.Offer{
		Requester: s.Peer(), Recipient: s.Peer(), Dialog: c,
		Values: func(row string) ([]string, string) {
			ps, err := v.ExportProfiles(rows[row])
			if err != nil || len(ps) != 1 {
				return nil, ""
			}
			b, err := json.Marshal(ps[0])
			if err != nil {
				return nil, ""
			}
			return []string{string(b)}, ""
		},
		AuditRow: func(row string) vault.Release { return vault.Release{Site: revealSite, ProfileID: rows[row]} },
	}
	if pass != "" {
		offer.Proven = &confirm.Decision{Approve: true, Rows: rowIDs, Reason: "vault passphrase"}
	}
	rel, d, err := a.cfg.Gate.Release(ctx, offer)
	if err != nil {
		return nil, nativemsg.NewError(nativemsg.CodeForbidden, "%s: %v", method, err)
	}
	if !d.Approve || len(d.Rows) == 0 {
		if d.Approve {
			d.Reason = confirm.DeclineDenied
		}
		return nil, fill.Declined(method, d)
	}
	if len(rel.Rows()) < len(d.Rows) {
		return nil, nativemsg.NewError(nativemsg.CodeInternal, "%s: a profile could not be read", method)
	}
	var out []confirm.Document
	for _, row := range rel.Rows() {
		out = append(out, rel.Values(row)[0].Document())
	}
	return out, nil
}

// revealSite is where a reveal sends values (ui.RevealSite).
const revealSite = ui.RevealSite

func entriesText(n int) string {
	if n == 1 {
		return "1 entry"
	}
	return strconv.Itoa(n) + " entries"
}

// cliErrors maps the conditions a person can act on to protocol codes,
// worded for the command line; msg "" keeps the error's own words.
var cliErrors = []struct {
	err  error
	code string
	msg  string
}{
	{passphrase.ErrWeak, nativemsg.CodeInvalidValue, ""},
	{passphrase.ErrTooLong, nativemsg.CodeInvalidValue, ""},
	{vault.ErrBadPassphrase, nativemsg.CodeInvalidValue, "wrong passphrase"},
	{vault.ErrNoPassphrase, nativemsg.CodeInvalidValue, "this vault has no passphrase: unlock it with the keyring or in the app window"},
	{vault.ErrLocked, nativemsg.CodeVaultLocked, "the vault is locked: run `tessera vault unlock --passphrase-file FILE`"},
	{vault.ErrUninitialized, nativemsg.CodeVaultUninitialized, "there is no vault yet: run `tessera vault init --passphrase-file FILE`"},
	{vault.ErrExists, nativemsg.CodeInvalidValue, "a vault already exists"},
	{ui.ErrPassphraseSet, nativemsg.CodeInvalidValue, "the vault already has a passphrase: give the current one (--passphrase-file FILE)"},
	{vault.ErrNotFound, nativemsg.CodeNotFound, ""},
	{vault.ErrTooLarge, nativemsg.CodeInvalidValue, ""},
	{vault.ErrKeyringItemMissing, nativemsg.CodeUnsupported, "the keyring holds no key for this vault: give --passphrase-file FILE"},
	{vault.ErrKeyringUnavailable, nativemsg.CodeUnsupported, "the app cannot use the keyring: give --passphrase-file FILE"},
	{ui.ErrNoVault, nativemsg.CodeUnsupported, ""},
}

// cliError turns a vault or UI error into method's protocol error. The
// caller is the person's own command line, so an unexpected error keeps
// its detail (vault errors name files and keys, never values).
func cliError(method string, err error) *nativemsg.Error {
	for _, m := range cliErrors {
		if errors.Is(err, m.err) {
			msg := m.msg
			if msg == "" {
				msg = err.Error()
			}
			return nativemsg.NewError(m.code, "%s: %s", method, msg)
		}
	}
	return nativemsg.NewError(nativemsg.CodeInternal, "%s: %v", method, err)
}

// ScriptHint says how to reach a vault in state from the command line, for
// the start message of an app without a window; "" when nothing is needed.
func ScriptHint(state string) string {
	switch state {
	case vault.StateUninitialized:
		return "no vault yet: set one up with `tessera vault init --passphrase-file FILE`"
	case vault.StateLocked:
		return "the vault is locked: unlock it with `tessera vault unlock --passphrase-file FILE`"
	}
	return ""
}
