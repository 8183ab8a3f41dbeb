package app

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/tessera-app/tessera/app/ui"
	"github.com/tessera-app/tessera/profile"
	"github.com/tessera-app/tessera/vault"
)

// event is one event the window was sent.
type event struct {
	name string
	data any
}

// dialogShell is a shell that reports every event on a channel, so a test
// can wait for what the presenter sends without sleeping.
type dialogShell struct {
	events chan event
	mu     sync.Mutex
	shows  int
}

func newDialogShell() *dialogShell { return &dialogShell{events: make(chan event, 16)} }

func (s *dialogShell) Emit(name string, data any) {
	if name != ui.StatusEvent {
		s.events <- event{name, data}
	}
}
func (s *dialogShell) Show()                                 { s.mu.Lock(); s.shows++; s.mu.Unlock() }
func (s *dialogShell) ExecJS(string)                         {}
func (s *dialogShell) Quit()                                 {}
func (*dialogShell) OpenFile(string) (string, error)         { return "", nil }
func (*dialogShell) SaveFile(string, string) (string, error) { return "", nil }

func (s *dialogShell) showCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.shows
}

// next returns the next event, failing the test when none comes.
func (s *dialogShell) next(t *testing.T) event {
	t.Helper()
	select {
	case e := <-s.events:
		return e
	case <-time.After(10 * time.Second):
		t.Fatal("no event reached the window")
		return event{}
	}
}

func (s *dialogShell) none(t *testing.T) {
	t.Helper()
	select {
	case e := <-s.events:
		t.Fatalf("unexpected event %q %+v", e.name, e.data)
	default:
	}
}

// testConfirmation is a fill confirmation with a default-on row, a
// default-off row and an attention row.
func testConfirmation(rememberable bool) Confirmation {
	return Confirmation{
		Kind:   ConfirmFill,
		Site:   "shop.example",
		Origin: "https://shop.example",
		Frames: []FrameInfo{{ID: 0, Origin: "https://shop.example"}},
		Client: ClientInfo{Kind: KindBrowser, Name: "Chromium", Verified: true},
		Profiles: []ProfileSummary{
			{ID: "p1", Label: "Personal"},
			{ID: "p2", Label: "Work"},
		},
		Profile: "p1",
		Rows: []Row{
			{ID: "r1", Label: "Email", Value: "ada@example.org", Confidence: 0.98, Section: SectionFill, Checked: true},
			{ID: "r2", Label: "Company", Value: "Engines Ltd", Confidence: 0.4, Advisory: true, Section: SectionFill},
			{ID: "r3", Label: "Phone", Value: "+44 20 7946 0018", Confidence: 0.9, Section: SectionAttention, Reason: "transparent"},
		},
		ApproveDelayMs: 800,
		Rememberable:   rememberable,
	}
}

// asked is a confirmation put in the app's queue as a fill would.
type asked struct {
	decision chan Decision
	cancel   context.CancelFunc
}

// askQueued puts c in a's queue and returns once it is queued.
func askQueued(a *App, c Confirmation) asked {
	ctx, cancel := context.WithCancel(context.Background())
	r := asked{decision: make(chan Decision, 1), cancel: cancel}
	queued := make(chan struct{})
	go func() { r.decision <- a.confirms.Ask(ctx, c, time.Minute, func(string) { close(queued) }) }()
	<-queued
	return r
}

func (r asked) wait(t *testing.T) Decision {
	t.Helper()
	select {
	case d := <-r.decision:
		return d
	case <-time.After(10 * time.Second):
		t.Fatal("the confirmation was never answered")
		return Decision{}
	}
}

// startedUI is a ui.UI whose window has started on a dialogShell.
func startedUI(t *testing.T) (*App, *ui.UI, *dialogShell) {
	t.Helper()
	return startedUIWith(t, nil)
}

