package confirm

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"
)

// The confirmation queue. Every release of profile values (a fill, the
// continuation of a fill, a learn, a reveal to the command line) waits here
// for the person's decision in the app's own window. The broker puts a
// Confirmation in the queue and blocks; whatever presents it (the Wails
// dialog, or under the testhooks build tag the scripted decision of
// TESSERA_TEST_DECISION) answers with Decide. Nothing else can answer: a
// decision names the Confirmation by an id the app chose, and a timeout or a
// cancelled request is a decline.

// Confirmation kinds.
const (
	ConfirmFill     = "fill"     // values to fill into a page
	ConfirmContinue = "continue" // more fields the page showed during a fill
	ConfirmLearn    = "learn"    // values a page submitted, to save
	ConfirmReveal   = "reveal"   // profiles the command line asks to show or export
)

// Row sections: what the dialog offers by default, and what it shows apart,
// unchecked, with the reason it needs the person's attention.
const (
	SectionFill      = "fill"
	SectionAttention = "attention"
)

// A Confirmation is one dialog: what would be released to (or learnt from)
// which site, row by row. It is what the window shows, so it carries the
// values themselves; it never leaves the app.
type Confirmation struct {
	ID   string `json:"id"`
	Kind string `json:"kind"`
	// Site is the registrable domain of the top-level page ("example.co.uk"),
	// what the dialog shows large; Origin is its full origin.
	Site   string `json:"site"`
	Origin string `json:"origin"`
	URL    string `json:"url"`
	Title  string `json:"title,omitempty"`
	// Frames lists the frames rows come from, the top one first.
	Frames []FrameInfo `json:"frames"`
	// Client names the browser (or agent) that asks, and whether the app
	// verified it or only has its word; Recipient, for a dialog that
	// releases values, the paired browser that will receive them. The gate
	// (gate.go) sets both for every release.
	Client    ClientInfo  `json:"client"`
	Recipient *ClientInfo `json:"recipient,omitempty"`
	// Profiles lists the profiles to choose from; Profile is the one the
	// rows were matched from.
	Profiles []ProfileSummary `json:"profiles"`
	Profile  string           `json:"profile"`
	Rows     []Row            `json:"rows"`
	// Created and Expires bound the dialog: at Expires it declines itself.
	Created time.Time `json:"created"`
	Expires time.Time `json:"expires"`
	// ApproveDelayMs is how long Approve stays disabled after the dialog
	// appears, so a click or key press meant for something else cannot
	// approve it.
	ApproveDelayMs int `json:"approveDelayMs"`
	// Rememberable reports whether "remember for this site" may be offered
	// (never for a cross-origin frame or an attention row).
	Rememberable bool `json:"rememberable"`
	// Pair is, for a pairing dialog (ConfirmPair), the code and the
	// browser to confirm; such a dialog has no rows.
	Pair *PairInfo `json:"pair,omitempty"`
	// Agent says what an agent asks (kinds agent-access and agent-call).
	Agent *AgentAsk `json:"agent,omitempty"`
	// PageInitiated reports whether the page's script asked (a Formspec
	// provider's apply or learn), not a gesture of the person: the dialog
	// never says "you submitted" then.
	PageInitiated bool `json:"pageInitiated,omitempty"`
	// Notice is one sentence the dialog shows above the rows: where the
	// values go when that is not the usual way (the page's own provider).
	Notice string `json:"notice,omitempty"`
	// Submitted reports, for a learn dialog, that the person submitted the
	// form (the extension saw their own click or Enter on it); without it
	// the dialog claims no submit (learn.go).
	Submitted bool `json:"submitted,omitempty"`
}

// FrameInfo is one frame of a page as the dialog names it.
type FrameInfo struct {
	ID          int    `json:"id"`
	Origin      string `json:"origin"`
	CrossOrigin bool   `json:"crossOrigin"`
}

// ClientInfo describes who asks for a confirmation.
type ClientInfo struct {
	Kind     string `json:"kind"` // "browser", "agent", "cli"
	Name     string `json:"name"`
	Origin   string `json:"origin,omitempty"`
	Verified bool   `json:"verified"`
	// Session is the app's id of the connection; Paired the fingerprint of
	// the paired key a browser proved.
	Session string `json:"session,omitempty"`
	Paired  string `json:"paired,omitempty"`
}

