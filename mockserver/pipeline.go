package mockserver

import (
	"context"
	"net/http"

	"github.com/petstore/contract/mockserver/catalogue"

	"github.com/petstore/contract/mockserver/answer"

	"github.com/petstore/contract/mockserver/journal"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/mockserver/shape"
	"github.com/petstore/contract/spec"
)

// operation is what the server knows of one operation of the document:
// the gate's facts, and how it is answered.
type operation struct {
	*edge.Operation
	handle      func(w http.ResponseWriter, r *http.Request, c *edge.Call) error
	deprecation *answer.Deprecation // nil unless the operation is deprecated with something to say
	// answer makes the answers of an operation of no resource.
	answer *answer.Generated
	// responses are the facts of the documented responses, which a
	// canned answer is checked against.
	responses *answer.Responses
}

// bind binds a handler to every operation of the document, by its role:
// the handlers of a resource, or answers made from the schema. The edge
// made the operations, with their checks.
func (s *Server) bind(ctx context.Context, shapes *shape.Builder) error {
	outage := answer.OutageFacts(s.contract, shapes)
	tried := map[*openapi3.Schema]error{}
	for _, so := range s.contract.Operations {
		if err := ctx.Err(); err != nil {
			return err
		}
		op := &operation{Operation: s.gate.Operation(so.ID)}
		s.ops = append(s.ops, op)
		op.responses = answer.NewResponses(s.contract, so, shapes, outage)
		if so.Deprecation != nil {
			op.deprecation = answer.NewDeprecation(s.contract, so, s.base)
		}
		var rs *catalogue.Resource
		if so.Resource != nil {
			rs = s.items.Resource(so.Resource.Name)
		}
		switch so.Role {
		case spec.RoleList:
			op.handle = rs.List
		case spec.RoleCreate:
			op.handle = rs.Create
		case spec.RoleRead:
			var links func(h http.Header, r *http.Request, keys []string)
			if d := op.deprecation; d != nil {
				links = func(h http.Header, r *http.Request, keys []string) {
					d.SetHeaders(h, r, d.SuccessorQuery(rs.Spec(), keys))
				}
			}
			op.handle = func(w http.ResponseWriter, r *http.Request, c *edge.Call) error { return rs.Read(w, r, c, links) }
		case spec.RoleReplace:
			op.handle = rs.Replace
		case spec.RoleUpdate:
			op.handle = rs.Update
		case spec.RoleDelete:
			op.handle = rs.Delete
		case spec.RoleFind:
			op.handle = rs.Find
		default:
			g, warning, err := answer.NewGenerated(s.contract, so, shapes, tried)
			if err != nil {
				return err
			}
			if warning != "" {
				s.warnings = append(s.warnings, warning)
			}
			if note := g.Note(); note != "" {
				s.notes = append(s.notes, note)
			}
			op.answer = g
			op.handle = func(w http.ResponseWriter, r *http.Request, c *edge.Call) error {
				return g.Serve(w, r, c, s.seed, s.redact.Hides)
			}
		}
	}
	return nil
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
// reaches the backend.
func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request, rec *journal.Recorder) (*operation, error) {
	if s.proxy != nil {
		// Until the backend's answer is relayed, petmock answers.
		w.Header()[SourceHeader] = sourceMock
	}
	op, params, err := s.route(r)
	if err != nil {
		if s.base != "" && !s.isAPI(r.URL.Path) && r.URL.Path != s.base {
			return nil, s.gate.OutsideBase(r)
		}
		return nil, err
	}
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
	// With a backend, an expectation answers ahead of it (expectahead.go),
	// and an example Prefer asks for is petmock's to give, below.
	if s.proxy != nil && v.Example == nil {
		a, id, err := s.steer.ExpectedAhead(r, op.Operation, params, rec)
		if err != nil {
			return op, err
		}
		if a != nil {
			answerExpected(w, rec, a, id)
			return op, nil
		}
		if answered, err := s.forward(w, r, op, params, rec); answered {
			return op, err
		}
	}
	c, err := s.check(r, op, params, rec)
	if err != nil {
		return op, err
	}
	if v.Example != nil {
		v.AnswerExample()
		return op, nil
	}
	if a, id := s.steer.Expected(op.Operation, r, c); a != nil {
		answerExpected(w, rec, a, id)
		return op, nil
	}
	return op, op.handle(w, r, c)
}

// answerExpected answers with a, the answer of the expectation of id, and
// tells rec which one answered.
func answerExpected(w http.ResponseWriter, rec *journal.Recorder, a *answer.Canned, id int64) {
	if rec != nil {
		rec.Expectation = id
	}
	a.Write(w)
}

// route finds the operation of a request (see edge.Gate.Route).
func (s *Server) route(r *http.Request) (*operation, map[string]string, error) {
	op, params, err := s.gate.Route(r)
	if err != nil {
		return nil, nil, err
	}
	return s.ops[op.Index], params, nil
}

// check checks the parameters and the body of r, a request of op with
// its path parameters, and returns them as a call. rec, when not nil, is
// told the body.
func (s *Server) check(r *http.Request, op *operation, params map[string]string, rec *journal.Recorder) (*edge.Call, error) {
	var br edge.BodyRecorder
	if rec != nil {
		br = rec
	}
	c, err := s.gate.Check(r, op.Operation, params, br, false)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// first returns the first value of a query parameter, or "".
func first(query map[string][]string, name string) string {
	if vs := query[name]; len(vs) > 0 {
		return vs[0]
	}
	return ""
}
