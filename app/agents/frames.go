package agents

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tessera-app/tessera/app/broker"
	"github.com/tessera-app/tessera/app/confirm"
	"github.com/tessera-app/tessera/app/fill"
)

// Agents and the frames of a page (PROTOCOL.md §4.3, "Frames"; SECURITY.md,
// "Agents and frames").
//
// A child frame's document is its own origin's: a cross-origin iframe is
// another site, shown inside the page. An agent sees a frame's forms only
// when the person opened the frame's own origin to agents (a same-origin
// frame is open with its page); every other frame is left out of what the
// agent reads (tools/list, tessera.form.read, propose, fill), and a call
// that names one is refused before anything is asked or written. The
// dialogs about a frame name its origin as the site, beside the page's.
//
// Tool names of a child frame's declarative forms are
// "webmcp.frame<id>.<host>.form.<toolname>": the browser's frame id (unique
// in the tab while the frame lives) and the frame's host (":" of a port as
// "_"), then the form's own tool name. They cannot pass for a top-frame
// form ("webmcp.form."), a registered tool ("webmcp.page.") or Tessera's
// own ("tessera."), nor for another frame's.

// prefixFrame starts the names of child frames' form tools.
const prefixFrame = "webmcp.frame"

// maxFrameID is the largest frame id a tool name may carry (2^53).
const maxFrameID = 1 << 53

// maxFrameHost bounds the host part of a frame tool's name, so that the
// form's own name keeps room within maxToolName.
const maxFrameHost = 48

// frameFormPrefix is the name prefix of the declarative tools of child
// frame id whose origin is origin.
func frameFormPrefix(id int, origin string) string {
	host := origin
	if i := strings.Index(host, "://"); i >= 0 {
		host = host[i+3:]
	}
	host = unsafeNameRE.ReplaceAllString(host, "_")
	if host == "" {
		host = "opaque"
	}
	if len(host) > maxFrameHost {
		host = host[:maxFrameHost]
	}
	return prefixFrame + strconv.Itoa(id) + "." + host + ".form."
}

// frameOfTool returns the frame id a child frame's tool name names.
func frameOfTool(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, prefixFrame)
	if !ok {
		return 0, false
	}
	digits, _, ok := strings.Cut(rest, ".")
	// Frame ids are the browser's: small in Chromium, 11 digits and more
	// in Firefox; at most 2^53, as JSON carries them exactly.
	if !ok || digits == "" || len(digits) > 16 || strings.TrimLeft(digits, "0123456789") != "" || (len(digits) > 1 && digits[0] == '0') {
		return 0, false
	}
	id, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || id <= 0 || id > maxFrameID {
		return 0, false
	}
	return int(id), true
}

// frameOpen reports whether an agent working on a page on top may see a
// child frame on origin: a web origin that is the page's own or that the
// person opened to agents. Opaque origins ("null": sandboxed frames,
// data: documents) are never open: no dialog could name their site.
func (h *agentHub) frameOpen(top, origin string) bool {
	o := fill.OriginOf(origin)
	if o == "" || o != origin || !fill.WebURL(o) {
		return false
	}
	return o == top || h.exposed(o)
}

// ClosedFrame is a frame of the agent's tab left out because the person has
// not opened its origin to agents.
type ClosedFrame struct {
	Frame  int    `json:"frame"`
	Origin string `json:"origin"`
}

// splitFrames keeps the frames of p an agent may see and returns the
// others: the top frame (the caller checked its origin), and each frame on
// an open origin whose parent is kept. A frame inside a closed one is
// closed whatever its origin: an unopened site (an ad) cannot put the
// page's own forms before the agent by framing them.
func (h *agentHub) splitFrames(p fill.Page, top string) (fill.Page, []ClosedFrame) {
	kept := map[int]bool{}
	for _, f := range p.Frames {
		if f.Frame == 0 {
			kept[0] = true
		}
	}
	// Parents before children: at most one pass per level of nesting.
	for changed := true; changed; {
		changed = false
		for _, f := range p.Frames {
			if !kept[f.Frame] && f.Frame != 0 && kept[f.Parent] && h.frameOpen(top, f.Origin) {
				kept[f.Frame], changed = true, true
			}
		}
	}
	var frames []fill.FrameSnapshot
	var closed []ClosedFrame
	for _, f := range p.Frames {
		if kept[f.Frame] {
			frames = append(frames, f)
			continue
		}
		closed = append(closed, ClosedFrame{Frame: f.Frame, Origin: fill.ClipRunes(f.Origin, 200)})
	}
	p.Frames = frames
	return p, closed
}

// closedProblem says, for tools/list, why a frame's forms are not listed.
func closedProblem(c ClosedFrame) string {
	return fmt.Sprintf("frame %d is on %s, which the person has not opened to agents: its forms are not listed (tessera.tabs.select with {\"frame\": %d} asks the person)", c.Frame, c.Origin, c.Frame)
}

// inFrame makes c, about the page on c.Origin, a question about its child
// frame id on origin: the site shown is the frame's, the page stays named
// as the page, and the frame is listed with its origin.
func inFrame(c confirm.Confirmation, id int, origin string) confirm.Confirmation {
	top := c.Origin
	c.Site = fill.SiteOf(origin)
	c.Frames = append(c.Frames, confirm.FrameInfo{ID: id, Origin: origin, CrossOrigin: origin != top})
	ask := confirm.AgentAsk{}
	if c.Agent != nil {
		ask = *c.Agent
	}
	ask.Frame = &confirm.AgentFrame{ID: id, Origin: origin, Page: top, CrossOrigin: origin != top}
	c.Agent = &ask
	return c
}

// openFrame asks the person whether agents may use the site of frame id of
// tab (the agent's tab, just chosen). It returns the frame's origin, and a
// result when the frame was not opened.
func (a *Service) openFrame(ctx context.Context, s *broker.Session, tab *BrowserTab, id int) (string, *ToolResult) {
	fail := func(origin string, r ToolResult) (string, *ToolResult) { return origin, &r }
	snap, e := a.snapshot(ctx, s)
	if e != nil {
		return fail("", browserProblem(e))
	}
	for _, f := range snap.params.Frames {
		if f.Frame == id && id != 0 {
			return fill.OriginOf(f.Origin), nil // open already
		}
	}
	for _, c := range snap.closed {
		if c.Frame != id {
			continue
		}
		o := fill.OriginOf(c.Origin)
		if o == "" || o != c.Origin || !fill.WebURL(o) {
			return fail("", errorResult("frame %d is not on a web origin (%s): its forms cannot be opened to agents", id, c.Origin))
		}
		conf := inFrame(agentConfirmation(ConfirmAgentAccess, tab.URL, tab.Title, s, &confirm.AgentAsk{}, []confirm.Row{}), id, o)
		if d := a.askAgent(ctx, conf); !d.Approve {
			return fail(o, declinedResult(d))
		}
		a.hub.expose(o)
		return o, nil
	}
	return fail("", errorResult("tab %d has no frame %d with forms Tessera can read", tab.Tab, id))
}
