package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/tessera-app/tessera/form"
	"github.com/tessera-app/tessera/heuristics"
)

// classifyLine is one line of `tessera classify` output. Token and Concept
// are null (not "") when the control is not a known field, so that scripts
// can tell "nothing" from a value.
type classifyLine struct {
	File         string  `json:"file"`
	ControlIndex int     `json:"control_index"`
	Token        *string `json:"token"`
	Concept      *string `json:"concept"`
	Confidence   float64 `json:"confidence"`
	Label        string  `json:"label"`
	// Optional marks a field the page calls optional that asks for data
	// no order needs (a company, a gender): the dialog offers it
	// unticked.
	Optional bool `json:"optional,omitempty"`
}

// runClassify prints one JSON line per input, select and textarea of each
// HTML file ("-" reads standard input), in document order, hidden ones
// included.
func runClassify(ctx context.Context, env *Env, args []string) error {
	for _, a := range args {
		if a == "-h" || a == "--help" || a == "-help" {
			classifyUsage(env.Stdout)
			return nil
		}
	}
	if len(args) == 0 {
		classifyUsage(env.Stderr)
		return fmt.Errorf("%w: tessera classify FILE.html...", ErrUsage)
	}
	for _, a := range args {
		if len(a) > 1 && a[0] == '-' {
			return fmt.Errorf("%w: classify: unknown flag %q", ErrUsage, a)
		}
	}
	enc := json.NewEncoder(env.Stdout)
	enc.SetEscapeHTML(false)
	for _, path := range args {
		if err := ctx.Err(); err != nil {
			return err
		}
		snap, err := extractFile(path, env.Stdin)
		if err != nil {
			return err
		}
		for i, r := range heuristics.Classify(snap) {
			line := classifyLine{
				File: path, ControlIndex: i,
				Confidence: round3(r.Confidence),
				Label:      visibleLabel(&snap.Controls[i]),
			}
			if r.Token != "" {
				line.Token, line.Concept, line.Optional = &r.Token, &r.Concept, r.Optional
			}
			if err := enc.Encode(line); err != nil {
				return fmt.Errorf("classify: write: %w", err)
			}
		}
	}
	return nil
}

func classifyUsage(w io.Writer) {
	fmt.Fprint(w, `usage: tessera classify FILE.html...
Prints one JSON line per input, select and textarea of each page, in
document order: file, control_index, token and concept (null when the
control is no known field), confidence, label, and optional: true for a
field the page calls optional that the fill dialog offers unticked.
FILE - reads stdin.
`)
}

// errNotHTML is returned for an input that cannot be a page: empty, or
// binary (a NUL byte or mostly invalid UTF-8 in its first bytes).
var errNotHTML = errors.New("not an HTML page")

// sniffHTML reads all of r and refuses what cannot be a page, so that a
// wrong file is an error rather than zero lines and exit status 0.
func sniffHTML(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("empty file")
	}
	head := data
	if len(head) > 1024 {
		head = head[:1024]
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return nil, fmt.Errorf("%w (binary data)", errNotHTML)
	}
	bad := 0
	for len(head) > 0 {
		r, n := utf8.DecodeRune(head)
		if r == utf8.RuneError && n == 1 && len(head) >= utf8.UTFMax {
			bad++
		}
		head = head[n:]
	}
	if bad*10 > min(len(data), 1024) {
		return nil, fmt.Errorf("%w (binary data)", errNotHTML)
	}
	return data, nil
}

func extractFile(path string, stdin io.Reader) (*form.Snapshot, error) {
	var r io.Reader = stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("classify: %w", err)
		}
		defer f.Close()
		r = f
	}
	if r == nil {
		r = strings.NewReader("")
	}
	data, err := sniffHTML(r)
	if err != nil {
		return nil, fmt.Errorf("classify %s: %w", path, err)
	}
	snap, err := form.Extract(bytes.NewReader(data), form.ExtractOptions{})
	if err != nil {
		return nil, fmt.Errorf("classify %s: %w", path, err)
	}
	return snap, nil
}

// visibleLabel is the label a person sees, or the next best description a
// page gives of the control.
func visibleLabel(c *form.Control) string {
	for _, s := range []string{c.Label, c.AriaLabel, c.Placeholder, c.Title, c.Attrs["toolparamdescription"], c.Attrs["tool-param-description"]} {
		if s != "" {
			return s
		}
	}
	return ""
}

// round3 keeps confidences readable: three decimals say all they can.
func round3(f float64) float64 {
	return float64(int(f*1000+0.5)) / 1000
}
