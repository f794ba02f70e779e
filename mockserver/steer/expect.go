package steer

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"math/big"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/petstore/contract/mockserver/answer"

	"github.com/petstore/contract/mockserver/journal"

	"github.com/petstore/contract/mockserver/edge"
)

// An expectation is a canned answer for the requests that match it, set
// from outside the app: "when GET /v1/pets/7 comes, answer 404 with this
// body", which Expect, and PUT /__petmock/expectations, set. A request
// matches when its operation is the expectation's, its path is the one
// given (or any path of the operation, for a template such as
// /pets/{petId}), and each query parameter and each JSON body member the
// expectation names holds the value it gives. The answer is checked
// against the document when the expectation is set (canned.go), so that
// an expectation cannot make petmock break its contract.
//
// Expectations are looked at once the request is found valid, after the
// answers forced from the admin API and a request's own Prefer, and
// before the handler: the first one set that matches answers, and the
// request is not processed. One set for a number of times is dropped
// once it has answered them.

// Bounds of the expectations: each request of the API looks through them.
const (
	MaxExpectations = 100
	// MaxExpectationBytes caps the JSON text of all the expectations set
	// at once.
	MaxExpectationBytes = 4 << 20
	// MaxExpectationTimes is the most requests one expectation may be set
	// to answer; 0 answers every one.
	MaxExpectationTimes = 1_000_000
)

// Expectation is a canned answer for the requests that match it, as
// Expect takes it and Expectations lists it.
type Expectation struct {
	// ID is given by Expect.
	ID int64 `json:"id"`
	// Operation is the id of the operation When names, found by Expect.
	Operation string       `json:"operation"`
	When      RequestMatch `json:"when"`
	Answer    CannedAnswer `json:"answer"`
	// Times is how many requests it answers before it is dropped; 0
	// answers every one.
	Times int `json:"times,omitempty"`
	// Remaining is how many it still answers, of Times. Given to Expect
	// from 1 to Times, it restores a saved expectation; otherwise it
	// starts at Times.
	Remaining int `json:"remaining,omitempty"`
	// Matched counts the requests it answered.
	Matched int64 `json:"matched"`
}

// RequestMatch says which requests an expectation answers.
type RequestMatch struct {
	// Method is the request's, such as GET; a HEAD request matches GET.
	Method string `json:"method"`
	// Path is a path as clients send it, such as /v1/pets/7, or below
	// the base path, /pets/7; or the path template of an operation, as
	// the document writes it, such as /pets/{petId}, which matches every
	// path of the operation.
	Path string `json:"path"`
	// Query are query parameters the operation declares, each with the
	// value the request must give it.
	Query map[string]string `json:"query,omitempty"`
	// Body are JSON pointers into the request's JSON body, such as
	// /name, each with the JSON value that must be there; "" points at
	// the whole body.
	Body map[string]json.RawMessage `json:"body,omitempty"`
}

// CannedAnswer is the answer of an expectation.
type CannedAnswer struct {
	// Status must be documented for the operation, or be 500 or 503.
	Status int `json:"status"`
	// Headers are sent with the answer; those the document requires for
	// the status must be there. Content-Type is petmock's: the document's
	// media type of the body.
	Headers map[string]string `json:"headers,omitempty"`
	// Body is the JSON value of the body, or, where the document answers
	// text/plain, a JSON string of the text; nil for none.
	Body json.RawMessage `json:"body,omitempty"`
}

// expectation is an Expectation as the server keeps it, checked and
// compiled.
type expectation struct {
	Expectation
	op *edge.Operation
	// path is a concrete path, decoded, as a request's URL.Path holds
	// it, with the base path; "" for a template, which any path of the
	// operation matches.
	path   string
	body   []bodyMatch
	answer *answer.Canned
	size   int // of its JSON text
}

// bodyMatch is a value a request's JSON body must hold.
type bodyMatch struct {
	pointer []string // unescaped tokens
	want    any
}

// expecting holds the expectations, in the order they were set.
type expecting struct {
	n atomic.Int32 // len(list), for the pipeline's quick look

	mu    sync.Mutex // guards list, next and bytes
	list  []*expectation
	next  int64
	bytes int
}

