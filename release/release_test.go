package release

import (
	"image"
	"image/color"
	"strings"
	"testing"
)

func TestScale(t *testing.T) {
	// Left half opaque red, right half transparent: the 2×2 result keeps
	// the red straight (no darkening from the transparent black beside it).
	src := image.NewNRGBA(image.Rect(0, 0, 8, 8))
	for y := 0; y < 8; y++ {
		for x := 0; x < 4; x++ {
			src.SetNRGBA(x, y, color.NRGBA{255, 0, 0, 255})
		}
	}
	for _, size := range []int{2, 3, 8} {
		got := Scale(src, size)
		if got.Bounds().Dx() != size || got.Bounds().Dy() != size {
			t.Fatalf("Scale(8x8, %d) bounds %v", size, got.Bounds())
		}
		if c := got.NRGBAAt(0, 0); c != (color.NRGBA{255, 0, 0, 255}) {
			t.Errorf("Scale(8x8, %d) at 0,0 = %v, want opaque red", size, c)
		}
		if c := got.NRGBAAt(size-1, 0); c.A != 0 {
			t.Errorf("Scale(8x8, %d) at right edge = %v, want transparent", size, c)
		}
	}
	// 3 does not divide 8: the middle column is partly covered.
	if c := Scale(src, 3).NRGBAAt(1, 1); c.R != 255 || c.A < 100 || c.A > 155 {
		t.Errorf("Scale(8x8, 3) middle = %v, want red at about half alpha", c)
	}
}

func TestReleases(t *testing.T) {
	md := "# Changelog\n\n## [Unreleased]\n\n## [0.2.0] - 2026-11-27\n- x\n\n## 0.1.0 - 2026-10-01\n"
	got := Releases([]byte(md))
	want := []Release{{"0.2.0", "2026-11-27"}, {"0.1.0", "2026-10-01"}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("Releases() = %v, want %v", got, want)
	}
}

func TestManPageEscapes(t *testing.T) {
	m := string(ManPage("1.0", "2026-11-27", "usage: tessera --x\n.dot line\n", []Command{{"vault", "do it", `back\slash`}}))
	for _, want := range []string{`usage: tessera \-\-x`, "\\&.dot line", `back\eslash`, ".SS vault"} {
		if !strings.Contains(m, want) {
			t.Errorf("ManPage lacks %q:\n%s", want, m)
		}
	}
}

func TestMetainfo(t *testing.T) {
	m := string(Metainfo([]Release{{"0.2.0", "2026-11-27"}}))
	for _, want := range []string{"<id>io.github.tessera_app.Tessera</id>", `<release version="0.2.0" date="2026-11-27"/>`, `<launchable type="desktop-id">io.github.tessera_app.Tessera.desktop</launchable>`} {
		if !strings.Contains(m, want) {
			t.Errorf("Metainfo lacks %q", want)
		}
	}
}

func TestDebianChangelog(t *testing.T) {
	md := "# Changelog\n\n## [Unreleased]\n- not yet\n\n## [0.2.0] - 2026-11-27\n\nFirst packages.\n\n### Added\n- Packages for\n  Debian.\n- A tar.gz.\n\n## [0.1.0] - 2026-11-22\n\nDevelopment version.\n"
	got := string(DebianChangelog("tessera", "T <t@example.org>", []byte(md)))
	want := "tessera (0.2.0) unstable; urgency=medium\n\n  * First packages.\n  * Packages for Debian.\n  * A tar.gz.\n\n -- T <t@example.org>  Fri, 27 Nov 2026 00:00:00 +0000\n\n" +
		"tessera (0.1.0) unstable; urgency=medium\n\n  * Development version.\n\n -- T <t@example.org>  Sun, 22 Nov 2026 00:00:00 +0000\n\n"
	if got != want {
		t.Errorf("DebianChangelog() =\n%s\nwant\n%s", got, want)
	}
	long := "## [1.0] - 2026-01-01\n- " + strings.Repeat("word ", 40) + "\n"
	for _, l := range strings.Split(string(DebianChangelog("p", "T <t@example.org>", []byte(long))), "\n") {
		if len(l) > 80 {
			t.Errorf("DebianChangelog line of %d bytes (lintian: debian-changelog-line-too-long): %q", len(l), l)
		}
	}
}
