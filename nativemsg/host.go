package nativemsg

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"
)

// ErrForbiddenOrigin is returned by RunHost when the caller's origin is not
// Tessera's extension.
var ErrForbiddenOrigin = errors.New("caller is not the tessera extension")

// HostConfig configures RunHost.
type HostConfig struct {
	// Origin is what the browser passed: "chrome-extension://<id>/" or a
	// Firefox add-on id.
	Origin string
	// Dir is the app channel directory (ChannelDir).
	Dir string
	// StartApp starts the app in the background when it is not running; nil
	// disables starting it.
	StartApp func() error
	// StartTimeout bounds the wait for a started app to listen (default 10 s).
	StartTimeout time.Duration
	// Log receives diagnostics (the browser shows stderr in its log; stdout
	// is the wire and never carries anything else).
	Log io.Writer
	// VerifyApp checks the process serving the channel before anything is
	// sent to it; nil means VerifyApp (it runs this same executable, or
	// the tessera beside tessera-host).
	VerifyApp func(net.Conn) error
	// Answered, when set, is called once, when the first frame from the app
	// arrives, before it is relayed. The app inspects a connection's
	// process before it reads anything from it, so by then it has verified
	// this one, and the host may hide itself from other processes (package
	// hostrun makes it non-dumpable, which would have kept the app from
	// reading its executable). An error ends the host.
	Answered func() error
}

// OriginAllowed reports whether origin is Tessera's own extension: the exact
// chrome-extension origin of ChromeExtensionID, or FirefoxAddonID.
func OriginAllowed(origin string) bool {
	return origin == "chrome-extension://"+ChromeExtensionID+"/" || origin == FirefoxAddonID
}

// AttachMethod is the notification a host sends the app first, naming the
// origin it verified.
const AttachMethod = "host.attach"

// AttachParams are the params of AttachMethod.
type AttachParams struct {
	Origin string `json:"origin"`
}

// RunHost runs the native-messaging host: it checks the caller's origin,
// connects to the app (starting it if needed), and relays frames between the
// browser (stdin/stdout) and the app until either side closes. While the app
// cannot be reached, every request is answered with APP_UNAVAILABLE and the
// connection is retried on the next one.
func RunHost(ctx context.Context, stdin io.Reader, stdout io.Writer, cfg HostConfig) error {
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	if cfg.StartTimeout == 0 {
		cfg.StartTimeout = 10 * time.Second
	}
	h := &host{cfg: cfg, out: stdout}
	if !OriginAllowed(cfg.Origin) {
		h.reply(nil, NewError(CodeForbidden, "origin %q is not allowed", cfg.Origin))
		return fmt.Errorf("%w: %q", ErrForbiddenOrigin, cfg.Origin)
	}
	conn, err := h.connect(ctx, true)
	if err != nil {
		fmt.Fprintf(cfg.Log, "tessera host: app unavailable: %v\n", err)
	}
	for conn == nil {
		frame, err := ReadFrame(stdin, MaxIncoming)
		if done, rerr := h.readError(stdin, err); done {
			return rerr
		} else if err != nil {
			continue
		}
		if conn, err = h.connect(ctx, false); err != nil {
			_, id, _ := Decode(frame)
			msg := "the Tessera app is not running"
			if errors.Is(err, ErrAppReplaced) {
				// An upgrade replaced the running app's file: say so, so
				// the person restarts it rather than wonders.
				msg = ErrAppReplaced.Error()
			}
			h.reply(id, NewError(CodeAppUnavailable, "%s", msg))
			continue
		}
		if err := WriteFrameLimit(conn, frame, MaxIncoming); err != nil {
			conn.Close()
			conn = nil
			_, id, _ := Decode(frame)
			h.reply(id, NewError(CodeAppUnavailable, "lost the Tessera app"))
		}
	}
	return h.relay(stdin, conn)
}

type host struct {
	cfg HostConfig
	mu  sync.Mutex // serialises writes to out
	out io.Writer
}

func (h *host) reply(id *string, e *Error) {
	h.write(ErrorResponse(id, e))
}

func (h *host) write(frame []byte) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return WriteFrame(h.out, frame)
}

// readError classifies a ReadFrame error from the browser on stdin,
// answering it and skipping a refused frame's body: done reports whether
// the host must stop (with the returned error, nil for a clean end).
func (h *host) readError(stdin io.Reader, err error) (done bool, _ error) {
	switch {
	case err == nil:
		return false, nil
	case errors.Is(err, io.EOF), errors.Is(err, ErrTruncated):
		return true, nil
	case errors.Is(err, ErrTooLarge):
		// Answer, then discard the body unread so the next frame is found
		// again: one oversized snapshot does not cost the extension its
		// port. A length no browser sends ends the host.
		h.reply(nil, NewError(CodeTooLarge, "message over %d bytes refused", MaxIncoming))
		if serr := SkipFrame(stdin, err, MaxSkip); serr != nil {
			if errors.Is(serr, ErrTruncated) {
				return true, nil
			}
			return true, serr
		}
		return false, err
	case errors.Is(err, ErrEmpty):
		h.reply(nil, NewError(CodeInvalidRequest, "empty message"))
		return false, err
	default:
		return true, err
	}
}

