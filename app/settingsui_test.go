package app

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/tessera-app/tessera/app/ui"
	"github.com/tessera-app/tessera/nativemsg"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

// The sites that fill without asking are listed in words, most recently
// used first, and Forget revokes exactly the one forgotten.
func TestRememberedSites(t *testing.T) {
	u, v, home := editorUI(t)
	created := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	rules := []vault.SiteRule{
		{Origin: "https://shop.example", Site: "shop.example", Profile: home, Concepts: []string{profile.ConceptEmail, profile.ConceptTelephone}, Created: created},
		{Origin: "https://www.news.example", Site: "news.example", Profile: home, Concepts: []string{profile.ConceptGivenName}, Created: created, LastUsed: created.Add(time.Hour)},
	}
	for _, r := range rules {
		if err := v.SetSiteRule(r); err != nil {
			t.Fatal(err)
		}
	}
	got, err := u.RememberedSites()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("RememberedSites() = %+v, want 2 sites", got)
	}
	if got[0].Origin != "https://www.news.example" || got[0].LastUsed != "2026-03-01T10:00:00Z" {
		t.Errorf("first site = %+v, want the one used last, with its time", got[0])
	}
	shop := got[1]
	if shop.Site != "shop.example" || shop.Profile != "Home" || shop.ProfileID != home || shop.Created != "2026-03-01T09:00:00Z" || shop.LastUsed != "" {
		t.Errorf("shop = %+v", shop)
	}
	if !slices.Equal(shop.Kinds, []string{"Email", "Phone"}) {
		t.Errorf("shop.Kinds = %q, want the concepts' labels", shop.Kinds)
	}
	if err := u.ForgetSite("https://shop.example"); err != nil {
		t.Fatal(err)
	}
	left, err := v.SiteRules()
	if err != nil || len(left) != 1 || left[0].Origin != "https://www.news.example" {
		t.Fatalf("after ForgetSite the vault keeps %+v, %v; want news.example only", left, err)
	}
	if err := u.ForgetSite("https://shop.example"); !errors.Is(err, vault.ErrNotFound) {
		t.Errorf("ForgetSite twice = %v, want ErrNotFound", err)
	}

	// A rule whose profile was deleted says so, instead of an empty label.
	other, err := u.CreateProfile("Work")
	if err != nil {
		t.Fatal(err)
	}
	if err := v.SetSiteRule(vault.SiteRule{Origin: "https://work.example", Site: "work.example", Profile: other.ID, Concepts: []string{profile.ConceptEmail}, Created: created}); err != nil {
		t.Fatal(err)
	}
	got, _ = u.RememberedSites()
	i := slices.IndexFunc(got, func(s ui.SiteView) bool { return s.Site == "work.example" })
	if i < 0 || got[i].Profile != "Work" {
		t.Fatalf("RememberedSites() = %+v, want work.example from Work", got)
	}

	u.Lock()
	if _, err := u.RememberedSites(); !errors.Is(err, vault.ErrLocked) {
		t.Errorf("RememberedSites() on a locked vault = %v, want ErrLocked", err)
	}
}

func TestRememberedSitesNone(t *testing.T) {
	u, _, _ := editorUI(t)
	got, err := u.RememberedSites()
	if err != nil || got == nil || len(got) != 0 {
		t.Errorf("RememberedSites() = %#v, %v; want an empty list", got, err)
	}
}

// browsersUI returns a ui.UI whose app reads HOME as a fresh directory, with
// a Chromium profile directory in it (so Chromium is found) and nothing else.
func browsersUI(t *testing.T) (*ui.UI, string) {
	t.Helper()
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, ".config", "chromium"), 0o700); err != nil {
		t.Fatal(err)
	}
	a, err := New(Config{Version: "test", Getenv: getenvFrom(map[string]string{"HOME": home})})
	if err != nil {
		t.Fatal(err)
	}
	return newUI(a), home
}

func browserNamed(t *testing.T, bv ui.BrowsersView, name string) ui.BrowserView {
	t.Helper()
	for _, b := range bv.Browsers {
		if b.Name == name {
			return b
		}
	}
	t.Fatalf("no browser %q in %+v", name, bv.Browsers)
	return ui.BrowserView{}
}

