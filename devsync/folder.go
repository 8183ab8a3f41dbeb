package devsync

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"filippo.io/age"
)

// An FS is the sync folder. Names are plain file names in the folder's top
// level. The sync engine reads every device's files and writes only its
// own.
type FS interface {
	// List returns the files in the folder, with their sizes.
	List() ([]FileInfo, error)
	// ReadFile returns the bytes of the file name from offset off to its
	// end (none when off is at or past the end).
	ReadFile(name string, off int64) ([]byte, error)
	// WriteAt makes the file name hold its first at bytes followed by
	// data (creating it if needed), durably, before returning.
	WriteAt(name string, data []byte, at int64) error
	// WriteFile replaces name by data atomically: a reader sees the old
	// file or the new one, never a mix.
	WriteFile(name string, data []byte) error
	Remove(name string) error
}

// A FileInfo names one file of the folder.
type FileInfo struct {
	Name string
	Size int64
}

// DirFS is the FS of a directory on disk.
type DirFS string

// List lists the regular files of the directory.
func (d DirFS) List() ([]FileInfo, error) {
	ents, err := os.ReadDir(string(d))
	if err != nil {
		return nil, fmt.Errorf("list sync folder: %w", err)
	}
	var out []FileInfo
	for _, e := range ents {
		if !e.Type().IsRegular() {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		out = append(out, FileInfo{Name: e.Name(), Size: fi.Size()})
	}
	return out, nil
}

// ReadFile reads a file of the directory from offset off.
func (d DirFS) ReadFile(name string, off int64) ([]byte, error) {
	f, err := os.Open(filepath.Join(string(d), filepath.Base(name)))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		return nil, err
	}
	return io.ReadAll(f)
}

