package devsync

import (
	"io/fs"
	"maps"
	"slices"
	"time"
)

// memFS is an in-memory sync folder.
type memFS map[string][]byte

func (m memFS) List() ([]FileInfo, error) {
	var out []FileInfo
	for _, n := range slices.Sorted(maps.Keys(m)) {
		out = append(out, FileInfo{Name: n, Size: int64(len(m[n]))})
	}
	return out, nil
}

func (m memFS) ReadFile(name string, off int64) ([]byte, error) {
	b, ok := m[name]
	if !ok {
		return nil, fs.ErrNotExist
	}
	if off >= int64(len(b)) {
		return nil, nil
	}
	return slices.Clone(b[off:]), nil
}

func (m memFS) WriteAt(name string, data []byte, at int64) error {
	b := m[name]
	if int64(len(b)) < at {
		b = append(b, make([]byte, int(at)-len(b))...)
	}
	m[name] = append(slices.Clone(b[:at]), data...)
	return nil
}

func (m memFS) WriteFile(name string, data []byte) error {
	m[name] = slices.Clone(data)
	return nil
}

func (m memFS) Remove(name string) error {
	delete(m, name)
	return nil
}

// fixedClock always says the same time.
type fixedClock struct{}

func (fixedClock) Now() time.Time { return time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC) }
