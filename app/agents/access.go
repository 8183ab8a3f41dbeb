package agents

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tessera-app/tessera/app/fill"
	"github.com/tessera-app/tessera/internal/safefile"
)

// AgentAccess is what the person let agents do (Settings' "Agents" card):
// the sites opened to agents, and the read-only page tools that run there
// without asking. It is kept in AccessFile in the data directory, so
// it lasts until the person takes it back.
type AgentAccess struct {
	Sites []string      `json:"sites"`
	Tools []TrustedTool `json:"tools"`
}

// TrustedTool is one read-only page tool the person let run on Site
// without asking; Tool is the page's own name for it (the page's words).
type TrustedTool struct {
	Site string `json:"site"`
	Tool string `json:"tool"`
}

// access lists what the hub holds, sorted.
func (h *agentHub) access() AgentAccess {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.listLocked(false)
}

// listLocked lists the open sites and trusted tools, sorted (h.mu held);
// saved keeps only what the access file may hold: valid origins, and
// tools of sites that are open.
func (h *agentHub) listLocked(saved bool) AgentAccess {
	out := AgentAccess{Sites: []string{}, Tools: []TrustedTool{}}
	for o, ok := range h.open {
		if ok && (!saved || validAgentOrigin(o)) {
			out.Sites = append(out.Sites, o)
		}
	}
	for k, ok := range h.trusted {
		site, tool, cut := strings.Cut(k, "\x00")
		if ok && cut && (!saved || h.open[site] && validAgentOrigin(site)) {
			out.Tools = append(out.Tools, TrustedTool{Site: site, Tool: tool})
		}
	}
	sort.Strings(out.Sites)
	sort.Slice(out.Tools, func(i, j int) bool {
		if out.Tools[i].Site != out.Tools[j].Site {
			return out.Tools[i].Site < out.Tools[j].Site
		}
		return out.Tools[i].Tool < out.Tools[j].Tool
	})
	return out
}

// closeSite closes origin to agents and forgets its trusted tools: the
// next agent call there asks the person again. It reports whether the
// site was open.
func (h *agentHub) closeSite(origin string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	was := h.open[origin]
	delete(h.open, origin)
	for k := range h.trusted {
		if strings.HasPrefix(k, origin+"\x00") {
			delete(h.trusted, k)
		}
	}
	if was {
		h.saveLocked()
	}
	return was
}

// untrust makes the read-only tool on origin ask again; it reports whether
// it was trusted.
func (h *agentHub) untrust(origin, tool string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	k := origin + "\x00" + tool
	was := h.trusted[k]
	delete(h.trusted, k)
	if was {
		h.saveLocked()
	}
	return was
}

// Access lists the sites opened to agents and the trusted read-only
// tools, for Settings.
func (a *Service) Access() AgentAccess { return a.hub.access() }

// CloseSite closes a site to agents (and forgets its trusted tools), as the
// person did in Settings, and records it in the audit log.
func (a *Service) CloseSite(origin string) (AgentAccess, error) {
	if !a.hub.closeSite(origin) {
		return AgentAccess{}, fmt.Errorf("agents: %q is not open to agents", fill.ClipRunes(origin, 200))
	}
	a.auditAccessTaken(origin, "", "closed")
	return a.hub.access(), nil
}

// Untrust makes a trusted read-only tool ask the person again, as the
// person did in Settings, and records it in the audit log.
func (a *Service) Untrust(origin, tool string) (AgentAccess, error) {
	if !a.hub.untrust(origin, tool) {
		return AgentAccess{}, fmt.Errorf("agents: %q is not trusted on %q", fill.ClipRunes(tool, 200), fill.ClipRunes(origin, 200))
	}
	a.auditAccessTaken(origin, tool, "untrusted")
	return a.hub.access(), nil
}

// The agent access file (SECURITY.md, "Agents"): read once when the app
// starts, like the paired browsers, and written whole (internal/safefile:
// 0600, a temporary file renamed, never through a symlink) at every change
// the person makes. A file that cannot be read or parsed, or holds one
// entry that is not valid, opens nothing: every site is closed to agents
// until the person opens it again, the log says why, and the file is moved
// aside (AccessFile + ".broken", or ".broken.N" next to earlier
// ones) for the person to inspect, so the next change does not overwrite it.
const (
	AccessFile         = "agent-access.json"
	agentAccessVersion = 1
	// MaxSites and maxAgentTools bound the file; maxAgentOrigin bounds
	// one origin (scheme, a host name of at most 253 bytes, a port).
	MaxSites       = 1024
	maxAgentTools  = 2048
	maxAgentOrigin = 300
)

// accessFile is where the hub keeps its state; path "" keeps it in memory.
type accessFile struct {
	path string
	log  io.Writer
	// off stops saving: the broken file could not be moved aside, and
	// the person's earlier choices in it must not be overwritten.
	off bool
}

// agentAccessDoc is the file's content.
type agentAccessDoc struct {
	Version int           `json:"version"`
	Sites   []string      `json:"sites"`
	Tools   []TrustedTool `json:"tools"`
}

