package release

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tessera-app/tessera/nativemsg"
)

// fakeRegistry is HKCU as a map from key to default value.
type fakeRegistry map[string]string

func (r fakeRegistry) SetDefault(system bool, key, value string) error {
	r[key] = value
	return nil
}

func (r fakeRegistry) DeleteKey(system bool, key string) error {
	delete(r, key)
	return nil
}

// nsis runs the subset of NSIS that WindowsUninstall writes, with Windows
// paths mapped under a directory of this machine.
type nsis struct {
	t    *testing.T
	vars map[string]string // $INSTDIR, $LOCALAPPDATA, ... and $0
	reg  fakeRegistry
	open *os.File
}

func (n *nsis) expand(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' {
			b.WriteByte(s[i])
			continue
		}
		rest := s[i+1:]
		switch {
		case strings.HasPrefix(rest, "$"):
			b.WriteByte('$')
			i++
		case strings.HasPrefix(rest, `\"`):
			b.WriteByte('"')
			i += 2
		case strings.HasPrefix(rest, `\r`):
			b.WriteByte('\r')
			i += 2
		case strings.HasPrefix(rest, `\n`):
			b.WriteByte('\n')
			i += 2
		default:
			found := false
			for _, k := range []string{"INSTDIR", "LOCALAPPDATA", "APPDATA", "0"} {
				if strings.HasPrefix(rest, k) {
					b.WriteString(n.vars[k])
					i += len(k)
					found = true
					break
				}
			}
			if !found {
				n.t.Fatalf("unknown NSIS variable in %q", s)
			}
		}
	}
	return b.String()
}

// args splits a line into its words and quoted strings (quotes removed,
// NSIS escapes kept for expand). A backslash escapes nothing in NSIS: only
// $\" is a quote inside a string.
func args(line string) []string {
	var out []string
	for line = strings.TrimSpace(line); line != ""; line = strings.TrimSpace(line) {
		if line[0] == '"' {
			end := 1
			for ; end < len(line); end++ {
				if line[end] == '"' && !strings.HasSuffix(line[:end], `$\`) {
					break
				}
			}
			out = append(out, line[1:end])
			line = line[end+1:]
			continue
		}
		w, rest, _ := strings.Cut(line, " ")
		out = append(out, w)
		line = rest
	}
	return out
}

func (n *nsis) local(p string) string { return filepath.FromSlash(strings.ReplaceAll(p, `\`, "/")) }

func (n *nsis) run(script, macro string) {
	body, ok := strings.CutPrefix(script[strings.Index(script, "!macro "+macro+"\n"):], "!macro "+macro+"\n")
	if !ok {
		n.t.Fatalf("no macro %s", macro)
	}
	body = body[:strings.Index(body, "!macroend")]
	for _, line := range strings.Split(strings.TrimSpace(body), "\n") {
		a := args(line)
		switch a[0] {
		case "${WordReplace}": // ${WordReplace} STR FROM TO + $0
			n.vars["0"] = strings.ReplaceAll(n.expand(a[1]), a[2], a[3])
		case "CreateDirectory":
			if err := os.MkdirAll(n.local(n.expand(a[1])), 0o755); err != nil {
				n.t.Fatal(err)
			}
		case "FileOpen":
			f, err := os.Create(n.local(n.expand(a[2])))
			if err != nil {
				n.t.Fatal(err)
			}
			n.open = f
		case "FileWrite":
			n.open.WriteString(n.expand(a[2]))
		case "FileClose":
			n.open.Close()
		case "WriteRegStr":
			if a[1] != "HKCU" || a[3] != "" {
				n.t.Fatalf("WriteRegStr %v: want HKCU default values only", a[1:])
			}
			n.reg.SetDefault(false, a[2], n.expand(a[4]))
		case "DeleteRegKey":
			n.reg.DeleteKey(false, a[2])
		case "Delete":
			os.Remove(n.local(n.expand(a[1])))
		case "RMDir":
			os.Remove(n.local(n.expand(a[1]))) // NSIS RMDir without /r: only an empty one
		default:
			n.t.Fatalf("unexpected NSIS line %q", line)
		}
	}
}

// The installer's registration is `tessera install`'s on Windows exactly:
// the same HKCU keys, pointing at the same manifest paths, holding the same
// manifests; its uninstaller leaves no key, no manifest and none of the
// directories made for them, and the data directory stays.
func TestWindowsInstallerMatchesTesseraInstall(t *testing.T) {
	script, err := WindowsUninstall(WindowsBrowsers)
	if err != nil {
		t.Fatal(err)
	}
	const instdir = `C:\Users\Ana Lu\AppData\Local\Programs\Tessera`
	host := instdir + `\tessera-host.exe`

	goBase := t.TempDir()
	goReg := fakeRegistry{}
	env := nativemsg.InstallEnv{GOOS: "windows", Registry: goReg, Getenv: func(k string) string {
		return map[string]string{"LOCALAPPDATA": goBase + `\Local`, "APPDATA": goBase + `\Roaming`}[k]
	}}
	if _, err := nativemsg.Install(env, WindowsBrowsers, host); err != nil {
		t.Fatal(err)
	}

	nsBase := t.TempDir()
	os.MkdirAll(filepath.Join(nsBase, "Local", "Tessera"), 0o700) // the data directory
	n := &nsis{t: t, reg: fakeRegistry{}, vars: map[string]string{
		"INSTDIR": instdir, "LOCALAPPDATA": nsBase + `\Local`, "APPDATA": nsBase + `\Roaming`,
	}}
	n.run(string(script), "TesseraRegisterHosts")

	if len(n.reg) != len(WindowsBrowsers) {
		t.Errorf("installer wrote %d keys, want %d: %v", len(n.reg), len(WindowsBrowsers), n.reg)
	}
	for key, goPath := range goReg {
		nsPath, ok := n.reg[key]
		if !ok {
			t.Errorf("installer lacks HKCU\\%s", key)
			continue
		}
		if strings.TrimPrefix(nsPath, nsBase) != strings.TrimPrefix(goPath, goBase) {
			t.Errorf("HKCU\\%s = %q, want %q as tessera install writes", key, nsPath, goPath)
		}
		var got, want nativemsg.Manifest
		for p, m := range map[string]*nativemsg.Manifest{nsPath: &got, goPath: &want} {
			b, err := os.ReadFile(n.local(p))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, m); err != nil {
				t.Fatalf("%s: %v\n%s", p, err, b)
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("manifest for %s = %+v, want %+v", key, got, want)
		}
		if got.Path != host {
			t.Errorf("manifest for %s points at %q, want %q", key, got.Path, host)
		}
	}

	n.run(string(script), "TesseraUnregisterHosts")
	if len(n.reg) != 0 {
		t.Errorf("after uninstall, keys left: %v", slicesOf(n.reg))
	}
	var left []string
	filepath.Walk(nsBase, func(p string, fi os.FileInfo, err error) error {
		if err == nil && p != nsBase {
			left = append(left, strings.TrimPrefix(p, nsBase))
		}
		return nil
	})
	want := []string{"/Local", "/Local/Tessera"}
	if !reflect.DeepEqual(left, want) {
		t.Errorf("after uninstall, left %q, want only the data directory %q", left, want)
	}
}

func slicesOf(m fakeRegistry) []string {
	var out []string
	for k := range maps.Keys(m) {
		out = append(out, k)
	}
	return out
}