// Expect sets an expectation, once it is found to name an operation of
// the document and to answer as the document says, and returns it as set,
// with its ID and operation. The error, a 400 *edge.Error, names the member at
// fault, such as "answer.body.name: is required".
func (s *Steering) Expect(e Expectation) (Expectation, error) {
	x, err := s.compileExpectation(e)
	if err != nil {
		return Expectation{}, err
	}
	ex := s.expecting
	ex.mu.Lock()
	if len(ex.list) >= MaxExpectations {
		ex.mu.Unlock()
		return Expectation{}, edge.BadRequest("expectations",
			"%d are set already, the most there may be; DELETE /__petmock/expectations/{id} one, or all", MaxExpectations)
	}
	if ex.bytes+x.size > MaxExpectationBytes {
		ex.mu.Unlock()
		return Expectation{}, edge.BadRequest("expectations",
			"those set hold %d bytes, and this one %d more, past the %d the expectations may hold together", ex.bytes, x.size, MaxExpectationBytes)
	}
	ex.next++
	x.ID = ex.next
	ex.list = append(ex.list, x)
	ex.bytes += x.size
	ex.n.Store(int32(len(ex.list)))
	set := x.Expectation
	ex.mu.Unlock()
	if s.log != nil {
		s.log.Info("expectation set", "id", set.ID, "method", set.When.Method, "path", s.redact.Text(set.When.Path),
			"status", set.Answer.Status, "times", set.Times)
	}
	s.events.Publish(journal.ChangeExpectations)
	return s.redactExpectation(set), nil
}

// compileExpectation checks e against the document, and compiles it.
func (s *Steering) compileExpectation(e Expectation) (*expectation, *edge.Error) {
	e.ID, e.Operation = 0, ""
	e.When.Method = strings.ToUpper(strings.TrimSpace(e.When.Method))
	if e.Times < 0 || e.Times > MaxExpectationTimes {
		return nil, edge.BadRequest("times", "%d: want a number of requests from 1 to %d, or 0 for every one", e.Times, MaxExpectationTimes)
	}
	if e.Remaining < 1 || e.Remaining > e.Times {
		e.Remaining = e.Times
	}
	e.Matched = max(e.Matched, 0)
	x := &expectation{}
	op, params, path, err := s.expectedOperation(e.When)
	if err != nil {
		return nil, err
	}
	x.op, x.path = op, path
	e.Operation = op.Spec.ID
	if err := s.checkExpectedValues(op, params, e.When); err != nil {
		return nil, err
	}
	if x.body, err = expectedBody(op, e.When.Body); err != nil {
		return nil, err
	}
	a := e.Answer
	if x.answer, err = answer.Check(op.Spec, s.responses(op), answer.Given{Status: a.Status, Header: a.Headers, Body: a.Body}, "answer"); err != nil {
		return nil, err
	}
	x.Expectation = e
	text, _ := json.Marshal(e)
	x.size = len(text)
	return x, nil
}

// expectedOperation finds the operation of a match, and, of a concrete
// path, its parameters and the path decoded, as a request's URL.Path
// holds it; nil and "" for a template.
func (s *Steering) expectedOperation(m RequestMatch) (*edge.Operation, map[string]string, string, *edge.Error) {
	if m.Method == "" || strings.ContainsFunc(m.Method, func(r rune) bool { return r < 'A' || r > 'Z' }) {
		return nil, nil, "", edge.BadRequest("when.method", "%q: want an HTTP method such as GET", m.Method)
	}
	method := m.Method
	if method == http.MethodHead {
		method = http.MethodGet
	}
	path := m.Path
	if !strings.HasPrefix(path, "/") {
		return nil, nil, "", edge.BadRequest("when.path", "%q: want a path such as %s/pets/7, or a template of the document such as /pets/{petId}", path, s.base)
	}
	if strings.ContainsAny(path, "?#") {
		return nil, nil, "", edge.BadRequest("when.path", "%s holds a query or a fragment; give the query parameters in when.query", path)
	}
	rel := expectedPath(path, s.base)
	if strings.Contains(rel, "{") {
		so := s.contract.OperationAt(method, rel)
		if so == nil {
			return nil, nil, "", edge.BadRequest("when.path", "%s %s is no operation of the document; a template must be one of its paths as it writes them", m.Method, rel)
		}
		return s.gate.Operation(so.ID), nil, "", nil
	}
	u, err := url.Parse(s.base + rel)
	if err != nil {
		return nil, nil, "", edge.BadRequest("when.path", "%s: %v", path, err)
	}
	op, params, routeErr := s.gate.Route(&http.Request{Method: method, URL: u, Host: "petmock", Header: http.Header{}})
	if routeErr != nil {
		return nil, nil, "", edge.BadRequest("when.path", "%s %s is no operation of the document", m.Method, s.base+rel)
	}
	if params == nil {
		params = map[string]string{}
	}
	return op, params, u.Path, nil
}