// Register writes what `tessera install --browser NAME` writes, in the
// home the app reads, and the browser then shows as registered; a manifest
// of another install, or one that is not a manifest, is told apart.
func TestRegisterBrowser(t *testing.T) {
	if !slices.Contains([]string{"linux", "freebsd", "openbsd", "netbsd", "darwin"}, runtime.GOOS) {
		t.Skip("per-user manifests under HOME are a Unix layout")
	}
	u, home := browsersUI(t)
	bv, err := u.Browsers()
	if err != nil || bv.Problem != "" {
		t.Fatalf("Browsers() = %+v, %v", bv, err)
	}
	if len(bv.Browsers) != len(nativemsg.Browsers) {
		t.Errorf("Browsers() lists %d browsers, want every one Tessera knows (%d)", len(bv.Browsers), len(nativemsg.Browsers))
	}
	chromium := browserNamed(t, bv, "chromium")
	if runtime.GOOS == "linux" && !chromium.Found {
		t.Errorf("chromium = %+v, want found (its profile directory exists)", chromium)
	}
	if chromium.Host != ui.HostMissing || chromium.Label != "Chromium" {
		t.Errorf("chromium before Register = %+v, want not registered", chromium)
	}

	bv, err = u.RegisterBrowser("chromium")
	if err != nil {
		t.Fatal(err)
	}
	if c := browserNamed(t, bv, "chromium"); c.Host != ui.HostRegistered || c.System {
		t.Errorf("chromium after Register = %+v, want registered", c)
	}
	if f := browserNamed(t, bv, "firefox"); f.Host != ui.HostMissing {
		t.Errorf("firefox = %+v, want untouched", f)
	}
	// The same file the command line writes.
	want, _ := nativemsg.Target(nativemsg.InstallEnv{GOOS: runtime.GOOS, Home: home}, "chromium")
	b, err := os.ReadFile(want.ManifestPath)
	if err != nil {
		t.Fatalf("no manifest where tessera install puts it: %v", err)
	}
	var m nativemsg.Manifest
	exe, _ := os.Executable()
	if err := json.Unmarshal(b, &m); err != nil || m.Name != nativemsg.HostName || m.Path != exe {
		t.Errorf("manifest = %s, want the host at %s", b, exe)
	}

	// Another install's manifest is not this app's registration.
	other := m
	other.Path = "/opt/elsewhere/tessera"
	b, _ = json.Marshal(other)
	if err := os.WriteFile(want.ManifestPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	bv, _ = u.Browsers()
	if c := browserNamed(t, bv, "chromium"); c.Host != ui.HostElsewhere || c.Points != other.Path {
		t.Errorf("chromium with another install's manifest = %+v, want elsewhere, pointing at %s", c, other.Path)
	}
	if err := os.WriteFile(want.ManifestPath, []byte("not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	bv, _ = u.Browsers()
	if c := browserNamed(t, bv, "chromium"); c.Host != ui.HostBroken {
		t.Errorf("chromium with a broken manifest = %+v, want unreadable", c)
	}
	// Registering again repairs it.
	bv, err = u.RegisterBrowser("chromium")
	if c := browserNamed(t, bv, "chromium"); err != nil || c.Host != ui.HostRegistered {
		t.Errorf("Register over a broken manifest = %+v, %v", c, err)
	}

	if _, err := u.RegisterBrowser("netscape"); !errors.Is(err, nativemsg.ErrUnknownBrowser) {
		t.Errorf("RegisterBrowser(%q) = %v, want ErrUnknownBrowser", "netscape", err)
	}
}

// Without a home directory nothing can be looked for: the view says so,
// and Register refuses.
func TestBrowsersNoHome(t *testing.T) {
	a, err := New(Config{Version: "test", Getenv: getenvFrom(map[string]string{})})
	if err != nil {
		t.Fatal(err)
	}
	u := newUI(a)
	bv, err := u.Browsers()
	if err != nil || bv.Problem == "" || len(bv.Browsers) != 0 {
		t.Errorf("Browsers() without HOME = %+v, %v; want a problem and no browsers", bv, err)
	}
	if _, err := u.RegisterBrowser("chromium"); !errors.Is(err, ui.ErrNoHome) {
		t.Errorf("RegisterBrowser without HOME = %v, want ErrNoHome", err)
	}
}

// The connected browsers are those of Status, not agents.
func TestBrowsersConnected(t *testing.T) {
	home := t.TempDir()
	a, dial := serveBrowser(t, Config{Version: "test", Getenv: getenvFrom(map[string]string{"HOME": home})})
	u := a.ui
	if bv, err := u.Browsers(); err != nil || len(bv.Connected) != 0 {
		t.Fatalf("Connected before any browser = %+v, %v", bv.Connected, err)
	}
	c := dial()
	helloAnswer(t, c, KindBrowser)
	agent := dial()
	helloAnswer(t, agent, KindAgent) // through the host: not verified, and no browser
	bv, err := u.Browsers()
	if err != nil || len(bv.Connected) != 1 || bv.Connected[0].Name != "Chromium" || !bv.Connected[0].Verified {
		t.Errorf("Connected = %+v, %v; want the verified Chromium only", bv.Connected, err)
	}
}
