package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/tessera-app/tessera/form"
)

// runTools lists a page's declarative WebMCP tools as an MCP ListToolsResult
// (the Tool objects in document order, the declarations left out and why in
// _meta, each also on stderr), or with --call plans one call: the fill plan
// on success, the rejection (exit status 1) when any argument is bad.
func runTools(ctx context.Context, env *Env, args []string) error {
	fs := flag.NewFlagSet("tools", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	call := fs.String("call", "", "plan a call of the tool `NAME`")
	argsJSON := fs.String("args", "{}", "the call's arguments as a JSON `object`")
	pageURL := fs.String("url", "", "the page's URL, recorded in the snapshot")
	usage := func(w io.Writer) {
		fmt.Fprintln(w, "usage: tessera tools [--url URL] PAGE.html")
		fmt.Fprintln(w, "       tessera tools --call NAME [--args JSON] PAGE.html")
		fmt.Fprintln(w, "PAGE.html may be - for standard input.")
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
	fs.Usage = func() {} // printed below: on stdout for --help, stderr otherwise
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(env.Stdout)
			return nil
		}
		usage(env.Stderr)
		return fmt.Errorf("%w: tools: %v", ErrUsage, err)
	}
	if fs.NArg() != 1 {
		usage(env.Stderr)
		return fmt.Errorf("%w: tools: want exactly one page, got %d", ErrUsage, fs.NArg())
	}
	page := fs.Arg(0)
	if *call == "" && toolsFlagSet(fs, "args") {
		return fmt.Errorf("%w: tools: --args needs --call", ErrUsage)
	}
	snap, err := toolsExtract(env, page, *pageURL)
	if err != nil {
		return fmt.Errorf("tools: %w", err)
	}
	cat, catErr := form.Tools(snap)
	if *call == "" {
		list := toolsList{Tools: cat.Tools}
		if list.Tools == nil {
			list.Tools = []form.Tool{} // a page without tools lists none: [], not null
		}
		// A problem of one declaration (an invalid name, a duplicate) does
		// not hide the page's valid tools: it is reported beside them.
		for _, te := range toolErrors(catErr) {
			fmt.Fprintf(env.Stderr, "tessera: tools: %s: %v\n", page, te)
			if list.Meta == nil {
				list.Meta = &toolsMeta{}
			}
			list.Meta.Problems = append(list.Meta.Problems, toolProblem{Name: te.Name, Elements: te.Refs, Problem: te.Err.Error()})
		}
		if err := toolsWriteJSON(env.Stdout, list); err != nil {
			return fmt.Errorf("tools: %w", err)
		}
		return nil
	}
	if catErr != nil {
		// The catalog still holds every valid tool; a problem elsewhere on
		// the page does not stop a call of one of them.
		fmt.Fprintf(env.Stderr, "tessera: tools: %s: %v\n", page, catErr)
	}
	tool, ok := cat.Tool(*call)
	if !ok {
		return fmt.Errorf("tools: %s has no tool %q", page, *call)
	}
	plan, err := tool.Plan(json.RawMessage(*argsJSON))
	var rej *form.Rejection
	if errors.As(err, &rej) {
		if werr := toolsWriteJSON(env.Stdout, rej); werr != nil {
			return fmt.Errorf("tools: %w", werr)
		}
		return fmt.Errorf("tools: call %q: %w", *call, form.ErrRejected)
	}
	if err != nil {
		return fmt.Errorf("tools: call %q: %w", *call, err)
	}
	if err := toolsWriteJSON(env.Stdout, plan); err != nil {
		return fmt.Errorf("tools: %w", err)
	}
	return nil
}

// toolsList is the output of tools without --call: an MCP ListToolsResult,
// whose _meta names the declarations left out of it.
type toolsList struct {
	Tools []form.Tool `json:"tools"`
	Meta  *toolsMeta  `json:"_meta,omitempty"`
}

// toolsMeta is the _meta block of a list with problems.
type toolsMeta struct {
	Problems []toolProblem `json:"problems"`
}

// toolProblem is one declaration of the page left out of the list: its tool
// name, the elements involved (both for a duplicate), and why.
type toolProblem struct {
	Name     string   `json:"name"`
	Elements []string `json:"elements"`
	Problem  string   `json:"problem"`
}

// toolErrors returns the *form.ToolError values joined in err, in order.
func toolErrors(err error) []*form.ToolError {
	if err == nil {
		return nil
	}
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	var out []*form.ToolError
	for _, e := range errs {
		var te *form.ToolError
		if errors.As(e, &te) {
			out = append(out, te)
		}
	}
	return out
}

// toolsFlagSet reports whether the flag name was given on the command line.
func toolsFlagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// toolsExtract reads and extracts an HTML file ("-" is standard input).
func toolsExtract(env *Env, path, pageURL string) (*form.Snapshot, error) {
	var r io.Reader
	if path == "-" {
		r = env.Stdin
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	snap, err := form.Extract(r, form.ExtractOptions{URL: pageURL})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return snap, nil
}

// toolsWriteJSON writes v as indented JSON, leaving <, > and & as written (page
// text is full of them).
func toolsWriteJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}
