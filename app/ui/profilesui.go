package ui

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/mail"
	"net/url"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/nyaruka/phonenumbers"
	"github.com/tessera-app/tessera/app/confirm"
	"github.com/tessera-app/tessera/app/fill"
	"github.com/tessera-app/tessera/matcher"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

// The Profiles section's editor: a profile's values grouped by concept
// with human labels, edited, added, deleted and reordered from the window.
// Values reach the page here, and only here: this is the app's own window,
// where the person looks at their own data. They never appear in an error
// (errors reach the page and the log) and are never logged.

// editVault is what the profile editor and the Activity section need of
// the vault: a *vault.Vault in the desktop app.
type editVault interface {
	Releases() ([]vault.Release, error)
	ProfileSummaries() ([]vault.ProfileSummary, error)
	Profile(id string) (profile.UserProfile, error)
	CreateProfile(id, label string) (profile.UserProfile, error)
	RenameProfile(id, label string) error
	DeleteProfile(id string) error
	SetEntry(profileID string, key vault.Key, e profile.Entry) error
	DeleteEntry(profileID string, key vault.Key) error
	Candidates(profileID string, key vault.Key) ([]profile.Entry, error)
	PromoteCandidate(profileID string, key vault.Key, i int) error
	Learn(profileID string, obs []vault.Observation) ([]vault.LearnResult, error)
	Import(ps []profile.UserProfile) (vault.ImportResult, error)
	Profiles() ([]profile.UserProfile, error)
}

// ErrBadValue is returned (wrapped) for a value that does not fit its
// concept: a phone number that is none, a date that is not a date, ...
// Its messages never repeat the value.
var ErrBadValue = errors.New("invalid value")

// Value kinds and the concept catalog are package profile's (the one
// table of concept labels).
const (
	KindText      = profile.KindText
	KindMultiline = profile.KindMultiline
	KindDate      = profile.KindDate
	KindTel       = profile.KindTel
	KindEmail     = profile.KindEmail
	KindURL       = profile.KindURL
	KindCountry   = profile.KindCountry
)

// ConceptInfo is one concept the editor knows (profile.ConceptInfo).
type ConceptInfo = profile.ConceptInfo

// ConceptGroups are the editor's groups, in the order shown.
var ConceptGroups = profile.ConceptGroups

// conceptInfo returns what the editor knows of a concept IRI, in any
// spelling; an unknown concept is text in the "other" group, labelled by
// its last path segment.
func conceptInfo(iri string) ConceptInfo {
	canon := matcher.CanonicalConcept(iri)
	if c, ok := profile.CatalogConcept(canon); ok {
		c.IRI = iri
		return c
	}
	// A part of a known concept ("…/streetAddress/line2").
	if i := strings.LastIndexByte(canon, '/'); i > 0 {
		if c, ok := profile.CatalogConcept(canon[:i]); ok {
			return ConceptInfo{IRI: iri, Label: c.Label + " (" + words(canon[i+1:]) + ")", Group: c.Group, Kind: KindText}
		}
	}
	return ConceptInfo{IRI: iri, Label: capital(words(lastSegment(canon))), Group: "other", Kind: KindText}
}

// conceptLabelsOf returns the human labels of concepts, each once.
func conceptLabelsOf(concepts []string) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, c := range concepts {
		l := conceptInfo(c).Label
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return out
}

func lastSegment(s string) string {
	if i := strings.LastIndexAny(s, "/#:"); i >= 0 && i < len(s)-1 {
		return s[i+1:]
	}
	return s
}

