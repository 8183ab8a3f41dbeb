package devsync

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

// home is one device: its own vault, unlocked, and its Syncer once set up.
type home struct {
	v *vault.Vault
	s *Syncer
}

func newHome(t *testing.T, passphrase string) *home {
	t.Helper()
	v, err := vault.Create(t.TempDir(), vault.Options{ScryptWorkFactor: 10}, vault.InitOptions{Passphrase: []byte(passphrase)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	return &home{v: v}
}

// setUp sets sync up for h in folder as device name, with the group's
// recovery passphrase pass.
func (h *home) setUp(t *testing.T, folder, name, pass string) {
	t.Helper()
	s, err := Setup(context.Background(), h.v, folder, name, []byte(pass), testOpts)
	if err != nil {
		t.Fatal(err)
	}
	h.s = s
}

// testOpts keeps scrypt cheap and compacts often, so every Syncer test
// also goes through snapshots.
var testOpts = Options{WorkFactor: 10, CompactAfter: 4}

func entry(s string) profile.Entry {
	b, _ := json.Marshal(s)
	return profile.Entry{Value: b, Confidence: 1, Source: profile.Source{Type: "manual", Timestamp: "2026-11-27T12:00:00Z"}}
}

func (h *home) values(t *testing.T, pid string, key vault.Key) []string {
	t.Helper()
	var out []string
	e, err := h.v.Entry(pid, key)
	if errors.Is(err, vault.ErrNotFound) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	out = append(out, string(e.Value))
	cs, err := h.v.Candidates(pid, key)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		out = append(out, string(c.Value))
	}
	return out
}

func (h *home) sync(t *testing.T) {
	t.Helper()
	if _, err := h.s.SyncNow(context.Background()); err != nil {
		t.Fatalf("SyncNow: %v", err)
	}
}

func TestSyncerTwoVaults(t *testing.T) {
	ctx := context.Background()
	folder := t.TempDir()
	email := vault.ConceptKey("https://example.org/email")
	a, b := newHome(t, "passphrase of a"), newHome(t, "passphrase of b")
	a.v.CreateProfile("home", "Home")
	a.v.SetEntry("home", email, entry("ann@example.org"))
	b.v.CreateProfile("work", "Work")
	b.v.SetEntry("work", email, entry("ann@work.example"))

	var err error
	if _, err = Setup(ctx, b.v, folder, "desktop", []byte("passphrase of b"), testOpts); err != nil {
		t.Fatalf("Setup (first device): %v", err)
	}
	// The first device to set up was b: a joins with b's passphrase, its
	// own is refused.
	if _, err = Setup(ctx, a.v, folder, "laptop", []byte("passphrase of a"), testOpts); !errors.Is(err, ErrBadPassphrase) {
		t.Fatalf("Setup with the wrong passphrase = %v, want ErrBadPassphrase", err)
	}
	if a.s, err = Setup(ctx, a.v, folder, "laptop", []byte("passphrase of b"), testOpts); err != nil {
		t.Fatalf("Setup (join): %v", err)
	}
	if b.s, err = Open(b.v, testOpts); err != nil {
		t.Fatalf("Open: %v", err)
	}
	b.sync(t)
	a.sync(t)
	for _, h := range []*home{a, b} {
		if got := h.values(t, "home", email); !slices.Equal(got, []string{`"ann@example.org"`}) {
			t.Errorf("home email = %q", got)
		}
		if got := h.values(t, "work", email); !slices.Equal(got, []string{`"ann@work.example"`}) {
			t.Errorf("work email = %q", got)
		}
	}

	// Both change the same detail before syncing: both values stay on
	// both, one current, one candidate, and it shows as a conflict.
	a.v.SetEntry("home", email, entry("from-laptop"))
	b.v.SetEntry("home", email, entry("from-desktop"))
	a.sync(t)
	b.sync(t)
	a.sync(t)
	va, vb := a.values(t, "home", email), b.values(t, "home", email)
	if !slices.Equal(va, vb) || len(va) != 2 {
		t.Fatalf("after concurrent edits: laptop %q, desktop %q; want the same two values", va, vb)
	}
	if st := a.s.Status(); len(st.Conflicts) != 1 || st.Conflicts[0].Profile != "home" {
		t.Fatalf("Status().Conflicts = %+v, want the home email", st.Conflicts)
	}
	// The person settles it on the desktop by promoting the candidate.
	if err := b.v.PromoteCandidate("home", email, 0); err != nil {
		t.Fatal(err)
	}
	b.sync(t)
	a.sync(t)
	if va, vb := a.values(t, "home", email), b.values(t, "home", email); !slices.Equal(va, vb) || va[0] != vb[0] {
		t.Fatalf("after settling: laptop %q, desktop %q", va, vb)
	}
	if st := a.s.Status(); len(st.Conflicts) != 0 {
		t.Errorf("conflicts after settling = %+v", st.Conflicts)
	}

	// A deletes the work profile while B edits it: it comes back.
	a.v.DeleteProfile("work")
	b.v.SetEntry("work", vault.FieldKey("phone"), entry("+33 1"))
	a.sync(t)
	b.sync(t)
	a.sync(t)
	for _, h := range []*home{a, b} {
		if got := h.values(t, "work", vault.FieldKey("phone")); !slices.Equal(got, []string{`"+33 1"`}) {
			t.Errorf("phone of the profile deleted and edited = %q, want the edit", got)
		}
	}

	// Closed when the vault locks, it carries on from the vault after.
	a.s.Close()
	a.v.Lock()
	if _, err := a.s.SyncNow(ctx); !errors.Is(err, vault.ErrLocked) {
		t.Errorf("SyncNow on a locked vault = %v, want ErrLocked", err)
	}
	if err := a.v.UnlockPassphrase([]byte("passphrase of a")); err != nil {
		t.Fatal(err)
	}
	a.sync(t)

	// A re-key on one side does not stop sync.
	if err := a.v.ChangePassphrase([]byte("new passphrase of a")); err != nil {
		t.Fatal(err)
	}
	a.v.SetEntry("home", vault.FieldKey("city"), entry("Lyon"))
	a.sync(t)
	b.sync(t)
	if got := b.values(t, "home", vault.FieldKey("city")); !slices.Equal(got, []string{`"Lyon"`}) {
		t.Errorf("city after a re-key = %q", got)
	}

	// The audit log says what came from which device, with no value.
	rel, _ := b.v.Releases()
	var syncs int
	for _, r := range rel {
		if r.Event == vault.EventSync {
			syncs++
			if r.Client == "" || r.ProfileID == "" {
				t.Errorf("sync audit record %+v lacks device or profile", r)
			}
			b, _ := json.Marshal(r)
			if json.Valid(b) && (strings.Contains(string(b), "Lyon") || strings.Contains(string(b), "from-laptop")) {
				t.Errorf("audit record holds a value: %s", b)
			}
		}
	}
	if syncs == 0 {
		t.Error("no sync event in the audit log")
	}
	st := b.s.Status()
	if len(st.Devices) != 2 || st.LastError != "" {
		t.Errorf("Status() = %+v", st)
	}
	if err := b.s.Disable(); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(b.v, testOpts); !errors.Is(err, ErrNotEnabled) {
		t.Errorf("Open after Disable = %v, want ErrNotEnabled", err)
	}
}

// TestSyncerSiteRules: "remember for this site" made on one device fills
// without asking on the other; changed, moved to another profile and
// forgotten there, it follows; two devices choosing different profiles
// for one site at once end with the same, latest, choice.
func TestSyncerSiteRules(t *testing.T) {
	folder := t.TempDir()
	a, b := newHome(t, "passphrase of a"), newHome(t, "passphrase of a")
	for _, h := range []*home{a} {
		h.v.CreateProfile("home", "Home")
		h.v.CreateProfile("work", "Work")
	}
	const shop = "https://shop.example"
	email := "https://schema.org/email"
	if err := a.v.SetSiteRule(vault.SiteRule{Origin: shop, Profile: "home", Concepts: []string{email}}); err != nil {
		t.Fatal(err)
	}
	a.setUp(t, folder, "laptop", "passphrase of a")
	b.setUp(t, folder, "desktop", "passphrase of a")
	rule := func(h *home) string {
		t.Helper()
		r, ok, err := h.v.SiteRule(shop)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return "none"
		}
		return r.Profile + " " + strings.Join(r.Concepts, ",")
	}
	if got := rule(b); got != "home "+email {
		t.Fatalf("desktop's rule for the shop = %q, want the laptop's", got)
	}
	// Moved to the work profile on the desktop.
	if err := b.v.SetSiteRule(vault.SiteRule{Origin: shop, Profile: "work", Concepts: []string{email}}); err != nil {
		t.Fatal(err)
	}
	b.sync(t)
	a.sync(t)
	if got := rule(a); got != "work "+email {
		t.Fatalf("laptop after the move = %q, want work", got)
	}
	// Both choose at once; the later choice wins on both.
	a.v.SetSiteRule(vault.SiteRule{Origin: shop, Profile: "home", Concepts: []string{email}})
	b.v.SetSiteRule(vault.SiteRule{Origin: shop, Profile: "work", Concepts: []string{email, "https://schema.org/telephone"}})
	for _, h := range []*home{a, b, a, b} {
		h.sync(t)
	}
	if ra, rb := rule(a), rule(b); ra != rb {
		t.Fatalf("after choosing at once: laptop %q, desktop %q; want the same", ra, rb)
	}
	// Forgotten on the laptop: gone on the desktop.
	if err := a.v.DeleteSiteRule(shop); err != nil {
		t.Fatal(err)
	}
	a.sync(t)
	b.sync(t)
	if got := rule(b); got != "none" {
		t.Errorf("desktop after forgetting = %q, want none", got)
	}
	for _, h := range []*home{a, b} {
		if st := h.s.Status(); len(st.Conflicts) != 0 || len(st.Problems) != 0 {
			t.Errorf("status = conflicts %+v, problems %q", st.Conflicts, st.Problems)
		}
	}
}
