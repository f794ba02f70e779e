package main

import (
	"context"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"time"
)

// Every request petmock answers is a line of its log, and slog's text
// handler took about a quarter of the CPU petmock's own work on a request
// costs to write it: a state built for the record, each attribute looked
// at by kind and each string tested for quoting rune by rune. The lines of
// the request log are all alike (journal.RequestLog): time, level, the
// message "request", then method, path, status and duration. requestLines
// writes those lines itself, byte for byte as the text handler would, and
// hands the handler every other record, and every line whose strings hold
// anything it would quote.

// requestLines is a slog.Handler that writes the request log's lines
// itself, to w, and every other record with text, a slog.TextHandler of
// no options writing to w.
type requestLines struct {
	text *slog.TextHandler
	w    io.Writer
}

func newRequestLines(w io.Writer) slog.Handler {
	return requestLines{text: slog.NewTextHandler(w, nil), w: w}
}

func (h requestLines) Enabled(ctx context.Context, l slog.Level) bool {
	return h.text.Enabled(ctx, l)
}

func (h requestLines) WithAttrs(attrs []slog.Attr) slog.Handler { return h.text.WithAttrs(attrs) }

func (h requestLines) WithGroup(name string) slog.Handler { return h.text.WithGroup(name) }

// lineBuffers hold the lines being written.
var lineBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 256); return &b }}

func (h requestLines) Handle(ctx context.Context, r slog.Record) error {
	buf := lineBuffers.Get().(*[]byte)
	defer lineBuffers.Put(buf)
	line, ok := appendRequestLine((*buf)[:0], r)
	*buf = line[:0]
	if !ok {
		return h.text.Handle(ctx, r)
	}
	_, err := h.w.Write(line)
	return err
}

// requestKeys are the keys of a line of the request log, in order.
var requestKeys = [...]string{"method", "path", "status", "duration"}

// appendRequestLine appends r as slog's text handler of no options writes
// it, and reports whether it could: r must be a line of the request log,
// with nothing more, whose strings need no quoting.
func appendRequestLine(b []byte, r slog.Record) ([]byte, bool) {
	if r.Message != "request" || r.Level != slog.LevelInfo || r.NumAttrs() != len(requestKeys) || r.Time.IsZero() {
		return b, false
	}
	var attrs [len(requestKeys)]slog.Attr
	i := 0
	r.Attrs(func(a slog.Attr) bool {
		attrs[i] = a
		i++
		return true
	})
	for i, a := range attrs {
		if a.Key != requestKeys[i] {
			return b, false
		}
	}
	method, path, status, duration := attrs[0].Value, attrs[1].Value, attrs[2].Value, attrs[3].Value
	if method.Kind() != slog.KindString || path.Kind() != slog.KindString || status.Kind() != slog.KindInt64 ||
		duration.Kind() != slog.KindDuration {
		return b, false
	}
	return appendLine(b, r.Time, method.String(), path.String(), status.Int64(), duration.Duration())
}

// appendLine appends the line of a request, as slog's text handler of no
// options writes the record of the request log, and reports whether it
// could: method and path must need no quoting.
func appendLine(b []byte, at time.Time, method, path string, status int64, elapsed time.Duration) ([]byte, bool) {
	if at.IsZero() || !plain(method) || !plain(path) {
		return b, false
	}
	b = append(b, "time="...)
	b = appendRFC3339Millis(b, at.Round(0))
	b = append(b, " level=INFO msg=request method="...)
	b = append(b, method...)
	b = append(b, " path="...)
	b = append(b, path...)
	b = append(b, " status="...)
	b = strconv.AppendInt(b, status, 10)
	b = append(b, " duration="...)
	b = append(b, elapsed.String()...)
	return append(b, '\n'), true
}

// WriteRequestLine writes the line of a request of the request log
// itself, without the record (journal.RequestLineWriter), where it needs
// no quoting.
func (h requestLines) WriteRequestLine(at time.Time, method, path string, status int, elapsed time.Duration) bool {
	buf := lineBuffers.Get().(*[]byte)
	defer lineBuffers.Put(buf)
	line, ok := appendLine((*buf)[:0], at, method, path, int64(status), elapsed)
	*buf = line[:0]
	if ok {
		h.w.Write(line)
	}
	return ok
}

// plain reports whether s is written unquoted by slog's text handler, by
// a test stricter than its own: not empty, and only letters, digits and
// the characters a path holds that need no escape in JSON, none of them a
// space or '='.
func plain(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '/', c == '-', c == '.', c == '_', c == '~', c == '%', c == '+', c == ':', c == '@',
			c == ',', c == ';', c == '!', c == '*', c == '\'', c == '(', c == ')', c == '$', c == '&':
		default:
			return false
		}
	}
	return true
}

// appendRFC3339Millis appends t as slog's text handler writes a time:
// RFC 3339 with exactly three digits of milliseconds, truncated.
func appendRFC3339Millis(b []byte, t time.Time) []byte {
	const prefixLen = len("2006-01-02T15:04:05.000")
	n := len(b)
	t = t.Truncate(time.Millisecond).Add(time.Millisecond / 10)
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b[:n+prefixLen], b[n+prefixLen+1:]...) // drop the fourth digit
}
