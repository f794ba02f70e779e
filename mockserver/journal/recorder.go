package journal

import (
	"log/slog"
	"net/http"

	"github.com/petstore/contract/spec/answercheck"
)

// Recorder remembers the status and the start of the body of an answer,
// and what answered it, for the request log and the journal.
type Recorder struct {
	http.ResponseWriter
	Status int
	Body   []byte // up to Limit bytes
	Limit  int    // of Body: 0 keeps none
	// ReqBody is the request body, when the pipeline read one.
	ReqBody []byte
	// Fault is the fault put in place of the answer, if any, and
	// Expectation the id of the expectation that answered, if any.
	Fault       string
	Expectation int64
	// Of a request petmock proxied: who answered, why the mock did, what
	// the request or the backend's answer broke, and why the answer's
	// body went unchecked.
	Source     string
	Fallback   string
	Violations []answercheck.Violation
	Unchecked  string
}

func (w *Recorder) WriteHeader(status int) {
	if w.Status == 0 {
		w.Status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *Recorder) Write(b []byte) (int, error) {
	if w.Status == 0 {
		w.Status = http.StatusOK
	}
	if len(w.Body) < w.Limit {
		w.Body = append(w.Body, b[:min(len(b), w.Limit-len(w.Body))]...)
	}
	return w.ResponseWriter.Write(b)
}

// WriteShared is Write of bytes that nobody writes to again
// (edge.SharedWriter): the body is kept as b itself, rather than copied,
// when it is the whole of what is kept. A body larger than what is kept is
// copied in part, so that the journal holds on to no more than its share.
func (w *Recorder) WriteShared(b []byte) (int, error) {
	if len(w.Body) > 0 || len(b) > w.Limit {
		return w.Write(b)
	}
	if w.Status == 0 {
		w.Status = http.StatusOK
	}
	// Capped, so that a later Write appends to a copy, never to b.
	w.Body = b[:len(b):len(b)]
	return w.ResponseWriter.Write(b)
}

func (w *Recorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Proxied returns what the request log says of a request petmock proxied:
// who answered, and why the mock did, with every key hidden by redact;
// nothing for one it did not.
func (w *Recorder) Proxied(redact func(string) string) []slog.Attr {
	switch {
	case w.Source == "":
		return nil
	case w.Fallback != "":
		return []slog.Attr{slog.String("source", w.Source), slog.String("fallback", redact(w.Fallback))}
	}
	return []slog.Attr{slog.String("source", w.Source)}
}

// RecordRequestBody keeps the request body the gate read.
func (w *Recorder) RecordRequestBody(body []byte) { w.ReqBody = body }
