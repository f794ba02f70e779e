package mockserver

import (
	"bytes"
	"net/http"

	"github.com/petstore/contract/mockserver/edge"
	"github.com/petstore/contract/spec"
)

// A write of a resource whose success the document gives in media types
// of no item, as PhantAuth's users are created and answered with a token
// in text/plain, keeps the item as any write does, and answers its success
// as a plain operation does, made of the document: it answered an empty
// body of no Content-Type, which its document does not allow. Its refusals
// are the resource's.

// answersNoItem reports whether the success of so has content, none of it
// of a media type an item is answered in.
func answersNoItem(so *spec.Operation) bool {
	resp := so.Response(so.Success)
	if resp == nil || len(resp.Content) == 0 {
		return false
	}
	for name := range resp.Content {
		if _, kind := spec.MediaOf(name); kind == spec.AnswerJSON || spec.IsXML(name) {
			return false
		}
	}
	return true
}

// handler is how an operation answers a request it took.
type handler = func(http.ResponseWriter, *http.Request, *edge.Call) error

// answeredAsPlain returns handle, a resource's handler of an operation,
// answering its success as plain does, with the Location handle set.
func answeredAsPlain(handle, plain handler) handler {
	return func(w http.ResponseWriter, r *http.Request, c *edge.Call) error {
		held := &heldWriter{header: http.Header{}}
		if err := handle(held, r, c); err != nil {
			return err // a refusal, which the caller writes
		}
		if held.status/100 != 2 {
			held.flush(w)
			return nil
		}
		if loc := held.header.Get("Location"); loc != "" {
			w.Header().Set("Location", loc)
		}
		return plain(w, r, c)
	}
}

// heldWriter holds an answer until it is known whether to write it.
type heldWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (h *heldWriter) Header() http.Header { return h.header }

func (h *heldWriter) WriteHeader(status int) {
	if h.status == 0 {
		h.status = status
	}
}

func (h *heldWriter) Write(b []byte) (int, error) {
	if h.status == 0 {
		h.status = http.StatusOK
	}
	return h.body.Write(b)
}

// flush writes what h holds to w.
func (h *heldWriter) flush(w http.ResponseWriter) {
	for k, v := range h.header {
		w.Header()[k] = v
	}
	if h.status == 0 {
		h.status = http.StatusOK
	}
	w.WriteHeader(h.status)
	w.Write(h.body.Bytes())
}
