package mockserver

import "net/http"

// recorder remembers the status and the start of the body of an answer,
// for the request log and the journal.
type recorder struct {
	http.ResponseWriter
	status int
	body   []byte // up to journalBodyBytes+1, when keep
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
