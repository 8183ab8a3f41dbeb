package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

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
}

// runClassify prints one JSON line per input, select and textarea of each
// HTML file ("-" reads standard input), in document order, hidden ones
// included.
func runClassify(ctx context.Context, env *Env, args []string) error {
	if len(args) == 0 {
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
				line.Token, line.Concept = &r.Token, &r.Concept
			}
			if err := enc.Encode(line); err != nil {
				return fmt.Errorf("classify: write: %w", err)
			}
		}
	}
	return nil
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
	snap, err := form.Extract(r, form.ExtractOptions{})
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
