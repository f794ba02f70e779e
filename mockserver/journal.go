package mockserver

import (
	"net/http"
	"sync"
	"time"

	"github.com/petstore/contract/spec/answercheck"
)

// DefaultJournalSize is how many requests the journal keeps by default.
const DefaultJournalSize = 100

// DefaultJournalBytes is how many bytes of headers and bodies the journal
// keeps by default, whatever its size: it drops its oldest requests to
// stay within them.
const DefaultJournalBytes = 64 << 20

// journalBodyBytes is how much of each body the journal keeps.
const journalBodyBytes = 4 << 10

// Exchange is one request of the API, or one outside its base path, and
// its answer, as the request journal shows it.
type Exchange struct {
	Time   time.Time `json:"time"`
	Method string    `json:"method"`
	Path   string    `json:"path"`
	Query  string    `json:"query,omitempty"`
	// Status is 0 when no answer's head was sent: a fault closed the
	// connection first.
	Status     int     `json:"status"`
	DurationMS float64 `json:"durationMs"`
	// Fault is the fault put in place of the answer, if any.
	Fault Fault `json:"fault,omitempty"`
	// Expectation is the id of the expectation that answered, if any.
	Expectation int64   `json:"expectation,omitempty"`
	Request     Message `json:"request"`
	Response    Message `json:"response"`
	// Source says who answered when petmock proxies (Config.Proxy):
	// SourceBackend or SourceMock; "" when it does not.
	Source string `json:"source,omitempty"`
	// Fallback says why the mock answered in the backend's place.
	Fallback string `json:"fallback,omitempty"`
	// Violations are the rules of the document the backend's answer
	// broke, each with what was wrong.
	Violations []answercheck.Violation `json:"violations,omitempty"`
}

// Message is the headers and the body of a request or an answer. Keys are
// never in it: Authorization and Cookie show as "[redacted]", and so does
// an accepted key wherever else it stands, in any form; nor, unless the
// journalSecrets setting shows them, are the app's secrets (secrets.go).
// A body is cut after 4 KiB, and Truncated says so.
type Message struct {
	Header    http.Header `json:"headers,omitempty"`
	Body      string      `json:"body,omitempty"`
	Truncated bool        `json:"truncated,omitempty"`
}

// entry is an exchange as the journal keeps it: taken as cheaply as it
// can be while answering, and made an Exchange only when someone asks.
type entry struct {
	start   time.Time
	elapsed time.Duration
	method  string
	path    string
	query   string
	status  int
	// fault and expectation say what answered instead of the handler.
	fault       Fault
	expectation int64
	// The headers are those of the request and the answer themselves:
	// once an answer is written, net/http works on its own copy, and
	// nothing writes to either map again.
	reqHeader  http.Header
	reqBody    []byte // at most redactor.keptBytes(journalBodyBytes)
	respHeader http.Header
	respBody   []byte // likewise
	// respCut says that respBody is cut short although it is shorter than
	// what the journal keeps, as of a backend's answer larger than the
	// proxy read.
	respCut bool
	// Of a request petmock proxied: who answered, why the mock did, and
	// what the backend's answer broke.
	source     string
	fallback   string
	violations []answercheck.Violation
}

// exchange makes e an Exchange without the keys r hides, and, unless s
// is nil, without the secrets s finds (see secrets.go).
func (e *entry) exchange(r *redactor, s *secrets) Exchange {
	reqHeader, respHeader, query := e.reqHeader, e.respHeader, e.query
	reqBody, respBody := e.reqBody, e.respBody
	if s != nil {
		var found []string
		reqHeader = s.hideHeader(reqHeader, &found)
		respHeader = s.hideHeader(respHeader, &found)
		query = s.hideParams(query, &found)
		reqBody = s.hideBody(reqBody, e.reqHeader.Get("Content-Type"), &found)
		respBody = s.hideBody(respBody, e.respHeader.Get("Content-Type"), &found)
		// A value hidden by its name is hidden wherever else the exchange
		// repeats it, such as in an error message that quotes it.
		r = r.with(found)
	}
	reqText, reqCut := r.clip(reqBody, bodyLimit(e.reqBody, reqBody))
	respText, respCut := r.clip(respBody, bodyLimit(e.respBody, respBody))
	var violations []answercheck.Violation
	for _, v := range e.violations {
		violations = append(violations, answercheck.Violation{Rule: v.Rule, Message: r.text(v.Message)})
	}
	return Exchange{
		Time:        e.start.UTC(),
		Method:      r.text(e.method),
		Path:        r.text(e.path),
		Query:       r.query(query),
		Status:      e.status,
		DurationMS:  float64(e.elapsed.Microseconds()) / 1000,
		Fault:       e.fault,
		Expectation: e.expectation,
		Request:     Message{Header: r.header(reqHeader), Body: reqText, Truncated: reqCut},
		Response:    Message{Header: r.header(respHeader), Body: respText, Truncated: respCut || e.respCut},
		Source:      e.source,
		Fallback:    r.text(e.fallback),
		Violations:  violations,
	}
}

