package cli

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"sync"
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

// appClient is one session with the running app, for the command line and
// for agents (tessera mcp) alike: calls from any goroutine, notifications
// handed to onNotify, and answers split into session.chunk pieces put back
// together (PROTOCOL.md §5).
type appClient struct {
	conn net.Conn
	// dir is the channel directory, for messages.
	dir string
	// state is the vault state the app reported in session.hello.
	state string
	// timeout bounds one call.
	timeout  time.Duration
	onNotify func(method string)
	wmu      sync.Mutex

	mu      sync.Mutex
	next    int
	pending map[string]chan *nativemsg.Message
	closed  bool
}

// dialChannel connects to the running app's channel (starting the app when
// start is set and it is not running, as the host does) and verifies that
// the process serving it is this Tessera: passphrases and agents' calls go
// to nothing else (PROTOCOL.md §2.1). Its error wraps errNoApp when nothing
// answers.
func dialChannel(ctx context.Context, env *Env, start bool) (net.Conn, string, error) {
	dir, err := nativemsg.ChannelDir(env.Getenv)
	if err != nil {
		return nil, "", fmt.Errorf("%w: %v", errNoApp, err)
	}
	dctx, cancel := context.WithTimeout(ctx, dialTimeout)
	conn, err := nativemsg.Dial(dctx, dir)
	cancel()
	if err != nil && start {
		if nativemsg.UserQuit(dir) {
			return nil, "", errors.New("the person quit the Tessera app: start it again to let agents in")
		}
		if serr := nativemsg.StartDetached(env.Executable, []string{"--hidden"}, filepath.Join(dir, "app.log")); serr != nil {
			return nil, "", fmt.Errorf("start the Tessera app: %w", serr)
		}
		if werr := nativemsg.WaitListening(ctx, dir, 10*time.Second); werr != nil {
			return nil, "", fmt.Errorf("the Tessera app did not start: %w", werr)
		}
		dctx, cancel := context.WithTimeout(ctx, dialTimeout)
		conn, err = nativemsg.Dial(dctx, dir)
		cancel()
	}
	if err != nil {
		return nil, "", fmt.Errorf("%w: %v", errNoApp, err)
	}
	if err := nativemsg.VerifyApp(conn); err != nil {
		conn.Close()
		return nil, "", fmt.Errorf("refusing to talk to the process serving %s: %w", dir, err)
	}
	return conn, dir, nil
}

// newAppClient starts reading conn; dir names the channel in messages.
func newAppClient(conn net.Conn, dir string, timeout time.Duration, onNotify func(string)) *appClient {
	c := &appClient{conn: conn, dir: dir, timeout: timeout, onNotify: onNotify, pending: map[string]chan *nativemsg.Message{}}
	go c.read()
	return c
}

// hello says session.hello as a client of kind, and refuses an app that
// does not serve it.
func (c *appClient) hello(ctx context.Context, kind, name, version string) error {
	var hello nativemsg.HelloParams
	hello.Protocol = []int{nativemsg.ProtocolVersion}
	hello.Client.Kind, hello.Client.Name, hello.Client.Version = kind, name, version
	var res nativemsg.HelloResult
	if err := c.call(ctx, "session.hello", hello, &res); err != nil {
		c.Close()
		return fmt.Errorf("the Tessera app on %s: %w", c.dir, err)
	}
	if !res.Verified {
		// The app serves the CLI and agents only as its own executable:
		// another build or copy of tessera is a stranger to it.
		c.Close()
		return fmt.Errorf("the Tessera app on %s does not serve this %s: %s", c.dir, kind, res.Why)
	}
	c.state = res.Vault.State
	return nil
}

// dialApp connects to the running app and says hello as the command line.
// Its error wraps errNoApp when nothing answers on the channel.
func dialApp(ctx context.Context, env *Env) (*appClient, error) {
	conn, dir, err := dialChannel(ctx, env, false)
	if err != nil {
		return nil, err
	}
	c := newAppClient(conn, dir, callTimeout, nil)
	if err := c.hello(ctx, "cli", "tessera", Version); err != nil {
		return nil, err
	}
	return c, nil
}

