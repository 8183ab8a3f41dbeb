// Command assets writes the files Tessera's packages carry beside the
// binaries into a directory, for scripts/dist.sh:
//
//	go run ./release/cmd/assets -out build/dist/assets -version 0.2.0 -date 2026-11-27
//
// icons/NxN/tessera.png (hicolor sizes from frontend/public/icon.png),
// tessera.1.gz (from the CLI's own help), the .desktop entry, the AppStream
// metainfo, changelog.gz (CHANGELOG.md), manifests/{chromium,firefox}.json
// (the system-wide native-messaging manifests) and windows/registry.nsh
// (what the Windows uninstaller removes).
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tessera-app/tessera/cli"
	"github.com/tessera-app/tessera/desktopentry"
	"github.com/tessera-app/tessera/nativemsg"
	"github.com/tessera-app/tessera/release"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "assets:", err)
		os.Exit(1)
	}
}

// Maintainer is the packages' maintainer, as in release/linux/nfpm.yaml.
const Maintainer = "Tessera contributors <tessera@tessera-app.dev>"

// HostPath is where the packages install the native host.
const HostPath = "/usr/lib/tessera/tessera-host"

func run(args []string) error {
	fs := flag.NewFlagSet("assets", flag.ContinueOnError)
	out := fs.String("out", "", "output `DIR`")
	version := fs.String("version", "", "release version")
	date := fs.String("date", "", "release date, YYYY-MM-DD")
	icon := fs.String("icon", "frontend/public/icon.png", "source icon (PNG, square, at least 256 px)")
	changelog := fs.String("changelog", "CHANGELOG.md", "the changelog")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || *version == "" || *date == "" {
		return fmt.Errorf("need -out, -version and -date")
	}
	w := func(name string, data []byte) error {
		p := filepath.Join(*out, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, data, 0o644)
	}

	f, err := os.Open(*icon)
	if err != nil {
		return err
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("decode %s: %w", *icon, err)
	}
	for _, s := range release.IconSizes {
		var b bytes.Buffer
		if err := png.Encode(&b, release.Scale(img, s)); err != nil {
			return err
		}
		if err := w(fmt.Sprintf("icons/%dx%d/%s.png", s, s, desktopentry.IconName), b.Bytes()); err != nil {
			return err
		}
	}

	man, err := manPage(*version, *date)
	if err != nil {
		return err
	}
	if err := w("tessera.1.gz", gz(man)); err != nil {
		return err
	}
	if err := w(desktopentry.AppID+".desktop", desktopentry.Menu("tessera")); err != nil {
		return err
	}
	cl, err := os.ReadFile(*changelog)
	if err != nil {
		return err
	}
	rels := release.Releases(cl)
	if !slices.ContainsFunc(rels, func(r release.Release) bool { return r.Version == *version }) {
		return fmt.Errorf("%s has no section for %s (it has %v): add one before building the release", *changelog, *version, rels)
	}
	if err := w(desktopentry.AppID+".metainfo.xml", release.Metainfo(rels)); err != nil {
		return err
	}
	if err := w("changelog.gz", gz(release.DebianChangelog("tessera", Maintainer, cl))); err != nil {
		return err
	}
	for _, b := range []string{"chromium", "firefox"} {
		j, err := json.MarshalIndent(nativemsg.ManifestFor(b, HostPath), "", "  ")
		if err != nil {
			return err
		}
		if err := w("manifests/"+b+".json", append(j, '\n')); err != nil {
			return err
		}
	}
	nsh, err := release.WindowsUninstall(release.WindowsBrowsers)
	if err != nil {
		return err
	}
	return w("windows/registry.nsh", nsh)
}

// manPage runs the command line's own help, as a person would, and makes
// the man page from what it prints.
func manPage(version, date string) ([]byte, error) {
	help := func(args ...string) string {
		var b bytes.Buffer
		env := &cli.Env{Stdin: strings.NewReader(""), Stdout: &b, Stderr: &b,
			Getenv: func(string) string { return "" }, Executable: "/usr/bin/tessera"}
		_ = cli.Run(context.Background(), args, env) // some commands' --help ends in a usage error
		return b.String()
	}
	usage := help("help")
	var cmds []release.Command
	for _, l := range strings.Split(usage, "\n") {
		// Command lines are "  NAME  summary" (cli.usage).
		if !strings.HasPrefix(l, "  ") {
			continue
		}
		name, summary, _ := strings.Cut(strings.TrimSpace(l), " ")
		if name == "help" {
			continue
		}
		cmds = append(cmds, release.Command{Name: name, Summary: strings.TrimSpace(summary), Usage: help(name, "--help")})
	}
	if len(cmds) < 5 {
		return nil, fmt.Errorf("tessera help listed %d commands:\n%s", len(cmds), usage)
	}
	return release.ManPage(version, date, usage, cmds), nil
}

// gz compresses b the way Debian wants documentation compressed: maximum
// compression, no name and no time stamp (reproducible).
func gz(b []byte) []byte {
	var out bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&out, gzip.BestCompression)
	zw.Write(b)
	zw.Close()
	return out.Bytes()
}
