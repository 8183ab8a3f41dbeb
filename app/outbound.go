package app

import (
	"context"
	"encoding/json"
	"strconv"
	"sync"

	"github.com/tessera-app/tessera/nativemsg"
)

// The app asks a browser session for what only a live browser knows (its
// tabs, a tab's forms and WebMCP tools) and to act in a page, on behalf of
// an agent (PROTOCOL.md §4.3). Those requests travel on the browser's own
// connection, with ids of their own ("a1", "a2", …), and their answers
// come back as responses the broker hands to deliver.

// maxOutboundCalls bounds the app's requests waiting on one peer.
const maxOutboundCalls = 16

// outbound is the app's requests waiting for one peer's answers.
type outbound struct {
	mu     sync.Mutex
	next   uint64
	calls  map[string]chan *nativemsg.Message
	closed bool
}

// start registers a new request and returns its id and where its answer
// will arrive; ok is false when the peer is gone or too many are waiting.
func (o *outbound) start() (id string, ch chan *nativemsg.Message, ok bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed || len(o.calls) >= maxOutboundCalls {
		return "", nil, false
	}
	if o.calls == nil {
		o.calls = map[string]chan *nativemsg.Message{}
	}
	o.next++
	id = "a" + strconv.FormatUint(o.next, 10)
	ch = make(chan *nativemsg.Message, 1)
	o.calls[id] = ch
	return id, ch, true
}

// forget drops request id (answered, timed out or cancelled).
func (o *outbound) forget(id string) {
	o.mu.Lock()
	delete(o.calls, id)
	o.mu.Unlock()
}

// deliver hands a response to the request it answers; a response to
// nothing the app asked (or asked and gave up on) is dropped.
func (o *outbound) deliver(m *nativemsg.Message) {
	if m.ID == nil {
		return
	}
	o.mu.Lock()
	ch, ok := o.calls[*m.ID]
	delete(o.calls, *m.ID)
	o.mu.Unlock()
	if ok {
		ch <- m
	}
}

// close fails every waiting request: the peer is gone.
func (o *outbound) close() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.closed = true
	for id, ch := range o.calls {
		close(ch)
		delete(o.calls, id)
	}
}

// request sends method to the peer of s and decodes its answer into out.
// An error answer is returned as the peer sent it; a peer that goes away
// is NO_BROWSER, and ctx ending is TIMEOUT.
func (s *session) request(ctx context.Context, method string, params, out any) *nativemsg.Error {
	id, ch, ok := s.out.start()
	if !ok {
		return nativemsg.NewError(nativemsg.CodeBusy, "%s: the browser has too many requests waiting", method)
	}
	defer s.out.forget(id)
	p, err := json.Marshal(params)
	if err != nil {
		return nativemsg.NewError(nativemsg.CodeInternal, "%s: encode params", method)
	}
	msg, err := json.Marshal(nativemsg.Message{JSONRPC: "2.0", ID: &id, Method: method, Params: p})
	if err != nil || len(msg) > nativemsg.MaxOutgoing {
		// The browser's limit: the app never splits its own requests.
		return nativemsg.NewError(nativemsg.CodeTooLarge, "%s: request over the browser's 1 MiB limit", method)
	}
	s.send(msg)
	select {
	case m, open := <-ch:
		if !open {
			return nativemsg.NewError(nativemsg.CodeNoBrowser, "%s: the browser went away", method)
		}
		if m.Error != nil {
			// The extension's codes are passed on only when they are in the
			// published table (NewError maps the rest to INTERNAL).
			e := nativemsg.NewError(m.Error.Data.Code, "%s", truncate(m.Error.Message, 2000))
			return e
		}
		if out != nil {
			if err := json.Unmarshal(m.Result, out); err != nil {
				return nativemsg.NewError(nativemsg.CodeInvalidValue, "%s: the browser answered with an unknown shape: %v", method, err)
			}
		}
		return nil
	case <-ctx.Done():
		return nativemsg.NewError(nativemsg.CodeTimeout, "%s: no answer from the browser in time", method)
	}
}
