package mockserver

import (
	"net/http"
	"time"

	"github.com/petstore/contract/mockserver/answer"
	"github.com/petstore/contract/mockserver/edge"
	"github.com/petstore/contract/mockserver/journal"
	"github.com/petstore/contract/mockserver/steer"
)

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	kept := journaled(s.gate, r.URL.Path)
	journaling := kept && s.steer.JournalSize() > 0
	if s.log == nil && !journaling {
		got := s.serve(w, r, nil)
		if kept {
			s.steer.Received(r, got.operation, got.expectation)
			s.events.Publish(journal.ChangeJournal)
		}
		return
	}
	start := time.Now()
	rec := &journal.Recorder{ResponseWriter: w}
	if journaling {
		rec.Limit = s.bodyKept
	}
	got := s.serve(rec, r, rec)
	elapsed := time.Since(start)
	if s.log != nil {
		s.requests.Request(r, rec, start, elapsed)
	}
	if journaling {
		s.journal.Add(journal.Entry{
			Start:       start,
			Elapsed:     elapsed,
			Method:      r.Method,
			Path:        r.URL.Path,
			Query:       r.URL.RawQuery,
			Status:      rec.Status,
			Fault:       rec.Fault,
			Expectation: rec.Expectation,
			ReqHeader:   r.Header,
			ReqBody:     journal.KeepBody(rec.ReqBody, rec.Limit),
			RespHeader:  w.Header(),
			RespBody:    rec.Body,
			Source:      rec.Source,
			Fallback:    rec.Fallback,
			Violations:  rec.Violations,
			Unchecked:   rec.Unchecked,
		})
	}
	if kept {
		s.steer.Received(r, got.operation, got.expectation)
		s.events.Publish(journal.ChangeJournal)
	}
}

// served says, of a request answered, what the verification counts it
// by: its operation, "" for none, and the expectation that answered it,
// 0 for none.
type served struct {
	operation   string
	expectation int64
}

// isAPI reports whether path is one of the API of g's, below a base path
// of its operations, rather than the document's. With an operation at the
// root, every path is below a base path.
func isAPI(g *edge.Gate, path string) bool {
	return g.Below(path) && !answer.IsDocument(path)
}

// journaled reports whether the request of path is journaled: every
// request of the API, and every one outside its base paths, which an app
// sends there by mistake; not the document's, nor a browser's own
// request for the icon of a page.
func journaled(g *edge.Gate, path string) bool {
	return isAPI(g, path) || !answer.IsDocument(path) && path != "/favicon.ico"
}

// serve answers a request: the API under the base path, the document, or
// a 404. rec, when not nil, is told the request body.
func (s *Server) serve(w http.ResponseWriter, r *http.Request, rec *journal.Recorder) (got served) {
	defer func() {
		if v := recover(); v != nil {
			s.errs.panicked(w, r, s.gate, v)
		}
	}()
	r = s.redact.WithoutEchoedKeys(r)
	edge.SetCORS(w.Header(), r)
	if s.gate.AnswersOptions(r) {
		if e := edge.Preflight(w, r, methodsFor(s.gate, r)); e != nil {
			s.errs.write(w, s.gate, nil, e)
		}
		return
	}
	var err error
	var op *operation
	if answer.IsDocument(r.URL.Path) {
		err = s.docs.Serve(w, r)
	} else {
		op, err = s.serveAPI(w, r, rec, &got)
	}
	if op != nil {
		got.operation = op.Spec.ID
	}
	if err != nil && err != steer.ErrAnswered {
		var gop *edge.Operation
		if op != nil {
			gop = op.Operation
		}
		s.errs.write(w, s.gate, gop, err)
	}
	return got
}

// serveAPI runs the request pipeline of the API, and returns the
// operation of the request, nil for none, with the error to answer: route,
// deprecation headers, the key, a write while items cannot be kept,
// Prefer, injected latency, failures and faults, the sunset, the answers a
// request's Prefer and the admin API force; then, when petmock proxies,
// the expectations and the backend (expectahead.go, proxy.go); then the
// request's parameters and body, the example Prefer picks, the
// expectations (expect.go), and at last the handler. What petmock answers
// itself, a fault, a forced answer, an example or an expectation, never
// reaches the backend. got is told the expectation that answered.
func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request, rec *journal.Recorder, got *served) (*operation, error) {
	if s.proxy != nil {
		// Until the backend's answer is relayed, petmock answers.
		w.Header()[SourceHeader] = sourceMock
	}
	gop, params, err := s.gate.Route(r)
	if err != nil {
		if s.gate.Outside(r.URL.Path) {
			return nil, s.gate.OutsideBase(r)
		}
		return nil, err
	}
	op := s.ops[gop.Index]
	if op.deprecation != nil {
		op.deprecation.SetHeaders(w.Header(), r, nil)
	}
	if err := s.gate.Authenticate(r, op.Operation); err != nil {
		return op, err
	}
	if op.ChangesItems() {
		if e := s.items.RefuseWrite(); e != nil {
			return op, e
		}
	}
	v, err := s.steer.Steer(w, r, op.Operation, rec, op.responses, op.deprecation)
	if err != nil {
		return op, err
	}
	w = v.Writer
	defer v.Done()
	// With a backend, an expectation answers ahead of it (expectahead.go),
	// but while it is recorded (record.go), and an example Prefer asks for
	// is petmock's to give, below.
	if s.proxy != nil && v.Example == nil {
		if s.proxy.recording == nil {
			x, ok, err := s.steer.ExpectedAhead(r, op.Operation, params, rec)
			if err != nil {
				return op, err
			}
			if ok {
				got.expectation = x.ID
				return op, s.steer.AnswerExpected(w, r, op.Operation, rec, x)
			}
		}
		if answered, err := s.proxy.forward(w, r, op.Operation, params, rec); answered {
			return op, err
		}
	}
	// An expectation may match the body's text, which the gate reads.
	var br edge.BodyRecorder
	var kept *steer.Body
	switch {
	case rec != nil:
		br = rec
	case s.steer.NeedsBody(op.Operation):
		kept = new(steer.Body)
		br = kept
	}
	c, err := s.gate.Check(r, op.Operation, params, br, false)
	if err != nil {
		return op, err
	}
	if v.Example != nil {
		v.AnswerExample()
		return op, nil
	}
	var body []byte
	switch {
	case rec != nil:
		body = rec.ReqBody
	case kept != nil:
		body = *kept
	}
	if x, ok := s.steer.Expected(op.Operation, r, c, body); ok {
		got.expectation = x.ID
		return op, s.steer.AnswerExpected(w, r, op.Operation, rec, x)
	}
	return op, op.handle(w, r, c)
}

// methodsFor returns the methods the path of r takes, of the API of g, as an Allow header
// lists them both on a 405 and on an answer to OPTIONS: those of the
// documents, or of the operations of its path. It returns nil for a path
// that is nothing the server serves.
func methodsFor(g *edge.Gate, r *http.Request) []string {
	if answer.IsDocument(r.URL.Path) {
		return edge.Allow([]string{http.MethodGet})
	}
	return g.MethodsFor(r)
}
