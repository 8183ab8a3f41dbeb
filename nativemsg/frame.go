// Package nativemsg owns the wire: browser native-messaging framing, the
// JSON-RPC 2.0 protocol messages and error codes, the local channel between
// the host process and the app (a per-user Unix socket or Windows named
// pipe), the host (proxy) process itself, and the host manifests that
// register it with browsers. See PROTOCOL.md.
package nativemsg

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"time"
)

const (
	// MaxOutgoing is the largest frame sent towards a browser: Chrome and
	// Firefox refuse host messages of 1 MiB or more.
	MaxOutgoing = 1<<20 - 1
	// MaxIncoming is the largest frame accepted from a browser or peer. A
	// serialized page snapshot of a large form is well under 8 MiB; anything
	// bigger is refused before it is read.
	MaxIncoming = 8 << 20
	// MaxSkip is the largest refused frame the host skips to keep the
	// stream going: Chrome never sends a message over 64 MiB, so a longer
	// length means the stream is not a browser's, and the host ends.
	MaxSkip = 64 << 20
)

var (
	// ErrTooLarge is returned for a frame over the size limit. The frame's
	// body has not been consumed; the error is a *SizeError, whose Size a
	// reader may discard to resynchronise the stream (SkipFrame).
	ErrTooLarge = errors.New("frame too large")
	// ErrTruncated is returned when the stream ends inside a frame.
	ErrTruncated = errors.New("truncated frame")
	// ErrEmpty is returned for a frame of length zero.
	ErrEmpty = errors.New("empty frame")
)

// A SizeError reports a frame over the size limit, before its body was
// read. errors.Is(err, ErrTooLarge) holds for it.
type SizeError struct {
	// Size is the length the frame announced; Limit the one it broke.
	Size  uint32
	Limit int
}

func (e *SizeError) Error() string {
	return fmt.Sprintf("%v: %d bytes, limit %d", ErrTooLarge, e.Size, e.Limit)
}

// Is reports whether target is ErrTooLarge.
func (e *SizeError) Is(target error) bool { return target == ErrTooLarge }

// SkipFrame discards the body of the refused frame that err (from ReadFrame)
// reports, so that r's next byte begins the next frame. It reads in small
// pieces and holds none of the body. It refuses a frame over max (nothing
// read, the stream cannot go on) and returns ErrTruncated when r ends first.
func SkipFrame(r io.Reader, err error, max int) error {
	var se *SizeError
	if !errors.As(err, &se) {
		return fmt.Errorf("skip frame: not a refused frame: %w", err)
	}
	if uint64(se.Size) > uint64(max) {
		return fmt.Errorf("skip frame: %w", se)
	}
	if _, err := io.CopyN(io.Discard, r, int64(se.Size)); err != nil {
		if errors.Is(err, io.EOF) {
			return ErrTruncated
		}
		return fmt.Errorf("skip frame: %w", err)
	}
	return nil
}

// ReadFrame reads one frame from r: a 32-bit length in the machine's native byte
// order (as browsers write it), then that many bytes. It
// returns io.EOF only when r ends cleanly between frames, ErrTruncated when it
// ends inside one, and a *SizeError (ErrTooLarge, with the announced size) when
// the length exceeds max, having read only the length.
func ReadFrame(r io.Reader, max int) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, ErrTruncated
		}
		return nil, err
	}
	n := binary.NativeEndian.Uint32(hdr[:])
	if n == 0 {
		return nil, ErrEmpty
	}
	if uint64(n) > uint64(max) {
		return nil, &SizeError{Size: n, Limit: max}
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(r, buf); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, ErrTruncated
		}
		return nil, err
	}
	return buf, nil
}

// WriteFrame writes msg as one frame to w with a single Write call, so that
// concurrent writers serialised by a mutex never interleave. It refuses
// (ErrTooLarge) a message over MaxOutgoing.
func WriteFrame(w io.Writer, msg []byte) error {
	return WriteFrameLimit(w, msg, MaxOutgoing)
}

// WriteFrameLimit is WriteFrame with another size limit, for the host-to-app
// hop, which carries browser frames up to MaxIncoming.
func WriteFrameLimit(w io.Writer, msg []byte, max int) error {
	if len(msg) > max {
		return fmt.Errorf("%w: %d bytes, limit %d", ErrTooLarge, len(msg), max)
	}
	if len(msg) == 0 {
		return ErrEmpty
	}
	buf := make([]byte, 4+len(msg))
	binary.NativeEndian.PutUint32(buf, uint32(len(msg)))
	copy(buf[4:], msg)
	_, err := w.Write(buf)
	return err
}

// ReadFrameConn reads one frame from c like ReadFrame, with deadlines: idle
// bounds the wait for a frame to begin (zero: no bound) and body the time a
// begun frame may take to arrive whole, so a peer that sends half a frame
// and stalls does not hold the connection's memory forever.
func ReadFrameConn(c net.Conn, max int, idle, body time.Duration) ([]byte, error) {
	var deadline time.Time
	if idle > 0 {
		deadline = time.Now().Add(idle)
	}
	c.SetReadDeadline(deadline)
	var hdr [4]byte
	if _, err := io.ReadFull(c, hdr[:1]); err != nil {
		return nil, err
	}
	c.SetReadDeadline(time.Now().Add(body))
	defer c.SetReadDeadline(time.Time{})
	return ReadFrame(io.MultiReader(bytes.NewReader(hdr[:1]), c), max)
}
