package release

import (
	"bytes"
	"encoding/xml"
	"fmt"

	"github.com/tessera-app/tessera/desktopentry"
)

// A Release is one CHANGELOG.md section, as AppStream lists it.
type Release struct {
	Version string
	Date    string // YYYY-MM-DD
}

// Metainfo returns the AppStream metainfo for the desktop app, listing
// releases newest first.
func Metainfo(releases []Release) []byte {
	var b bytes.Buffer
	esc := func(s string) string {
		var e bytes.Buffer
		xml.EscapeText(&e, []byte(s))
		return e.String()
	}
	b.WriteString(xml.Header)
	fmt.Fprintf(&b, `<component type="desktop-application">
  <id>%s</id>
  <metadata_license>CC0-1.0</metadata_license>
  <project_license>LicenseRef-proprietary</project_license>
  <name>Tessera</name>
  <summary>Fill web forms from your encrypted profile, only after you confirm</summary>
  <description>
    <p>%s</p>
    <p>%s</p>
  </description>
  <launchable type="desktop-id">%s.desktop</launchable>
  <url type="homepage">https://github.com/tessera-app/tessera</url>
  <developer id="io.github.tessera_app">
    <name>Tessera contributors</name>
  </developer>
  <content_rating type="oars-1.1"/>
  <provides>
    <binary>tessera</binary>
  </provides>
  <releases>
`, desktopentry.AppID,
		esc("Tessera keeps your names, contact details, addresses and dates in an encrypted vault on this computer. Its browser extension understands the forms on a page and Tessera proposes which value goes into which field."),
		esc("Nothing is filled until you approve it, field by field, in Tessera's own window."),
		desktopentry.AppID)
	for _, r := range releases {
		fmt.Fprintf(&b, "    <release version=\"%s\" date=\"%s\"/>\n", esc(r.Version), esc(r.Date))
	}
	b.WriteString("  </releases>\n</component>\n")
	return b.Bytes()
}
