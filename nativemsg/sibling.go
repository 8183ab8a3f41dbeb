package nativemsg

import (
	"os"
	"path/filepath"
	"strings"
)

// Tessera ships as a pair of executables in one directory: tessera (the
// desktop app, the command line, and a host mode) and tessera-host, the
// native-messaging host alone. The browser starts a host for every
// connection, and tessera-host links none of the app's packages, so it
// starts in a few milliseconds where tessera pays for its third-party
// package initialisers on every start (issue 12). Each trusts the other
// only as the file beside it (PROTOCOL.md §2.1).
const (
	// AppExeName is the file name of the app's executable (plus ".exe" on
	// Windows).
	AppExeName = "tessera"
	// HostExeName is the file name of the minimal host's executable (plus
	// ".exe" on Windows).
	HostExeName = "tessera-host"
)

// Sibling returns the path of the other executable of exe's pair, in exe's
// directory: tessera-host for tessera, tessera for tessera-host, keeping a
// ".exe" suffix. Any other file name has no sibling: "".
func Sibling(exe string) string {
	dir, base := filepath.Split(exe)
	name, ext := base, ""
	if n, ok := strings.CutSuffix(base, ".exe"); ok {
		name, ext = n, ".exe"
	}
	switch name {
	case AppExeName:
		return filepath.Join(dir, HostExeName+ext)
	case HostExeName:
		return filepath.Join(dir, AppExeName+ext)
	}
	return ""
}

// siblingIsApp reports whether sib, a Sibling path, is the app's
// executable (so this process is tessera-host).
func siblingIsApp(sib string) bool {
	return strings.TrimSuffix(filepath.Base(sib), ".exe") == AppExeName
}

// HostExecutable returns the executable to register as the native host for
// the app executable exe: the tessera-host beside it when exe is tessera
// and that file exists, else exe itself (whose host mode does the same
// work, only slower to start).
func HostExecutable(exe string) string {
	sib := Sibling(exe)
	if sib == "" || siblingIsApp(sib) {
		return exe
	}
	if st, err := os.Stat(sib); err != nil || !st.Mode().IsRegular() {
		return exe
	}
	return sib
}
