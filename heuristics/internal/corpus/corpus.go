// Package corpus reads a labelled form corpus laid out like
// ../shared/corpus (every X.html with X.html.expected.json beside it) into
// the truths the scoring rules count, and splits it by site into a half
// that tuning and training may read and a half held out from both.
package corpus

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/tessera-app/tessera/form"
)

// maxExpectedBytes bounds one expected-labels file.
const maxExpectedBytes = 16 << 20

// ErrNoPages is returned for a corpus directory without labelled pages.
var ErrNoPages = errors.New("no labelled pages")

// expectedFile is the layout of X.html.expected.json: either fields (DDG,
// Formasaurus) or controls plus rows aligned by control_index (Chromium).
type expectedFile struct {
	Source   string          `json:"source"`
	File     string          `json:"file"`
	Fields   []expectedField `json:"fields"`
	Controls []expectedField `json:"controls"`
	Rows     []struct {
		ControlIndex      *int    `json:"control_index"`
		AutocompleteToken *string `json:"autocomplete_token"`
		Concept           *string `json:"concept"`
		Type              string  `json:"type"`
	} `json:"rows"`
}

type expectedField struct {
	ControlIndex      int     `json:"control_index"`
	Tag               string  `json:"tag"`
	Type              string  `json:"type"`
	Hidden            bool    `json:"hidden"`
	Name              *string `json:"name"`
	ID                *string `json:"id"`
	Expected          *string `json:"expected"`
	Concept           *string `json:"concept"`
	AutocompleteToken *string `json:"autocomplete_token"`
}

// A Truth is the label of one scored control.
type Truth struct {
	Index int
	// Token is the expected autofill token ("" for "not something to
	// autofill").
	Token string
	// Alts are further concepts a lenient reading accepts ("username or
	// email" accepts email).
	Alts []string
	// Label is the source's own label, for error listings.
	Label string
}

// AltTarget reports whether a lenient reading of the label names profile
// data ("username or email" is an email field to a lenient scorer).
func (t Truth) AltTarget() bool {
	for _, a := range t.Alts {
		if !strings.HasPrefix(a, "ext:") {
			return true
		}
	}
	return false
}

// A Page is one labelled HTML file.
type Page struct {
	Path   string // as found under the corpus directory
	Rel    string // relative to the corpus directory, slash-separated
	Source string
	// Site is the page's site (see SiteOf): pages of one site fall in
	// the same half of the split.
	Site   string
	Truths []Truth
	// Controls identifies every control the labels number (tag, name
	// and id by control index), for Align.
	Controls []Control
}

// A Control is what identifies one control of a page: its tag, name and
// id.
type Control struct{ Tag, Name, ID string }

// scoredControl reports whether the scoring rules count a control: visible
// input (not hidden/submit/button/image/reset/file), select or textarea.
func scoredControl(f expectedField) bool {
	if f.Hidden {
		return false
	}
	if f.Tag == "input" {
		switch strings.ToLower(f.Type) {
		case "hidden", "submit", "button", "image", "reset", "file":
			return false
		}
	}
	return f.Tag == "input" || f.Tag == "select" || f.Tag == "textarea"
}

// LoadPage reads the expected labels of one page and turns them into truths
// by the source's rules.
func LoadPage(dir, path string) (*Page, error) {
	data, err := ReadLimited(path+".expected.json", maxExpectedBytes)
	if err != nil {
		return nil, err
	}
	var ef expectedFile
	if err := json.Unmarshal(data, &ef); err != nil {
		return nil, fmt.Errorf("parse %s.expected.json: %w", path, err)
	}
	rel, err := filepath.Rel(dir, path)
	if err != nil {
		rel = path
	}
	p := &Page{Path: path, Rel: filepath.ToSlash(rel), Source: ef.Source, Site: SiteOf(filepath.ToSlash(rel))}
	if p.Source == "" {
		p.Source = strings.SplitN(p.Rel, "/", 2)[0]
	}
	switch {
	case ef.Fields != nil:
		p.Controls = controls(ef.Fields)
		for _, f := range ef.Fields {
			if !scoredControl(f) {
				continue
			}
			if p.Source == "formasaurus" && !annotated(f.Expected) {
				// README: "in Formasaurus, unannotated fields are not
				// scored". Formasaurus marks them "XX" (its NA_value) or
				// leaves them out of index.json (null); "--" is its "skip"
				// mark. DuckDuckGo labels every field it means, so there
				// an unlabelled field is "not something to autofill".
				continue
			}
			t := Truth{Index: f.ControlIndex, Token: deref(f.AutocompleteToken), Label: deref(f.Expected)}
			t.Alts = alternatives(f.Concept)
			p.Truths = append(p.Truths, t)
		}
	default:
		p.Controls = controls(ef.Controls)
		meta := map[int]expectedField{}
		for _, f := range ef.Controls {
			meta[f.ControlIndex] = f
		}
		for _, r := range ef.Rows {
			if r.ControlIndex == nil {
				continue
			}
			f, ok := meta[*r.ControlIndex]
			if !ok || !scoredControl(f) {
				continue
			}
			p.Truths = append(p.Truths, Truth{Index: *r.ControlIndex, Token: deref(r.AutocompleteToken), Alts: alternatives(r.Concept), Label: r.Type})
		}
	}
	return p, nil
}

