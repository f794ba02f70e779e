package journal

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"
)

// The request log takes a line of every request off its answer: the
// request leaves what the line says, a few words, in a bounded queue,
// and the line is written, keys hidden, by the logger's handler a moment
// later, many at once, after the answer has gone. A handler that cannot
// keep up, such as one writing to a pipe nobody reads, never holds an
// answer back: once the queue is full, lines are dropped, counted, and
// the log says how many.

// maxQueued bounds the lines queued for the request log.
const maxQueued = 8192

// logAfter is how long a line waits for others to be written with it.
const logAfter = 5 * time.Millisecond

// RequestLog writes the request log of a server, and of those that take
// over from it, off the answers (see the package comment). Its zero
// value is not valid: see NewRequestLog.
type RequestLog struct {
	log    *slog.Logger
	redact *Redactor

	mu       sync.Mutex // guards the fields below
	queued   []logLine
	spare    []logLine // the queue of the last write, kept to be the next
	dropped  int
	flushing bool // a write of the queued lines is scheduled or under way
	// writing is held while lines are written, so that Flush waits for
	// a write under way.
	writing sync.Mutex
}

// A RequestLineWriter is a slog.Handler that writes a line of the request
// log that says no more than a request's method, path, status and
// duration itself, without a record: making the record, its attributes
// added and then read back one by one, cost about as much as writing the
// line. It writes the line as its Handle would write the record of
// RequestLog, and reports whether it did; the log hands it the record
// where it did not.
type RequestLineWriter interface {
	WriteRequestLine(at time.Time, method, path string, status int, elapsed time.Duration) bool
}

// logLine is what the log says of one request, before keys are hidden.
type logLine struct {
	at               time.Time
	elapsed          time.Duration
	method, path     string
	status           int
	fault            string
	expectation      int64
	source, fallback string
}

// NewRequestLog returns the request log of log, hiding what redact hides.
func NewRequestLog(log *slog.Logger, redact *Redactor) *RequestLog {
	return &RequestLog{log: log, redact: redact}
}

// Request queues the line of one request, answered as rec recorded it,
// and returns at once.
func (l *RequestLog) Request(r *http.Request, rec *Recorder, start time.Time, elapsed time.Duration) {
	if !l.log.Handler().Enabled(r.Context(), slog.LevelInfo) {
		return
	}
	line := logLine{at: start.Add(elapsed), elapsed: elapsed, method: r.Method, path: r.URL.Path, status: rec.Status,
		fault: rec.Fault, expectation: rec.Expectation, source: rec.Source, fallback: rec.Fallback}
	l.mu.Lock()
	if len(l.queued) >= maxQueued {
		l.dropped++
	} else {
		l.queued = append(l.queued, line)
	}
	schedule := !l.flushing
	l.flushing = true
	l.mu.Unlock()
	if schedule {
		time.AfterFunc(logAfter, l.write)
	}
}

// Flush writes the lines queued, and returns once they are: before a
// server stops, and for a test that reads the log.
func (l *RequestLog) Flush() {
	l.write()
}

// write writes the lines queued, and says how many were dropped.
func (l *RequestLog) write() {
	l.writing.Lock()
	defer l.writing.Unlock()
	l.mu.Lock()
	lines, dropped := l.queued, l.dropped
	l.queued, l.spare, l.dropped, l.flushing = l.spare[:0], nil, 0, false
	l.mu.Unlock()
	h := l.log.Handler()
	direct, _ := h.(RequestLineWriter)
	ctx := context.Background()
	for _, line := range lines {
		// Keys hidden once, for the line or the record.
		method, path := l.redact.Text(line.method), l.redact.Text(LogPath(line.path))
		if direct != nil && line.fault == "" && line.expectation == 0 && line.source == "" &&
			direct.WriteRequestLine(line.at, method, path, line.status, line.elapsed) {
			continue
		}
		h.Handle(ctx, l.record(line, method, path))
	}
	clear(lines)
	l.mu.Lock()
	if l.spare == nil && cap(lines) <= maxQueued {
		l.spare = lines[:0]
	}
	l.mu.Unlock()
	if dropped > 0 {
		warn := slog.NewRecord(time.Now(), slog.LevelWarn, "request log lines dropped: the log could not keep up with the requests", 0)
		warn.AddAttrs(slog.Int("count", dropped))
		h.Handle(ctx, warn)
	}
}

// record returns the log record of line: method and path, as given,
// without a key or a secret path parameter, status and duration, the
// fault or the expectation that answered it, if any, and who answered a
// request petmock proxied.
func (l *RequestLog) record(line logLine, method, path string) slog.Record {
	// The record is built by hand: Logger.LogAttrs would walk the stack
	// for a source position that nobody reads.
	// The attributes are added at once: each call of AddAttrs costs
	// about as much as the attributes it adds.
	var attrs [8]slog.Attr
	a := append(attrs[:0],
		slog.String("method", method),
		slog.String("path", path),
		slog.Int("status", line.status),
		slog.Duration("duration", line.elapsed),
	)
	if line.fault != "" {
		a = append(a, slog.String("fault", line.fault))
	}
	if line.expectation != 0 {
		a = append(a, slog.Int64("expectation", line.expectation))
	}
	if line.source != "" {
		rec := Recorder{Source: line.source, Fallback: line.fallback}
		a = append(a, rec.Proxied(l.redact.Text)...)
	}
	r := slog.NewRecord(line.at, slog.LevelInfo, "request", 0)
	r.AddAttrs(a...)
	return r
}

// LogPath is a path as the log writes it: without the values of its
// secret path parameters, such as a session id a servlet container puts
// in a URL (/cart;jsessionid=...), which the log hides whatever the
// journal's setting, as it holds no header, query or body.
func LogPath(path string) string {
	var found []string
	return (*Secrets)(nil).hidePath(path, &found)
}
