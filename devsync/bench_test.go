package devsync

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/tessera-app/tessera/vault"
)

// tenThousand returns a folder in which two devices made 10,000 changes
// between them, one change per record (every edit synced on its own, the
// worst case for the journal): values set and reset across 100 profiles of
// 10 details, a tenth of them concurrent edits of the same detail.
func tenThousand(tb testing.TB) (memFS, []*Replica) {
	fs := memFS{}
	a, _ := NewReplica("00000000000000a0", testSecret, fixedClock{})
	b, _ := NewReplica("00000000000000a1", testSecret, fixedClock{})
	rs := []*Replica{a, b}
	for i := range 10000 {
		r := rs[i%2]
		pid := fmt.Sprintf("profile-%03d", i%100)
		key := fmt.Sprintf("concept:https://example.org/concept/%d", (i/100)%10)
		if err := r.Edit(func(e *Editor) {
			e.Set(pid, key, json.RawMessage(fmt.Sprintf(`"value %d of a realistic length, 40 bytes"`, i)), json.RawMessage(`{"confidence":1,"source":{"type":"manual","timestamp":"2026-11-27T12:00:00Z"},"verified":true}`))
		}); err != nil {
			tb.Fatal(err)
		}
		if err := r.Flush(fs); err != nil {
			tb.Fatal(err)
		}
		if i%10 != 0 {
			if err := rs[(i+1)%2].Read(fs); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return fs, rs
}

func folderSize(fs memFS) int {
	n := 0
	for _, b := range fs {
		n += len(b)
	}
	return n
}

// BenchmarkMerge10000 measures a device that has read nothing reading and
// merging the 10,000 changes of two others: opening every record,
// applying it, and materializing the view.
func BenchmarkMerge10000(b *testing.B) {
	fs, _ := tenThousand(b)
	b.ReportMetric(float64(folderSize(fs)), "folder-bytes")
	for b.Loop() {
		r, _ := NewReplica("00000000000000c0", testSecret, fixedClock{})
		if err := r.Read(fs); err != nil {
			b.Fatal(err)
		}
		if r.st.VV["00000000000000a0"] != 5000 {
			b.Fatalf("read %d records of a0, want 5000", r.st.VV["00000000000000a0"])
		}
		r.View()
	}
}

// BenchmarkFolderSize reports the folder's size after 10,000 changes and
// after both devices compacted, and the cost of a compaction.
func BenchmarkFolderSize(b *testing.B) {
	fs, rs := tenThousand(b)
	before := folderSize(fs)
	for _, r := range rs {
		r.Read(fs)
	}
	for b.Loop() {
		for _, r := range rs {
			if err := r.Compact(fs); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(before), "bytes-after-10000")
	b.ReportMetric(float64(folderSize(fs)), "bytes-compacted")
}

// BenchmarkSyncNowIdle measures the app's timer tick when nothing changed:
// a vault of 100 profiles of 10 values each, synced with one other device.
func BenchmarkSyncNowIdle(b *testing.B) {
	ctx := context.Background()
	folder := b.TempDir()
	v, err := vault.Create(b.TempDir(), vault.Options{ScryptWorkFactor: 10}, vault.InitOptions{Passphrase: []byte("p")})
	if err != nil {
		b.Fatal(err)
	}
	defer v.Close()
	for p := range 100 {
		pid := fmt.Sprintf("p%d", p)
		v.CreateProfile(pid, pid)
		for k := range 10 {
			v.SetEntry(pid, vault.FieldKey(fmt.Sprintf("k%d", k)), entry(fmt.Sprintf("value %d %d", p, k)))
		}
	}
	s, err := Setup(ctx, v, folder, "bench", []byte("p"), testOpts)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.SyncNow(ctx); err != nil {
			b.Fatal(err)
		}
	}
}
