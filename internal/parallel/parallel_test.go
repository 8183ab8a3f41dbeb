package parallel_test

import (
	"errors"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tessera-app/tessera/internal/parallel"
)

// TestChunkPanicReachesCaller: a panic in a chunk another goroutine runs
// is raised again in Chunks's caller, where a recover sees it (the
// broker's does), instead of ending the process.
func TestChunkPanicReachesCaller(t *testing.T) {
	prev := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(prev)
	var ran atomic.Int64
	got := func() (v any) {
		defer func() { v = recover() }()
		parallel.Chunks(10000, 1, func(lo, hi int) {
			if ran.Add(1) == 50 {
				panic("bad control")
			}
		})
		return nil
	}()
	var p *parallel.Panic
	if err, ok := got.(error); !ok || !errors.As(err, &p) || p.Value != "bad control" || !strings.Contains(err.Error(), "TestChunkPanicReachesCaller") {
		t.Fatalf("recovered %v, want the chunk's panic with its stack", got)
	}
}

// TestChunksCoverEveryIndexOnce: every index is given to exactly one
// chunk, for sizes that do and do not divide the count.
func TestChunksCoverEveryIndexOnce(t *testing.T) {
	prev := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(prev)
	for _, c := range []struct{ n, size int }{{0, 32}, {1, 32}, {31, 32}, {32, 32}, {33, 32}, {1000, 32}, {97, 1}, {5, 7}} {
		seen := make([]atomic.Int32, c.n)
		parallel.Chunks(c.n, c.size, func(lo, hi int) {
			if hi-lo > c.size || lo >= hi {
				t.Errorf("n=%d size=%d: chunk [%d,%d)", c.n, c.size, lo, hi)
			}
			for i := lo; i < hi; i++ {
				seen[i].Add(1)
			}
		})
		for i := range seen {
			if v := seen[i].Load(); v != 1 {
				t.Errorf("n=%d size=%d: index %d given %d times", c.n, c.size, i, v)
			}
		}
	}
}
