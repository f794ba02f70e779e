package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// With the default catalogue, petmock's live heap is a few MiB, and Go's
// collector, which lets the heap grow to twice what is live (GOGC=100,
// and at least 4 MiB), collected it 30 times a second under a load of
// listPets, each collection stopping every goroutine twice and marking the
// document's structures anew: about a tenth of the CPU a request cost. A
// heap floor makes the collector wait until the heap holds heapFloor: after
// each collection, GOGC is set so that the next comes at heapFloor, or at
// twice what is live once that is more, as a store of a million items is.
// A GOGC given in the environment is left as it is.

// heapFloor is the least heap a collection waits for.
const heapFloor = 32 << 20

// maxGCPercent bounds the GOGC the floor sets, of a heap that holds
// almost nothing.
const maxGCPercent = 10_000

// keepHeapFloor keeps the heap floor until stop is called, which gives the
// collector back its default; it does nothing when getenv gives GOGC.
func keepHeapFloor(getenv func(string) string) (stop func()) {
	if getenv("GOGC") != "" {
		return func() {}
	}
	f := &floor{}
	f.tune()
	runtime.SetFinalizer(&gcTick{f: f}, afterGC)
	return func() {
		f.mu.Lock()
		f.stopped = true
		f.mu.Unlock()
		debug.SetGCPercent(100)
	}
}

// floor is the state of a heap floor.
type floor struct {
	mu      sync.Mutex // guards stopped and percent
	stopped bool
	percent int
	sample  [1]metrics.Sample
}

// gcTick is collected by every collection, whose finalizer tunes the
// floor and makes a new one for the next.
type gcTick struct {
	f *floor
	_ [16]byte // not a tiny allocation, which is finalized with others
}

func afterGC(t *gcTick) {
	if t.f.tune() {
		runtime.SetFinalizer(&gcTick{f: t.f}, afterGC)
	}
}

// tune sets GOGC for the next collection to come at the floor, from the
// heap the last one left live, and reports whether the floor is still kept.
func (f *floor) tune() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopped {
		return false
	}
	f.sample[0].Name = "/gc/heap/live:bytes"
	metrics.Read(f.sample[:])
	if f.sample[0].Value.Kind() != metrics.KindUint64 {
		return false // a runtime that does not tell: its default stays
	}
	percent := percentFor(f.sample[0].Value.Uint64())
	if percent != f.percent {
		debug.SetGCPercent(percent)
		f.percent = percent
	}
	return true
}

// percentFor returns the GOGC that lets a heap of live bytes grow to the
// floor before it is collected, and no less than Go's default of 100.
func percentFor(live uint64) int {
	if live == 0 {
		return maxGCPercent
	}
	if 2*live >= heapFloor {
		return 100
	}
	return int(min(heapFloor*100/live-100, maxGCPercent))
}
