package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/tessera-app/tessera/internal/safefile"
	"github.com/tessera-app/tessera/nativemsg"
)

// "Trusted browsers" (Settings): a browser executable that the built-in
// rule refuses (owned by root, writable by no one else, a known browser
// family; PROTOCOL.md §2.1) may be approved once by the person, with its
// path shown. An approval names one file: its path, device and inode, size
// and SHA-256. A process is that browser only while the file it runs is
// still that file with those contents; anything else (replaced, modified
// in place, another file at the path) is refused and shown in Settings as
// changed, to approve again or not.

// TrustedFile is the name of the trusted-browsers store in the data directory.
const TrustedFile = "trusted-browsers.json"

// maxTrusted and maxRefused bound the approvals and the refused browsers
// remembered for Settings.
const (
	maxTrusted = 32
	maxRefused = 16
)

// fileIdentity names one executable file and its contents.
type fileIdentity struct {
	Path   string `json:"path"`
	Dev    uint64 `json:"dev"`
	Ino    uint64 `json:"ino"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
	// mtime and ctime (ns) tell a file modified since it was hashed; they
	// key the hash cache and are not stored.
	mtime, ctime int64
}

// A TrustedBrowser is a browser executable the person approved.
type TrustedBrowser struct {
	fileIdentity
	Approved time.Time `json:"approved"`
}

// A RefusedBrowser is a browser executable whose host the app refused
// lately, for Settings to offer its approval.
type RefusedBrowser struct {
	Path string `json:"path"`
	// Why says why the built-in rule refused it; Changed reports that it
	// was approved, and the file has changed since.
	Why     string    `json:"why"`
	Changed bool      `json:"changed,omitempty"`
	Seen    time.Time `json:"seen"`
}

// TrustedBrowsersView is the Settings section.
type TrustedBrowsersView struct {
	Trusted []TrustedBrowserView `json:"trusted"`
	Refused []RefusedBrowser     `json:"refused"`
}

// TrustedBrowserView is one approval, in words.
type TrustedBrowserView struct {
	Path     string `json:"path"`
	SHA256   string `json:"sha256"`
	Approved string `json:"approved"`
}

// Browsers holds the approvals (read once at start, like the paired
// installs: a file written behind the running app's back changes nothing)
// and the browsers refused lately.
type Browsers struct {
	mu      sync.Mutex
	path    string
	list    []TrustedBrowser
	refused []RefusedBrowser
	// hashes caches SHA-256 by file identity, so a large browser
	// executable is read once per change, not once per connection.
	hashes map[[4]int64]string
}

// LoadBrowsers reads the approvals in home ("" keeps them in memory only).
// An unreadable file is an error, and the store starts empty.
func LoadBrowsers(home string) (*Browsers, error) {
	s := &Browsers{hashes: map[[4]int64]string{}}
	if home == "" {
		return s, nil
	}
	s.path = filepath.Join(home, TrustedFile)
	list, err := safefile.ReadList[TrustedBrowser](s.path, "trusted browsers")
	if err != nil {
		return s, err
	}
	for _, t := range list {
		if filepath.IsAbs(t.Path) && len(t.SHA256) == 64 && len(s.list) < maxTrusted {
			s.list = append(s.list, t)
		}
	}
	return s, nil
}

func (s *Browsers) save(list []TrustedBrowser) error {
	return safefile.WriteList(s.path, "trusted browsers", list)
}

// hash returns the SHA-256 of f, whose identity is id, from the cache
// when the file has not changed since.
func (s *Browsers) hash(f *os.File, id fileIdentity) (string, error) {
	key := [4]int64{int64(id.Dev), int64(id.Ino), id.mtime, id.ctime}
	s.mu.Lock()
	h, ok := s.hashes[key]
	s.mu.Unlock()
	if ok {
		return h, nil
	}
	d := sha256.New()
	if _, err := io.Copy(d, f); err != nil {
		return "", err
	}
	h = hex.EncodeToString(d.Sum(nil))
	s.mu.Lock()
	if len(s.hashes) > 64 {
		clear(s.hashes)
	}
	s.hashes[key] = h
	s.mu.Unlock()
	return h, nil
}

// Check decides whether parent, a browser the built-in rule refused, is
// one the person approved, and returns the name to show for it. Refused,
// it is remembered for Settings with why.
func (s *Browsers) Check(parent *nativemsg.Process, why string, now time.Time) (string, error) {
	path := parent.Exe
	s.mu.Lock()
	i := slices.IndexFunc(s.list, func(t TrustedBrowser) bool { return t.Path == path })
	var want TrustedBrowser
	if i >= 0 {
		want = s.list[i]
	}
	s.mu.Unlock()
	if i < 0 {
		s.Refuse(path, why, false, now)
		return "", errors.New(why)
	}
	id, err := exeIdentity(parent.PID, s)
	// The file was read by pid: the parent Inspect named must still be the
	// process with that pid, or another process's file was read.
	if err == nil && !nativemsg.StillRuns(*parent) {
		err = errors.New("it ended while it was checked")
	}
	if err == nil && (id.Path != want.Path || id.Dev != want.Dev || id.Ino != want.Ino || id.Size != want.Size || id.SHA256 != want.SHA256) {
		err = errors.New("the file changed since it was approved")
	}
	if err != nil {
		msg := "it was started by " + path + ", a browser approved in Settings, but " + err.Error() + ": approve it again in Settings if you trust it"
		s.Refuse(path, msg, true, now)
		return "", errors.New(msg)
	}
	name := nativemsg.BrowserFamily(path)
	if name == "" {
		name = filepath.Base(path)
	}
	return name, nil
}

// Refuse remembers path, refused for why, for Settings.
func (s *Browsers) Refuse(path, why string, changed bool, now time.Time) {
	if path == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refused = slices.DeleteFunc(s.refused, func(r RefusedBrowser) bool { return r.Path == path })
	s.refused = append([]RefusedBrowser{{Path: path, Why: why, Changed: changed, Seen: now}}, s.refused...)
	if len(s.refused) > maxRefused {
		s.refused = s.refused[:maxRefused]
	}
}

// Trust approves the executable at path, one the app refused lately, as
// it is now.
func (s *Browsers) Trust(path string, now time.Time) error {
	s.mu.Lock()
	seen := slices.ContainsFunc(s.refused, func(r RefusedBrowser) bool { return r.Path == path })
	s.mu.Unlock()
	if !seen {
		return fmt.Errorf("%s is not a browser Tessera refused lately: start it and open the extension first", path)
	}
	id, err := pathIdentity(path, s)
	if err != nil {
		return fmt.Errorf("approve %s: %w", path, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	list := slices.DeleteFunc(slices.Clone(s.list), func(t TrustedBrowser) bool { return t.Path == path })
	if len(list) >= maxTrusted {
		return fmt.Errorf("%d browsers are approved already: remove one first", maxTrusted)
	}
	list = append(list, TrustedBrowser{fileIdentity: id, Approved: now})
	if err := s.save(list); err != nil {
		return fmt.Errorf("save trusted browsers: %w", err)
	}
	s.list = list
	s.refused = slices.DeleteFunc(s.refused, func(r RefusedBrowser) bool { return r.Path == path })
	return nil
}

// Untrust withdraws the approval of path.
func (s *Browsers) Untrust(path string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	list := slices.DeleteFunc(slices.Clone(s.list), func(t TrustedBrowser) bool { return t.Path == path })
	if len(list) == len(s.list) {
		return fmt.Errorf("%s is not an approved browser", path)
	}
	if err := s.save(list); err != nil {
		return fmt.Errorf("save trusted browsers: %w", err)
	}
	s.list = list
	return nil
}

// View is the Settings section.
func (s *Browsers) View() TrustedBrowsersView {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := TrustedBrowsersView{Trusted: []TrustedBrowserView{}, Refused: slices.Clone(s.refused)}
	if v.Refused == nil {
		v.Refused = []RefusedBrowser{}
	}
	for _, t := range s.list {
		v.Trusted = append(v.Trusted, TrustedBrowserView{Path: t.Path, SHA256: t.SHA256, Approved: t.Approved.UTC().Format(time.RFC3339)})
	}
	return v
}
