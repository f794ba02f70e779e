package mockserver

import (
	"log/slog"
	"net/http"

	"github.com/petstore/contract/spec/answercheck"
)

// recorder remembers the status and the start of the body of an answer,
// and what answered it, for the request log and the journal.
type recorder struct {
	http.ResponseWriter
	status int
	body   []byte // up to limit bytes
	limit  int    // of body: 0 keeps none
	// reqBody is the request body, when the pipeline read one.
	reqBody []byte
	// fault is the fault put in place of the answer, if any, and
	// expectation the id of the expectation that answered, if any.
	fault       Fault
	expectation int64
	// Of a request petmock proxied: who answered, why the mock did, and
	// what the backend's answer broke.
	source     string
	fallback   string
	violations []answercheck.Violation
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
	if len(w.body) < w.limit {
		w.body = append(w.body, b[:min(len(b), w.limit-len(w.body))]...)
	}
	return w.ResponseWriter.Write(b)
}

func (w *recorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// proxied returns what the request log says of a request petmock proxied:
// who answered, and why the mock did, with every key hidden by redact;
// nothing for one it did not.
func (w *recorder) proxied(redact func(string) string) []slog.Attr {
	switch {
	case w.source == "":
		return nil
	case w.fallback != "":
		return []slog.Attr{slog.String("source", w.source), slog.String("fallback", redact(w.fallback))}
	}
	return []slog.Attr{slog.String("source", w.source)}
}

// RecordRequestBody keeps the request body the gate read.
func (w *recorder) RecordRequestBody(body []byte) { w.reqBody = body }
