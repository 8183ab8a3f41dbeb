package trust

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// exeIdentity names the executable file process pid runs: through
// /proc/<pid>/exe, which opens that very file even when its path has been
// replaced since.
func exeIdentity(pid int, s *Browsers) (fileIdentity, error) {
	link := "/proc/" + strconv.Itoa(pid) + "/exe"
	path, err := os.Readlink(link)
	if err != nil {
		return fileIdentity{}, fmt.Errorf("its executable cannot be read: %w", err)
	}
	if strings.HasSuffix(path, " (deleted)") {
		return fileIdentity{}, errors.New("its executable was replaced since it started")
	}
	id, err := identify(link, s)
	id.Path = path
	return id, err
}

// pathIdentity names the executable file at path.
func pathIdentity(path string, s *Browsers) (fileIdentity, error) {
	id, err := identify(path, s)
	id.Path = path
	return id, err
}

func identify(name string, s *Browsers) (fileIdentity, error) {
	f, err := os.Open(name)
	if err != nil {
		return fileIdentity{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fileIdentity{}, err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || !fi.Mode().IsRegular() {
		return fileIdentity{}, errors.New("not a regular file")
	}
	id := fileIdentity{Dev: st.Dev, Ino: st.Ino, Size: st.Size, mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano()}
	if id.SHA256, err = s.hash(f, id); err != nil {
		return fileIdentity{}, err
	}
	return id, nil
}
