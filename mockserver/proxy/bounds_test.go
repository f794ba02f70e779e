package proxy

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// endless is a backend whose answer never ends: chunks of JSON text as
// fast as they are taken, until the request is done.
func endless(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	chunk := []byte(strings.Repeat(`{"name":"x"},`, 2500))
	io.WriteString(w, "[")
	for r.Context().Err() == nil {
		if _, err := w.Write(chunk); err != nil {
			return
		}
	}
}

// stalled is a client that takes the start of an answer and then stops
// reading, as one at 20 KB/s does for minutes.
type stalled struct {
	header  http.Header
	mu      sync.Mutex
	got     int
	stop    chan struct{}
	waiting sync.WaitGroup // done once it stops reading
	once    sync.Once
}

func (s *stalled) Header() http.Header { return s.header }
func (s *stalled) WriteHeader(int)     {}
func (s *stalled) Write(p []byte) (int, error) {
	s.mu.Lock()
	s.got += len(p)
	got := s.got
	s.mu.Unlock()
	if got > 64<<10 {
		s.once.Do(s.waiting.Done)
		<-s.stop
		return 0, io.ErrClosedPipe
	}
	return len(p), nil
}

func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// TestSlowClientsHoldTheirConnectionNotTheAnswer: 100 clients that stop
// reading an endless answer hold, all together, no more than the bound of
// the bodies read for checking and a relay buffer each: the heap grows by
// less than 128 MiB, where each held its first 8 MiB, 800 MiB and more.
// Once they are gone, the bound is given back whole.
func TestSlowClientsHoldTheirConnectionNotTheAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(endless))
	defer srv.Close()
	b, err := New(Config{URL: srv.URL + "/v1"})
	if err != nil {
		t.Fatal(err)
	}
	before := heapInUse()
	stop := make(chan struct{})
	var relays, waiting sync.WaitGroup
	var answers []*Answer
	for range 100 {
		r := httptest.NewRequest("GET", "http://127.0.0.1:4010/v1/pets", nil)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		a, err := b.Forward(Request{In: r.WithContext(ctx), Path: "/pets", Proto: "http", Host: "127.0.0.1:4010"})
		if err != nil {
			t.Fatal(err)
		}
		if a.Whole || a.Unchecked == "" {
			t.Fatalf("an endless answer read whole (%v), or unchecked for no reason (%q)", a.Whole, a.Unchecked)
		}
		answers = append(answers, a)
		w := &stalled{header: http.Header{}, stop: stop}
		w.waiting.Add(1)
		waiting.Go(w.waiting.Wait)
		relays.Go(func() { a.Relay(w) })
	}
	// Every relay has written what its client took, and waits on it.
	waiting.Wait()
	grown := int64(heapInUse()) - int64(before)
	used, most := b.Held()
	t.Logf("100 clients stalled on an endless answer: heap grown by %d MiB; %d MiB held of the %d MiB bound", grown>>20, used>>20, most>>20)
	if used > most {
		t.Errorf("the answers hold %d bytes, over the bound of %d", used, most)
	}
	if grown > 128<<20 {
		t.Errorf("the heap grew by %d MiB for 100 stalled clients, want under 128 MiB", grown>>20)
	}
	close(stop)
	relays.Wait()
	for _, a := range answers {
		a.Close()
	}
	if used, _ := b.Held(); used != 0 {
		t.Errorf("after the clients left, the answers still hold %d bytes", used)
	}
}

// TestAnswersOverTheBoundsAreUnchecked: a body larger than the bound, as
// announced or as read, and one read while the answers in flight hold as
// much as they may, are relayed whole, unchecked, saying why.
func TestAnswersOverTheBoundsAreUnchecked(t *testing.T) {
	body := strings.Repeat("x", 3000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("chunked") {
			w.(http.Flusher).Flush()
		} else {
			w.Header().Set("Content-Length", "3000")
		}
		io.WriteString(w, body)
	}))
	defer srv.Close()
	b, err := New(Config{URL: srv.URL, MaxAnswerBytes: 2000, MaxHeldBytes: 4000})
	if err != nil {
		t.Fatal(err)
	}
	forward := func(query string) *Answer {
		t.Helper()
		r := httptest.NewRequest("GET", "http://127.0.0.1:4010/pets?"+query, nil)
		a, err := b.Forward(Request{In: r, Path: "/pets", Proto: "http", Host: "127.0.0.1:4010"})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	relay := func(a *Answer) string {
		t.Helper()
		w := httptest.NewRecorder()
		if err := a.Relay(w); err != nil {
			t.Fatal(err)
		}
		return w.Body.String()
	}
	for _, query := range []string{"", "chunked"} {
		a := forward(query)
		if a.Whole || !strings.Contains(a.Unchecked, "larger than the 2000 bytes petmock reads to check") || relay(a) != body {
			t.Errorf("?%s: whole %v, unchecked %q; want it relayed whole, unchecked as too large", query, a.Whole, a.Unchecked)
		}
		a.Close()
	}
	b.max = 3000
	first := forward("")
	if !first.Whole {
		t.Fatalf("an answer within the bounds: whole %v, unchecked %q", first.Whole, first.Unchecked)
	}
	second := forward("")
	if second.Whole || !strings.Contains(second.Unchecked, "the answers in flight hold 4000 bytes") || relay(second) != body {
		t.Errorf("an answer past what the answers in flight may hold: whole %v, unchecked %q", second.Whole, second.Unchecked)
	}
	second.Close()
	first.Close()
	if third := forward(""); !third.Whole {
		t.Errorf("once the first was closed, an answer within the bounds: unchecked %q", third.Unchecked)
	} else {
		third.Close()
	}
}

// masker hides "SECRET", as a Scrubber.
type masker struct{}

func (masker) Reach() int { return len("SECRET") }
func (masker) Scrub(b []byte) {
	for i := bytes.Index(b, []byte("SECRET")); i >= 0; i = bytes.Index(b, []byte("SECRET")) {
		copy(b[i:], "******")
	}
}

// TestRelayScrubs: what the Scrubber hides is hidden wherever it falls,
// across the parts a body is relayed in and across the end of what was
// read for checking, with as many bytes.
func TestRelayScrubs(t *testing.T) {
	var body strings.Builder
	for i := range 20_000 {
		body.WriteString("SECRET")
		body.WriteString(strings.Repeat(".", i%7))
	}
	for _, max := range []int64{0, 1000, 1 << 20} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.(http.Flusher).Flush()
			io.WriteString(w, body.String())
		}))
		b, err := New(Config{URL: srv.URL, MaxAnswerBytes: max, Scrub: masker{}})
		if err != nil {
			t.Fatal(err)
		}
		a, err := b.Forward(Request{In: httptest.NewRequest("GET", "http://127.0.0.1:4010/x", nil), Path: "/x"})
		if err != nil {
			t.Fatal(err)
		}
		w := httptest.NewRecorder()
		if err := a.Relay(w); err != nil {
			t.Fatal(err)
		}
		a.Close()
		srv.Close()
		got := w.Body.String()
		if strings.Contains(got, "S") || len(got) != body.Len() {
			t.Errorf("read for checking up to %d: relayed %d bytes of %d, %d of them S", max, len(got), body.Len(), strings.Count(got, "S"))
		}
	}
}
