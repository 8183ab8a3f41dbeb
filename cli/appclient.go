package cli

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/tessera-app/tessera/nativemsg"
	"github.com/tessera-app/tessera/vault"
)

// While the desktop app runs it holds the vault, so the vault and profile
// commands act through it: they connect to its channel directly and say
// hello as a "cli" client (PROTOCOL.md §4.2). When no app answers they
// open the vault file themselves.

// errNoApp is wrapped by dialApp's error when no app serves the channel;
// the command then opens the vault itself.
var errNoApp = errors.New("the Tessera app is not running")

// Time limits on the channel. A call may run scrypt (about a second) or
// wait for the OS keyring (vault.KeyringTimeout, 20 s).
const (
	dialTimeout = 2 * time.Second
	callTimeout = 2 * time.Minute
)

// appClient is one cli session with the running app.
type appClient struct {
	conn net.Conn
	// dir is the channel directory, for messages.
	dir string
	// state is the vault state the app reported in session.hello.
	state string
	next  int
}

// dialApp connects to the running app and says hello. Its error wraps
// errNoApp when nothing answers on the channel.
func dialApp(ctx context.Context, env *Env) (*appClient, error) {
	dir, err := nativemsg.ChannelDir(env.Getenv)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errNoApp, err)
	}
	dctx, cancel := context.WithTimeout(ctx, dialTimeout)
	defer cancel()
	conn, err := nativemsg.Dial(dctx, dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errNoApp, err)
	}
	// Passphrases may follow: nothing goes to a process that is not this
	// Tessera (PROTOCOL.md §2.1).
	if err := nativemsg.VerifyApp(conn); err != nil {
		conn.Close()
		return nil, fmt.Errorf("refusing to talk to the process serving %s: %w", dir, err)
	}
	c := &appClient{conn: conn, dir: dir}
	hello := map[string]any{
		"protocol": []int{nativemsg.ProtocolVersion},
		"client":   map[string]string{"kind": "cli", "name": "tessera", "version": Version},
	}
	var res struct {
		Vault struct {
			State string `json:"state"`
		} `json:"vault"`
		Verified bool   `json:"verified"`
		Why      string `json:"why"`
	}
	if err := c.call(ctx, "session.hello", hello, &res); err != nil {
		conn.Close()
		return nil, fmt.Errorf("the Tessera app on %s: %w", dir, err)
	}
	if !res.Verified {
		// The app serves the CLI only as its own executable: another
		// build or copy of tessera is a stranger to it.
		conn.Close()
		return nil, fmt.Errorf("the Tessera app on %s does not serve this command: %s", dir, res.Why)
	}
	c.state = res.Vault.State
	return c, nil
}

// Close ends the session.
func (c *appClient) Close() error { return c.conn.Close() }

// call sends one request and decodes its result into out (nil: discard).
// An error answer is returned as the *nativemsg.Error the app sent.
// Notifications on the way are skipped; a result split into session.chunk
// pieces is put back together.
func (c *appClient) call(ctx context.Context, method string, params, out any) error {
	c.next++
	id := "c" + strconv.Itoa(c.next)
	p, err := json.Marshal(params)
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	msg, err := json.Marshal(nativemsg.Message{JSONRPC: "2.0", ID: &id, Method: method, Params: p})
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	if len(msg) > nativemsg.MaxIncoming {
		// The app would refuse it unread and close the channel.
		return fmt.Errorf("%s: %d bytes is over the app channel's limit of %d: %w", method, len(msg), nativemsg.MaxIncoming, vault.ErrTooLarge)
	}
	c.conn.SetDeadline(time.Now().Add(callTimeout))
	stop := context.AfterFunc(ctx, func() { c.conn.SetDeadline(time.Now()) })
	defer stop()
	if err := nativemsg.WriteFrameLimit(c.conn, msg, nativemsg.MaxIncoming); err != nil {
		return fmt.Errorf("%s: send to the app: %w", method, err)
	}
	var chunks [][]byte
	for {
		frame, err := nativemsg.ReadFrame(c.conn, nativemsg.MaxIncoming)
		if err != nil {
			return fmt.Errorf("%s: read the app's answer: %w", method, err)
		}
		m, _, err := nativemsg.Decode(frame)
		if err != nil {
			return fmt.Errorf("%s: the app's answer: %w", method, err)
		}
		if m.Method == chunkMethod {
			whole, done, err := addChunk(&chunks, id, m.Params)
			if err != nil {
				return fmt.Errorf("%s: %w", method, err)
			}
			if !done {
				continue
			}
			if m, _, err = nativemsg.Decode(whole); err != nil {
				return fmt.Errorf("%s: the app's answer: %w", method, err)
			}
		}
		if !m.IsResponse() || m.ID == nil || *m.ID != id {
			continue
		}
		if m.Error != nil {
			return m.Error
		}
		if out == nil {
			return nil
		}
		if err := json.Unmarshal(m.Result, out); err != nil {
			return fmt.Errorf("%s: the app's result: %w", method, err)
		}
		return nil
	}
}

// chunkMethod carries one piece of an answer too large for one frame
// (PROTOCOL.md §5).
const chunkMethod = "session.chunk"

// addChunk adds a session.chunk's piece to chunks when it belongs to the
// request id, and returns the whole message once every piece is in.
func addChunk(chunks *[][]byte, id string, params json.RawMessage) ([]byte, bool, error) {
	var ch struct {
		ID    string `json:"id"`
		Index int    `json:"index"`
		Count int    `json:"count"`
		Data  string `json:"data"`
	}
	if err := json.Unmarshal(params, &ch); err != nil {
		return nil, false, fmt.Errorf("bad session.chunk: %w", err)
	}
	if ch.ID != id {
		return nil, false, nil
	}
	if ch.Index != len(*chunks) || ch.Count < 1 || ch.Index >= ch.Count {
		return nil, false, fmt.Errorf("session.chunk %d of %d out of order", ch.Index, ch.Count)
	}
	b, err := base64.StdEncoding.DecodeString(ch.Data)
	if err != nil {
		return nil, false, fmt.Errorf("bad session.chunk: %w", err)
	}
	*chunks = append(*chunks, b)
	if len(*chunks) < ch.Count {
		return nil, false, nil
	}
	var whole []byte
	for _, p := range *chunks {
		whole = append(whole, p...)
	}
	*chunks = nil
	return whole, true, nil
}

// withApp runs viaApp with a session to the running app, or alone when no
// app runs. Errors other than "no app" (an app that answers wrongly) are
// returned, not papered over by opening the vault.
func withApp(ctx context.Context, env *Env, viaApp func(*appClient) error, alone func() error) error {
	c, err := dialApp(ctx, env)
	if errors.Is(err, errNoApp) {
		return alone()
	}
	if err != nil {
		return err
	}
	defer c.Close()
	return viaApp(c)
}
