package broker

import (
	"encoding/json"
	"testing"

	"github.com/tessera-app/tessera/nativemsg"
)

// A browser answering a request the app never sent changes nothing.
func TestStrayResponsesAreDropped(t *testing.T) {
	var o outbound
	id := "a1"
	o.deliver(&nativemsg.Message{ID: &id, Result: json.RawMessage(`{}`)})
	got, ch, ok := o.start()
	if !ok || got != "a1" {
		t.Fatalf("start = %q %v", got, ok)
	}
	select {
	case <-ch:
		t.Fatal("an answer that came before the request was delivered")
	default:
	}
}
