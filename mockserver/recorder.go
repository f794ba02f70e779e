package mockserver

import "net/http"

// recorder remembers the status and the start of the body of an answer,
// for the request log and the journal.
type recorder struct {
	http.ResponseWriter
	status int
	body   []byte // up to limit bytes
	limit  int    // of body: 0 keeps none
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
	if len(w.body) < w.limit {
		w.body = append(w.body, b[:min(len(b), w.limit-len(w.body))]...)
	}
	return w.ResponseWriter.Write(b)
}

func (w *recorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }
