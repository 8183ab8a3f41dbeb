package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tessera-app/tessera/app/agents"
	"github.com/tessera-app/tessera/internal/safefile"
)

// newAgentWorldIn is newAgentWorld with its data directory at home (where
// the agent access file is), and its log.
func newAgentWorldIn(t *testing.T, home string, decide func(Confirmation) *Decision) (*agentWorld, *bytes.Buffer) {
	var log bytes.Buffer
	return newAgentWorldCfg(t, Config{Home: home, Log: &log}, decide), &log
}

// What the person opened to agents, and the read-only tools they trusted,
// last after the app quits: the next run's agent works on the site and
// runs the trusted tool without asking, even though this run's person
// declines everything.
func TestAgentAccessKeptAcrossRestart(t *testing.T) {
	home := t.TempDir()
	w, _ := newAgentWorldIn(t, home, func(c Confirmation) *Decision {
		d := approveDefaults(c)
		d.Remember = c.Kind == agents.ConfirmAgentCall
		return d
	})
	w.selectTab(t)
	if res, text := w.call(t, "webmcp.page.search", map[string]any{"q": "a"}); res.IsError {
		t.Fatal(text)
	}
	path := filepath.Join(home, agents.AccessFile)
	if fi, err := os.Lstat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("access file: %v %v, want 0600", fi, err)
	}

	// The next run: a new app whose person declines every dialog.
	w2, log := newAgentWorldIn(t, home, denyAll)
	if log.Len() != 0 {
		t.Fatalf("loading a good file logged %q", log)
	}
	acc, _ := newUI(w2.a).AgentAccess()
	if len(acc.Sites) != 1 || acc.Sites[0] != "https://shop.example" || len(acc.Tools) != 1 || acc.Tools[0].Tool != "search" {
		t.Fatalf("access after restart = %+v", acc)
	}
	w2.selectTab(t)
	if res, text := w2.call(t, "webmcp.page.search", map[string]any{"q": "b"}); res.IsError {
		t.Fatalf("trusted tool after restart: %s", text)
	}
	if n := w2.pres.count(); n != 0 {
		t.Errorf("the restarted app asked the person %d times, want none", n)
	}

	// Settings takes it back: the file says so, and a third run asks again.
	if _, err := newUI(w2.a).CloseAgentSite("https://shop.example"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	acc, err = agents.ParseAccess(b)
	if err != nil || len(acc.Sites) != 0 || len(acc.Tools) != 0 {
		t.Fatalf("file after close = %s (%+v %v)", b, acc, err)
	}
	w3, _ := newAgentWorldIn(t, home, denyAll)
	if res, _ := w3.call(t, "tessera.tabs.select", map[string]any{}); !res.IsError || w3.pres.count() != 1 {
		t.Errorf("a closed site opened without asking after restart (asked %d times)", w3.pres.count())
	}
}

func denyAll(c Confirmation) *Decision { return &Decision{ID: c.ID, Reason: "denied"} }