// WriteAt writes data at offset at, truncating what followed, and syncs.
func (d DirFS) WriteAt(name string, data []byte, at int64) error {
	f, err := os.OpenFile(filepath.Join(string(d), filepath.Base(name)), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	if err := f.Truncate(at); err != nil {
		f.Close()
		return err
	}
	if _, err := f.WriteAt(data, at); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// WriteFile writes a temporary file, syncs it and renames it over name.
func (d DirFS) WriteFile(name string, data []byte) error {
	var rnd [6]byte
	rand.Read(rnd[:])
	tmp := filepath.Join(string(d), ".tessera-tmp-"+hex.EncodeToString(rnd[:]))
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(string(d), filepath.Base(name)))
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	if df, err := os.Open(string(d)); err == nil {
		df.Sync()
		df.Close()
	}
	return nil
}

// Remove removes a file; one already gone is not an error.
func (d DirFS) Remove(name string) error {
	err := os.Remove(filepath.Join(string(d), filepath.Base(name)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// GroupFileName is the file in the sync folder that holds the group secret
// wrapped with age scrypt under the vault's recovery passphrase.
const GroupFileName = "tessera-sync.age"

// ErrNoGroup is returned by ReadGroupFile when the folder has no group file:
// no device has set up sync in it yet.
var ErrNoGroup = errors.New("the sync folder has no Tessera group file")

// ErrBadPassphrase is returned by ReadGroupFile when the passphrase does
// not open the group file.
var ErrBadPassphrase = errors.New("the passphrase does not open the sync folder")

// ErrOldFolder is returned by ReadGroupFile for a folder set up by a
// development build of Tessera from before devices had keys of their own
// (never released): its files cannot be read; empty the folder and set
// sync up again from one device.
var ErrOldFolder = errors.New("the sync folder was set up by an earlier development build of Tessera: empty it and set sync up again")

// groupDoc is the group file's content: the group id and root key, the
// recovery identity, and the epoch keys known when it was written.
type groupDoc struct {
	V        int      `json:"v"`
	Group    string   `json:"group"`
	Key      string   `json:"key"`
	Recovery string   `json:"recovery"`
	Epochs   []string `json:"epochs,omitempty"`
}

// WriteGroupFile wraps s under passphrase (age scrypt, work factor log2 N)
// into the folder's group file, replacing any earlier one. The group key
// is never written unwrapped.
func WriteGroupFile(fsys FS, s Secret, passphrase []byte, workFactor int) error {
	r, err := age.NewScryptRecipient(string(passphrase))
	if err != nil {
		return fmt.Errorf("write group file: %w", err)
	}
	if workFactor > 0 {
		r.SetWorkFactor(workFactor)
	}
	var buf bytes.Buffer
	w, err := age.Encrypt(&buf, r)
	if err != nil {
		return fmt.Errorf("write group file: %w", err)
	}
	d := groupDoc{V: 2, Group: hex.EncodeToString(s.Group[:]), Key: hex.EncodeToString(s.Key[:]), Recovery: s.Recovery}
	for _, e := range s.Epochs {
		d.Epochs = append(d.Epochs, hex.EncodeToString(e[:]))
	}
	doc, _ := json.Marshal(d)
	defer clear(doc)
	if _, err := w.Write(doc); err != nil {
		return fmt.Errorf("write group file: %w", err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("write group file: %w", err)
	}
	if err := fsys.WriteFile(GroupFileName, buf.Bytes()); err != nil {
		return fmt.Errorf("write group file: %w", err)
	}
	return nil
}

// ReadGroupFile opens the folder's group file with passphrase. It returns
// an error wrapping ErrNoGroup when there is none, ErrBadPassphrase when
// the passphrase does not open it, and ErrOldFolder when an earlier
// development build wrote it.
func ReadGroupFile(fsys FS, passphrase []byte) (Secret, error) {
	var s Secret
	b, err := fsys.ReadFile(GroupFileName, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return s, fmt.Errorf("read group file: %w", ErrNoGroup)
	}
	if err != nil {
		return s, fmt.Errorf("read group file: %w", err)
	}
	id, err := age.NewScryptIdentity(string(passphrase))
	if err != nil {
		return s, fmt.Errorf("read group file: %w: %w", ErrBadPassphrase, err)
	}
	r, err := age.Decrypt(bytes.NewReader(b), id)
	var noMatch *age.NoIdentityMatchError
	if errors.As(err, &noMatch) {
		return s, fmt.Errorf("read group file: %w", ErrBadPassphrase)
	}
	if err != nil {
		return s, fmt.Errorf("read group file: %w", err)
	}
	pt, err := io.ReadAll(io.LimitReader(r, 64<<10))
	if err != nil {
		return s, fmt.Errorf("read group file: %w", err)
	}
	defer clear(pt)
	var doc groupDoc
	if err := json.Unmarshal(pt, &doc); err != nil {
		return s, fmt.Errorf("read group file: %w", err)
	}
	if doc.V != 2 {
		return s, fmt.Errorf("read group file: %w", ErrOldFolder)
	}
	g, err1 := hex.DecodeString(doc.Group)
	k, err2 := hex.DecodeString(doc.Key)
	if err1 != nil || err2 != nil || len(g) != len(s.Group) || len(k) != len(s.Key) {
		return s, errors.New("read group file: malformed")
	}
	if _, err := age.ParseX25519Identity(doc.Recovery); err != nil {
		return s, errors.New("read group file: malformed recovery identity")
	}
	copy(s.Group[:], g)
	copy(s.Key[:], k)
	clear(k)
	s.Recovery = doc.Recovery
	for _, e := range doc.Epochs {
		b, err := hex.DecodeString(e)
		if err != nil || len(b) != 32 {
			return s, errors.New("read group file: malformed epoch key")
		}
		s.Epochs = append(s.Epochs, [32]byte(b))
	}
	return s, nil
}

// syncFileKind returns kindJournal, kindSnapshot or kindRoster for a file the sync
// engine reads, and 0 for any other. Copies a sync tool makes of a file
// keep its extension ("x.1.sync-conflict-20261127-101010-ABC.tsj", "x.1
// (conflicted copy 2026-11-27).tsj") and are read like the original.
func syncFileKind(name string) byte {
	if strings.HasPrefix(name, ".") {
		return 0
	}
	switch {
	case strings.HasSuffix(name, ".tsj"):
		return kindJournal
	case strings.HasSuffix(name, ".tss"):
		return kindSnapshot
	case strings.HasSuffix(name, ".tsr"):
		return kindRoster
	}
	return 0
}
