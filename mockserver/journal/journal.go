package journal

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

// BodyBytes is how much of each body the journal shows.
const BodyBytes = 4 << 10

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
	Fault string `json:"fault,omitempty"`
	// Expectation is the id of the expectation that answered, if any.
	Expectation int64   `json:"expectation,omitempty"`
	Request     Message `json:"request"`
	Response    Message `json:"response"`
	// Source says who answered when petmock proxies (Config.Proxy):
	// SourceBackend or SourceMock; "" when it does not.
	Source string `json:"source,omitempty"`
	// Fallback says why the mock answered in the backend's place.
	Fallback string `json:"fallback,omitempty"`
	// Violations are the rules of the document the request, or the
	// backend's answer, broke, each with what was wrong.
	Violations []answercheck.Violation `json:"violations,omitempty"`
	// Unchecked says why the body of the backend's answer was relayed
	// unchecked, such as one larger than petmock reads to check.
	Unchecked string `json:"unchecked,omitempty"`
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

// Entry is an exchange as the journal keeps it: taken as cheaply as it
// can be while answering, and made an Exchange only when someone asks.
type Entry struct {
	Start   time.Time
	Elapsed time.Duration
	Method  string
	Path    string
	Query   string
	Status  int
	// Fault and Expectation say what answered instead of the handler.
	Fault       string
	Expectation int64
	// The headers are those of the request and the answer themselves:
	// once an answer is written, net/http works on its own copy, and
	// nothing writes to either map again.
	ReqHeader  http.Header
	ReqBody    []byte // at most Redactor.KeptBytes(BodyBytes)
	RespHeader http.Header
	RespBody   []byte // likewise
	// RespCut says that RespBody is cut short although it is shorter than
	// what the journal keeps, as of a backend's answer larger than the
	// proxy read.
	RespCut bool
	// Of a request petmock proxied: who answered, why the mock did, what
	// the request or the backend's answer broke, and why the answer's
	// body went unchecked.
	Source     string
	Fallback   string
	Violations []answercheck.Violation
	Unchecked  string
	// held is what size counted when the journal took the entry, so that
	// dropping it walks its headers no second time.
	held int64
}

// exchange makes e an Exchange without the keys r hides, and, unless s
// is nil, without the secrets s finds (see secrets.go).
func (e *Entry) exchange(r *Redactor, s *Secrets) Exchange {
	reqHeader, respHeader, query, path := e.ReqHeader, e.RespHeader, e.Query, e.Path
	reqBody, respBody := e.ReqBody, e.RespBody
	if s != nil {
		var found []string
		reqHeader = s.hideHeader(reqHeader, &found)
		respHeader = s.hideHeader(respHeader, &found)
		query = s.hideParams(query, &found)
		path = s.hidePath(path, &found)
		reqBody = s.hideBody(reqBody, e.ReqHeader.Get("Content-Type"), &found)
		respBody = s.hideBody(respBody, e.RespHeader.Get("Content-Type"), &found)
		// A value hidden by its name is hidden wherever else the exchange
		// repeats it, such as in an error message that quotes it.
		r = r.With(found)
	}
	reqText, reqCut := r.Clip(reqBody, bodyLimit(e.ReqBody, reqBody))
	respText, respCut := r.Clip(respBody, bodyLimit(e.RespBody, respBody))
	var violations []answercheck.Violation
	for _, v := range e.Violations {
		violations = append(violations, answercheck.Violation{Rule: v.Rule, Message: r.Text(v.Message)})
	}
	return Exchange{
		Time:        e.Start.UTC(),
		Method:      r.Text(e.Method),
		Path:        r.Text(path),
		Query:       r.Query(query),
		Status:      e.Status,
		DurationMS:  float64(e.Elapsed.Microseconds()) / 1000,
		Fault:       e.Fault,
		Expectation: e.Expectation,
		Request:     Message{Header: r.Header(reqHeader), Body: reqText, Truncated: reqCut},
		Response:    Message{Header: r.Header(respHeader), Body: respText, Truncated: respCut || e.RespCut},
		Source:      e.Source,
		Fallback:    r.Text(e.Fallback),
		Violations:  violations,
		Unchecked:   e.Unchecked,
	}
}