// A Row is one field of a Confirmation: the label as the page shows it, the
// value that would go there, and why Tessera thinks so.
type Row struct {
	ID    string `json:"id"`
	Frame int    `json:"frame"`
	Ref   string `json:"ref"`
	// Label is the field's label as the page shows it.
	Label string `json:"label"`
	// Value is what would be filled (for a select, the option's text).
	Value string `json:"value"`
	// Sensitive reports whether the dialog masks the value until revealed.
	Sensitive bool `json:"sensitive"`
	// Concept is the concept IRI, ConceptLabel its name for people.
	Concept      string  `json:"concept"`
	ConceptLabel string  `json:"conceptLabel"`
	Confidence   float64 `json:"confidence"`
	// Advisory reports a heuristic match (no declaration on the page).
	Advisory bool `json:"advisory"`
	// Evidence says why, one line each: the label text, the autocomplete
	// token, the ontology binding, the rule that fired.
	Evidence []string `json:"evidence"`
	// Section is SectionFill or SectionAttention; Reason says why a row
	// needs attention ("hidden: transparent", "cross-origin frame", ...).
	Section string `json:"section"`
	Reason  string `json:"reason,omitempty"`
	// Checked is the row's default: on for confident rows of the fill
	// section, off for low confidence and every attention row.
	Checked bool `json:"checked"`
	// Previous is, for a learn row, the value the profile holds now.
	Previous string `json:"previous,omitempty"`
}

// A Decision answers a Confirmation.
type Decision struct {
	ID      string `json:"id"`
	Approve bool   `json:"approve"`
	// Rows lists the ids of the rows approved (ignored on decline).
	Rows []string `json:"rows"`
	// Remember asks to approve this site's fills without asking again.
	Remember bool `json:"remember"`
	// Reason is why a decline happened: "denied", "timeout", "cancelled",
	// "no-window", "refused".
	Reason string `json:"reason,omitempty"`
	// offered are the rows of the confirmation as the person decided it (a
	// profile switch in the dialog replaces them), set by Decide.
	offered []Row
}

// Decline reasons.
const (
	DeclineDenied    = "denied"
	DeclineTimeout   = "timeout"
	DeclineCancelled = "cancelled"
	DeclineNoWindow  = "no-window"
	// DeclineRefused: the gate refused the requester or the recipient
	// before anything was shown.
	DeclineRefused = "refused"
)

// DefaultConfirmTimeout is how long a dialog waits before it declines.
const DefaultConfirmTimeout = 2 * time.Minute

// DefaultApproveDelay keeps Approve disabled this long after the dialog shows.
const DefaultApproveDelay = 800 * time.Millisecond

// ErrNoConfirmation is returned by Decide for an id that is not waiting.
var ErrNoConfirmation = errors.New("no such confirmation is waiting (it was answered, timed out or withdrawn)")

// A Presenter shows confirmations to the person: the window, or a test
// hook. Present is called when c enters the queue's head; Withdraw when it
// leaves without the presenter's decision (timeout, cancel).
//
// The window that presents dialogs also brings its unlock screen forward
// (ShowUnlock) when a browser meets a locked vault.
type Presenter interface {
	Present(c Confirmation)
	Withdraw(id string)
	ShowUnlock()
}

// A Queue holds the confirmations waiting for a decision, one shown at a
// time in arrival order.
type Queue struct {
	mu      sync.Mutex
	next    uint64
	waiting []*pending
	pres    Presenter
	now     func() time.Time
	// acted is told of every decision: a person's action.
	acted func()
}

// NewQueue returns an empty queue reading the time from now (nil:
// time.Now) that tells acted (when not nil) of every decision.
func NewQueue(now func() time.Time, acted func()) *Queue {
	if now == nil {
		now = time.Now
	}
	return &Queue{now: now, acted: acted}
}

type pending struct {
	c     Confirmation
	done  chan Decision
	shown bool
}

// SetPresenter installs p (nil: none) and presents the head, if any.
func (q *Queue) SetPresenter(p Presenter) {
	q.mu.Lock()
	q.pres = p
	for _, w := range q.waiting {
		w.shown = false
	}
	q.mu.Unlock()
	q.showHead()
}