// A file that is not what the app writes opens nothing: a forged or
// damaged file, one over the size limit, one with too many entries, and a
// symlink to a good file. The log says why, and the file is kept aside
// for the person to read, never overwritten by the next change.
func TestAgentAccessBrokenFileClosesEverything(t *testing.T) {
	good := `{"version":1,"sites":["https://shop.example"],"tools":[{"site":"https://shop.example","tool":"search"}]}`
	many := `{"version":1,"sites":[` + strings.Repeat(`"https://shop.example",`, agents.MaxSites) + `"https://shop.example"],"tools":[]}`
	cases := map[string]struct {
		content string
		link    bool
		want    string
	}{
		"not JSON":            {content: `{"version":1,"sites":["https://shop.example"]`, want: "unexpected EOF"},
		"unknown field":       {content: `{"version":1,"sites":["https://shop.example"],"tools":[],"all":true}`, want: "unknown field"},
		"other version":       {content: `{"version":2,"sites":["https://shop.example"],"tools":[]}`, want: "version 2"},
		"not an origin":       {content: `{"version":1,"sites":["https://shop.example/path"],"tools":[]}`, want: "not a web origin"},
		"upper case":          {content: `{"version":1,"sites":["https://SHOP.example"],"tools":[]}`, want: "not a web origin"},
		"tool on closed site": {content: `{"version":1,"sites":[],"tools":[{"site":"https://shop.example","tool":"search"}]}`, want: "not open to agents"},
		"too many":            {content: many, want: "over 1024 sites"},
		"oversized":           {content: good + strings.Repeat(" ", safefile.MaxState), want: "over 1048576 bytes"},
		"trailing data":       {content: good + `{}`, want: "after the JSON document"},
		"symlink":             {content: good, link: true, want: "not a regular file"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			path := filepath.Join(home, agents.AccessFile)
			target := path
			if c.link {
				target = filepath.Join(t.TempDir(), "elsewhere.json")
				if err := os.Symlink(target, path); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(target, []byte(c.content), 0o600); err != nil {
				t.Fatal(err)
			}
			w, log := newAgentWorldIn(t, home, denyAll)
			if !strings.Contains(log.String(), c.want) || !strings.Contains(log.String(), "every site is closed to agents") || !strings.Contains(log.String(), "kept as "+path+".broken") {
				t.Errorf("log = %q, want %q, that every site is closed, and where the file went", log, c.want)
			}
			if acc, _ := newUI(w.a).AgentAccess(); len(acc.Sites) != 0 || len(acc.Tools) != 0 {
				t.Fatalf("a broken file opened %+v", acc)
			}
			if res, _ := w.call(t, "tessera.tabs.select", map[string]any{}); !res.IsError || w.pres.count() != 1 {
				t.Error("the site opened without asking the person")
			}
			// Kept for inspection: the same bytes (or the same link) aside.
			if c.link {
				if got, err := os.Readlink(path + ".broken"); err != nil || got != target {
					t.Errorf("symlink aside = %q %v", got, err)
				}
			} else if got, err := os.ReadFile(path + ".broken"); err != nil || string(got) != c.content {
				t.Errorf("broken file not kept: %v", err)
			}
			if got, err := os.ReadFile(target); c.link && (err != nil || string(got) != c.content) {
				t.Errorf("the link's target changed: %v", err)
			}
			// The person's next choice is saved afresh.
			w.a.agents.OpenSite("https://other.example")
			b, err := os.ReadFile(path)
			if acc, perr := agents.ParseAccess(b); err != nil || perr != nil || len(acc.Sites) != 1 || acc.Sites[0] != "https://other.example" {
				t.Errorf("after a new choice the file is %s (%v %v)", b, err, perr)
			}
		})
	}
}

// A second broken file goes aside next to the first, replacing nothing.
func TestAgentAccessBrokenFilesKeptSideBySide(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, agents.AccessFile)
	for i, content := range []string{`{"version":7}`, `{"version":8}`} {
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		_, log := newAgentWorldIn(t, home, denyAll)
		want := path + ".broken"
		if i == 1 {
			want += ".1"
		}
		if got, err := os.ReadFile(want); err != nil || string(got) != content || !strings.Contains(log.String(), "kept as "+want) {
			t.Errorf("broken file %d: %s %v, log %q", i, got, err, log)
		}
	}
	if got, _ := os.ReadFile(path + ".broken"); string(got) != `{"version":7}` {
		t.Errorf("the first broken file was replaced: %s", got)
	}
}

// When the broken file cannot be moved aside, nothing overwrites it.
func TestAgentAccessBrokenFileNotOverwritten(t *testing.T) {
	home := t.TempDir()
	path := filepath.Join(home, agents.AccessFile)
	if err := os.WriteFile(path, []byte(`{"version":9}`), 0o600); err != nil {
		t.Fatal(err)
	}
	// Ten earlier broken files leave no name to move it to.
	for n := 0; n < 10; n++ {
		aside := path + ".broken"
		if n > 0 {
			aside += "." + strconv.Itoa(n)
		}
		if err := os.WriteFile(aside, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	w, log := newAgentWorldIn(t, home, approveDefaults)
	if !strings.Contains(log.String(), "not saved until the file is removed") {
		t.Errorf("log = %q", log)
	}
	w.selectTab(t)
	if got, _ := os.ReadFile(path); string(got) != `{"version":9}` {
		t.Errorf("the broken file was overwritten: %s", got)
	}
	if acc := w.a.agents.Access(); len(acc.Sites) != 1 || acc.Sites[0] != "https://shop.example" {
		t.Error("this run's approval does not hold in memory")
	}
}
