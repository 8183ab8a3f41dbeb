package agents

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/tessera-app/tessera/app/broker"
	"github.com/tessera-app/tessera/app/fill"
	"github.com/tessera-app/tessera/nativemsg"
)

// Agents and several browsers (PROTOCOL.md §4.3, "Browsers"). Every
// paired browser session is a browser an agent may act in: tessera.tabs.list
// lists the tabs of all of them, each tab naming its browser, and choosing
// a tab chooses its browser. Everything about that tab (measurements,
// fills, page tools) then goes to that browser only; a browser that
// reconnects (its extension restarted) is found again by its paired key.
// An agent that chose no tab works on the active tab of the browser that
// connected last, as before.

// maxBrowsers bounds how many browsers one tab listing asks.
const maxBrowsers = 8

// browsers returns the verified browser sessions that proved a paired
// key, the last connected first. A browser that never paired, or whose
// pairing the person declined, is never asked anything on an agent's
// behalf: it could answer with a page of its own making and receive the
// values the person approves for it.
func (a *Service) browsers() []*broker.Session {
	return a.cfg.Broker.Browsers()
}

// browserSession returns the browser an agent acts in when it chose no
// tab: the paired browser session that connected last.
func (a *Service) browserSession() *broker.Session {
	if bs := a.browsers(); len(bs) > 0 {
		return bs[0]
	}
	return nil
}

// browserLabel names browser b for agents: its verified family, else the
// name its extension gave, and its session id.
func browserLabel(b *broker.Session) string {
	name := firstNonEmpty(b.Client().Browser, fill.ClipRunes(b.Client().Name, 64), "browser")
	return fmt.Sprintf("%s (%s)", name, b.ID())
}

// inBrowser reports whether st's tab is in browser b.
func (st *agentState) inBrowser(b *broker.Session) bool {
	return st.browser == b.ID() || st.pair != "" && st.pair == b.PairID()
}

// agentBrowser returns the browser of the tab agent s chose: the same
// session, else a connected one with the same paired key (the extension
// reconnected); nil when it is gone.
func (a *Service) agentBrowser(s *broker.Session) *broker.Session {
	st := a.hub.state(s)
	a.hub.mu.Lock()
	want := *st
	a.hub.mu.Unlock()
	var again *broker.Session
	for _, b := range a.browsers() {
		if b.ID() == want.browser {
			return b
		}
		if again == nil && want.pair != "" && b.PairID() == want.pair {
			again = b
		}
	}
	return again
}

// tabs lists the tabs of every connected browser, the browser that
// connected last first. A browser that does not answer is left out; the
// error is returned only when none answered.
func (a *Service) tabs(ctx context.Context) ([]BrowserTab, *nativemsg.Error) {
	bs := a.browsers()
	if len(bs) == 0 {
		return nil, nativemsg.NewError(nativemsg.CodeNoBrowser, "no browser with Tessera's extension is connected")
	}
	if len(bs) > maxBrowsers {
		bs = bs[:maxBrowsers]
	}
	lists := make([][]BrowserTab, len(bs))
	errs := make([]*nativemsg.Error, len(bs))
	var wg sync.WaitGroup
	for i, b := range bs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lists[i], errs[i] = a.tabsOf(ctx, b)
		}()
	}
	wg.Wait()
	var out []BrowserTab
	var first *nativemsg.Error
	answered := false
	for i := range bs {
		if errs[i] != nil {
			first = cmp.Or(first, errs[i])
			continue
		}
		answered = true
		out = append(out, lists[i]...)
	}
	if !answered {
		return nil, first
	}
	if len(out) > maxTabs {
		out = out[:maxTabs]
	}
	return out, nil
}

// chooseTab finds the tab an agent asks for in tabs: by id (want, when
// asked), else the active one, in browser (when given). Two browsers can
// have tabs of the same id: then browser must be given.
func chooseTab(tabs []BrowserTab, want int, asked bool, browser string) (*BrowserTab, string) {
	var found []*BrowserTab
	for i := range tabs {
		t := &tabs[i]
		if browser != "" && t.Browser != browser {
			continue
		}
		if asked && t.Tab == want || !asked && t.Active {
			found = append(found, t)
		}
	}
	switch {
	case len(found) == 0:
		return nil, "no such tab: see tessera.tabs.list"
	case asked && len(found) > 1:
		var names []string
		for _, t := range found {
			names = append(names, fmt.Sprintf("%q (%s)", t.Browser, t.BrowserName))
		}
		return nil, fmt.Sprintf("tab %d is in %d browsers: say which with browser, one of %s", want, len(found), strings.Join(names, ", "))
	}
	// Without a tab id: the active tab of the browser that connected
	// last (tabs lists it first).
	return found[0], ""
}