// Presenter returns what shows confirmations now (nil: nothing).
func (q *Queue) Presenter() Presenter {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.pres
}

// Ask queues c and waits for its decision (at once DeclineNoWindow when
// nothing presents dialogs), a timeout at c.Expires, or ctx.
// It fills in c.ID, c.Created and c.Expires, and calls queued (when not nil)
// with the id before the confirmation can be shown.
func (q *Queue) Ask(ctx context.Context, c Confirmation, timeout time.Duration, queued func(id string)) Decision {
	q.mu.Lock()
	if q.pres == nil {
		// Nothing shows dialogs (a headless app, or the window has not
		// started): a decline, the one meaning of "no window".
		q.mu.Unlock()
		return Decision{Reason: DeclineNoWindow}
	}
	q.next++
	c.ID = "c" + strconv.FormatUint(q.next, 10)
	c.Created = q.now()
	c.Expires = c.Created.Add(timeout)
	p := &pending{c: c, done: make(chan Decision, 1)}
	q.waiting = append(q.waiting, p)
	q.mu.Unlock()
	if queued != nil {
		queued(c.ID)
	}
	q.showHead()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case d := <-p.done:
		return d
	case <-t.C:
		return q.withdraw(p, DeclineTimeout)
	case <-ctx.Done():
		return q.withdraw(p, DeclineCancelled)
	}
}

// withdraw takes p out of the queue with a decline, unless a decision
// arrived meanwhile.
func (q *Queue) withdraw(p *pending, reason string) Decision {
	q.mu.Lock()
	removed := q.remove(p)
	pres := q.pres
	q.mu.Unlock()
	if !removed {
		return <-p.done
	}
	if pres != nil && p.shown {
		pres.Withdraw(p.c.ID)
	}
	q.showHead()
	return Decision{ID: p.c.ID, Reason: reason}
}

func (q *Queue) remove(p *pending) bool {
	for i, w := range q.waiting {
		if w == p {
			q.waiting = append(q.waiting[:i], q.waiting[i+1:]...)
			return true
		}
	}
	return false
}

// showHead presents the head of the queue if it has not been yet.
func (q *Queue) showHead() {
	q.mu.Lock()
	if len(q.waiting) == 0 || q.pres == nil || q.waiting[0].shown {
		q.mu.Unlock()
		return
	}
	h := q.waiting[0]
	h.shown = true
	pres, c := q.pres, h.c
	q.mu.Unlock()
	pres.Present(c)
}

// Current returns the confirmation shown now, if any.
func (q *Queue) Current() (Confirmation, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.waiting) == 0 {
		return Confirmation{}, false
	}
	return q.waiting[0].c, true
}

// Replace swaps the rows (and profile) of waiting confirmation id, as a
// profile switch in the dialog does, and returns the new confirmation.
func (q *Queue) Replace(id string, f func(*Confirmation) error) (Confirmation, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, w := range q.waiting {
		if w.c.ID == id {
			c := w.c
			if err := f(&c); err != nil {
				return Confirmation{}, err
			}
			w.c = c
			return c, nil
		}
	}
	return Confirmation{}, ErrNoConfirmation
}

// Decide answers confirmation d.ID. Only a row the confirmation offered can
// be approved; unknown row ids are dropped.
func (q *Queue) Decide(d Decision) error {
	q.mu.Lock()
	var p *pending
	for _, w := range q.waiting {
		if w.c.ID == d.ID {
			p = w
			break
		}
	}
	if p == nil {
		q.mu.Unlock()
		return ErrNoConfirmation
	}
	q.remove(p)
	acted := q.acted
	q.mu.Unlock()
	if acted != nil {
		acted()
	}
	if d.Approve {
		known := map[string]bool{}
		for _, r := range p.c.Rows {
			known[r.ID] = true
		}
		rows := d.Rows[:0:0]
		for _, id := range d.Rows {
			if known[id] {
				rows = append(rows, id)
				known[id] = false
			}
		}
		d.Rows = rows
		d.offered = p.c.Rows
	} else {
		d.Rows = nil
		if d.Reason == "" {
			d.Reason = DeclineDenied
		}
	}
	p.done <- d
	q.showHead()
	return nil
}
