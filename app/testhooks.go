//go:build testhooks

package app

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"
)

// The testhooks build tag compiles a presenter that answers every dialog
// from TESSERA_TEST_DECISION, for the end-to-end tests that drive a real
// browser against a headless app. Release builds never contain it
// (testhooks_off.go): there, TESSERA_TEST_DECISION means nothing.
//
//	TESSERA_TEST_DECISION=approve   press Approve on the dialog exactly as
//	                                presented: the rows checked by default
//	TESSERA_TEST_DECISION=deny      press Deny
//	TESSERA_TEST_DECISION=timeout   answer nothing; the dialog times out
//	TESSERA_TEST_DECISION=nowindow  decline as a headless app does for want
//	                                of a window (pairing dialogs still
//	                                follow TESSERA_TEST_PAIR)
//	TESSERA_TEST_DECISION=approve,deny  one decision per dialog in turn, the
//	                                last one for every dialog after
//	TESSERA_TEST_CONFIRM_TIMEOUT=2s how long a dialog waits (Go duration)
//	TESSERA_TEST_PAIR=approve       how the pairing dialog is answered:
//	                                approve (the default), deny or timeout,
//	                                whatever TESSERA_TEST_DECISION says;
//	                                approve,deny: one per pairing dialog in
//	                                turn, the last one for every one after
//	TESSERA_TEST_PAIR_DELAY=3s      answer the pairing dialog only after
//	                                this long (Go duration)
//	TESSERA_TEST_DECISION_DELAY=3s  answer every other dialog only after
//	                                this long (Go duration)
//	TESSERA_TEST_EVENTS=FILE        one JSON line per event: presented,
//	                                decided, withdrawn, unlock (t: unix ns)

func confirmTimeout(getenv func(string) string) time.Duration {
	if getenv != nil {
		if d, err := time.ParseDuration(getenv("TESSERA_TEST_CONFIRM_TIMEOUT")); err == nil && d > 0 {
			return d
		}
	}
	return DefaultConfirmTimeout
}

type scripted struct {
	a *App
	// decisions are the answers still to give; the last one stays.
	decisions []string
	// pairs and pairDelay answer pairing dialogs; the last answer stays.
	pairs     []string
	pairDelay time.Duration
	// delay is how long every other dialog waits for its answer.
	delay  time.Duration
	mu     sync.Mutex
	events *os.File
}

func scriptedPresenter(a *App, getenv func(string) string) Presenter {
	ds := strings.Split(getenv("TESSERA_TEST_DECISION"), ",")
	for _, d := range ds {
		switch d {
		case "approve", "deny", "timeout", "nowindow":
		default:
			return nil
		}
	}
	p := &scripted{a: a, decisions: ds, pairs: []string{"approve"}}
	if pd := getenv("TESSERA_TEST_PAIR"); pd != "" {
		var pairs []string
		for _, d := range strings.Split(pd, ",") {
			switch d {
			case "approve", "deny", "timeout":
				pairs = append(pairs, d)
			}
		}
		if len(pairs) > 0 {
			p.pairs = pairs
		}
	}
	if dl, err := time.ParseDuration(getenv("TESSERA_TEST_PAIR_DELAY")); err == nil && dl > 0 {
		p.pairDelay = dl
	}
	if dl, err := time.ParseDuration(getenv("TESSERA_TEST_DECISION_DELAY")); err == nil && dl > 0 {
		p.delay = dl
	}
	if f := getenv("TESSERA_TEST_EVENTS"); f != "" {
		if fh, err := os.OpenFile(f, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600); err == nil {
			p.events = fh
		}
	}
	return p
}

func (p *scripted) event(name string, c Confirmation) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.events == nil {
		return
	}
	checked, attention := 0, 0
	for _, r := range c.Rows {
		if r.Checked {
			checked++
		}
		if r.Section == SectionAttention {
			attention++
		}
	}
	ev := map[string]any{"event": name, "id": c.ID, "kind": c.Kind, "rows": len(c.Rows), "checked": checked, "attention": attention, "site": c.Site, "t": time.Now().UnixNano()}
	if c.Notice != "" || c.PageInitiated {
		// What the dialog says of who asks and where the values go.
		ev["notice"], ev["pageInitiated"] = c.Notice, c.PageInitiated
	}
	if c.Pair != nil {
		ev["code"], ev["browser"] = c.Pair.Code, c.Pair.Browser
	}
	if c.Agent != nil && c.Agent.Frame != nil {
		// An agent's question about a child frame: the frame's origin.
		ev["frameOrigin"] = c.Agent.Frame.Origin
	}
	b, _ := json.Marshal(ev)
	fmt.Fprintf(p.events, "%s\n", b)
}

// Present answers c as TESSERA_TEST_DECISION says.
func (p *scripted) Present(c Confirmation) {
	p.event("presented", c)
	var decision string
	delay := time.Duration(0)
	if c.Kind == ConfirmPair {
		p.mu.Lock()
		decision, delay = p.pairs[0], p.pairDelay
		if len(p.pairs) > 1 {
			p.pairs = p.pairs[1:]
		}
		p.mu.Unlock()
	} else {
		delay = p.delay
		p.mu.Lock()
		decision = p.decisions[0]
		if len(p.decisions) > 1 {
			p.decisions = p.decisions[1:]
		}
		p.mu.Unlock()
	}
	var d Decision
	switch decision {
	case "approve":
		d = Decision{ID: c.ID, Approve: true}
		for _, r := range c.Rows {
			if r.Checked {
				d.Rows = append(d.Rows, r.ID)
			}
		}
	case "deny":
		d = Decision{ID: c.ID, Reason: DeclineDenied}
	case "nowindow":
		d = Decision{ID: c.ID, Reason: DeclineNoWindow}
	default:
		return
	}
	go func() {
		time.Sleep(delay)
		p.event("decided", c)
		p.a.confirms.Decide(d)
	}()
}

// Withdraw notes a dialog that left unanswered.
func (p *scripted) Withdraw(id string) { p.event("withdrawn", Confirmation{ID: id}) }

// ShowUnlock notes a request for the unlock screen.
func (p *scripted) ShowUnlock() { p.event("unlock", Confirmation{}) }