// expectedPath returns a path of a match below the base path: as given,
// or without the base path it starts with.
func expectedPath(path, base string) string {
	if base != "" && strings.HasPrefix(path, base+"/") {
		return strings.TrimPrefix(path, base)
	}
	return path
}

// checkExpectedValues checks the path parameters and the query values a
// match gives: a name the operation does not declare, or a value its
// checks would refuse, could never match a request.
func (s *Steering) checkExpectedValues(op *edge.Operation, params map[string]string, m RequestMatch) *edge.Error {
	q := url.Values{}
	for _, name := range slices.Sorted(maps.Keys(m.Query)) {
		if !slices.Contains(op.QueryParams, name) {
			declared := "it declares none"
			if len(op.QueryParams) > 0 {
				declared = "its query parameters are " + strings.Join(op.QueryParams, ", ")
			}
			return edge.BadRequest("when.query."+name, "not a query parameter of %s; %s", op.Spec.ID, declared)
		}
		q.Set(name, m.Query[name])
	}
	for _, p := range op.Spec.Parameters {
		field := ""
		switch {
		case p.In == "path" && params != nil:
			field = "when.path"
		case p.In == "query" && q.Has(p.Name):
			field = "when.query." + p.Name
		default:
			continue
		}
		if e := s.gate.CheckParameter(op, params, q, p); e != nil {
			e.Message = field + ": " + e.Message
			return e
		}
	}
	return nil
}

