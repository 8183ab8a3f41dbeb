package release

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"time"
)

// A Command is one subcommand's help as the command line prints it.
type Command struct {
	Name    string
	Summary string
	// Usage is what `tessera COMMAND --help` printed.
	Usage string
}

// ManPage returns tessera(1) in roff: the usage `tessera help` prints, then
// a section per command with what `tessera COMMAND --help` prints, so the
// page says exactly what the binary says.
func ManPage(version, date, usage string, cmds []Command) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, ".TH TESSERA 1 %q %q \"Tessera Manual\"\n", date, "tessera "+version)
	b.WriteString(".SH NAME\ntessera \\- fill web forms from an encrypted profile vault, after you confirm\n")
	b.WriteString(".SH SYNOPSIS\n")
	b.WriteString(".B tessera\n.RB [ \\-\\-hidden | \\-\\-headless ]\n.br\n.B tessera\n.I command\n.RI [ args ...]\n")
	b.WriteString(".SH DESCRIPTION\n")
	b.WriteString("Without a command, \\fBtessera\\fR runs the desktop app (\\fB\\-\\-hidden\\fR: without showing its window; \\fB\\-\\-headless\\fR: no window at all). ")
	b.WriteString("The browser extension reaches it through the native-messaging host \\fI/usr/lib/tessera/tessera-host\\fR, which the packages register for every supported browser.\n")
	b.WriteString(".PP\n")
	verbatim(&b, usage)
	b.WriteString(".SH COMMANDS\n")
	for _, c := range cmds {
		fmt.Fprintf(&b, ".SS %s\n%s.\n", roffText(c.Name), roffText(c.Summary))
		if strings.TrimSpace(c.Usage) != "" {
			b.WriteString(".PP\n")
			verbatim(&b, c.Usage)
		}
	}
	b.WriteString(".SH FILES\n")
	b.WriteString(".TP\n.I ~/.local/share/tessera\nThe vault and everything Tessera keeps for you ($XDG_DATA_HOME/tessera, or $TESSERA_HOME). Removing the package never touches it.\n")
	b.WriteString(".TP\n.I ~/.config/autostart/io.github.tessera_app.Tessera.desktop\nPresent while \"Start Tessera when I log in\" is on.\n")
	b.WriteString(".SH ENVIRONMENT\n.TP\n.B TESSERA_HOME\nThe data directory instead of the default.\n")
	b.WriteString(".SH SEE ALSO\nThe README at https://github.com/tessera-app/tessera\n")
	return b.Bytes()
}

// verbatim writes text as a no-fill block, each line escaped.
func verbatim(b *bytes.Buffer, text string) {
	b.WriteString(".nf\n")
	sc := bufio.NewScanner(strings.NewReader(strings.TrimRight(text, "\n")))
	for sc.Scan() {
		b.WriteString(roffText(sc.Text()))
		b.WriteByte('\n')
	}
	b.WriteString(".fi\n")
}

// roffText escapes a line for roff: backslashes and hyphens, and a leading
// dot or quote that would start a request.
func roffText(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	s = strings.ReplaceAll(s, "-", `\-`)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}

var releaseHeading = regexp.MustCompile(`^## \[?([0-9][^\]\s]*)\]? - (\d{4}-\d{2}-\d{2})\s*$`)

// Releases returns CHANGELOG.md's released sections ("## [1.2.3] -
// YYYY-MM-DD"), newest first as the file lists them; "Unreleased" is skipped.
func Releases(changelog []byte) []Release {
	var out []Release
	sc := bufio.NewScanner(bytes.NewReader(changelog))
	for sc.Scan() {
		if m := releaseHeading.FindStringSubmatch(sc.Text()); m != nil {
			out = append(out, Release{Version: m[1], Date: m[2]})
		}
	}
	return out
}

// DebianChangelog returns CHANGELOG.md's released sections in the format
// Debian keeps a native package's changelog in
// (/usr/share/doc/PACKAGE/changelog.gz): one entry per release, its
// top-level bullets as items, dated at midnight UTC of the release day.
func DebianChangelog(pkg, maintainer string, changelog []byte) []byte {
	var b bytes.Buffer
	var cur *Release
	var items []string
	flush := func() {
		if cur == nil {
			return
		}
		if len(items) == 0 {
			items = []string{"Release " + cur.Version + "."}
		}
		fmt.Fprintf(&b, "%s (%s) unstable; urgency=medium\n\n", pkg, cur.Version)
		for _, it := range items {
			b.WriteString(wrap(it, "  * ", "    ", 80))
		}
		day, err := time.Parse("2006-01-02", cur.Date)
		if err != nil {
			day = time.Unix(0, 0)
		}
		fmt.Fprintf(&b, "\n -- %s  %s\n\n", maintainer, day.UTC().Format(time.RFC1123Z))
		items = nil
	}
	sc := bufio.NewScanner(bytes.NewReader(changelog))
	for sc.Scan() {
		l := sc.Text()
		if m := releaseHeading.FindStringSubmatch(l); m != nil {
			flush()
			cur = &Release{Version: m[1], Date: m[2]}
			continue
		}
		if strings.HasPrefix(l, "## ") {
			flush()
			cur = nil
			continue
		}
		if cur == nil {
			continue
		}
		switch {
		case strings.HasPrefix(l, "- "):
			items = append(items, strings.TrimPrefix(l, "- "))
		case strings.HasPrefix(l, "  ") && strings.TrimSpace(l) != "" && len(items) > 0:
			items[len(items)-1] += " " + strings.TrimSpace(l)
		case strings.TrimSpace(l) != "" && !strings.HasPrefix(l, "#") && len(items) == 0:
			// A section's opening sentence, before any bullet.
			items = append(items, strings.TrimSpace(l))
		}
	}
	flush()
	return b.Bytes()
}

// wrap breaks text at spaces into lines of at most width bytes (a longer
// word stands alone), the first after first, the rest after indent.
func wrap(text, first, indent string, width int) string {
	var b strings.Builder
	line := first
	empty := true
	for _, w := range strings.Fields(text) {
		if !empty && len(line)+1+len(w) > width {
			b.WriteString(line + "\n")
			line, empty = indent, true
		}
		if !empty {
			line += " "
		}
		line += w
		empty = false
	}
	b.WriteString(line + "\n")
	return b.String()
}
