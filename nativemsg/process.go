package nativemsg

import (
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"strings"
)

// Verifying who is at the other end of the local channel (PROTOCOL.md §2.1).
// The peer's user is checked on accept (SameUser); these functions name the
// process: which executable it runs and which process started it, so the
// app can tell its own host started by a browser from any other program of
// the same user, and the host can tell the real app from an impostor
// serving the channel.

// ErrNotVerified is returned (wrapped) when a peer process cannot be shown
// to be what it claims.
var ErrNotVerified = errors.New("peer process not verified")

// ErrVerifyUnsupported is returned where the platform's process checks are
// not built yet (macOS, Windows): callers fall back to the user check alone
// and say the peer is not verified.
var ErrVerifyUnsupported = errors.New("process verification is not available on this platform yet")

// ErrAppReplaced is returned (wrapped, with ErrNotVerified) by VerifyApp
// when the refused app looks like a Tessera whose executable was replaced
// after it started, as a package upgrade does: the person must restart it.
// It only chooses the words of the refusal; it never makes one.
var ErrAppReplaced = errors.New("the Tessera app was updated while it ran; quit Tessera and start it again")

// A Process is a local process as the OS reports it.
type Process struct {
	PID  int
	PPID int
	// Start is when the process started (Linux: clock ticks after boot,
	// /proc/<pid>/stat): with PID it names one process, where a pid alone
	// may since have gone to another (StillRuns).
	Start uint64
	// Exe is the path of the executable it runs (as the OS reports it; a
	// replaced or deleted file may carry a " (deleted)" suffix).
	Exe string
	// SameExe reports whether it runs the same executable file as this
	// process (same device and inode, not merely the same path).
	SameExe bool
	// Sibling reports whether it runs the other executable of this one's
	// pair (Sibling: tessera-host for the app, tessera for tessera-host),
	// the same file as that path, which is owned by this user or root and
	// writable by neither group nor others.
	Sibling bool
	// Hidden reports whether the process hides its executable from this
	// user (Linux: it is non-dumpable, as Tessera's app makes itself), so
	// Exe is empty and SameExe false.
	Hidden bool
	// SameImage reports, for a Hidden process, whether what the OS still
	// shows of it matches this process, or, in tessera-host, the app
	// beside it (a Sibling as above): its command name and the size of
	// its executable's code. It is a likeness, not an identity: only
	// VerifyApp accepts it.
	SameImage bool
	// Replaced reports whether it looks like the app of this one's pair
	// started from a file that has since been replaced (an upgrade): its
	// executable is that path marked deleted or, Hidden, it has the app's
	// command name and the app's file changed after it started. VerifyApp
	// uses it only to say why it refuses.
	Replaced bool
}

// A PeerInfo is what the app knows of a connection's process.
type PeerInfo struct {
	Process Process
	// Parent is the process that started it, when known.
	Parent *Process
	// Browser is the browser family of the parent ("chromium", "firefox",
	// ...) when the parent is a trusted browser executable; "" otherwise.
	Browser string
	// Why says, for people, why the peer is not a trusted browser's host.
	Why string
}

// browserFamilies maps the file names of browser executables to their
// family. Only these, installed owned by root and writable by nobody else,
// count as browsers that may start Tessera's host.
var browserFamilies = map[string]string{
	"chromium": "chromium", "chromium-browser": "chromium", "chrome": "chrome", "google-chrome": "chrome",
	"msedge": "edge", "brave": "brave", "vivaldi-bin": "vivaldi", "opera": "opera",
	"firefox": "firefox", "firefox-esr": "firefox", "firefox-bin": "firefox", "librewolf": "firefox",
}

// BrowserFamily returns the browser family of an executable path by its file
// name, or "".
func BrowserFamily(exe string) string {
	return browserFamilies[strings.TrimSuffix(filepath.Base(exe), " (deleted)")]
}

// Inspect returns what can be verified of the process at the other end of
// c: its executable, whether it is this one's, and whether its parent is a
// trusted browser.
//
// The parent is named by a pid only while it is the peer's parent: the
// parent is read through a pidfd and kept only if it still is the peer's
// parent and alive after /proc was read, so a parent that ended and whose
// pid went to another process lends nothing.
func Inspect(c net.Conn) (PeerInfo, error) {
	p, parent, err := peerWithParent(c)
	if err != nil {
		return PeerInfo{}, err
	}
	info := PeerInfo{Process: p}
	if p.PPID <= 0 {
		info.Why = "its parent process is unknown"
		return info, nil
	}
	if parent == nil {
		info.Why = "its parent process could not be read"
		return info, nil
	}
	info.Parent = parent
	fam, err := trustedBrowser(parent.Exe)
	if err != nil {
		info.Why = "it was started by " + parent.Exe + ", " + err.Error()
		return info, nil
	}
	info.Browser = fam
	return info, nil
}

// StillRuns reports whether p's pid still names the process p describes
// (Linux: the process with that pid started when p did). A caller that
// reads more of a process by its pid after Inspect (its executable file,
// say) checks StillRuns afterwards: a pid freed and given to another
// process would lend that process's facts. It reports false where
// processes are not verified.
func StillRuns(p Process) bool {
	return stillRuns(p)
}

// VerifyApp checks that the process serving c runs this same executable,
// or, in tessera-host, the tessera beside it (Process.Sibling): the host
// and the CLI send nothing to an impostor app. The app hides its memory
// (non-dumpable on Linux), which hides its executable from this user too;
// such a server is accepted when it looks like that executable
// (Process.SameImage), the most Linux shows of it.
func VerifyApp(c net.Conn) error {
	p, err := peerProcess(c)
	if errors.Is(err, ErrVerifyUnsupported) {
		return nil // the channel's owner was checked by Dial; nothing more here yet
	}
	if err != nil {
		return err
	}
	if p.Hidden {
		if !p.SameImage {
			if p.Replaced {
				return fmt.Errorf("%w: %w", ErrNotVerified, ErrAppReplaced)
			}
			return fmt.Errorf("%w: the channel is served by a process that hides itself and does not look like this Tessera (%s)", ErrNotVerified, selfExe())
		}
		return nil
	}
	if !p.SameExe && !(p.Sibling && siblingIsApp(Sibling(selfExe()))) {
		if p.Replaced {
			return fmt.Errorf("%w: %w (it runs %s)", ErrNotVerified, ErrAppReplaced, p.Exe)
		}
		return fmt.Errorf("%w: the channel is served by %s, not by this Tessera (%s)", ErrNotVerified, p.Exe, selfExe())
	}
	return nil
}
