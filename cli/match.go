package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/tessera-app/tessera/form"
	"github.com/tessera-app/tessera/heuristics"
	"github.com/tessera-app/tessera/matcher"
	"github.com/tessera-app/tessera/profile"
)

// maxProfileBytes bounds the profile file `tessera match` reads.
const maxProfileBytes = 16 << 20

// matchLine is one line of `tessera match` output. Pointers print as null
// when nothing is proposed.
type matchLine struct {
	ControlIndex int      `json:"control_index"`
	Value        *string  `json:"value"`
	Concept      *string  `json:"concept"`
	Relationship *string  `json:"relationship"`
	Confidence   *float64 `json:"confidence"`
	Skip         *string  `json:"skip"`
}

// runMatch is `tessera match --profile PROFILE.json PAGE.html`: a dry run
// of matching a profile file against a static page, one JSON line per
// control. It reads no vault.
func runMatch(ctx context.Context, env *Env, args []string) error {
	fs := flag.NewFlagSet("match", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	profilePath := fs.String("profile", "", "UserProfile JSON file (Assist §6)")
	threshold := fs.Float64("threshold", matcher.DefaultThreshold, "lowest confidence proposed")
	sc := &matcher.Sidecars{}
	fs.Func("ontology", "Formspec Ontology document for the page's form (repeatable; the last loaded wins)", func(name string) error {
		o, err := readSidecar(name, matcher.ParseOntology)
		if err == nil {
			sc.Ontologies = append(sc.Ontologies, o)
		}
		return err
	})
	fs.Func("registry", "Formspec Registry document (repeatable)", func(name string) error {
		r, err := readSidecar(name, matcher.ParseRegistry)
		if err == nil {
			sc.Registries = append(sc.Registries, r)
		}
		return err
	})
	fs.Usage = func() {
		fmt.Fprintln(env.Stderr, "usage: tessera match --profile PROFILE.json [--threshold N] [--ontology FILE]... [--registry FILE]... PAGE.html")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return fmt.Errorf("%w: match: %v", ErrUsage, err)
	}
	if *profilePath == "" || fs.NArg() != 1 {
		fs.Usage()
		return fmt.Errorf("%w: match: need --profile and one page", ErrUsage)
	}
	if *threshold <= 0 || *threshold > 1 {
		return fmt.Errorf("%w: match: --threshold %v not in (0, 1]", ErrUsage, *threshold)
	}
	p, err := readProfile(*profilePath)
	if err != nil {
		return err
	}
	page, err := os.Open(fs.Arg(0))
	if err != nil {
		return fmt.Errorf("match: %w", err)
	}
	defer page.Close()
	snap, err := form.Extract(page, form.ExtractOptions{})
	if err != nil {
		return fmt.Errorf("match: %s: %w", fs.Arg(0), err)
	}
	fields := matcher.FieldsFromSnapshot(snap, heuristics.Classify(snap))
	enc := json.NewEncoder(env.Stdout)
	for _, pr := range matcher.Match(fields, p, matcher.Options{Threshold: *threshold, Sidecars: sc}) {
		line := matchLine{ControlIndex: pr.Index, Value: pr.Value}
		if pr.Concept != "" {
			line.Concept = &pr.Concept
		}
		if pr.Relationship != "" {
			line.Relationship, line.Confidence = &pr.Relationship, &pr.Confidence
		}
		if pr.Skip != "" {
			line.Skip = &pr.Skip
		}
		if err := enc.Encode(line); err != nil {
			return fmt.Errorf("match: write: %w", err)
		}
	}
	return nil
}

// readSidecar reads and parses one Formspec sidecar file.
func readSidecar[T any](name string, parse func([]byte) (*T, error)) (*T, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return parse(b)
}

func readProfile(name string) (*profile.UserProfile, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("match: read profile: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxProfileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("match: read profile: %w", err)
	}
	if len(b) > maxProfileBytes {
		return nil, fmt.Errorf("match: profile %s over %d bytes", name, maxProfileBytes)
	}
	var p profile.UserProfile
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("match: profile %s: %w", name, err)
	}
	return &p, nil
}
