package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/tessera-app/tessera/app/broker"
	"github.com/tessera-app/tessera/app/vaultctl"
	"github.com/tessera-app/tessera/nativemsg"
	"github.com/tessera-app/tessera/vault"
)

// The Settings section: the sites that fill without asking (revocable, see
// package fill's remember.go), the browsers Tessera knows on this computer and whether its
// host is registered in each (registering runs what `tessera install
// --browser NAME` runs), the browsers connected now, and the vault's
// location and how it is locked. Like every binding, errors are worded to
// be shown as they are.

// SiteView is one site that fills without asking, in words.
type SiteView struct {
	// Origin is the exact origin the rule applies to; Site its registrable
	// domain, shown large.
	Origin string `json:"origin"`
	Site   string `json:"site"`
	// ProfileID is the profile the rule fills from; Profile its label, or
	// "a deleted profile".
	ProfileID string `json:"profileId"`
	Profile   string `json:"profile"`
	// Kinds are the human labels of the concepts the rule releases.
	Kinds []string `json:"kinds"`
	// Created and LastUsed are RFC 3339 times; LastUsed is empty when the
	// rule has not filled anything yet.
	Created  string `json:"created"`
	LastUsed string `json:"lastUsed,omitempty"`
}

// RememberedSites lists the sites that fill without asking, most recently
// used first, each with its profile's label and its concepts in words.
func (u *UI) RememberedSites() ([]SiteView, error) {
	rs, err := u.SiteRules()
	if err != nil {
		return nil, PlainError("read remembered sites", err)
	}
	labels := map[string]string{}
	if v, err := u.editVault(); err == nil {
		ps, err := v.ProfileSummaries()
		if err != nil {
			return nil, PlainError("read remembered sites", err)
		}
		for _, p := range ps {
			labels[p.ID] = p.Label
		}
	}
	return siteViews(rs, labels), nil
}

// siteViews puts rules in words: the most recently used (or created) first.
func siteViews(rs []vault.SiteRule, labels map[string]string) []SiteView {
	out := make([]SiteView, 0, len(rs))
	for _, r := range rs {
		s := SiteView{Origin: r.Origin, Site: r.Site, ProfileID: r.Profile, Profile: labels[r.Profile],
			Kinds: conceptLabelsOf(r.Concepts), Created: rfc3339(r.Created), LastUsed: rfc3339(r.LastUsed)}
		if s.Profile == "" {
			s.Profile = "a deleted profile"
		}
		if s.Site == "" {
			s.Site = r.Origin
		}
		out = append(out, s)
	}
	recent := func(r vault.SiteRule) time.Time {
		if r.LastUsed.After(r.Created) {
			return r.LastUsed
		}
		return r.Created
	}
	order := make([]int, len(rs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return recent(rs[j]).Compare(recent(rs[i])) })
	sorted := make([]SiteView, len(out))
	for k, i := range order {
		sorted[k] = out[i]
	}
	return sorted
}