// words turns "postalCode" or "address-level2" into "postal code",
// "address level2".
func words(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '-' || r == '_':
			b.WriteByte(' ')
		case r >= 'A' && r <= 'Z' && i > 0:
			b.WriteByte(' ')
			b.WriteRune(r + ('a' - 'A'))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ValueView is one stored value as the editor shows it.
type ValueView struct {
	// Value is the stored value: a string, or for a structured value its
	// JSON (then Structured is set and the editor shows it read-only).
	Value      string `json:"value"`
	Structured bool   `json:"structured,omitempty"`
	// Display is the value as its country writes it, where that differs
	// (a phone number in national or international format).
	Display string `json:"display,omitempty"`
	// Source says where the value came from, in words ("typed in
	// Tessera", "learnt from shop.example", "imported"), SourceType is
	// profile.Source.Type and Added its RFC 3339 time.
	Source     string `json:"source"`
	SourceType string `json:"sourceType"`
	Added      string `json:"added,omitempty"`
	LastUsed   string `json:"lastUsed,omitempty"`
}

// ConceptValues is a concept of a profile and its values, the preferred
// one first.
type ConceptValues struct {
	ConceptInfo
	Values []ValueView `json:"values"`
	// Conflict reports that two devices changed this detail at once
	// (sync): the first value is current, the others wait to be settled.
	Conflict bool `json:"conflict,omitempty"`
}

// GroupView is one group of the editor with the concepts that have values.
type GroupView struct {
	ID       string          `json:"id"`
	Label    string          `json:"label"`
	Concepts []ConceptValues `json:"concepts"`
}

// FieldValue is a value kept under a form field path (no concept known).
type FieldValue struct {
	Path  string    `json:"path"`
	Value ValueView `json:"value"`
}

// ProfileView is one profile as the editor shows it.
type ProfileView struct {
	confirm.ProfileSummary
	Created string       `json:"created"`
	Groups  []GroupView  `json:"groups"`
	Fields  []FieldValue `json:"fields"`
}

// Catalog is what the editor offers: its groups in order and the concepts
// a value can be added for.
type Catalog struct {
	Groups   []GroupView   `json:"groups"` // without concepts
	Concepts []ConceptInfo `json:"concepts"`
}

// ConceptCatalog returns the editor's groups and the concepts a value can
// be added for, in the editor's order.
func (u *UI) ConceptCatalog() (Catalog, error) {
	c := Catalog{Concepts: append([]ConceptInfo(nil), profile.Catalog...)}
	for _, g := range ConceptGroups {
		c.Groups = append(c.Groups, GroupView{ID: g.ID, Label: g.Label, Concepts: []ConceptValues{}})
	}
	return c, nil
}

// ProfileDetail returns profile id with all its values, for the editor.
func (u *UI) ProfileDetail(id string) (ProfileView, error) {
	v, err := u.editVault()
	if err != nil {
		return ProfileView{}, err
	}
	pv, err := profileView(v, id)
	if err != nil {
		return pv, err
	}
	u.markConflicts(&pv)
	return pv, nil
}

// RenameProfile gives profile id a new label.
func (u *UI) RenameProfile(id, label string) (confirm.ProfileSummary, error) {
	v, err := u.editVault()
	if err != nil {
		return confirm.ProfileSummary{}, err
	}
	label = strings.TrimSpace(label)
	if label == "" {
		return confirm.ProfileSummary{}, errors.New("rename profile: give the profile a name")
	}
	if err := v.RenameProfile(id, label); err != nil {
		return confirm.ProfileSummary{}, PlainError("rename profile", err)
	}
	u.changed()
	return u.summary(v, id, "rename profile")
}

// DuplicateProfile copies profile id, its values and their candidates, to
// a new profile labelled "<label> (copy)", and returns the copy.
func (u *UI) DuplicateProfile(id string) (confirm.ProfileSummary, error) {
	v, err := u.editVault()
	if err != nil {
		return confirm.ProfileSummary{}, err
	}
	src, err := v.Profile(id)
	if err != nil {
		return confirm.ProfileSummary{}, PlainError("duplicate profile", err)
	}
	label := src.Label + " (copy)"
	if utf8.RuneCountInString(label) > 200 {
		label = src.Label
	}
	b := make([]byte, 8)
	rand.Read(b)
	cp := profile.UserProfile{ID: hex.EncodeToString(b), Label: label, Concepts: src.Concepts, Fields: src.Fields}
	// Import creates the copy with every current value in one transaction;
	// the candidates follow, each as the value it was.
	if _, err := v.Import([]profile.UserProfile{cp}); err != nil {
		return confirm.ProfileSummary{}, PlainError("duplicate profile", err)
	}
	var obs []vault.Observation
	for k := range src.Concepts {
		cs, err := v.Candidates(id, vault.ConceptKey(k))
		if err != nil {
			return confirm.ProfileSummary{}, PlainError("duplicate profile", err)
		}
		for _, c := range cs {
			obs = append(obs, vault.Observation{Concept: k, Value: c.Value, Source: c.Source, Confidence: c.Confidence})
		}
	}
	if len(obs) > 0 {
		if _, err := v.Learn(cp.ID, obs); err != nil {
			return confirm.ProfileSummary{}, PlainError("duplicate profile", err)
		}
	}
	u.changed()
	return u.summary(v, cp.ID, "duplicate profile")
}

// ProfileHit is a profile that matches a search, with what matched.
type ProfileHit struct {
	confirm.ProfileSummary
	// Matches name what matched, a value with its label ("Email:
	// ada@example.org"), at most maxHitMatches of them; LabelMatch reports
	// whether the profile's own label matched.
	Matches    []string `json:"matches"`
	LabelMatch bool     `json:"labelMatch"`
}

// maxHitMatches bounds the matches listed under one profile.
const maxHitMatches = 5

// SearchProfiles returns the profiles whose label, values, detail labels
// or field paths contain q (case-insensitive), sorted by label. The
// current values are searched, not the other values beside them.
func (u *UI) SearchProfiles(q string) ([]ProfileHit, error) {
	v, err := u.editVault()
	if err != nil {
		return nil, err
	}
	q = strings.ToLower(strings.TrimSpace(q))
	ps, err := v.Profiles()
	if err != nil {
		return nil, PlainError("search profiles", err)
	}
	out := []ProfileHit{}
	for _, p := range ps {
		h := ProfileHit{ProfileSummary: fill.Summarize(p), Matches: []string{}, LabelMatch: strings.Contains(strings.ToLower(p.Label), q)}
		var found []string
		for k, e := range p.Concepts {
			info := conceptInfo(k)
			val, _ := e.StringValue()
			if strings.Contains(strings.ToLower(val), q) || strings.Contains(strings.ToLower(info.Label), q) {
				found = append(found, info.Label+": "+strings.ReplaceAll(val, "\n", ", "))
			}
		}
		for path, e := range p.Fields {
			val, _ := e.StringValue()
			if strings.Contains(strings.ToLower(val), q) || strings.Contains(strings.ToLower(path), q) {
				found = append(found, path+": "+val)
			}
		}
		sort.Strings(found)
		h.Matches = append(h.Matches, found[:min(len(found), maxHitMatches)]...)
		if h.LabelMatch || len(found) > 0 {
			out = append(out, h)
		}
	}
	return out, nil
}

// DeleteProfile deletes profile id and every value in it. The window asks
// the person first.
func (u *UI) DeleteProfile(id string) error {
	v, err := u.editVault()
	if err != nil {
		return err
	}
	if err := v.DeleteProfile(id); err != nil {
		return PlainError("delete profile", err)
	}
	u.changed()
	return nil
}

// SetValue replaces the preferred value of concept in profile id with the
// person's own value, checked and put in its canonical shape for the
// concept's kind (ErrBadValue otherwise). The candidates stay.
func (u *UI) SetValue(id, concept, value string) (ProfileView, error) {
	return u.edit(id, "save value", func(v editVault, p profile.UserProfile) error {
		e, err := manualEntry(concept, value, p)
		if err != nil {
			return err
		}
		return v.SetEntry(id, vault.ConceptKey(concept), e)
	})
}

// AddValue adds a value for concept to profile id: the preferred value
// when the concept has none, another value beside it otherwise.
func (u *UI) AddValue(id, concept, value string) (ProfileView, error) {
	return u.edit(id, "add value", func(v editVault, p profile.UserProfile) error {
		if strings.TrimSpace(concept) == "" {
			return errors.New("choose what the value is")
		}
		e, err := manualEntry(concept, value, p)
		if err != nil {
			return err
		}
		key := vault.ConceptKey(concept)
		cur, ok := p.Concepts[concept]
		if !ok {
			return v.SetEntry(id, key, e)
		}
		cands, err := v.Candidates(id, key)
		if err != nil {
			return err
		}
		for _, x := range append(cands, cur) {
			if s, ok := x.StringValue(); ok && s == entryString(e) {
				return &windowError{msg: "the profile already holds this value", err: ErrBadValue}
			}
		}
		// Beyond MaxCandidates the vault drops the oldest value to make
		// room; a person adding one must choose which goes instead.
		if len(cands) >= vault.MaxCandidates {
			return &windowError{msg: fmt.Sprintf("%s holds at most %d values: delete one first", conceptInfo(concept).Label, vault.MaxCandidates+1), err: ErrBadValue}
		}
		_, err = v.Learn(id, []vault.Observation{{Concept: concept, Value: e.Value, Source: e.Source}})
		return err
	})
}

// PromoteValue makes value i of concept (as ProfileDetail numbers them,
// 0 the preferred) the preferred one; the former preferred value stays as
// another value.
func (u *UI) PromoteValue(id, concept string, i int) (ProfileView, error) {
	return u.edit(id, "make preferred", func(v editVault, _ profile.UserProfile) error {
		if i < 1 {
			return fmt.Errorf("value %d: %w", i, vault.ErrNotFound)
		}
		return v.PromoteCandidate(id, vault.ConceptKey(concept), i-1)
	})
}

// DeleteValue deletes value i of concept (0 the preferred). When other
// values remain, the first of them becomes the preferred one.
func (u *UI) DeleteValue(id, concept string, i int) (ProfileView, error) {
	return u.edit(id, "delete value", func(v editVault, p profile.UserProfile) error {
		key := vault.ConceptKey(concept)
		cur, ok := p.Concepts[concept]
		if !ok {
			return fmt.Errorf("%s: %w", conceptInfo(concept).Label, vault.ErrNotFound)
		}
		cands, err := v.Candidates(id, key)
		if err != nil {
			return err
		}
		all := append([]profile.Entry{cur}, cands...)
		if i < 0 || i >= len(all) {
			return fmt.Errorf("value %d: %w", i, vault.ErrNotFound)
		}
		rest := append(all[:i:i], all[i+1:]...)
		// The vault deletes a concept with its candidates only; the values
		// kept are written back, the first as preferred, the others as
		// candidates in their order (their last-used time becomes now).
		if err := v.DeleteEntry(id, key); err != nil {
			return err
		}
		if len(rest) == 0 {
			return nil
		}
		if err := v.SetEntry(id, key, rest[0]); err != nil {
			return err
		}
		var obs []vault.Observation
		for _, e := range rest[1:] {
			obs = append(obs, vault.Observation{Concept: concept, Value: e.Value, Source: e.Source, Confidence: e.Confidence})
		}
		if len(obs) == 0 {
			return nil
		}
		_, err = v.Learn(id, obs)
		return err
	})
}

// DeleteField deletes the value kept under form field path in profile id.
func (u *UI) DeleteField(id, path string) (ProfileView, error) {
	return u.edit(id, "delete value", func(v editVault, _ profile.UserProfile) error {
		return v.DeleteEntry(id, vault.FieldKey(path))
	})
}

// edit runs change on profile id and returns the profile as it is now.
func (u *UI) edit(id, op string, change func(editVault, profile.UserProfile) error) (ProfileView, error) {
	v, err := u.editVault()
	if err != nil {
		return ProfileView{}, err
	}
	p, err := v.Profile(id)
	if err != nil {
		return ProfileView{}, PlainError(op, err)
	}
	if err := change(v, p); err != nil {
		return ProfileView{}, PlainError(op, err)
	}
	u.changed()
	return profileView(v, id)
}

func (u *UI) editVault() (editVault, error) {
	v, ok := u.cfg.Vault, u.cfg.Vault != nil
	if !ok {
		return nil, ErrNoVault
	}
	return v, nil
}

func (u *UI) summary(v editVault, id, op string) (confirm.ProfileSummary, error) {
	ps, err := v.ProfileSummaries()
	if err != nil {
		return confirm.ProfileSummary{}, PlainError(op, err)
	}
	for _, p := range ps {
		if p.ID == id {
			return confirm.ProfileSummary{ID: p.ID, Label: p.Label, Entries: p.Entries, Updated: p.Updated}, nil
		}
	}
	return confirm.ProfileSummary{}, fmt.Errorf("%s: %w", op, vault.ErrNotFound)
}

// profileView reads profile id and its candidates into the editor's view.
func profileView(v editVault, id string) (ProfileView, error) {
	p, err := v.Profile(id)
	if err != nil {
		return ProfileView{}, PlainError("open profile", err)
	}
	out := ProfileView{
		ProfileSummary: fill.Summarize(p), Created: p.Created,
		Groups: []GroupView{}, Fields: []FieldValue{},
	}
	country := storedCountry(p)
	byGroup := map[string][]ConceptValues{}
	for k, e := range p.Concepts {
		info := conceptInfo(k)
		cands, err := v.Candidates(id, vault.ConceptKey(k))
		if err != nil {
			return ProfileView{}, PlainError("open profile", err)
		}
		cv := ConceptValues{ConceptInfo: info}
		for _, x := range append([]profile.Entry{e}, cands...) {
			cv.Values = append(cv.Values, valueView(x, info.Kind, country))
		}
		byGroup[info.Group] = append(byGroup[info.Group], cv)
	}
	for _, g := range ConceptGroups {
		cs := byGroup[g.ID]
		if len(cs) == 0 {
			continue
		}
		sort.Slice(cs, func(i, j int) bool { return conceptOrder(cs[i]) < conceptOrder(cs[j]) })
		if g.ID == "address" {
			layOutAddress(cs, country)
		}
		out.Groups = append(out.Groups, GroupView{ID: g.ID, Label: g.Label, Concepts: cs})
	}
	for path, e := range p.Fields {
		out.Fields = append(out.Fields, FieldValue{Path: path, Value: valueView(e, KindText, country)})
	}
	sort.Slice(out.Fields, func(i, j int) bool { return out.Fields[i].Path < out.Fields[j].Path })
	return out, nil
}

// addressLayout is how a country writes an address: the order of its
// parts (those not listed keep the catalog's order, after them) and what
// it calls them.
type addressLayout struct {
	order  []string
	labels map[string]string
}

// Address parts, for the layouts below.
const (
	adStreet   = profile.ConceptStreetAddress
	adDistrict = profile.ConceptDependentLocal
	adCity     = profile.ConceptAddressLocality
	adRegion   = profile.ConceptAddressRegion
	adPostcode = profile.ConceptPostalCode
	adCountry  = profile.ConceptAddressCountry
)

var (
	// Street, then postcode before the town: most of continental Europe.
	postcodeFirst = addressLayout{order: []string{adStreet, adPostcode, adCity, adRegion, adCountry}}
	// From the largest part to the smallest.
	largestFirst = []string{adCountry, adPostcode, adRegion, adCity, adDistrict, adStreet}
)

// addressLayouts are the countries whose forms differ from the catalog's
// order (street, town, region, postcode, country) or its names.
var addressLayouts = map[string]addressLayout{
	"US": {labels: map[string]string{adRegion: "State", adPostcode: "ZIP code"}},
	"CA": {labels: map[string]string{adRegion: "Province", adPostcode: "Postal code"}},
	"AU": {labels: map[string]string{adRegion: "State / territory", adCity: "Suburb"}},
	"GB": {labels: map[string]string{adRegion: "County", adCity: "Town / city"}},
	"IE": {labels: map[string]string{adRegion: "County", adPostcode: "Eircode"}},
	"IN": {labels: map[string]string{adPostcode: "PIN code"}},
	"DE": postcodeFirst, "AT": postcodeFirst, "CH": postcodeFirst, "FR": postcodeFirst, "BE": postcodeFirst,
	"NL": postcodeFirst, "LU": postcodeFirst, "DK": postcodeFirst, "NO": postcodeFirst, "SE": postcodeFirst,
	"FI": postcodeFirst, "PL": postcodeFirst, "CZ": postcodeFirst, "SK": postcodeFirst, "PT": postcodeFirst,
	"ES": {order: postcodeFirst.order, labels: map[string]string{adRegion: "Province"}},
	"IT": {order: postcodeFirst.order, labels: map[string]string{adRegion: "Province"}},
	"JP": {order: largestFirst, labels: map[string]string{adRegion: "Prefecture", adCity: "City / ward"}},
	"CN": {order: largestFirst, labels: map[string]string{adRegion: "Province"}},
	"KR": {order: largestFirst, labels: map[string]string{adRegion: "Province"}},
}

// layOutAddress orders and names the address concepts cs (in the catalog's
// order) the way country writes an address.
func layOutAddress(cs []ConceptValues, country string) {
	l, ok := addressLayouts[country]
	if !ok {
		return
	}
	rank := func(c ConceptValues) int {
		for i, iri := range l.order {
			if matcher.CanonicalConcept(c.IRI) == iri {
				return i
			}
		}
		return len(l.order)
	}
	sort.SliceStable(cs, func(i, j int) bool { return rank(cs[i]) < rank(cs[j]) })
	for i := range cs {
		if name, ok := l.labels[matcher.CanonicalConcept(cs[i].IRI)]; ok {
			cs[i].Label = name
		}
	}
}

// conceptOrder sorts the concepts of a group: the catalog's first, in its
// order, then the others by label.
func conceptOrder(c ConceptValues) string {
	if i, ok := profile.CatalogOrder(matcher.CanonicalConcept(c.IRI)); ok {
		return fmt.Sprintf("0%04d", i)
	}
	return "1" + c.Label + "\x00" + c.IRI
}

// sourceWords says where an entry came from.
func sourceWords(s profile.Source) string {
	switch s.Type {
	case "manual":
		return "typed in Tessera"
	case "import":
		if s.Source != "" {
			return "imported from " + s.Source
		}
		return "imported"
	case "form-fill":
		if u, err := url.Parse(s.FormURL); err == nil && u.Hostname() != "" {
			return "learnt from " + u.Hostname()
		}
		return "learnt from a form"
	case "extension":
		return "saved from the browser"
	case "":
		return "source not recorded"
	}
	return s.Type
}

func valueView(e profile.Entry, kind, country string) ValueView {
	out := ValueView{Source: sourceWords(e.Source), SourceType: e.Source.Type, Added: e.Source.Timestamp, LastUsed: e.LastUsed}
	if e.Source.Type == "manual" && storedAsUsed(e) {
		out.LastUsed = ""
	}
	s, ok := e.StringValue()
	if !ok {
		out.Value, out.Structured = string(e.Value), true
		return out
	}
	out.Value = s
	if kind == KindTel {
		out.Display = phoneDisplay(s, country)
	}
	return out
}

// storedAsUsed reports whether e's last use is only the moment it was
// stored: the vault stamps a value stored beside another (Learn) as used
// then, so a value the person typed here reads as used when it was not.
// No form is filled within storedSlack of the person typing the value.
func storedAsUsed(e profile.Entry) bool {
	used, err1 := time.Parse(time.RFC3339, e.LastUsed)
	added, err2 := time.Parse(time.RFC3339, e.Source.Timestamp)
	return err1 == nil && err2 == nil && used.Sub(added) < storedSlack
}

// storedSlack bounds the time between typing a value and the vault
// storing it.
const storedSlack = 5 * time.Second

// storedCountry returns the profile's country (ISO alpha-2, upper case),
// or "" when it has none: the region phone numbers are read in.
func storedCountry(p profile.UserProfile) string {
	c := strings.ToUpper(strings.TrimSpace(fill.StoredValue(&p, matcher.CanonicalConcept(profile.ConceptAddressCountry))))
	if len(c) != 2 {
		return ""
	}
	return c
}

// phoneDisplay writes a stored phone number as its country writes it: in
// national format for a number of the profile's own country, in
// international format otherwise; "" when it is no valid number.
func phoneDisplay(v, country string) string {
	num, err := phonenumbers.Parse(v, country)
	if err != nil || !phonenumbers.IsValidNumber(num) {
		return ""
	}
	if country != "" && phonenumbers.GetRegionCodeForNumber(num) == country {
		return phonenumbers.Format(num, phonenumbers.NATIONAL)
	}
	return phonenumbers.Format(num, phonenumbers.INTERNATIONAL)
}

// entryString returns the string value of e, "" when it holds another JSON value.
func entryString(e profile.Entry) string {
	s, _ := e.StringValue()
	return s
}

// manualEntry checks value for concept and returns it as the person's own
// entry, in the concept's canonical shape.
func manualEntry(concept, value string, p profile.UserProfile) (profile.Entry, error) {
	info := conceptInfo(concept)
	s, err := normaliseValue(info, value, storedCountry(p))
	if err != nil {
		return profile.Entry{}, err
	}
	b, err := json.Marshal(s)
	if err != nil {
		return profile.Entry{}, fmt.Errorf("encode value: %w", err)
	}
	now := time.Now().UTC().Format(time.RFC3339)
	return profile.Entry{Value: b, Confidence: 1, Verified: true, Source: profile.Source{Type: "manual", Timestamp: now}}, nil
}

// normaliseValue checks a typed value against its concept's kind and puts
// it in the stored shape. Errors name the concept, never the value.
func normaliseValue(info ConceptInfo, value, country string) (string, error) {
	v := strings.TrimSpace(value)
	if info.Kind != KindMultiline {
		v = strings.Join(strings.Fields(v), " ")
	} else {
		lines := strings.Split(strings.ReplaceAll(v, "\r\n", "\n"), "\n")
		kept := lines[:0]
		for _, l := range lines {
			if l = strings.TrimSpace(l); l != "" {
				kept = append(kept, l)
			}
		}
		v = strings.Join(kept, "\n")
	}
	bad := func(why string) error {
		return &windowError{msg: strings.ToLower(info.Label[:1]) + info.Label[1:] + ": " + why, err: ErrBadValue}
	}
	if v == "" {
		return "", bad("it is empty")
	}
	if len(v) > vault.MaxValueSize {
		return "", bad("it is too long")
	}
	switch info.Kind {
	case KindDate:
		if _, err := time.Parse(time.DateOnly, v); err != nil {
			return "", bad("not a date (year-month-day)")
		}
	case KindTel:
		num, err := phonenumbers.Parse(v, country)
		if err != nil || !phonenumbers.IsValidNumber(num) {
			if country == "" {
				return "", bad("not a phone number Tessera can check; start it with + and the country code")
			}
			return "", bad("not a phone number of this profile's country; for another country start it with + and the country code")
		}
		v = phonenumbers.Format(num, phonenumbers.E164)
	case KindEmail:
		a, err := mail.ParseAddress(v)
		if err != nil || a.Address != v || !strings.Contains(v[strings.LastIndexByte(v, '@'):], ".") {
			return "", bad("not an email address")
		}
	case KindURL:
		if !strings.Contains(v, "://") {
			v = "https://" + v
		}
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return "", bad("not a web address")
		}
	case KindCountry:
		c := strings.ToUpper(v)
		if len(c) != 2 || c[0] < 'A' || c[0] > 'Z' || c[1] < 'A' || c[1] > 'Z' {
			return "", bad("not a two-letter country code")
		}
		v = c
	}
	return v, nil
}