// bodyLimit is how much of a kept body, hidden, the journal shows: the
// first 4 KiB, or the whole of a body that fitted in them before its
// secrets were hidden and grew longer.
func bodyLimit(kept, hidden []byte) int {
	if len(kept) <= journalBodyBytes {
		return max(journalBodyBytes, len(hidden))
	}
	return journalBodyBytes
}

// Journal returns up to limit of the last requests of the API, and
// outside its base path, and their answers, newest first, without a key in them (see Message),
// nor, unless the journalSecrets setting shows them, the app's secrets
// (see secrets.go); a limit of 0 or less returns all the journal keeps.
func (s *Server) Journal(limit int) []Exchange {
	if limit <= 0 {
		limit = s.journal.size()
	}
	var hide *secrets
	if !s.settings.load().showSecrets {
		hide = s.secrets
	}
	return s.journal.recent(limit, hide)
}

// ClearJournal empties the journal.
func (s *Server) ClearJournal() {
	s.journal.clear()
	s.events.publish(eventJournal)
}

// journal keeps the last exchanges, dropping the oldest: past the number
// it keeps, and past its budget of bytes, so that requests with large
// headers cannot make it hold hundreds of MiB. A journal of size 0, or a
// nil one, keeps none.
type journal struct {
	redact   *redactor
	maxBytes int64 // of the headers and bodies of the entries held

	mu    sync.Mutex // guards ring, head, count and bytes
	ring  []entry
	head  int   // the oldest entry
	count int   // of entries held
	bytes int64 // of the entries held, as entry.size counts them
}

func newJournal(size int, maxBytes int64, redact *redactor) *journal {
	return &journal{ring: make([]entry, max(size, 0)), maxBytes: maxBytes, redact: redact}
}

// size counts the bytes an entry holds on to: its headers and bodies,
// which are all that can grow with what a client sends.
func (e *entry) size() int64 {
	n := int64(len(e.reqBody) + len(e.respBody) + len(e.fallback))
	for _, v := range e.violations {
		n += int64(len(v.Rule) + len(v.Message))
	}
	for _, h := range []http.Header{e.reqHeader, e.respHeader} {
		for name, values := range h {
			n += int64(len(name))
			for _, v := range values {
				n += int64(len(v))
			}
		}
	}
	return n
}

func (j *journal) add(e entry) {
	n := e.size()
	j.mu.Lock()
	defer j.mu.Unlock()
	if len(j.ring) == 0 || n > j.maxBytes {
		return // resized to nothing while the request was answered, or larger than all it keeps
	}
	for j.count == len(j.ring) || j.count > 0 && j.bytes+n > j.maxBytes {
		j.dropOldest()
	}
	j.ring[(j.head+j.count)%len(j.ring)] = e
	j.count++
	j.bytes += n
}

// dropOldest drops the oldest entry. The caller holds mu.
func (j *journal) dropOldest() {
	j.bytes -= j.ring[j.head].size()
	j.ring[j.head] = entry{}
	j.head = (j.head + 1) % len(j.ring)
	j.count--
}

// size is how many exchanges the journal keeps at most.
func (j *journal) size() int {
	if j == nil {
		return 0
	}
	j.mu.Lock() // resize replaces the ring
	defer j.mu.Unlock()
	return len(j.ring)
}

// held returns how many exchanges the journal holds, and their bytes.
func (j *journal) held() (int, int64) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.count, j.bytes
}

// recent returns up to n exchanges, newest first, without the secrets
// hide finds, unless it is nil.
func (j *journal) recent(n int, hide *secrets) []Exchange {
	if j == nil {
		return []Exchange{}
	}
	j.mu.Lock()
	n = min(n, j.count)
	entries := make([]entry, 0, n)
	for i := 1; i <= n; i++ {
		entries = append(entries, j.ring[(j.head+j.count-i)%len(j.ring)])
	}
	j.mu.Unlock()
	out := make([]Exchange, len(entries))
	for i := range entries {
		out[i] = entries[i].exchange(j.redact, hide)
	}
	return out
}

func (j *journal) clear() {
	if j == nil {
		return
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	clear(j.ring)
	j.head, j.count, j.bytes = 0, 0, 0
}

// keepBody returns what the journal keeps of a request body: the body
// itself when it is short, or a copy of its first limit bytes, so that
// the journal never holds on to a large body.
func keepBody(b []byte, limit int) []byte {
	if len(b) > limit {
		return append([]byte(nil), b[:limit]...)
	}
	return b
}
