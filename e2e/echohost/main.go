// Command echohost is a bare native-messaging host for the round-trip
// benchmark's floor: it answers every request with result = params (and
// session.hello with a fixed minimal hello result, so the extension opens a
// session), with no app behind it. It is registered under the same host
// name as tessera, in a separate browser profile.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/tessera-app/tessera/nativemsg"
)

// helloResult is what echohost answers to session.hello.
var helloResult = map[string]any{
	"protocol": nativemsg.ProtocolVersion,
	"app":      map[string]string{"name": "echohost", "version": "0"},
	"vault":    map[string]string{"state": "locked"},
	"session":  "echo",
}

func main() {
	if err := serve(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "echohost:", err)
		os.Exit(1)
	}
}

// serve answers the requests framed on in until in ends. Messages that are
// not requests (no id, or undecodable) are dropped: the floor measures the
// pipe, not error handling.
func serve(in io.Reader, out io.Writer) error {
	for {
		frame, err := nativemsg.ReadFrame(in, nativemsg.MaxIncoming)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if errors.Is(err, nativemsg.ErrEmpty) {
			continue
		}
		if err != nil {
			return fmt.Errorf("read: %w", err)
		}
		msg, id, err := nativemsg.Decode(frame)
		if err != nil || id == nil || !msg.IsRequest() {
			continue
		}
		var result any = json.RawMessage(msg.Params)
		if msg.Params == nil {
			result = nil
		}
		if msg.Method == "session.hello" {
			result = helloResult
		}
		resp, err := nativemsg.Response(*id, result)
		if err != nil {
			return err
		}
		if err := nativemsg.WriteFrame(out, resp); err != nil {
			return fmt.Errorf("write: %w", err)
		}
	}
}