// expectedBody compiles the body members of a match.
func expectedBody(op *edge.Operation, body map[string]json.RawMessage) ([]bodyMatch, *edge.Error) {
	if len(body) == 0 {
		return nil, nil
	}
	if op.Spec.RequestSchema() == nil {
		return nil, edge.BadRequest("when.body", "%s takes no JSON body", op.Spec.ID)
	}
	var out []bodyMatch
	for _, ptr := range slices.Sorted(maps.Keys(body)) {
		field := "when.body." + ptr
		if ptr != "" && !strings.HasPrefix(ptr, "/") {
			return nil, edge.BadRequest(field, "not a JSON pointer; want one such as /name, or \"\" for the whole body")
		}
		var tokens []string
		if ptr != "" {
			for _, t := range strings.Split(ptr[1:], "/") {
				tokens = append(tokens, strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~"))
			}
		}
		dec := json.NewDecoder(bytes.NewReader(body[ptr]))
		dec.UseNumber()
		var want any
		if err := dec.Decode(&want); err != nil {
			return nil, edge.BadRequest(field, "malformed JSON: %v", err)
		}
		if _, err := dec.Token(); err != io.EOF {
			return nil, edge.BadRequest(field, "malformed JSON: data after the JSON value")
		}
		out = append(out, bodyMatch{pointer: tokens, want: want})
	}
	return out, nil
}

// Expected returns the answer of the first expectation that matches r, a
// request to op, with the call the edge checked, and the id of that
// expectation; nil when none matches.
func (s *Steering) Expected(op *edge.Operation, r *http.Request, c *edge.Call) (*answer.Canned, int64) {
	ex := s.expecting
	if ex.n.Load() == 0 {
		return nil, 0
	}
	ex.mu.Lock()
	i := slices.IndexFunc(ex.list, func(x *expectation) bool { return x.matches(op, r.URL.Path, c) })
	if i < 0 {
		ex.mu.Unlock()
		return nil, 0
	}
	x := ex.list[i]
	x.Matched++
	if x.Times > 0 {
		x.Remaining--
		if x.Remaining == 0 {
			ex.list = slices.Delete(ex.list, i, i+1)
			ex.bytes -= x.size
			ex.n.Store(int32(len(ex.list)))
		}
	}
	ex.mu.Unlock()
	s.events.Publish(journal.ChangeExpectations)
	return x.answer, x.ID
}

// matches reports whether a request to op of the given path, with the
// call the edge checked, matches x.
func (x *expectation) matches(op *edge.Operation, path string, c *edge.Call) bool {
	if x.op != op || x.path != "" && x.path != path {
		return false
	}
	for name, want := range x.When.Query {
		got, ok := c.Query[name]
		if !ok || len(got) == 0 || got[0] != want {
			return false
		}
	}
	for _, m := range x.body {
		got, ok := pointAt(c.Body, m.pointer)
		if !ok || !equalJSON(got, m.want) {
			return false
		}
	}
	return true
}

// pointAt returns the value at the JSON pointer of tokens in v.
func pointAt(v any, tokens []string) (any, bool) {
	for _, t := range tokens {
		switch node := v.(type) {
		case map[string]any:
			next, ok := node[t]
			if !ok {
				return nil, false
			}
			v = next
		case []any:
			i := 0
			for _, c := range t {
				if c < '0' || c > '9' || i > len(node) {
					return nil, false
				}
				i = i*10 + int(c-'0')
			}
			if t == "" || i >= len(node) {
				return nil, false
			}
			v = node[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// equalJSON reports whether two values decoded with json.Number are the
// same JSON value: numbers are compared by value, so that 1, 1.0 and 1e0
// are equal.
func equalJSON(a, b any) bool {
	switch a := a.(type) {
	case json.Number:
		b, ok := b.(json.Number)
		if !ok {
			return false
		}
		x, okA := new(big.Rat).SetString(string(a))
		y, okB := new(big.Rat).SetString(string(b))
		return okA && okB && x.Cmp(y) == 0
	case map[string]any:
		b, ok := b.(map[string]any)
		return ok && maps.EqualFunc(a, b, equalJSON)
	case []any:
		b, ok := b.([]any)
		return ok && slices.EqualFunc(a, b, equalJSON)
	}
	return a == b
}

// Expectations returns the expectations set, in the order they are
// looked at, without a key petmock accepts in them, as GET
// /__petmock/expectations shows them.
func (s *Steering) Expectations() []Expectation {
	all := s.ExpectationsAsSet()
	for i := range all {
		all[i] = s.redactExpectation(all[i])
	}
	return all
}

// ExpectationsAsSet returns the expectations set, in the order they are
// looked at, as they were set, keys and all, for a command that keeps
// them, such as petmock --state, to set them again.
func (s *Steering) ExpectationsAsSet() []Expectation {
	ex := s.expecting
	ex.mu.Lock()
	defer ex.mu.Unlock()
	out := make([]Expectation, len(ex.list))
	for i, x := range ex.list {
		out[i] = x.Expectation
	}
	return out
}

// RemoveExpectation drops the expectation of the given id; a 404 *edge.Error
// says there is none.
func (s *Steering) RemoveExpectation(id int64) error {
	ex := s.expecting
	ex.mu.Lock()
	i := slices.IndexFunc(ex.list, func(x *expectation) bool { return x.ID == id })
	if i < 0 {
		ex.mu.Unlock()
		return edge.NewError(http.StatusNotFound, "id", "no expectation has id %d", id)
	}
	ex.bytes -= ex.list[i].size
	ex.list = slices.Delete(ex.list, i, i+1)
	ex.n.Store(int32(len(ex.list)))
	ex.mu.Unlock()
	s.events.Publish(journal.ChangeExpectations)
	return nil
}

// ClearExpectations drops every expectation.
func (s *Steering) ClearExpectations() {
	ex := s.expecting
	ex.mu.Lock()
	ex.list, ex.bytes = nil, 0
	ex.n.Store(0)
	ex.mu.Unlock()
	s.events.Publish(journal.ChangeExpectations)
}

// redactExpectation returns e without a key petmock accepts in any of
// its texts.
func (s *Steering) redactExpectation(e Expectation) Expectation {
	r := s.redact
	e.When.Path = r.Text(e.When.Path)
	e.When.Query = r.Values(e.When.Query)
	if e.When.Body != nil {
		body := make(map[string]json.RawMessage, len(e.When.Body))
		for ptr, v := range e.When.Body {
			body[r.Text(ptr)] = r.JSON(v)
		}
		e.When.Body = body
	}
	e.Answer.Headers = r.Values(e.Answer.Headers)
	e.Answer.Body = r.JSON(e.Answer.Body)
	return e
}
