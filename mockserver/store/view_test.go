package store

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// viewPages are pages of every kind: first and later, filtered and not,
// of a filter no item has, and past the end.
func viewPages(ids []int64) []Page {
	pages := []Page{
		{After: math.MinInt64, Limit: 1},
		{After: math.MinInt64, Limit: 20},
		{After: math.MinInt64, Limit: 1000},
		statusPage(math.MinInt64, 7, "sold"),
		statusPage(math.MinInt64, 7, "nobody's"),
		{After: math.MaxInt64, Limit: 5},
	}
	for _, id := range ids[:min(len(ids), 5)] {
		pages = append(pages, Page{After: id, Limit: 3}, statusPage(id, 2, "pending"))
	}
	return pages
}

// randomStore returns a store of n pets with names of random lengths, a
// few of them long.
func randomStore(tb testing.TB, rnd *rand.Rand, n int) (*Store, []int64) {
	tb.Helper()
	s := New("pets", 1)
	var ids []int64
	for i := range n {
		length := 1 + rnd.IntN(40)
		if rnd.IntN(10) == 0 {
			length = 1 + rnd.IntN(5000)
		}
		p, err := addPet(s, strings.Repeat(string(rune('a'+i%26)), length), int64(i), statuses[rnd.IntN(3)])
		if err != nil {
			tb.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	return s, ids
}

// TestPageViewAgreesWithAppendPage: a page measured and written item by
// item is the page AppendTo builds, byte for byte, with the same last id
// and the same answer to whether more follow.
func TestPageViewAgreesWithAppendPage(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 9))
	s, ids := randomStore(t, rnd, 300)
	for _, id := range ids {
		if rnd.IntN(4) == 0 {
			s.Delete(id)
		}
	}
	for _, pg := range viewPages(ids) {
		v := s.View(pg)
		want, wantLast, wantMore := v.AppendTo(nil)
		if got, last, more := s.AppendPage(nil, pg); !bytes.Equal(got, want) || last != wantLast || more != wantMore {
			t.Errorf("page %+v: AppendPage and View(pg).AppendTo differ", pg)
		}
		size, last, more := v.Measure()
		if size != len(want) || last != wantLast || more != wantMore {
			t.Errorf("page %+v: Measure = %d, %d, %v; want %d, %d, %v", pg, size, last, more, len(want), wantLast, wantMore)
		}
		var buf bytes.Buffer
		n, err := v.WriteTo(&buf)
		if err != nil || n != int64(len(want)) || !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("page %+v: WriteTo wrote %d bytes, %v; want the %d bytes of AppendTo", pg, n, err, len(want))
		}
	}
}

// TestPageViewReadsOneState: writes after View, the items of the page
// changed, removed, added before it, or the store restored, change
// nothing of what the view measures and writes. Under -race, the writes
// run while the view is written.
func TestPageViewReadsOneState(t *testing.T) {
	s := newTestStore(t, nil)
	for i := range 10 {
		addPet(s, fmt.Sprintf("p%d", i), 1, statuses[i%3])
	}
	mark := s.Mark()
	pg := Page{After: 2, Limit: 5}
	v := s.View(pg)
	want, _, _ := v.AppendTo(nil)
	wantSize, wantLast, wantMore := v.Measure()

	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Put(testPet{ID: 4, Name: "changed", Status: "sold"}.entry())
		s.Delete(5)
		addPet(s, "added", 1, "sold")
		s.Restore(mark)
		addPet(s, "after restore", 1, "sold")
		s.Replace([]Entry{testPet{ID: 3, Name: "replaced"}.entry()})
	}()
	for range 20 {
		var buf bytes.Buffer
		v.WriteTo(&buf)
		if !bytes.Equal(buf.Bytes(), want) {
			t.Fatalf("after writes, the view wrote %s, want %s", buf.Bytes(), want)
		}
	}
	<-done
	if size, last, more := v.Measure(); size != wantSize || last != wantLast || more != wantMore {
		t.Errorf("after writes, Measure = %d, %d, %v; want %d, %d, %v", size, last, more, wantSize, wantLast, wantMore)
	}
	if now, _, _ := s.AppendPage(nil, pg); bytes.Equal(now, want) {
		t.Errorf("the store's page did not change: the writes were not seen")
	}
}

// TestPageViewMayExceed: a page of which MayExceed reports false is never
// longer than the size asked about, and a page of small items is not
// said to exceed a size it cannot reach.
func TestPageViewMayExceed(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 1))
	s, ids := randomStore(t, rnd, 200)
	for _, pg := range viewPages(ids) {
		v := s.View(pg)
		size, _, _ := v.Measure()
		for _, max := range []int{2, 100, 1000, 4096, 64 << 10, 1 << 20} {
			if !v.MayExceed(max) && size > max {
				t.Errorf("page %+v: MayExceed(%d) = false for a page of %d bytes", pg, max, size)
			}
		}
	}

	small := newTestStore(t, nil)
	for range 200 {
		addPet(small, "Fyodor Dogstoevsky", 1, "sold")
	}
	if small.View(Page{After: math.MinInt64, Limit: 100}).MayExceed(64 << 10) {
		t.Errorf("a page of 100 pets of 70 bytes: MayExceed(64 KiB) = true, want false")
	}
	addPet(small, strings.Repeat("n", 1000), 1, "sold")
	if !small.View(Page{After: math.MaxInt64, Limit: 100}).MayExceed(64 << 10) {
		t.Errorf("a page of 100 in a store that holds a pet of 1000 bytes: MayExceed(64 KiB) = false, want true")
	}
}

// failingWriter accepts ok writes, then fails every write.
type failingWriter struct {
	ok      int
	written int
	failed  int // writes refused
}

var errWriter = errors.New("writer: closed")

func (w *failingWriter) Write(b []byte) (int, error) {
	if w.ok == 0 {
		w.failed++
		return 0, errWriter
	}
	w.ok--
	w.written += len(b)
	return len(b), nil
}

// TestPageViewWriteToStops: WriteTo stops at the writer's first error and
// returns it, with the bytes written until then.
func TestPageViewWriteToStops(t *testing.T) {
	s := newTestStore(t, []testPet{{ID: 1, Name: "a"}, {ID: 2, Name: "b"}, {ID: 3, Name: "c"}})
	v := s.View(Page{After: math.MinInt64, Limit: 10})
	// The page is written in 7 writes: [, three items, two commas, ].
	for ok := range 7 {
		w := &failingWriter{ok: ok}
		n, err := v.WriteTo(w)
		if err != errWriter || n != int64(w.written) || w.failed != 1 {
			t.Errorf("WriteTo to a writer that fails after %d writes: %d bytes, %v, %d writes tried after the error; want %d bytes, %v, none",
				ok, n, err, w.failed-1, w.written, errWriter)
		}
	}
}
