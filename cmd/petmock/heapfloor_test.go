package main

import (
	"runtime"
	"runtime/metrics"
	"testing"
	"time"
)

func TestPercentFor(t *testing.T) {
	for _, tt := range []struct {
		live uint64
		want int
	}{
		{0, maxGCPercent},
		{1 << 10, maxGCPercent},
		{2 << 20, 1500},
		{8 << 20, 300},
		{16 << 20, 100},
		{240 << 20, 100},
	} {
		if got := percentFor(tt.live); got != tt.want {
			t.Errorf("percentFor(%d) = %d, want %d", tt.live, got, tt.want)
		}
	}
}

// gogc returns the GOGC the collector runs with now.
func gogc() int64 {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// TestHeapFloorAfterEachCollection holds that the floor sets GOGC after
// every collection, from the heap left live, gives the default back when
// stopped, and does nothing when the environment gives GOGC.
func TestHeapFloorAfterEachCollection(t *testing.T) {
	if got := gogc(); got != 100 {
		t.Skipf("the test runs with GOGC=%d", got)
	}
	stop := keepHeapFloor(env("GOGC", "100"))
	runtime.GC()
	if got := gogc(); got != 100 {
		t.Errorf("with GOGC in the environment, GOGC is %d, want 100", got)
	}
	stop()

	stop = keepHeapFloor(env())
	defer stop()
	// A heap that grows past the floor is collected at twice its size,
	// and one that shrinks again below half of it, at the floor.
	for _, grow := range []bool{true, false, true} {
		var big []byte
		if grow {
			big = make([]byte, heapFloor)
		}
		deadline := time.Now().Add(5 * time.Second)
		var want int64
		for {
			runtime.GC()
			s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
			metrics.Read(s)
			want = int64(percentFor(s[0].Value.Uint64()))
			if gogc() == want || time.Now().After(deadline) {
				break
			}
			time.Sleep(10 * time.Millisecond) // the finalizer runs after the collection
		}
		if got := gogc(); got != want || grow && got != 100 || !grow && got <= 100 {
			t.Errorf("holding as much as the floor: %v; GOGC is %d, want %d", grow, got, want)
		}
		runtime.KeepAlive(big)
	}
	stop()
	if got := gogc(); got != 100 {
		t.Errorf("once stopped, GOGC is %d, want 100", got)
	}
}
