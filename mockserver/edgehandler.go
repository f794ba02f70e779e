package mockserver

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/petstore/contract/mockserver/journal"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/petstore/contract/mockserver/shape"
	"github.com/petstore/contract/spec"
)

// Edge checks the requests of a document other than the API's, such as
// the admin API's own, as the API's are checked, before any handler runs:
// routing (404, or 405 with Allow), the key the operation asks for (401,
// with the API's messages and the server's admin keys, Config.AdminKeys),
// and its parameters and JSON body (400, 413, 415). Its answers are the
// API's too: CORS headers, OPTIONS, a line of the request log, and every
// error an Error body written by the server's one function, without a key
// in it.
type Edge struct {
	ed     *edge.Gate
	srv    *Server
	unread func(*spec.Operation) bool
	admit  func(*http.Request) error
	guard  func(*http.Request) (func(taken bool), error)
}

// EdgeConfig configures an Edge. Its zero value reads and checks every
// body, up to MaxBodyBytes.
type EdgeConfig struct {
	// MaxBodyBytes bounds the bodies the edge reads: a larger one is
	// refused with 413. Zero means MaxBodyBytes.
	MaxBodyBytes int64
	// Unread reports whether the body of an operation is left for its
	// handler to read as it comes, such as a fixture of hundreds of
	// megabytes: of such a body, the edge checks only the Content-Type.
	// Nil reads every body.
	Unread func(op *spec.Operation) bool
	// Admit, when not nil, is asked about every request before anything
	// else, preflights included: an error refuses the request, and is
	// answered as it is, without the CORS headers that would let a
	// browser page read the answer or send what a preflight asked for.
	// The admin API refuses hosts and origins of other pages with it.
	// Nil admits every request, with the API's CORS: any origin, with
	// credentials.
	Admit func(r *http.Request) error
	// Guard, when not nil, is asked before the key of a request is
	// checked, for an operation whose security asks for one: it may hold
	// the request back, or refuse it with an error, and the function it
	// returns is told whether the key was taken. The admin API slows down
	// an address whose keys keep failing with it. Nil checks every key at
	// once.
	Guard func(r *http.Request) (checked func(taken bool), err error)
}

// NewEdge returns an Edge that checks requests against c. It takes the
// admin keys of s (Config.AdminKeys, or else the API's), and logs and
// answers errors as s does.
func (s *Server) NewEdge(c *spec.Contract, cfg EdgeConfig) (*Edge, error) {
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = MaxBodyBytes
	}
	ed, err := edge.New(context.Background(), c, s.adminKeys, shape.NewBuilder(c), cfg.MaxBodyBytes)
	if err != nil {
		return nil, err
	}
	return &Edge{ed: ed, srv: s, unread: cfg.Unread, admit: cfg.Admit, guard: cfg.Guard}, nil
}

// Call is a request an Edge checked, as the handler behind it receives it.
type Call struct {
	// Operation is the operation of the document the request is for.
	Operation *spec.Operation
	// Params are the path parameters, by name.
	Params map[string]string
	// Query is the query, every parameter of it, declared or not; nil
	// when the operation declares none.
	Query url.Values
	// Body is the JSON body, decoded with its numbers as json.Number; nil
	// when there is none, or when it is left unread (EdgeConfig.Unread).
	Body any
}

// Handler returns a handler of the requests of the edge's document: it
// checks each one and calls h with what it found; the error h returns, or
// the refusal of the request, is answered as the API answers errors.
func (e *Edge) Handler(h func(w http.ResponseWriter, r *http.Request, c *Call) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s := e.srv
		if s.log == nil {
			e.serve(w, r, h)
			return
		}
		start := time.Now()
		rec := &journal.Recorder{ResponseWriter: w}
		e.serve(rec, r, h)
		s.requests.Request(r, rec, start, time.Since(start))
	})
}

// serve answers one request.
func (e *Edge) serve(w http.ResponseWriter, r *http.Request, h func(http.ResponseWriter, *http.Request, *Call) error) {
	defer func() {
		if v := recover(); v != nil {
			e.srv.errs.panicked(w, r, e.ed, v)
		}
	}()
	if e.admit != nil {
		if err := e.admit(r); err != nil {
			w.Header()["Vary"] = edge.VaryOrigin
			e.srv.errs.write(w, e.ed, nil, err)
			return
		}
	}
	r = e.srv.redact.WithoutEchoedKeys(r)
	edge.SetCORS(w.Header(), r)
	if e.ed.AnswersOptions(r) {
		if err := edge.Preflight(w, r, e.ed.MethodsFor(r)); err != nil {
			e.srv.errs.write(w, e.ed, nil, err)
		}
		return
	}
	op, c, err := e.check(r)
	if err == nil {
		err = h(w, r, c)
	}
	if err != nil {
		e.srv.errs.write(w, e.ed, op, err)
	}
}

// check checks r against the edge's document, and returns its operation,
// nil for none, with the call or the refusal.
func (e *Edge) check(r *http.Request) (*edge.Operation, *Call, error) {
	op, params, err := e.ed.Route(r)
	if err != nil {
		return nil, nil, err
	}
	if err := e.authenticate(r, op); err != nil {
		return op, nil, err
	}
	unread := e.unread != nil && e.unread(op.Spec)
	c, err := e.ed.Check(r, op, params, nil, unread)
	if err != nil {
		return op, nil, err
	}
	return op, &Call{Operation: op.Spec, Params: params, Query: c.Query, Body: c.Body}, nil
}

// authenticate checks the key of r, a request of op, past the guard when
// r presents one: a request with none, or with a credential that is no
// key (Basic to a bearer scheme), guesses nothing.
func (e *Edge) authenticate(r *http.Request, op *edge.Operation) error {
	if e.guard == nil || !presentsKey(r, op.Spec) {
		return e.ed.Authenticate(r, op)
	}
	checked, err := e.guard(r)
	if err != nil {
		return err
	}
	err = e.ed.Authenticate(r, op)
	checked(err == nil)
	return err
}

// presentsKey reports whether r presents a key where a scheme of op's
// security reads one.
func presentsKey(r *http.Request, op *spec.Operation) bool {
	for _, req := range op.Requirements {
		for _, sc := range req {
			if _, err := sc.Read(r); err == nil {
				return true
			}
		}
	}
	return false
}

// PublishedKey reports whether an Edge, such as the admin API's, takes
// DefaultAPIKey, the key petmock's README publishes: then any program
// that can reach petmock can steer it.
func (s *Server) PublishedKey() bool { return s.publishedKey }