// Close ends the session.
func (c *appClient) Close() error { return c.conn.Close() }

func (c *appClient) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// read hands each answer to the call waiting for it until the connection
// ends, which fails every call still waiting.
func (c *appClient) read() {
	chunks := map[string][][]byte{}
	defer func() {
		c.mu.Lock()
		c.closed = true
		for id, ch := range c.pending {
			close(ch)
			delete(c.pending, id)
		}
		c.mu.Unlock()
		c.conn.Close()
	}()
	for {
		frame, err := nativemsg.ReadFrame(c.conn, nativemsg.MaxIncoming)
		if err != nil {
			return
		}
		m, _, err := nativemsg.Decode(frame)
		if err != nil {
			continue
		}
		if m.Method == nativemsg.ChunkMethod {
			var ch struct {
				ID string `json:"id"`
			}
			if json.Unmarshal(m.Params, &ch) != nil {
				continue
			}
			parts := chunks[ch.ID]
			whole, done, err := addChunk(&parts, ch.ID, m.Params)
			chunks[ch.ID] = parts
			if err != nil || !done {
				if err != nil {
					delete(chunks, ch.ID)
				}
				continue
			}
			delete(chunks, ch.ID)
			if m, _, err = nativemsg.Decode(whole); err != nil {
				continue
			}
		}
		if m.IsNotification() {
			if c.onNotify != nil {
				c.onNotify(m.Method)
			}
			continue
		}
		if !m.IsResponse() || m.ID == nil {
			continue
		}
		c.mu.Lock()
		ch, ok := c.pending[*m.ID]
		delete(c.pending, *m.ID)
		c.mu.Unlock()
		if ok {
			ch <- m
		}
	}
}

// call sends one request and decodes its result into out (nil: discard);
// an error answer is returned as the *nativemsg.Error the app sent.
func (c *appClient) call(ctx context.Context, method string, params, out any) error {
	p, err := json.Marshal(params)
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return fmt.Errorf("%s: the connection to the Tessera app is closed", method)
	}
	c.next++
	id := "c" + strconv.Itoa(c.next)
	ch := make(chan *nativemsg.Message, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
	}()
	msg, err := json.Marshal(nativemsg.Message{JSONRPC: "2.0", ID: &id, Method: method, Params: p})
	if err != nil {
		return fmt.Errorf("%s: %w", method, err)
	}
	if len(msg) > nativemsg.MaxIncoming {
		// The app would refuse it unread and close the channel.
		return fmt.Errorf("%s: %d bytes is over the app channel's limit of %d: %w", method, len(msg), nativemsg.MaxIncoming, vault.ErrTooLarge)
	}
	c.wmu.Lock()
	c.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
	err = nativemsg.WriteFrameLimit(c.conn, msg, nativemsg.MaxIncoming)
	c.wmu.Unlock()
	if err != nil {
		return fmt.Errorf("%s: send to the app: %w", method, err)
	}
	timer := time.NewTimer(c.timeout)
	defer timer.Stop()
	select {
	case m, ok := <-ch:
		if !ok {
			return fmt.Errorf("%s: read the app's answer: the Tessera app closed the connection", method)
		}
		if m.Error != nil {
			return m.Error
		}
		if out != nil {
			if err := json.Unmarshal(m.Result, out); err != nil {
				return fmt.Errorf("%s: the app's result: %w", method, err)
			}
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", method, ctx.Err())
	case <-timer.C:
		return fmt.Errorf("%s: no answer from the Tessera app", method)
	}
}

// addChunk adds a session.chunk's piece to chunks when it belongs to the
// request id, and returns the whole message once every piece is in.
func addChunk(chunks *[][]byte, id string, params json.RawMessage) ([]byte, bool, error) {
	var ch nativemsg.Chunk
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
