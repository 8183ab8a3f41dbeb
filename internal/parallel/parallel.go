// Package parallel shares a page's controls among the cores: extraction
// finishes reading them, classification weighs their words, on every core
// GOMAXPROCS allows, with the results one core alone would give.
package parallel

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// Chunks calls fn over the indexes [0, n) in chunks of size, on as many
// goroutines as there are cores to run them (GOMAXPROCS) and chunks to
// share, the caller's among them, and returns when every chunk is done.
// fn must write only what belongs to the indexes it is given, and read
// nothing another chunk writes; then the result never depends on which
// goroutine did a chunk, and is what one goroutine doing every chunk in
// order gives. A panic in any chunk is raised again in the caller, as a
// *Panic, where the caller's recovery sees it, instead of ending the
// process from a goroutine of its own.
func Chunks(n, size int, fn func(lo, hi int)) {
	if n <= 0 {
		return
	}
	size = max(size, 1)
	chunks := (n + size - 1) / size
	workers := min(runtime.GOMAXPROCS(0), chunks)
	if workers <= 1 {
		fn(0, n)
		return
	}
	var next atomic.Int64
	var failed atomic.Pointer[Panic]
	work := func() {
		defer func() {
			if v := recover(); v != nil {
				failed.CompareAndSwap(nil, &Panic{Value: v, Stack: debug.Stack()})
			}
		}()
		for failed.Load() == nil {
			c := int(next.Add(1) - 1)
			if c >= chunks {
				return
			}
			fn(c*size, min((c+1)*size, n))
		}
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	if p := failed.Load(); p != nil {
		panic(p)
	}
}

// A Panic is a panic raised in a chunk of Chunks, with the stack of the
// goroutine it was raised in.
type Panic struct {
	Value any
	Stack []byte
}

func (p *Panic) Error() string {
	return fmt.Sprintf("%v\n\n%s", p.Value, p.Stack)
}