// ParseAccess reads the file's content strictly: unknown fields,
// another version, more than the limits, an origin that is not a web
// origin as the app writes it, a tool name out of bounds or a tool on a
// site that is not open are all errors, and an error opens nothing.
func ParseAccess(b []byte) (AgentAccess, error) {
	if len(b) > safefile.MaxState {
		return AgentAccess{}, fmt.Errorf("over %d bytes", safefile.MaxState)
	}
	var doc agentAccessDoc
	if err := safefile.DecodeStrict(b, &doc); err != nil {
		return AgentAccess{}, err
	}
	if doc.Version != agentAccessVersion {
		return AgentAccess{}, fmt.Errorf("version %d, want %d", doc.Version, agentAccessVersion)
	}
	if len(doc.Sites) > MaxSites || len(doc.Tools) > maxAgentTools {
		return AgentAccess{}, fmt.Errorf("over %d sites or %d tools", MaxSites, maxAgentTools)
	}
	open := map[string]bool{}
	for _, o := range doc.Sites {
		if !validAgentOrigin(o) {
			return AgentAccess{}, fmt.Errorf("site %q is not a web origin", fill.ClipRunes(o, 100))
		}
		open[o] = true
	}
	for _, t := range doc.Tools {
		if !open[t.Site] {
			return AgentAccess{}, fmt.Errorf("tool %q is trusted on %q, which is not open to agents", fill.ClipRunes(t.Tool, 100), fill.ClipRunes(t.Site, 100))
		}
		if t.Tool == "" || len(t.Tool) > maxToolName || !utf8.ValidString(t.Tool) || strings.ContainsRune(t.Tool, 0) {
			return AgentAccess{}, fmt.Errorf("tool name %q is not valid", fill.ClipRunes(t.Tool, 100))
		}
	}
	if doc.Sites == nil {
		doc.Sites = []string{}
	}
	if doc.Tools == nil {
		doc.Tools = []TrustedTool{}
	}
	return AgentAccess{Sites: doc.Sites, Tools: doc.Tools}, nil
}

// validAgentOrigin reports whether o is an origin as the app opens it to
// agents: http(s), lower case, scheme://host[:port] and nothing more.
func validAgentOrigin(o string) bool {
	return len(o) <= maxAgentOrigin && fill.WebURL(o) && fill.OriginOf(o) == o && utf8.ValidString(o)
}

// loadAccess reads the hub's state from home ("" keeps it in memory only).
// Whatever goes wrong leaves every site closed, and is logged.
func (h *agentHub) loadAccess(home string, log io.Writer) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.file = accessFile{log: log}
	if home == "" {
		return
	}
	h.file.path = filepath.Join(home, AccessFile)
	b, err := safefile.Read(h.file.path, safefile.MaxState)
	if errors.Is(err, os.ErrNotExist) {
		return
	}
	var acc AgentAccess
	if err == nil {
		acc, err = ParseAccess(b)
		if err != nil {
			err = fmt.Errorf("%s: %w", h.file.path, err)
		}
	}
	if err != nil {
		aside, rerr := moveAside(h.file.path)
		if rerr != nil {
			h.file.off = true
			h.logf("agent access: %v: every site is closed to agents; this run's choices are not saved until the file is removed (%v)", err, rerr)
		} else {
			h.logf("agent access: %v: every site is closed to agents; the file was kept as %s", err, aside)
		}
		return
	}
	h.open, h.trusted = map[string]bool{}, map[string]bool{}
	for _, o := range acc.Sites {
		h.open[o] = true
	}
	for _, t := range acc.Tools {
		h.trusted[t.Site+"\x00"+t.Tool] = true
	}
}

// moveAside renames the file at path to path.broken, or path.broken.N
// when earlier broken files are there (none is replaced), and returns the
// new name. Rename moves a symlink itself, never what it points to.
func moveAside(path string) (string, error) {
	for n := 0; n < 10; n++ {
		aside := path + ".broken"
		if n > 0 {
			aside += "." + strconv.Itoa(n)
		}
		if _, err := os.Lstat(aside); !errors.Is(err, os.ErrNotExist) {
			continue
		}
		return aside, os.Rename(path, aside)
	}
	return "", errors.New("ten broken files are kept already")
}

// saveLocked writes the hub's state (h.mu held). A failure is logged: what
// the person chose still holds in this run.
func (h *agentHub) saveLocked() {
	if h.file.path == "" || h.file.off {
		return
	}
	a := h.listLocked(true)
	doc := agentAccessDoc{Version: agentAccessVersion, Sites: a.Sites, Tools: a.Tools}
	if len(doc.Sites) > MaxSites || len(doc.Tools) > maxAgentTools {
		h.logf("agent access: not saved: over %d sites or %d trusted tools; close some in Settings", MaxSites, maxAgentTools)
		return
	}
	if err := safefile.WriteJSON(h.file.path, "agent access", doc); err != nil {
		h.logf("agent access: not saved: %v", err)
	}
}

func (h *agentHub) logf(format string, args ...any) {
	if h.file.log != nil {
		fmt.Fprintf(h.file.log, "tessera: "+format+"\n", args...)
	}
}
