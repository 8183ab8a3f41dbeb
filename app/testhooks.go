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
//	                                whatever TESSERA_TEST_DECISION says
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
	// pair and pairDelay answer pairing dialogs.
	pair      string
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
	p := &scripted{a: a, decisions: ds, pair: "approve"}
	switch pd := getenv("TESSERA_TEST_PAIR"); pd {
	case "approve", "deny", "timeout":
		p.pair = pd
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
	checked := 0
	for _, r := range c.Rows {
		if r.Checked {
			checked++
		}
	}
	ev := map[string]any{"event": name, "id": c.ID, "kind": c.Kind, "rows": len(c.Rows), "checked": checked, "site": c.Site, "t": time.Now().UnixNano()}
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
		decision, delay = p.pair, p.pairDelay
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
		p.a.confirms.decide(d)
	}()
}

// Withdraw notes a dialog that left unanswered.
func (p *scripted) Withdraw(id string) { p.event("withdrawn", Confirmation{ID: id}) }

// ShowUnlock notes a request for the unlock screen.
func (p *scripted) ShowUnlock() { p.event("unlock", Confirmation{}) }