// bodyLimit is how much of a kept body, hidden, the journal shows: the
// first 4 KiB, or the whole of a body that fitted in them before its
// secrets were hidden and grew longer.
func bodyLimit(kept, hidden []byte) int {
	if len(kept) <= BodyBytes {
		return max(BodyBytes, len(hidden))
	}
	return BodyBytes
}

// Journal keeps the last exchanges, dropping the oldest: past the number
// it keeps, and past its budget of bytes, so that requests with large
// headers cannot make it hold hundreds of MiB. A journal of size 0, or a
// nil one, keeps none. It shows them without a key (see Message), nor,
// unless its showSecrets says so, the app's secrets (see Secrets).
type Journal struct {
	redact      *Redactor
	secrets     *Secrets
	showSecrets func() bool
	maxBytes    int64 // of the headers and bodies of the entries held
	events      *Hub
	change      Change

	mu    sync.Mutex // guards ring, head, count and bytes
	ring  []Entry
	head  int   // the oldest entry
	count int   // of entries held
	bytes int64 // of the entries held, as entry.size counts them
}

// Config configures a Journal.
type Config struct {
	// Size is how many exchanges it keeps, and MaxBytes how many bytes
	// of their headers and bodies.
	Size     int
	MaxBytes int64
	// Redact hides the keys, and Secrets the app's secrets unless
	// ShowSecrets, which may be nil, says to show them.
	Redact      *Redactor
	Secrets     *Secrets
	ShowSecrets func() bool
	// Events, when not nil, is told Change when the journal is cleared.
	Events *Hub
	Change Change
}

// New returns the journal cfg describes.
func New(cfg Config) *Journal {
	return &Journal{ring: make([]Entry, max(cfg.Size, 0)), maxBytes: cfg.MaxBytes, redact: cfg.Redact, secrets: cfg.Secrets,
		showSecrets: cfg.ShowSecrets, events: cfg.Events, change: cfg.Change}
}

// size counts the bytes an entry holds on to: its headers and bodies,
// which are all that can grow with what a client sends.
func (e *Entry) size() int64 {
	n := int64(len(e.ReqBody) + len(e.RespBody) + len(e.Fallback) + len(e.Unchecked))
	for _, v := range e.Violations {
		n += int64(len(v.Rule) + len(v.Message))
	}
	for _, h := range []http.Header{e.ReqHeader, e.RespHeader} {
		for name, values := range h {
			n += int64(len(name))
			for _, v := range values {
				n += int64(len(v))
			}
		}
	}
	return n
}

// Add keeps e, dropping the oldest entries as it must to stay within the
// journal's size and bytes.
func (j *Journal) Add(e Entry) {
	n := e.size()
	e.held = n
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
func (j *Journal) dropOldest() {
	j.bytes -= j.ring[j.head].held
	j.ring[j.head] = Entry{}
	j.head = (j.head + 1) % len(j.ring)
	j.count--
}

// Size is how many exchanges the journal keeps at most.
func (j *Journal) Size() int {
	if j == nil {
		return 0
	}
	j.mu.Lock() // resize replaces the ring
	defer j.mu.Unlock()
	return len(j.ring)
}

// Held returns how many exchanges the journal holds, and their bytes.
func (j *Journal) Held() (int, int64) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.count, j.bytes
}

// Recent returns up to n of the last exchanges, newest first; n of 0 or
// less returns all the journal keeps.
func (j *Journal) Recent(n int) []Exchange {
	if j == nil {
		return []Exchange{}
	}
	var hide *Secrets
	if j.showSecrets == nil || !j.showSecrets() {
		hide = j.secrets
	}
	j.mu.Lock()
	if n <= 0 {
		n = len(j.ring)
	}
	n = min(n, j.count)
	entries := make([]Entry, 0, n)
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

// Clear empties the journal, and tells the event streams.
func (j *Journal) Clear() {
	if j == nil {
		return
	}
	j.mu.Lock()
	clear(j.ring)
	j.head, j.count, j.bytes = 0, 0, 0
	j.mu.Unlock()
	if j.events != nil {
		j.events.Publish(j.change)
	}
}

// KeepBody returns what the journal keeps of a request body: the body
// itself when it is short, or a copy of its first limit bytes, so that
// the journal never holds on to a large body.
func KeepBody(b []byte, limit int) []byte {
	if len(b) > limit {
		return append([]byte(nil), b[:limit]...)
	}
	return b
}
