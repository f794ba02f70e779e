package mockserver_test

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

// TestConcurrentLargePagesMemory sends 32 pages of 100 pets with names of
// almost a mebibyte at once, and measures the heap at the moment every
// answer has begun to write: a page built whole in memory is there then.
// (The console's catalogue pages are held to the same bound, in package
// admin.)
func TestConcurrentLargePagesMemory(t *testing.T) {
	const path = "/v1/pets?limit=100"
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
			req := httptest.NewRequest("GET", "http://petmock"+path, nil)
			req.Header.Set("Authorization", "Bearer "+key)
			srv.ServeHTTP(w, req)
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

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// TestLargePagesAreWhole checks that a page too large to build in one
// buffer, and so written item by item, is the same page: every pet, in
// order, a Content-Length that matches, the next link, and HEAD alike.
func TestLargePagesAreWhole(t *testing.T) {
	var pets []Pet
	for i := range 7 {
		pets = append(pets, Pet{ID: int64(i + 1), Name: strings.Repeat(string(rune('a'+i)), 30<<10), CategoryID: 1, Status: "sold"})
	}
	ts := newTestServer(t, mockserver.Config{Items: items(pets)})
	for _, query := range []string{"limit=5", "limit=5&status=sold"} {
		resp := ts.do(t, "GET", "/pets?"+query, "")
		got := resp.pets(t)
		if resp.StatusCode != 200 || len(got) != 5 || got[0] != pets[0] || got[4] != pets[4] {
			t.Fatalf("GET /v1/pets?%s: %d with %d pets, want the first 5", query, resp.StatusCode, len(got))
		}
		if cl := resp.Header.Get("Content-Length"); cl != fmt.Sprint(len(resp.body)) || resp.body[len(resp.body)-1] != '\n' {
			t.Errorf("GET /v1/pets?%s: Content-Length %s for %d bytes", query, cl, len(resp.body))
		}
		if !strings.Contains(resp.Header.Get("Link"), `rel="next"`) {
			t.Errorf("GET /v1/pets?%s: no next link", query)
		}
		rest, _ := walk(t, ts, "/pets?"+query)
		if len(rest) != len(pets) {
			t.Errorf("walking from GET /v1/pets?%s: %d pets, want %d", query, len(rest), len(pets))
		}
		head := ts.do(t, "HEAD", "/pets?"+query, "")
		if head.StatusCode != 200 || len(head.body) != 0 || head.Header.Get("Content-Length") != resp.Header.Get("Content-Length") {
			t.Errorf("HEAD /v1/pets?%s: %d with %d bytes and Content-Length %q, want GET's %q and no body",
				query, head.StatusCode, len(head.body), head.Header.Get("Content-Length"), resp.Header.Get("Content-Length"))
		}
	}
}
