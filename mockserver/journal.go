package mockserver

import (
	"net/http"
	"sync"
	"time"
)

// DefaultJournalSize is how many requests the journal keeps by default.
const DefaultJournalSize = 100

// journalBodyBytes is how much of each body the journal keeps.
const journalBodyBytes = 4 << 10

// Exchange is one request under the base path and its answer, as the
// request journal shows it.
type Exchange struct {
	Time       time.Time `json:"time"`
	Method     string    `json:"method"`
	Path       string    `json:"path"`
	Query      string    `json:"query,omitempty"`
	Status     int       `json:"status"`
	DurationMS float64   `json:"durationMs"`
	Request    Message   `json:"request"`
	Response   Message   `json:"response"`
}

// Message is the headers and the body of a request or an answer. Keys are
// never in it: Authorization and Cookie show as "[redacted]". A body is
// cut after 4 KiB, and Truncated says so.
type Message struct {
	Header    http.Header `json:"headers,omitempty"`
	Body      string      `json:"body,omitempty"`
	Truncated bool        `json:"truncated,omitempty"`
}

// journal keeps the last exchanges, oldest first overwritten.
type journal struct {
	mu   sync.Mutex // guards ring, next and full
	ring []Exchange
	next int  // where the next exchange goes
	full bool // whether ring has wrapped
}

func newJournal(size int) *journal {
	if size <= 0 {
		return nil
	}
	return &journal{ring: make([]Exchange, size)}
}

func (j *journal) add(e Exchange) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.ring[j.next] = e
	j.next++
	if j.next == len(j.ring) {
		j.next, j.full = 0, true
	}
}

// recent returns up to n exchanges, newest first.
func (j *journal) recent(n int) []Exchange {
	j.mu.Lock()
	defer j.mu.Unlock()
	size := j.next
	if j.full {
		size = len(j.ring)
	}
	n = min(n, size)
	out := make([]Exchange, 0, n)
	for i := 1; i <= n; i++ {
		out = append(out, j.ring[(j.next-i+len(j.ring))%len(j.ring)])
	}
	return out
}

func (j *journal) clear() {
	j.mu.Lock()
	defer j.mu.Unlock()
	clear(j.ring)
	j.next, j.full = 0, false
}

// redactedHeader copies h without its secrets.
func redactedHeader(h http.Header) http.Header {
	out := h.Clone()
	for _, name := range []string{"Authorization", "Cookie", "Proxy-Authorization"} {
		if _, ok := out[name]; ok {
			out[name] = []string{"[redacted]"}
		}
	}
	return out
}

// clip returns at most journalBodyBytes of b as a string, and whether it
// cut anything.
func clip(b []byte) (string, bool) {
	if len(b) > journalBodyBytes {
		return string(b[:journalBodyBytes]), true
	}
	return string(b), false
}

// recorder remembers the status and the start of the body of an answer,
// for the request log and the journal.
type recorder struct {
	http.ResponseWriter
	status int
	body   []byte // up to journalBodyBytes+1, when keepBody
	keep   bool
	// reqBody is the request body, when the pipeline read one.
	reqBody []byte
}

func (w *recorder) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *recorder) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if w.keep && len(w.body) <= journalBodyBytes {
		w.body = append(w.body, b[:min(len(b), journalBodyBytes+1-len(w.body))]...)
	}
	return w.ResponseWriter.Write(b)
}

func (w *recorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }
