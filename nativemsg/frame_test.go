package nativemsg

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"strings"
	"testing"
)

func frame(body string) []byte {
	b := make([]byte, 4+len(body))
	binary.NativeEndian.PutUint32(b, uint32(len(body)))
	copy(b[4:], body)
	return b
}

func TestReadFrame(t *testing.T) {
	tests := []struct {
		name    string
		in      []byte
		max     int
		want    string
		wantErr error
	}{
		{"one frame", frame(`{"a":1}`), 100, `{"a":1}`, nil},
		{"clean end", nil, 100, "", io.EOF},
		{"header cut", []byte{3, 0}, 100, "", ErrTruncated},
		{"body cut", frame(`{"a":1}`)[:7], 100, "", ErrTruncated},
		{"over limit", frame(strings.Repeat("x", 101)), 100, "", ErrTooLarge},
		{"at limit", frame(strings.Repeat("x", 100)), 100, strings.Repeat("x", 100), nil},
		{"zero length", []byte{0, 0, 0, 0}, 100, "", ErrEmpty},
		// Regression: a 4 GiB length must be refused before any allocation.
		{"huge length", []byte{0xff, 0xff, 0xff, 0xff}, MaxIncoming, "", ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadFrame(bytes.NewReader(tt.in), tt.max)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("ReadFrame() error = %v, want %v", err, tt.wantErr)
			}
			if string(got) != tt.want {
				t.Fatalf("ReadFrame() = %q, want %q", got, tt.want)
			}
		})
	}
}

// SkipFrame resynchronises a stream after a refused frame: exactly the
// announced length is discarded, so the next frame reads whole.
func TestSkipFrame(t *testing.T) {
	next := frame(`{"n":2}`)
	tests := []struct {
		name    string
		in      []byte
		skipMax int
		want    string // the frame read after the skip
		wantErr error
	}{
		{"skipped", append(frame(strings.Repeat("x", 101)), next...), 1000, `{"n":2}`, nil},
		// A body made of frame headers: one byte off would read a frame.
		{"body of headers", append(frame(string(bytes.Repeat(next[:4], 40))), next...), 1000, `{"n":2}`, nil},
		{"over the skip limit", append(frame(strings.Repeat("x", 101)), next...), 101 - 1, "", ErrTooLarge},
		{"stream ends in the body", frame(strings.Repeat("x", 101))[:50], 1000, "", ErrTruncated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := bytes.NewReader(tt.in)
			_, err := ReadFrame(r, 100)
			var se *SizeError
			if !errors.As(err, &se) || se.Limit != 100 || !errors.Is(err, ErrTooLarge) {
				t.Fatalf("ReadFrame() error = %v, want a *SizeError over 100", err)
			}
			if err := SkipFrame(r, err, tt.skipMax); !errors.Is(err, tt.wantErr) {
				t.Fatalf("SkipFrame() = %v, want %v", err, tt.wantErr)
			}
			if tt.wantErr != nil {
				return
			}
			if got, err := ReadFrame(r, 100); string(got) != tt.want || err != nil {
				t.Fatalf("ReadFrame() after the skip = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	if err := SkipFrame(bytes.NewReader(nil), ErrEmpty, 1000); err == nil {
		t.Error("SkipFrame(ErrEmpty) = nil, want an error: only a refused frame can be skipped")
	}
}

func TestWriteFrame(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteFrame(&buf, []byte(`{"x":"y"}`)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), frame(`{"x":"y"}`)) {
		t.Fatalf("WriteFrame wrote %q, want %q", buf.Bytes(), frame(`{"x":"y"}`))
	}
	big := bytes.Repeat([]byte("x"), MaxOutgoing+1)
	if err := WriteFrame(&buf, big); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("WriteFrame(1 MiB) error = %v, want ErrTooLarge", err)
	}
	if err := WriteFrameLimit(io.Discard, big, MaxIncoming); err != nil {
		t.Fatalf("WriteFrameLimit(1 MiB, MaxIncoming) = %v", err)
	}
}

func FuzzReadFrame(f *testing.F) {
	f.Add(frame(`{"jsonrpc":"2.0","id":"1","method":"session.hello","params":{"protocol":[1]}}`))
	f.Add([]byte{0xff, 0xff, 0xff, 0x7f})
	f.Add([]byte{1, 0})
	f.Fuzz(func(t *testing.T, in []byte) {
		r := bytes.NewReader(in)
		for {
			b, err := ReadFrame(r, 1<<16)
			if err != nil {
				return
			}
			// Whatever was read must survive a write/read round trip.
			var buf bytes.Buffer
			if err := WriteFrameLimit(&buf, b, 1<<16); err != nil {
				t.Fatalf("WriteFrameLimit: %v", err)
			}
			again, err := ReadFrame(&buf, 1<<16)
			if err != nil || !bytes.Equal(again, b) {
				t.Fatalf("round trip = %q, %v; want %q", again, err, b)
			}
		}
	})
}