// controls lists the identity of every control of a label file by
// control index; indexes the file skips stay empty.
func controls(fs []expectedField) []Control {
	n := 0
	for _, f := range fs {
		if f.ControlIndex >= 0 && f.ControlIndex < maxControls {
			n = max(n, f.ControlIndex+1)
		}
	}
	out := make([]Control, n)
	for _, f := range fs {
		if f.ControlIndex >= 0 && f.ControlIndex < n {
			out[f.ControlIndex] = Control{f.Tag, deref(f.Name), deref(f.ID)}
		}
	}
	return out
}

// maxControls bounds the control indexes a label file may use.
const maxControls = 1 << 16

// Align maps the control indexes of a page's labels to the controls of
// its snapshot (-1 where the snapshot has no such control). They are the
// same when both count as many controls; when the capture counted
// controls static HTML does not have (controls inside an inert
// <template>, which the labelling browser counted), each labelled control
// is matched to the next snapshot control with its tag, name and id.
func Align(p *Page, s *form.Snapshot) []int {
	out := make([]int, len(p.Controls))
	if len(p.Controls) == len(s.Controls) {
		for i := range out {
			out[i] = i
		}
		return out
	}
	j := 0
	for i, c := range p.Controls {
		out[i] = -1
		for k := j; k < len(s.Controls) && k < j+alignWindow; k++ {
			if c.matches(&s.Controls[k]) {
				out[i], j = k, k+1
				break
			}
		}
	}
	return out
}

// alignWindow is how far ahead Align looks for a labelled control.
const alignWindow = 50

func (c Control) matches(sc *form.Control) bool {
	return c.Tag == sc.Tag && c.Name == sc.Name && c.ID == sc.ID
}

// annotated reports whether a Formasaurus label is an annotation: not
// missing, not its "NOT ANNOTATED" value XX and not its skip value "--"
// (formasaurus/data/config.json, field_types NA_value and skip_value).
func annotated(label *string) bool {
	return label != nil && *label != "XX" && *label != "--"
}

func alternatives(concept *string) []string {
	if concept == nil || !strings.Contains(*concept, "|") {
		return nil
	}
	return strings.Split(*concept, "|")
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func ReadLimited(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("read %s: larger than %d bytes", path, limit)
	}
	return data, nil
}

// Find lists every X.html under dir that has X.html.expected.json
// beside it, at any depth, in lexical order.
func Find(dir string) ([]*Page, error) {
	var pages []*Page
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".html") {
			return nil
		}
		if _, err := os.Stat(path + ".expected.json"); err != nil {
			return nil
		}
		p, err := LoadPage(dir, path)
		if err != nil {
			return err
		}
		pages = append(pages, p)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("scan corpus %s: %w", dir, err)
	}
	if len(pages) == 0 {
		return nil, fmt.Errorf("scan corpus %s: %w", dir, ErrNoPages)
	}
	return pages, nil
}

// StripAutocomplete removes every autocomplete attribute from a snapshot,
// as if the page had been served without them.
func StripAutocomplete(s *form.Snapshot) {
	for i := range s.Controls {
		s.Controls[i].Autocomplete = ""
		s.Controls[i].AutocompleteInfo = nil
	}
}