// rfc3339 formats t as RFC 3339 in UTC, or "" for the zero time.
func rfc3339(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// Host registration states (BrowserView.Host).
const (
	HostRegistered = "registered" // the manifest points at this executable
	HostMissing    = "missing"    // no manifest
	HostElsewhere  = "elsewhere"  // a manifest points at another program
	HostBroken     = "unreadable" // a manifest Tessera cannot read
)

// BrowserView is one browser Tessera knows, on this computer.
type BrowserView struct {
	// Name is the name `tessera install --browser` takes; Label the
	// browser's own name.
	Name  string `json:"name"`
	Label string `json:"label"`
	// Found reports whether the browser appears installed (a profile
	// directory or a known executable exists).
	Found bool `json:"found"`
	// Host is HostRegistered, HostMissing, HostElsewhere or HostBroken.
	Host string `json:"host"`
	// Manifest is where the host manifest goes (or is).
	Manifest string `json:"manifest"`
	// Points is the program a manifest of another install names
	// (HostElsewhere).
	Points string `json:"points,omitempty"`
	// System reports whether the registration found is machine-wide.
	System bool `json:"system,omitempty"`
}

// BrowsersView is the browsers part of Settings.
type BrowsersView struct {
	Browsers []BrowserView `json:"browsers"`
	// Connected are the browsers connected now (not agents or the CLI).
	Connected []broker.Client `json:"connected"`
	// Executable is the program a registration points at: the
	// tessera-host beside this app, else this app (HostExecutable).
	Executable string `json:"executable"`
	// Problem says why the browsers could not be looked at, if they could
	// not (no home directory, an unsupported system).
	Problem string `json:"problem,omitempty"`
}

// browserLabels are the browsers' own names.
var browserLabels = map[string]string{
	"chrome": "Google Chrome", "chromium": "Chromium", "edge": "Microsoft Edge",
	"brave": "Brave", "vivaldi": "Vivaldi", "firefox": "Firefox",
}

// ErrNoHome is returned (wrapped) when the home directory is unknown, so
// no browser's registration can be found.
var ErrNoHome = errors.New("the home directory is not set (HOME)")

// installEnv is the environment `tessera install` registers in, read
// through getenv: the per-user locations in the home directory.
func installEnv(goos string, getenv func(string) string) (nativemsg.InstallEnv, error) {
	home := getenv("HOME")
	if home == "" && goos == "windows" {
		home = getenv("USERPROFILE")
	}
	if home == "" {
		return nativemsg.InstallEnv{}, ErrNoHome
	}
	return nativemsg.InstallEnv{GOOS: goos, Home: home, Getenv: getenv, Registry: nativemsg.SystemRegistry()}, nil
}

// Browsers lists the browsers Tessera knows, whether each is installed and
// whether this app's host is registered in it, and the browsers connected
// now.
func (u *UI) Browsers() (BrowsersView, error) {
	view := BrowsersView{Browsers: []BrowserView{}, Connected: []broker.Client{}}
	for _, c := range u.cfg.App.Status().Clients {
		if c.Kind == broker.KindBrowser {
			view.Connected = append(view.Connected, c)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return view, fmt.Errorf("browsers: this program's path: %w", err)
	}
	// The small tessera-host beside this app when there is one, as
	// `tessera install` registers it.
	exe = nativemsg.HostExecutable(exe)
	view.Executable = exe
	env, err := installEnv(runtime.GOOS, u.cfg.Getenv)
	if err != nil {
		view.Problem = "Tessera cannot look for browsers: " + err.Error() + "."
		return view, nil
	}
	view.Browsers = browserViews(env, exe)
	return view, nil
}

// browserViews reports every browser in nativemsg.Browsers in env: found
// or not, and its host registration for exe (per user, else machine-wide).
func browserViews(env nativemsg.InstallEnv, exe string) []BrowserView {
	found := nativemsg.Detected(env)
	out := make([]BrowserView, 0, len(nativemsg.Browsers))
	for _, b := range nativemsg.Browsers {
		bv := BrowserView{Name: b, Label: browserLabels[b], Found: slices.Contains(found, b), Host: HostMissing}
		if bv.Label == "" {
			bv.Label = b
		}
		t, err := nativemsg.Target(env, b)
		if err != nil {
			bv.Host = HostBroken
			out = append(out, bv)
			continue
		}
		bv.Manifest = t.ManifestPath
		bv.Host, bv.Points = hostState(t.ManifestPath, exe)
		if bv.Host == HostMissing && env.GOOS != "windows" {
			sys := env
			sys.System = true
			if st, err := nativemsg.Target(sys, b); err == nil {
				if h, p := hostState(st.ManifestPath, exe); h != HostMissing {
					bv.Host, bv.Points, bv.Manifest, bv.System = h, p, st.ManifestPath, true
				}
			}
		}
		out = append(out, bv)
	}
	return out
}

// hostState reads the manifest at path: whether it registers Tessera's
// host at exe, and which program it names when that is another.
func hostState(path, exe string) (state, points string) {
	b, err := os.ReadFile(filepath.FromSlash(path))
	if errors.Is(err, os.ErrNotExist) {
		return HostMissing, ""
	}
	var m nativemsg.Manifest
	if err != nil || json.Unmarshal(b, &m) != nil || m.Name != nativemsg.HostName {
		return HostBroken, ""
	}
	if samePath(m.Path, exe) {
		return HostRegistered, ""
	}
	return HostElsewhere, m.Path
}

// samePath reports whether a and b name the same file, through symlinks.
func samePath(a, b string) bool {
	if a == b {
		return true
	}
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}

// RegisterBrowser registers this app's host with the browser named name
// (one of nativemsg.Browsers), for this user: what `tessera install
// --browser NAME` does. It returns the browsers as they are now.
func (u *UI) RegisterBrowser(name string) (BrowsersView, error) {
	if !slices.Contains(nativemsg.Browsers, name) {
		return BrowsersView{}, fmt.Errorf("register: %w: %q", nativemsg.ErrUnknownBrowser, name)
	}
	env, err := installEnv(runtime.GOOS, u.cfg.Getenv)
	if err != nil {
		return BrowsersView{}, fmt.Errorf("register with %s: %w", browserLabels[name], err)
	}
	exe, err := os.Executable()
	if err != nil {
		return BrowsersView{}, fmt.Errorf("register with %s: this program's path: %w", browserLabels[name], err)
	}
	u.personActed()
	if _, err := nativemsg.Install(env, []string{name}, nativemsg.HostExecutable(exe)); err != nil {
		return BrowsersView{}, fmt.Errorf("register with %s: %w", browserLabels[name], err)
	}
	return u.Browsers()
}

// VaultSettings is the vault part of Settings.
type VaultSettings struct {
	// Dir is the directory holding the vault.
	Dir   string `json:"dir"`
	State string `json:"state"`
	// HasPassphrase and HasKeyring report what opens the vault.
	HasPassphrase bool `json:"hasPassphrase"`
	HasKeyring    bool `json:"hasKeyring"`
	// AutoLockMinutes is how long the vault stays unlocked while the person
	// does nothing with Tessera (0: never); SetAutoLock changes it to one
	// of AutoLockChoices.
	AutoLockMinutes int   `json:"autoLockMinutes"`
	AutoLockChoices []int `json:"autoLockChoices"`
	// LockOnSession reports whether the vault locks when the screen locks
	// or the computer sleeps: TESSERA_LOCK_ON_SESSION=off turns it off.
	LockOnSession bool `json:"lockOnSession"`
	// SessionWatched reports whether this system tells Tessera about screen
	// lock and suspend at all (Linux, over D-Bus).
	SessionWatched bool `json:"sessionWatched"`
}

// VaultSettings returns where the vault is, its state, what protects it and
// when it locks by itself.
func (u *UI) VaultSettings() (VaultSettings, error) {
	s := VaultSettings{
		Dir: u.cfg.Home, State: u.vaultState(),
		AutoLockMinutes: int(u.cfg.AutoLock.IdleLimit() / time.Minute),
		AutoLockChoices: AutoLockChoices,
		LockOnSession:   u.cfg.Getenv("TESSERA_LOCK_ON_SESSION") != "off",
		SessionWatched:  runtime.GOOS == "linux",
	}
	v, err := u.vault()
	if err != nil {
		return s, nil
	}
	info, err := v.Info()
	if err != nil {
		return s, PlainError("read vault", err)
	}
	if info.Dir != "" {
		s.Dir = info.Dir
	}
	s.State, s.HasPassphrase, s.HasKeyring = info.State, info.HasPassphrase, info.HasKeyring
	return s, nil
}

// SetAutoLock sets how many minutes the vault stays unlocked while the
// person does nothing with Tessera (0: never), one of AutoLockChoices,
// saves it for the next start and applies it now. It returns the vault
// settings as they are now.
func (u *UI) SetAutoLock(minutes int) (VaultSettings, error) {
	if !slices.Contains(AutoLockChoices, minutes) {
		return VaultSettings{}, fmt.Errorf("auto-lock: %w", ErrBadAutoLock)
	}
	u.personActed()
	if err := vaultctl.SaveAutoLock(u.cfg.Home, minutes); err != nil {
		return VaultSettings{}, err
	}
	u.cfg.AutoLock.SetIdleLimit(time.Duration(minutes) * time.Minute)
	u.changed()
	return u.VaultSettings()
}

// AutoLockChoices are the auto-lock times Settings offers, in minutes
// (0: never); ErrBadAutoLock is returned (wrapped) for another
// (package vaultctl).
var (
	AutoLockChoices = vaultctl.AutoLockChoices
	ErrBadAutoLock  = vaultctl.ErrBadAutoLock
)
