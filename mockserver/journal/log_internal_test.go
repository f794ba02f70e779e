package journal

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// blockingHandler is a slog handler whose Handle waits until it is
// released, as one writing to a pipe nobody reads, and keeps the messages.
type blockingHandler struct {
	release chan struct{}
	mu      sync.Mutex
	lines   []string
}

func (h *blockingHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *blockingHandler) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *blockingHandler) WithGroup(string) slog.Handler            { return h }
func (h *blockingHandler) Handle(_ context.Context, r slog.Record) error {
	<-h.release
	var b strings.Builder
	b.WriteString(r.Message)
	r.Attrs(func(a slog.Attr) bool { b.WriteString(" " + a.String()); return true })
	h.mu.Lock()
	defer h.mu.Unlock()
	h.lines = append(h.lines, b.String())
	return nil
}

// TestRequestLogNeverHoldsAnAnswer logs more requests than the queue
// takes while the log's handler blocks: no request may wait for it, the
// lines past the bound are dropped, and once the handler takes lines again
// the log says how many, the lines kept and those dropped making every
// request, with the key hidden.
func TestRequestLogNeverHoldsAnAnswer(t *testing.T) {
	h := &blockingHandler{release: make(chan struct{})}
	l := NewRequestLog(slog.New(h), NewRedactor([]string{"s3cret"}))
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 3 * maxQueued {
			r := httptest.NewRequest("GET", "/v1/pets/s3cret", nil)
			l.Request(r, &Recorder{Status: 200 + i%2}, time.Now(), time.Millisecond)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a request waited for the log's handler")
	}
	close(h.release)
	l.Flush()
	h.mu.Lock()
	defer h.mu.Unlock()
	kept, dropped := 0, 0
	for _, line := range h.lines {
		if n, ok := strings.CutPrefix(line, "request log lines dropped: the log could not keep up with the requests count="); ok {
			d, _ := strconv.Atoi(n)
			dropped += d
			continue
		}
		if strings.Contains(line, "s3cret") || !strings.Contains(line, "path=/v1/pets/") || !strings.Contains(line, "status=20") {
			t.Fatalf("line %q is not a request's line without the key", line)
		}
		kept++
	}
	if dropped == 0 || kept+dropped != 3*maxQueued || kept > 2*maxQueued {
		t.Errorf("%d lines kept and %d said dropped, want some dropped, every one of the %d counted, at most %d kept", kept, dropped, 3*maxQueued, 2*maxQueued)
	}
}

// lineHandler is a RequestLineWriter that takes the lines of paths below
// /plain only, and keeps what it is handed either way.
type lineHandler struct {
	blockingHandler
	direct []string
}

func (h *lineHandler) WriteRequestLine(at time.Time, method, path string, status int, elapsed time.Duration) bool {
	if !strings.HasPrefix(path, "/plain") {
		return false
	}
	h.direct = append(h.direct, method+" "+path+" "+strconv.Itoa(status)+" "+elapsed.String())
	return true
}

// TestRequestLineWriter hands the lines that say no more than method,
// path, status and duration, keys hidden, to a handler that writes them
// itself; lines that say more, and those it declines, go to Handle.
func TestRequestLineWriter(t *testing.T) {
	h := &lineHandler{blockingHandler: blockingHandler{release: make(chan struct{})}}
	close(h.release)
	l := NewRequestLog(slog.New(h), NewRedactor([]string{"s3cret"}))
	for _, c := range []struct {
		path string
		rec  Recorder
	}{
		{"/plain/s3cret", Recorder{Status: 200}},
		{"/plain/faulty", Recorder{Status: 200, Fault: "reset"}},
		{"/plain/expected", Recorder{Status: 200, Expectation: 3}},
		{"/plain/proxied", Recorder{Status: 200, Source: "backend"}},
		{"/declined", Recorder{Status: 404}},
	} {
		l.Request(httptest.NewRequest("GET", c.path, nil), &c.rec, time.Now(), time.Millisecond)
	}
	l.Flush()
	if want := []string{"GET /plain/[redacted] 200 1ms"}; strings.Join(h.direct, "|") != strings.Join(want, "|") {
		t.Errorf("written directly: %q, want %q", h.direct, want)
	}
	if len(h.lines) != 4 || !strings.Contains(strings.Join(h.lines, "|"), "path=/declined") || !strings.Contains(strings.Join(h.lines, "|"), "fault=reset") {
		t.Errorf("handled as records: %q, want the four others", h.lines)
	}
}
