package broker

import (
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