// connect dials the app; with start it starts the app when it is not
// running and waits (bounded) for it to listen.
func (h *host) connect(ctx context.Context, start bool) (net.Conn, error) {
	dctx, cancel := context.WithTimeout(ctx, time.Second)
	c, err := h.dial(dctx)
	cancel()
	if err == nil {
		return c, h.attach(c)
	}
	if errors.Is(err, ErrPeerRejected) || !start || h.cfg.StartApp == nil {
		return nil, err
	}
	if serr := h.cfg.StartApp(); serr != nil {
		return nil, fmt.Errorf("start app: %w", serr)
	}
	deadline := time.Now().Add(h.cfg.StartTimeout)
	for wait := 20 * time.Millisecond; ; wait = min(wait*2, 250*time.Millisecond) {
		dctx, cancel := context.WithTimeout(ctx, time.Second)
		c, err = h.dial(dctx)
		cancel()
		if err == nil {
			return c, h.attach(c)
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return nil, fmt.Errorf("app did not start within %v: %w", h.cfg.StartTimeout, err)
		}
		time.Sleep(wait)
	}
}

// dial connects to the app and checks that the process serving the channel
// runs this same executable before anything is sent to it.
func (h *host) dial(ctx context.Context) (net.Conn, error) {
	c, err := Dial(ctx, h.cfg.Dir)
	if err != nil {
		return nil, err
	}
	verify := h.cfg.VerifyApp
	if verify == nil {
		verify = VerifyApp
	}
	if err := verify(c); err != nil {
		c.Close()
		return nil, fmt.Errorf("%w: %w", ErrPeerRejected, err)
	}
	return c, nil
}

func (h *host) attach(c net.Conn) error {
	msg, err := Notification(AttachMethod, AttachParams{Origin: h.cfg.Origin})
	if err == nil {
		err = WriteFrameLimit(c, msg, MaxIncoming)
	}
	if err != nil {
		c.Close()
		return fmt.Errorf("attach: %w", err)
	}
	return nil
}

// relay copies frames both ways until one side ends. The app's frames are
// checked against the browser's 1 MiB limit; the browser's against
// MaxIncoming.
func (h *host) relay(stdin io.Reader, conn net.Conn) error {
	defer conn.Close()
	appDone := make(chan error, 1)
	go func() {
		answered := h.cfg.Answered
		for {
			frame, err := ReadFrame(conn, MaxIncoming)
			if err != nil {
				if errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) {
					err = nil
				}
				appDone <- err
				return
			}
			if answered != nil {
				if err := answered(); err != nil {
					appDone <- err
					return
				}
				answered = nil
			}
			if werr := h.write(frame); werr != nil {
				if errors.Is(werr, ErrTooLarge) {
					_, id, _ := Decode(frame)
					h.reply(id, NewError(CodeTooLarge, "response over the browser's 1 MiB limit"))
					continue
				}
				appDone <- werr
				return
			}
		}
	}()
	browserDone := make(chan error, 1)
	go func() {
		for {
			frame, err := ReadFrame(stdin, MaxIncoming)
			if done, rerr := h.readError(stdin, err); done {
				browserDone <- rerr
				return
			} else if err != nil {
				continue
			}
			if m, id, err := Decode(frame); err == nil && strings.HasPrefix(m.Method, "host.") {
				// Only the host itself speaks host.*: the extension cannot
				// replace the origin the host verified.
				if id != nil {
					h.reply(id, NewError(CodeForbidden, "%s is not available to the browser", m.Method))
				}
				continue
			}
			if err := WriteFrameLimit(conn, frame, MaxIncoming); err != nil {
				browserDone <- fmt.Errorf("write to app: %w", err)
				return
			}
		}
	}()
	select {
	case err := <-appDone:
		// The app went away: its session state is gone, so end the host;
		// the extension reconnects and says hello to the next app.
		return err
	case err := <-browserDone:
		return err
	}
}

// ParseCaller interprets the host's command line as browsers give it:
// Chromium-family browsers pass "chrome-extension://<id>/" (Windows adds
// --parent-window=N), Firefox passes the manifest path and the add-on id.
// It reports whether args look like a browser start at all.
func ParseCaller(args []string) (origin string, ok bool) {
	if len(args) == 0 {
		return "", false
	}
	if strings.HasPrefix(args[0], "chrome-extension://") {
		return args[0], true
	}
	if len(args) >= 2 && strings.HasSuffix(strings.ToLower(args[0]), ".json") && !strings.HasPrefix(args[1], "-") {
		return args[1], true
	}
	return "", false
}
