package cli

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tessera-app/tessera/nativemsg"
)

// fakeApp answers the first request on a pipe with frames, then closes.
func fakeApp(t *testing.T, frames ...[]byte) *appClient {
	t.Helper()
	client, server := net.Pipe()
	t.Cleanup(func() { client.Close() })
	go func() {
		defer server.Close()
		if _, err := nativemsg.ReadFrame(server, nativemsg.MaxIncoming); err != nil {
			return
		}
		for _, f := range frames {
			if nativemsg.WriteFrameLimit(server, f, nativemsg.MaxIncoming) != nil {
				return
			}
		}
	}()
	return newAppClient(client, "test", callTimeout, nil)
}

// chunkFrames splits msg into n session.chunk notifications for id.
func chunkFrames(id string, msg []byte, n int) [][]byte {
	var out [][]byte
	size := (len(msg) + n - 1) / n
	for i := 0; i < n; i++ {
		part := msg[i*size : min((i+1)*size, len(msg))]
		f, _ := nativemsg.Notification(nativemsg.ChunkMethod, map[string]any{"id": id, "index": i, "count": n, "data": base64.StdEncoding.EncodeToString(part)})
		out = append(out, f)
	}
	return out
}

func TestCallAnswers(t *testing.T) {
	note, _ := nativemsg.Notification("vault.stateChanged", map[string]string{"state": "locked"})
	other, _ := nativemsg.Response("c9", map[string]string{"label": "not mine"})
	mine, _ := nativemsg.Response("c1", map[string]string{"label": "Home"})
	refused := nativemsg.ErrorResponse(ptr("c1"), nativemsg.NewError(nativemsg.CodeForbidden, "no"))
	tests := []struct {
		name   string
		frames [][]byte
		want   string // the label, or the error code
	}{
		{"plain", [][]byte{mine}, "Home"},
		{"after a notification and another id", [][]byte{note, other, mine}, "Home"},
		{"in chunks", chunkFrames("c1", mine, 3), "Home"},
		{"chunks of another id first", append(chunkFrames("c7", other, 2), mine), "Home"},
		{"error", [][]byte{note, refused}, nativemsg.CodeForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := fakeApp(t, tt.frames...)
			var res struct {
				Label string `json:"label"`
			}
			err := c.call(context.Background(), "profile.show", struct{}{}, &res)
			var rpc *nativemsg.Error
			switch {
			case errors.As(err, &rpc):
				if rpc.Data.Code != tt.want {
					t.Errorf("call = %v, want %s", err, tt.want)
				}
			case err != nil:
				t.Errorf("call = %v, want %s", err, tt.want)
			case res.Label != tt.want:
				t.Errorf("call result label %q, want %q", res.Label, tt.want)
			}
		})
	}
}

func TestCallBrokenAnswers(t *testing.T) {
	mine, _ := nativemsg.Response("c1", map[string]string{"label": "Home"})
	chunks := chunkFrames("c1", mine, 3)
	for name, frames := range map[string][][]byte{
		"closed":                 nil,
		"not JSON":               {[]byte("{")},
		"chunk skipped":          {chunks[0], chunks[2]},
		"chunk not base64":       {[]byte(`{"jsonrpc":"2.0","method":"session.chunk","params":{"id":"c1","index":0,"count":1,"data":"!!"}}`)},
		"chunks cut short":       {chunks[0], chunks[1]},
		"result not JSON object": {[]byte(`{"jsonrpc":"2.0","id":"c1","result":[1]}`)},
	} {
		t.Run(name, func(t *testing.T) {
			var res struct {
				Label string `json:"label"`
			}
			if err := fakeApp(t, frames...).call(context.Background(), "profile.show", struct{}{}, &res); err == nil {
				t.Errorf("call with %q = nil error, result %+v", frames, res)
			}
		})
	}
}

// FuzzCallAnswer feeds the client any frame as the app's answer: it must
// return (an error or a result), never panic or wait for more.
func FuzzCallAnswer(f *testing.F) {
	mine, _ := nativemsg.Response("c1", map[string]string{"label": "Home"})
	f.Add(mine)
	for _, c := range chunkFrames("c1", mine, 2) {
		f.Add(c)
	}
	f.Add(nativemsg.ErrorResponse(nil, nativemsg.NewError(nativemsg.CodeTooLarge, "x")))
	f.Add([]byte(`{"jsonrpc":"2.0","method":"session.chunk","params":{"id":"c1","index":0,"count":1,"data":"e30="}}`))
	f.Fuzz(func(t *testing.T, frame []byte) {
		if len(frame) == 0 {
			return
		}
		var res json.RawMessage
		fakeApp(t, frame).call(context.Background(), "x", struct{}{}, &res)
	})
}

func ptr(s string) *string { return &s }

func TestWriteNewFileLeavesNothingOnFailure(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	boom := errors.New("boom")
	if err := writeNewFile(path, false, func(w io.Writer) error { w.Write([]byte("half")); return boom }); !errors.Is(err, boom) {
		t.Fatalf("writeNewFile with a failing writer = %v, want %v", err, boom)
	}
	if names, _ := os.ReadDir(dir); len(names) != 0 {
		t.Errorf("after a failed write the directory holds %v, want nothing", names)
	}
	if err := writeNewFile(path, false, func(w io.Writer) error { _, err := w.Write([]byte("whole")); return err }); err != nil {
		t.Fatal(err)
	}
	err := writeNewFile(path, false, func(w io.Writer) error { return nil })
	if !errors.Is(err, errFileExists) || !strings.Contains(err.Error(), "--force") {
		t.Errorf("writeNewFile over an existing file = %v, want errFileExists naming --force", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "whole" {
		t.Errorf("the refused write changed the file to %q", b)
	}
}
