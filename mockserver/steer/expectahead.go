package steer

import (
	"bytes"
	"io"
	"net/http"
	"slices"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/petstore/contract/mockserver/journal"
)

// With Config.Proxy, an expectation answers ahead of the backend, as a
// fault, a forced answer and Prefer do: what petmock is told to answer, it
// answers without asking the backend. An expectation answers a request the
// mock finds valid, so a request of an operation some expectation awaits
// is checked as the mock checks it before the backend is asked; one the
// checks refuse, or none matches, goes to the backend as it came, which
// then answers it in its own words.

// ExpectedAhead returns what the first expectation that matches r, a
// request of op that petmock would forward to the backend, with its path
// parameters, answers it with, and whether one does. r's body is left to
// be read again. The error is that of a body that cannot be read, which
// would not reach the backend either.
func (s *Steering) ExpectedAhead(r *http.Request, op *edge.Operation, params map[string]string, rec *journal.Recorder) (Expected, bool, error) {
	if !s.expecting.awaits(op) {
		return Expected{}, false, nil
	}
	body, e := s.gate.ReadBody(r)
	if e != nil {
		return Expected{}, false, e
	}
	again := func() {
		r.Body, r.ContentLength = http.NoBody, 0
		if len(body) > 0 {
			r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		}
	}
	again()
	c, err := s.gate.Check(r, op, params, nil, false)
	again()
	if err != nil {
		return Expected{}, false, nil
	}
	x, ok := s.Expected(op, r, c, body)
	if ok && rec != nil {
		rec.ReqBody = body
	}
	return x, ok, nil
}

// NeedsBody reports whether an expectation of op matches the text of a
// request's body, so that the pipeline keeps the body of a request of op
// for it (see Body) when nothing else does.
func (s *Steering) NeedsBody(op *edge.Operation) bool {
	ex := s.expecting
	if ex.texts.Load() == 0 {
		return false
	}
	ex.mu.Lock()
	defer ex.mu.Unlock()
	return slices.ContainsFunc(ex.list, func(x *expectation) bool {
		return x.op == op && slices.ContainsFunc(x.bodies, func(b bodyMatcher) bool { return b.path == nil })
	})
}

// Body is the body of a request, as the gate read it, for an expectation
// to match: an edge.BodyRecorder.
type Body []byte

// RecordRequestBody keeps the body.
func (b *Body) RecordRequestBody(body []byte) { *b = body }

// awaits reports whether an expectation of op is set.
func (ex *expecting) awaits(op *edge.Operation) bool {
	if ex.n.Load() == 0 {
		return false
	}
	ex.mu.Lock()
	defer ex.mu.Unlock()
	return slices.ContainsFunc(ex.list, func(x *expectation) bool { return x.op == op })
}
