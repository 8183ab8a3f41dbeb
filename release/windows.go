package release

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tessera-app/tessera/nativemsg"
)

// WindowsBrowsers are the browsers the Windows installer registers the host
// with (under HKCU).
var WindowsBrowsers = []string{"chrome", "edge", "firefox"}

// hostPlaceholder stands for the host's path, JSON-escaped by the installer
// at install time (the person picks the directory).
const hostPlaceholder = "@TESSERA_HOST@"

// WindowsUninstall returns an NSIS include defining two macros for the
// Windows installer (release/windows/tessera.nsi):
//
//   - TesseraRegisterHosts writes each browser's manifest where `tessera
//     install` on Windows writes it ($LOCALAPPDATA\Tessera\NativeMessagingHosts\
//     BROWSER\NAME.json), pointing at $INSTDIR\tessera-host.exe, and the
//     HKCU key pointing the browser at it;
//   - TesseraUnregisterHosts removes those keys and files and the directories
//     made for them if empty (never $LOCALAPPDATA\Tessera itself: the vault
//     lives there).
//
// Paths and keys come from nativemsg.Target, so the installer and `tessera
// install`/`uninstall` cannot drift apart.
func WindowsUninstall(browsers []string) ([]byte, error) {
	env := nativemsg.InstallEnv{GOOS: "windows", Getenv: func(k string) string {
		switch k {
		case "LOCALAPPDATA", "APPDATA":
			return "$" + k // the NSIS constants of the same names
		}
		return ""
	}}
	var reg, unreg bytes.Buffer
	reg.WriteString("!macro TesseraRegisterHosts\n")
	reg.WriteString("  ${WordReplace} \"$INSTDIR\\tessera-host.exe\" \"\\\" \"\\\\\" \"+\" $0\n")
	unreg.WriteString("!macro TesseraUnregisterHosts\n")
	for _, b := range browsers {
		t, err := nativemsg.Target(env, b)
		if err != nil {
			return nil, err
		}
		dir := t.ManifestPath[:strings.LastIndex(t.ManifestPath, `\`)]
		j, err := json.Marshal(nativemsg.ManifestFor(b, hostPlaceholder))
		if err != nil {
			return nil, err
		}
		content := strings.Replace(nsisEscape(string(j)), hostPlaceholder, "$0", 1)
		fmt.Fprintf(&reg, "  CreateDirectory \"%s\"\n", dir)
		fmt.Fprintf(&reg, "  FileOpen $1 \"%s\" w\n", t.ManifestPath)
		fmt.Fprintf(&reg, "  FileWrite $1 \"%s$\\r$\\n\"\n", content)
		fmt.Fprintf(&reg, "  FileClose $1\n")
		fmt.Fprintf(&reg, "  WriteRegStr HKCU \"%s\" \"\" \"%s\"\n", t.RegistryKey, t.ManifestPath)
		fmt.Fprintf(&unreg, "  DeleteRegKey HKCU \"%s\"\n", t.RegistryKey)
		fmt.Fprintf(&unreg, "  Delete \"%s\"\n", t.ManifestPath)
		fmt.Fprintf(&unreg, "  RMDir \"%s\"\n", dir)
	}
	unreg.WriteString("  RMDir \"$LOCALAPPDATA\\Tessera\\NativeMessagingHosts\"\n")
	reg.WriteString("!macroend\n")
	unreg.WriteString("!macroend\n")
	return append(reg.Bytes(), unreg.Bytes()...), nil
}

// nsisEscape escapes s for a double-quoted NSIS string.
func nsisEscape(s string) string {
	return strings.NewReplacer(`$`, `$$`, `"`, `$\"`).Replace(s)
}
