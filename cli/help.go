package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tessera-app/tessera/formspec"
)

// maxHelpFile bounds each file `tessera help --definition` reads.
const maxHelpFile = formspec.MaxDocBytes

// runFieldHelp is `tessera help --definition D [--references R]...
// [--ontology O]... [--registry G]... [--audience A] PATH`: Formspec Assist
// field help (§5) for one path, as the app's formspec.help method and the
// extension's formspec.field.help answer it. Warnings go to stderr.
func runFieldHelp(ctx context.Context, env *Env, args []string) error {
	fs := flag.NewFlagSet("help", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	var src formspec.Sources
	defPath := fs.String("definition", "", "the Formspec Definition `FILE`")
	audience := fs.String("audience", "agent", "agent, human or both")
	multi := func(name, usage string, dst *[][]byte) {
		fs.Func(name, usage, func(f string) error {
			b, err := readLimited(f)
			if err == nil {
				*dst = append(*dst, b)
			}
			return err
		})
	}
	multi("references", "a References `FILE` (repeatable, in load order)", &src.References)
	multi("ontology", "an Ontology `FILE` (repeatable; the last loaded binding wins)", &src.Ontologies)
	multi("registry", "a Registry `FILE` (repeatable)", &src.Registries)
	fs.Usage = func() {
		fmt.Fprintln(env.Stderr, "usage: tessera help --definition FILE [--references FILE]... [--ontology FILE]... [--registry FILE]... [--audience agent|human|both] PATH")
		fmt.Fprintln(env.Stderr, "       tessera help COMMAND")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return fmt.Errorf("%w: help: %v", ErrUsage, err)
	}
	if *defPath == "" || fs.NArg() != 1 {
		fs.Usage()
		return fmt.Errorf("%w: help: need --definition FILE and one PATH", ErrUsage)
	}
	b, err := readLimited(*defPath)
	if err != nil {
		return err
	}
	src.Definition = b
	r, err := formspec.Load(src)
	if err != nil {
		return fmt.Errorf("help: %w", err)
	}
	for _, w := range r.Warnings {
		fmt.Fprintln(env.Stderr, "tessera: help: warning:", w)
	}
	h, err := r.Help(fs.Arg(0), *audience)
	if err != nil {
		return fmt.Errorf("help: %w", err)
	}
	out, err := json.MarshalIndent(h, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(env.Stdout, "%s\n", out)
	return err
}

// readLimited reads a file of at most maxHelpFile bytes.
func readLimited(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxHelpFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxHelpFile {
		return nil, fmt.Errorf("%s: over %d bytes", name, maxHelpFile)
	}
	return b, nil
}

// isFieldHelp reports whether `tessera help ARGS` asks for field help rather
// than a command's usage.
func isFieldHelp(args []string) bool {
	for _, a := range args {
		if strings.HasPrefix(a, "-definition") || strings.HasPrefix(a, "--definition") {
			return true
		}
	}
	return false
}
