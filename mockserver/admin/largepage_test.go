package admin_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/petstore/contract/mockserver"
	"github.com/petstore/contract/mockserver/admin"
	"github.com/petstore/contract/mockserver/store"
)

// maxPagesHeap is the most the heap may grow while 32 maximal pages are
// in flight at once: 100 pets each, with names of almost a mebibyte. Built
// whole, those pages took 32 times 100 MiB.
const maxPagesHeap = 16 << 20

// barrierWriter is an http.ResponseWriter that holds its first Write until
// every other answer of the test has reached its own: at that moment all
// the pages are in flight at once, and whatever an answer holds before it
// writes, it holds then.
type barrierWriter struct {
	h       http.Header
	status  int
	written int64
	first   bool
	arrive  func()
}

func (w *barrierWriter) Header() http.Header    { return w.h }
func (w *barrierWriter) WriteHeader(status int) { w.status = status }

func (w *barrierWriter) Write(b []byte) (int, error) {
	if !w.first {
		w.first = true
		w.arrive()
	}
	w.written += int64(len(b))
	return len(b), nil
}

// TestConcurrentCataloguePagesMemory sends 32 pages of the catalogue of
// 100 pets with names of almost a mebibyte at once, and measures the heap
// at the moment every answer has begun to write: a page built whole in
// memory is there then. The API's pages are held to the same bound, in
// package mockserver.
func TestConcurrentCataloguePagesMemory(t *testing.T) {
	const path = "/__petmock/catalogue/pets?limit=100"
	const clients, perPage = 32, 100
	name := strings.Repeat("n", mockserver.MaxBodyBytes-64)
	srv, err := mockserver.New(mockserver.Config{Items: catalogue.Items{}})
	if err != nil {
		t.Fatal(err)
	}
	// The pets go straight into the store: checking a hundred mebibytes
	// of JSON against the document would only make the test slow.
	entries := make([]store.Entry, perPage)
	for i := range entries {
		text := fmt.Appendf(nil, `{"id":%d,"name":"`, i+1)
		text = append(append(text, name...), `","categoryId":1,"status":"available"}`...)
		entries[i] = store.Entry{ID: int64(i + 1), Text: text, Keys: []string{"available"}}
	}
	if err := srv.Items().Store("pets").Replace(entries); err != nil {
		t.Fatal(err)
	}
	h, err := admin.New(srv, admin.Config{})
	if err != nil {
		t.Fatal(err)
	}
	entries = nil
	runtime.GC()
	var before, during runtime.MemStats
	runtime.ReadMemStats(&before)

	var arrived sync.WaitGroup
	arrived.Add(clients)
	var measure sync.Once
	arrive := func() {
		arrived.Done()
		arrived.Wait()
		// The first answer through measures; the others wait for it,
		// still in flight.
		measure.Do(func() { runtime.ReadMemStats(&during) })
	}
	writers := make([]*barrierWriter, clients)
	var wg sync.WaitGroup
	for i := range writers {
		w := &barrierWriter{h: http.Header{}, arrive: arrive}
		writers[i] = w
		wg.Go(func() {
			req := httptest.NewRequest("GET", "http://petmock.localhost"+path, nil)
			req.Header.Set("Authorization", "Bearer "+key)
			h.ServeHTTP(w, req)
		})
	}
	wg.Wait()
	for i, w := range writers {
		if w.status != 200 || w.written < perPage*int64(len(name)) {
			t.Fatalf("answer %d: %d with %d bytes, want 200 with the %d pets", i, w.status, w.written, perPage)
		}
	}
	grown := int64(during.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("the heap grew by %s while %d pages of %s each were in flight", mib(grown), clients, mib(writers[0].written))
	if grown > maxPagesHeap {
		t.Errorf("the heap grew by %s while %d pages were in flight, want at most %s: pages are held in memory", mib(grown), clients, mib(maxPagesHeap))
	}
}
