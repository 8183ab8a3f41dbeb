package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/tessera-app/tessera/nativemsg"
)

func frames(t *testing.T, msgs ...string) *bytes.Buffer {
	t.Helper()
	var b bytes.Buffer
	for _, m := range msgs {
		if err := nativemsg.WriteFrame(&b, []byte(m)); err != nil {
			t.Fatal(err)
		}
	}
	return &b
}

func TestServe(t *testing.T) {
	tests := []struct {
		name string
		in   []string
		want []string // results, in order
	}{
		{"ping echoes params", []string{`{"jsonrpc":"2.0","id":"2","method":"session.ping","params":{"payload":[1,"a"]}}`}, []string{`{"payload":[1,"a"]}`}},
		{"no params gives null", []string{`{"jsonrpc":"2.0","id":"2","method":"x"}`}, []string{`null`}},
		{"hello opens a session", []string{`{"jsonrpc":"2.0","id":"1","method":"session.hello","params":{"protocol":[1]}}`}, []string{`{"app":{"name":"echohost","version":"0"},"protocol":1,"session":"echo","vault":{"state":"locked"}}`}},
		{"notifications and garbage are dropped", []string{`{"jsonrpc":"2.0","method":"n"}`, `not json`, `{"jsonrpc":"2.0","id":"3","method":"m","params":[7]}`}, []string{`[7]`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := serve(frames(t, tt.in...), &out); err != nil {
				t.Fatalf("serve() = %v", err)
			}
			var got []string
			for {
				f, err := nativemsg.ReadFrame(&out, nativemsg.MaxOutgoing)
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				var m struct{ Result json.RawMessage }
				if err := json.Unmarshal(f, &m); err != nil {
					t.Fatal(err)
				}
				got = append(got, string(m.Result))
			}
			if len(got) != len(tt.want) {
				t.Fatalf("serve() answered %q, want %q", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("answer %d = %q, want %q", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestServeEndsOnBadFrame(t *testing.T) {
	// A truncated frame must end the host with an error, not hang.
	in := bytes.NewReader([]byte{10, 0, 0, 0, '{'})
	if err := serve(in, io.Discard); !errors.Is(err, nativemsg.ErrTruncated) {
		t.Errorf("serve(truncated) = %v, want %v", err, nativemsg.ErrTruncated)
	}
}

// FuzzServe feeds serve arbitrary browser output: it must never panic, and
// whatever it writes must be well-formed frames the browser accepts.
func FuzzServe(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.bin"))
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var out bytes.Buffer
		serve(bytes.NewReader(in), &out)
		for {
			fr, err := nativemsg.ReadFrame(&out, nativemsg.MaxOutgoing)
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				t.Fatalf("serve wrote a bad frame: %v", err)
			}
			if !json.Valid(fr) {
				t.Fatalf("serve wrote invalid JSON %q", fr)
			}
		}
	})
}