// startedUIWith is startedUI with the window's service configured by set.
func startedUIWith(t *testing.T, set func(*ui.Config)) (*App, *ui.UI, *dialogShell) {
	t.Helper()
	a, err := New(Config{Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	cfg := uiConfig(a)
	if set != nil {
		set(&cfg)
	}
	u := ui.New(cfg)
	sh := newDialogShell()
	ui.NewWindow(u).Start(sh)
	return a, u, sh
}

// presented waits for the confirm event and returns its confirmation.
func presented(t *testing.T, sh *dialogShell) Confirmation {
	t.Helper()
	e := sh.next(t)
	c, ok := e.data.(Confirmation)
	if e.name != ui.ConfirmEvent || !ok {
		t.Fatalf("window got %q %T, want %q with a Confirmation", e.name, e.data, ui.ConfirmEvent)
	}
	return c
}

func TestDialogPresentsAndDecides(t *testing.T) {
	tests := []struct {
		name         string
		rememberable bool
		sent         Decision // ID filled in from the presented confirmation
		want         Decision
	}{
		{
			name: "approve some rows",
			sent: Decision{Approve: true, Rows: []string{"r1", "r3"}},
			want: Decision{Approve: true, Rows: []string{"r1", "r3"}},
		},
		{
			// A page cannot add a row of its own through the dialog.
			name: "unknown and repeated rows dropped",
			sent: Decision{Approve: true, Rows: []string{"r2", "r9", "r2"}},
			want: Decision{Approve: true, Rows: []string{"r2"}},
		},
		{
			name:         "remember when offered",
			rememberable: true,
			sent:         Decision{Approve: true, Rows: []string{"r1"}, Remember: true},
			want:         Decision{Approve: true, Rows: []string{"r1"}, Remember: true},
		},
		{
			name: "remember dropped when not offered",
			sent: Decision{Approve: true, Rows: []string{"r1"}, Remember: true},
			want: Decision{Approve: true, Rows: []string{"r1"}},
		},
		{
			name:         "deny keeps nothing",
			rememberable: true,
			sent:         Decision{Rows: []string{"r1"}, Remember: true},
			want:         Decision{Reason: DeclineDenied},
		},
		{
			// Only Go's own timer may record a timeout.
			name: "the window only denies",
			sent: Decision{Reason: DeclineTimeout},
			want: Decision{Reason: DeclineDenied},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, u, sh := startedUI(t)
			r := askQueued(a, testConfirmation(tt.rememberable))
			defer r.cancel()
			c := presented(t, sh)
			if c.ID == "" || c.Site != "shop.example" || len(c.Rows) != 3 || c.Expires.IsZero() {
				t.Fatalf("presented %+v, want the queued confirmation with id and expiry", c)
			}
			if sh.showCount() != 1 {
				t.Errorf("window shown %d times on present, want 1", sh.showCount())
			}
			got, err := u.PendingConfirmation()
			if err != nil || got == nil || got.ID != c.ID {
				t.Fatalf("PendingConfirmation() = %+v, %v, want %s", got, err, c.ID)
			}
			tt.sent.ID = c.ID
			if err := u.Decide(tt.sent); err != nil {
				t.Fatalf("Decide(%+v) = %v", tt.sent, err)
			}
			d := r.wait(t)
			tt.want.ID = c.ID
			if d.ID != tt.want.ID || d.Approve != tt.want.Approve || !reflect.DeepEqual(d.Rows, tt.want.Rows) || d.Remember != tt.want.Remember || d.Reason != tt.want.Reason {
				t.Errorf("Decide(%+v) answered %+v, want %+v", tt.sent, d, tt.want)
			}
			if got, err := u.PendingConfirmation(); err != nil || got != nil {
				t.Errorf("PendingConfirmation() after the decision = %+v, %v, want nil", got, err)
			}
		})
	}
}

// The window answers only the confirmation it shows: not one further down
// the queue, not one already answered.
func TestDialogDecideOnlyShown(t *testing.T) {
	a, u, sh := startedUI(t)
	first := askQueued(a, testConfirmation(false))
	defer first.cancel()
	c1 := presented(t, sh)
	second := askQueued(a, testConfirmation(false))
	defer second.cancel()
	if _, ok := a.confirms.Current(); !ok {
		t.Fatal("queue empty")
	}
	sh.none(t)
	for _, id := range []string{"c2", "nope", ""} {
		if err := u.Decide(Decision{ID: id, Approve: true, Rows: []string{"r1"}}); !errors.Is(err, ErrNoConfirmation) {
			t.Errorf("Decide(%q) while %s is shown = %v, want ErrNoConfirmation", id, c1.ID, err)
		}
	}
	if err := u.Decide(Decision{ID: c1.ID}); err != nil {
		t.Fatalf("Decide(%s) = %v", c1.ID, err)
	}
	if d := first.wait(t); d.Approve || d.Reason != DeclineDenied {
		t.Errorf("first answered %+v, want a denial", d)
	}
	c2 := presented(t, sh)
	if c2.ID == c1.ID {
		t.Fatalf("the second confirmation was presented as %s, the first's id", c2.ID)
	}
	if err := u.Decide(Decision{ID: c1.ID, Approve: true, Rows: []string{"r1"}}); !errors.Is(err, ErrNoConfirmation) {
		t.Errorf("Decide(%s) a second time = %v, want ErrNoConfirmation", c1.ID, err)
	}
	if err := u.Decide(Decision{ID: c2.ID, Approve: true, Rows: []string{"r1"}}); err != nil {
		t.Fatalf("Decide(%s) = %v", c2.ID, err)
	}
	if d := second.wait(t); !d.Approve || !reflect.DeepEqual(d.Rows, []string{"r1"}) {
		t.Errorf("second answered %+v, want r1 approved", d)
	}
}

func TestDialogWithdraw(t *testing.T) {
	a, u, sh := startedUI(t)
	r := askQueued(a, testConfirmation(false))
	c := presented(t, sh)
	r.cancel()
	if d := r.wait(t); d.Approve || d.Reason != DeclineCancelled {
		t.Errorf("cancelled request answered %+v, want declined as cancelled", d)
	}
	e := sh.next(t)
	if e.name != ui.ConfirmWithdrawnEvent || e.data != c.ID {
		t.Errorf("window got %q %v, want %q %s", e.name, e.data, ui.ConfirmWithdrawnEvent, c.ID)
	}
	if err := u.Decide(Decision{ID: c.ID, Approve: true}); !errors.Is(err, ErrNoConfirmation) {
		t.Errorf("Decide on a withdrawn confirmation = %v, want ErrNoConfirmation", err)
	}
}

// A confirmation asked before the window started is presented when it
// starts; once it stops, nothing reaches the runtime and the app has no
// presenter left (a fill then declines with "no-window").
func TestDialogWindowLifecycle(t *testing.T) {
	a, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	u := newUI(a)
	if got, err := u.PendingConfirmation(); got != nil || err != nil {
		t.Fatalf("PendingConfirmation() with nothing queued = %+v, %v, want nil, nil", got, err)
	}
	// Nothing presents dialogs yet: a decline at once, nothing queued.
	if d := a.confirms.Ask(context.Background(), testConfirmation(false), time.Minute, nil); d.Approve || d.Reason != DeclineNoWindow {
		t.Fatalf("Ask without a window = %+v, want a no-window decline", d)
	}
	sh := newDialogShell()
	ui.NewWindow(u).Start(sh)
	r := askQueued(a, testConfirmation(false))
	defer r.cancel()
	c := presented(t, sh)
	if a.confirms.Presenter() == nil {
		t.Fatal("no presenter installed by start")
	}
	ui.NewWindow(u).Stop()
	if a.confirms.Presenter() != nil {
		t.Error("presenter still installed after stop")
	}
	r.cancel()
	if d := r.wait(t); d.ID != c.ID || d.Approve {
		t.Errorf("answered %+v, want %s declined", d, c.ID)
	}
	sh.none(t)
}

func TestDialogShowUnlock(t *testing.T) {
	a, _, sh := startedUI(t)
	if !a.showUnlock() {
		t.Fatal("showUnlock() = false with a window")
	}
	if e := sh.next(t); e.name != ui.ShowUnlockEvent {
		t.Errorf("window got %q, want %q", e.name, ui.ShowUnlockEvent)
	}
	if sh.showCount() != 1 {
		t.Errorf("window shown %d times, want 1", sh.showCount())
	}
}

// fakeRematch records profile switches and answers with a new profile.
type fakeRematch struct {
	a     *App
	calls []string
}

func (f *fakeRematch) Rematch(id, profile string) (Confirmation, error) {
	f.calls = append(f.calls, id+"/"+profile)
	return f.a.confirms.Replace(id, func(c *Confirmation) error {
		c.Profile = profile
		c.Rows = c.Rows[:1]
		return nil
	})
}

func TestDialogSwitchProfile(t *testing.T) {
	f := &fakeRematch{}
	a, u, sh := startedUIWith(t, func(c *ui.Config) { c.Rematch = f })
	f.a = a
	r := askQueued(a, testConfirmation(false))
	defer r.cancel()
	c := presented(t, sh)

	if _, err := u.SwitchProfile("c99", "p2"); !errors.Is(err, ErrNoConfirmation) {
		t.Errorf("SwitchProfile(c99) = %v, want ErrNoConfirmation", err)
	}
	if _, err := u.SwitchProfile(c.ID, "p7"); err == nil {
		t.Error("SwitchProfile to a profile not offered succeeded")
	}
	if got, err := u.SwitchProfile(c.ID, "p1"); err != nil || got.ID != c.ID || len(got.Rows) != 3 {
		t.Errorf("SwitchProfile to the current profile = %+v, %v, want it unchanged", got, err)
	}
	if len(f.calls) != 0 {
		t.Fatalf("rematch called for %q, want no call", f.calls)
	}
	got, err := u.SwitchProfile(c.ID, "p2")
	if err != nil || got.ID != c.ID || got.Profile != "p2" || len(got.Rows) != 1 || !got.Expires.Equal(c.Expires) {
		t.Fatalf("SwitchProfile(p2) = %+v, %v, want %s from p2 with one row and the same expiry", got, err, c.ID)
	}
	if !reflect.DeepEqual(f.calls, []string{c.ID + "/p2"}) {
		t.Errorf("rematch calls = %q, want one for %s/p2", f.calls, c.ID)
	}
	// The queue now holds the switched rows: a row only the old profile
	// offered cannot be approved.
	if err := u.Decide(Decision{ID: c.ID, Approve: true, Rows: []string{"r1", "r2"}}); err != nil {
		t.Fatal(err)
	}
	if d := r.wait(t); !reflect.DeepEqual(d.Rows, []string{"r1"}) {
		t.Errorf("approved rows %q, want [r1]", d.Rows)
	}
}

// The real rematch reaches the app: a confirmation no fill is waiting on
// cannot switch.
func TestDialogSwitchProfileReachesApp(t *testing.T) {
	a, u, sh := startedUI(t)
	r := askQueued(a, testConfirmation(false))
	defer r.cancel()
	c := presented(t, sh)
	if _, err := u.SwitchProfile(c.ID, "p2"); !errors.Is(err, ErrNoConfirmation) {
		t.Errorf("SwitchProfile without a pending fill = %v, want the app's ErrNoConfirmation", err)
	}
}

// rowByRef returns the id of c's row for control ref.
func rowByRef(t *testing.T, c Confirmation, ref string) Row {
	t.Helper()
	for _, r := range c.Rows {
		if r.Ref == ref && r.Frame == 0 {
			return r
		}
	}
	t.Fatalf("no row for %s in %+v", ref, c.Rows)
	return Row{}
}

// The window answers a real fill.request: the rows the person leaves
// ticked, and only those, come back to the browser, from the profile the
// picker switched to.
func TestDialogAnswersARealFill(t *testing.T) {
	w := newFillWorld(t, nil)
	work, err := w.v.CreateProfile("", "Work")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal("ada@engines.example")
	if err := w.v.SetEntry(work.ID, vault.ConceptKey(profile.ConceptEmail), profile.Entry{Value: b, Confidence: 1, Source: profile.Source{Type: "manual"}}); err != nil {
		t.Fatal(err)
	}
	u := newUI(w.a)
	sh := newDialogShell()
	ui.NewWindow(u).Start(sh)
	defer ui.NewWindow(u).Stop()

	c := w.dial()
	sayHello(t, c, "browser")
	send(t, c, pageJSON(t, "fill.request", "", frameJSON(0, "https://shop.example.co.uk", checkoutHTML, nil)))
	shown := presented(t, sh)
	if shown.Site != "example.co.uk" || len(shown.Profiles) != 2 || shown.Profile != w.pid {
		t.Fatalf("presented site %q, profiles %+v, profile %q; want example.co.uk from the first of two profiles", shown.Site, shown.Profiles, shown.Profile)
	}
	if r := rowByRef(t, shown, "t3"); r.Value != "ada@example.org" || !r.Checked {
		t.Fatalf("email row %+v, want ada@example.org ticked", r)
	}

	switched, err := u.SwitchProfile(shown.ID, work.ID)
	if err != nil {
		t.Fatalf("SwitchProfile(%s) = %v", work.ID, err)
	}
	email := rowByRef(t, switched, "t3")
	if switched.ID != shown.ID || switched.Profile != work.ID || email.Value != "ada@engines.example" {
		t.Fatalf("after the switch: id %s, profile %s, email row %+v; want %s, %s, ada@engines.example", switched.ID, switched.Profile, email, shown.ID, work.ID)
	}
	if err := u.Decide(Decision{ID: shown.ID, Approve: true, Rows: []string{email.ID}}); err != nil {
		t.Fatal(err)
	}
	got := fieldsOf(t, recv(t, c))
	if len(got) != 1 || got["t3"] != "ada@engines.example" {
		t.Errorf("filled %v, want only t3 = ada@engines.example", got)
	}
}
