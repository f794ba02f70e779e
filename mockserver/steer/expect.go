package steer

import (
	"bytes"
	"cmp"
	"encoding/json"
	"io"
	"maps"
	"math/big"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/mockserver/answer"
	"github.com/petstore/contract/mockserver/edge"
	"github.com/petstore/contract/mockserver/journal"
	"github.com/petstore/contract/spec"
)

// An expectation is a canned answer for the requests that match it, set
// from outside the app: "when GET /v1/pets/7 comes, answer 404 with this
// body", which Expect, and PUT /__petmock/expectations, set. A request
// matches when its operation is the expectation's, its path is the one
// given (or any path of the operation, for a template such as
// /pets/{petId}, narrowed by a regular expression if one is given), each
// query parameter, header and cookie the expectation names meets its
// matcher (match.go), each JSON body member it names holds the value it
// gives and each body matcher holds, and its scenario, if any, is in the
// state it requires (scenario.go). The answer is checked against the
// document when the expectation is set (canned.go), for every value of
// the request it uses (template.go), so that an expectation cannot make
// petmock break its contract.
//
// Expectations are looked at once the request is found valid, after the
// answers forced from the admin API and a request's own Prefer, and
// before the handler: in the order of their priority, 1 first, and of
// those of a priority, in the order set; the first that matches answers,
// after its delay, or with its fault, and the request is not processed.
// One set for a number of times is dropped once it has answered them.

// Bounds of the expectations: each request of the API looks through them.
const (
	MaxExpectations = 100
	// MaxExpectationBytes caps the JSON text of all the expectations set
	// at once.
	MaxExpectationBytes = 4 << 20
	// MaxExpectationTimes is the most requests one expectation may be set
	// to answer; 0 answers every one.
	MaxExpectationTimes = 1_000_000
	// DefaultPriority is the priority of an expectation that gives none,
	// and MaxPriority the lowest there is.
	DefaultPriority = 5
	MaxPriority     = 1000
)

// Expectation is a canned answer for the requests that match it, as
// Expect takes it and Expectations lists it.
type Expectation struct {
	// ID is given by Expect.
	ID int64 `json:"id"`
	// Operation is the id of the operation When names, found by Expect.
	Operation string       `json:"operation"`
	When      RequestMatch `json:"when"`
	// Answer is what it answers; it may be left out with a Fault that is
	// a failure, which no answer follows.
	Answer CannedAnswer `json:"answer,omitzero"`
	// Priority orders the expectations a request looks at: 1 first, and
	// DefaultPriority for 0.
	Priority int `json:"priority,omitempty"`
	// Scenario, when set, makes it match in a state of a scenario, or
	// move the scenario to another (see Scenario).
	Scenario *Scenario `json:"scenario,omitempty"`
	// Delay delays its answer, by a duration such as "800ms" or a range
	// such as "50ms-300ms", as the latency setting does, on top of it.
	Delay string `json:"delay,omitempty"`
	// Fault is put in place of its answer, or makes its answer come
	// slowly (see Fault): BytesPerSecond for FaultSlow, Chunks and
	// Duration for FaultDribble, as ForcedAnswer takes them.
	Fault          Fault  `json:"fault,omitempty"`
	BytesPerSecond int    `json:"bytesPerSecond,omitempty"`
	Chunks         int    `json:"chunks,omitempty"`
	Duration       string `json:"duration,omitempty"`
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

// RequestMatch says which requests an expectation answers. As JSON, its
// query takes the values of Query and the matchers of QueryMatches
// together: a string is a value to equal, an object a Match.
type RequestMatch struct {
	// Method is the request's, such as GET; a HEAD request matches GET.
	Method string
	// Path is a path as clients send it, such as /v1/pets/7, or below
	// the base path, /pets/7; or the path template of an operation, as
	// the document writes it, such as /pets/{petId}, which matches every
	// path of the operation.
	Path string
	// PathPattern, with a template in Path, is a regular expression the
	// path as clients send it must match too, such as ^/v1/pets/1[0-9]$.
	PathPattern string
	// Query are query parameters the operation declares, each with the
	// value the request must give it, and QueryMatches each with a Match
	// its value must meet.
	Query        map[string]string
	QueryMatches map[string]Match
	// Headers and Cookies are headers and cookies of the request, each
	// with a Match its value must meet.
	Headers map[string]Match
	Cookies map[string]Match
	// Body are JSON pointers into the request's JSON body, such as
	// /name, each with the JSON value that must be there; "" points at
	// the whole body.
	Body map[string]json.RawMessage
	// BodyMatches are matchers of the body's text, or of the values a
	// JSON path selects of it, which must all hold.
	BodyMatches []BodyMatch
}

// requestMatchJSON is a RequestMatch as JSON writes it.
type requestMatchJSON struct {
	Method      string                     `json:"method"`
	Path        string                     `json:"path"`
	PathPattern string                     `json:"pathPattern,omitempty"`
	Query       map[string]Match           `json:"query,omitempty"`
	Headers     map[string]Match           `json:"headers,omitempty"`
	Cookies     map[string]Match           `json:"cookies,omitempty"`
	Body        map[string]json.RawMessage `json:"body,omitempty"`
	BodyMatches []BodyMatch                `json:"bodyMatches,omitempty"`
}

// requestMatchRead is a RequestMatch as JSON is read: its matchers are
// read one by one, so that a mistake is named by its place.
type requestMatchRead struct {
	requestMatchJSON
	Query   map[string]json.RawMessage `json:"query,omitempty"`
	Headers map[string]json.RawMessage `json:"headers,omitempty"`
	Cookies map[string]json.RawMessage `json:"cookies,omitempty"`
}

// MarshalJSON writes m's Query and QueryMatches as one query.
func (m RequestMatch) MarshalJSON() ([]byte, error) {
	j := requestMatchJSON{Method: m.Method, Path: m.Path, PathPattern: m.PathPattern, Headers: m.Headers, Cookies: m.Cookies,
		Body: m.Body, BodyMatches: m.BodyMatches}
	if len(m.Query)+len(m.QueryMatches) > 0 {
		j.Query = make(map[string]Match, len(m.Query)+len(m.QueryMatches))
		for name, v := range m.Query {
			j.Query[name] = Equal(v)
		}
		maps.Copy(j.Query, m.QueryMatches)
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads a RequestMatch: of its query, a value to equal into
// Query, and another matcher into QueryMatches. A member it does not
// know is an error, as it is of the rest of an expectation.
func (m *RequestMatch) UnmarshalJSON(data []byte) error {
	var j requestMatchRead
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return err
	}
	*m = RequestMatch{Method: j.Method, Path: j.Path, PathPattern: j.PathPattern, Body: j.Body, BodyMatches: j.BodyMatches}
	read := func(field string, raw map[string]json.RawMessage) (map[string]Match, error) {
		if raw == nil {
			return nil, nil
		}
		out := make(map[string]Match, len(raw))
		for _, name := range slices.Sorted(maps.Keys(raw)) {
			v, e := parseMatch(field+"."+name, raw[name])
			if e != nil {
				return nil, e
			}
			out[name] = v
		}
		return out, nil
	}
	var err error
	if m.Headers, err = read("when.headers", j.Headers); err != nil {
		return err
	}
	if m.Cookies, err = read("when.cookies", j.Cookies); err != nil {
		return err
	}
	query, err := read("when.query", j.Query)
	if err != nil {
		return err
	}
	for name, qm := range query {
		if qm.Equals != nil && qm.given() == 1 {
			if m.Query == nil {
				m.Query = map[string]string{}
			}
			m.Query[name] = *qm.Equals
			continue
		}
		if m.QueryMatches == nil {
			m.QueryMatches = map[string]Match{}
		}
		m.QueryMatches[name] = qm
	}
	return nil
}

// CannedAnswer is the answer of an expectation.
type CannedAnswer struct {
	// Status must be documented for the operation, or be 500 or 503.
	Status int `json:"status"`
	// Headers are sent with the answer; those the document requires for
	// the status must be there. Content-Type is petmock's: the document's
	// media type of the body. A value may use values of the request
	// (template.go).
	Headers map[string]string `json:"headers,omitempty"`
	// Body is the JSON value of the body, or, where the document answers
	// text/plain, a JSON string of the text; nil for none. Its strings
	// may use values of the request (template.go).
	Body json.RawMessage `json:"body,omitempty"`
}

// expectation is an Expectation as the server keeps it, checked and
// compiled.
type expectation struct {
	Expectation
	op *edge.Operation
	// path is a concrete path, decoded, as a request's URL.Path holds
	// it, with the base path; "" for a template, which any path of the
	// operation matches, or those of pattern.
	path    string
	pattern *regexp.Regexp
	query   []namedMatch
	headers []namedMatch
	cookies []namedMatch
	body    []bodyMatch
	bodies  []bodyMatcher
	// answer is the answer, ready to write; template makes it for each
	// request instead when it uses values of the request; both are nil
	// for a failure, which answers nothing.
	answer   *answer.Canned
	template *templateAnswer
	delay    Latency
	fault    injected
	size     int // of its JSON text
}

// priority is x's priority, DefaultPriority when it gives none.
func (x *expectation) priority() int { return cmp.Or(x.Priority, DefaultPriority) }

// bodyMatch is a value a request's JSON body must hold.
type bodyMatch struct {
	pointer []string // unescaped tokens
	want    any
}

// expecting holds the expectations, in the order a request looks at them,
// and the states of their scenarios.
type expecting struct {
	n atomic.Int32 // len(list), for the pipeline's quick look
	// texts counts the expectations that match a body's text, for which
	// the pipeline keeps bodies (see NeedsBody).
	texts atomic.Int32

	mu     sync.Mutex // guards list, next, bytes and states
	list   []*expectation
	next   int64
	bytes  int
	states map[string]string // of the scenarios not in ScenarioStarted
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
	ex.insert(x)
	ex.bytes += x.size
	set := x.Expectation
	ex.mu.Unlock()
	if s.log != nil {
		s.log.Info("expectation set", "id", set.ID, "method", set.When.Method, "path", s.redact.Text(set.When.Path),
			"status", set.Answer.Status, "times", set.Times)
	}
	s.events.Publish(journal.ChangeExpectations)
	return s.redactExpectation(set), nil
}

// changed notes what the pipeline looks at of the list, once it changed.
// The caller holds mu.
func (ex *expecting) changed() {
	texts := 0
	for _, x := range ex.list {
		if slices.ContainsFunc(x.bodies, func(b bodyMatcher) bool { return b.path == nil }) {
			texts++
		}
	}
	ex.n.Store(int32(len(ex.list)))
	ex.texts.Store(int32(texts))
}

// insert puts x in the list after those of its priority or a higher one.
// The caller holds mu.
func (ex *expecting) insert(x *expectation) {
	i, _ := slices.BinarySearchFunc(ex.list, x, func(a, b *expectation) int {
		return cmp.Or(cmp.Compare(a.priority(), b.priority()), cmp.Compare(a.ID, b.ID))
	})
	ex.list = slices.Insert(ex.list, i, x)
	ex.changed()
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
	if e.Priority < 0 || e.Priority > MaxPriority {
		return nil, edge.BadRequest("priority", "%d: want a priority from 1, looked at first, to %d, or 0 for %d", e.Priority, MaxPriority, DefaultPriority)
	}
	if e := checkScenario(e.Scenario); e != nil {
		return nil, e
	}
	x := &expectation{}
	if e.Delay != "" {
		l, err := ParseLatency(e.Delay)
		if err != nil {
			return nil, edge.BadRequest("delay", "%q: want a duration such as 800ms or a range such as 50ms-300ms, of at most %s", e.Delay, MaxDelay)
		}
		x.delay = l
	}
	if e := s.compileFault(x, e); e != nil {
		return nil, e
	}
	op, params, path, err := s.expectedOperation(e.When)
	if err != nil {
		return nil, err
	}
	x.op, x.path = op, path
	e.Operation = op.Spec.ID
	if x.pattern, err = expectedPattern(e.When, path); err != nil {
		return nil, err
	}
	if err := s.compileMatchers(x, op, params, e.When); err != nil {
		return nil, err
	}
	if x.body, err = expectedBody(op, e.When.Body); err != nil {
		return nil, err
	}
	if err := s.compileAnswer(x, op, e); err != nil {
		return nil, err
	}
	x.Expectation = e
	text, _ := json.Marshal(e)
	x.size = len(text)
	return x, nil
}

// compileFault checks the fault of e, and gives x its fault.
func (s *Steering) compileFault(x *expectation, e Expectation) *edge.Error {
	if e.Fault == "" {
		if e.BytesPerSecond != 0 {
			return edge.BadRequest("bytesPerSecond", "goes with the fault %s only", FaultSlow)
		}
		return checkDribble("", "", e.Chunks, e.Duration)
	}
	a := ForcedAnswer{Fault: e.Fault, BytesPerSecond: e.BytesPerSecond, Chunks: e.Chunks, Duration: e.Duration, Remaining: 1}
	if err := s.checkForcedFault(a); err != nil {
		return err
	}
	x.fault = a.injected()
	return nil
}

// compileAnswer checks the answer of e, which a fault that is a failure
// needs not, and gives x its answer, or its template.
func (s *Steering) compileAnswer(x *expectation, op *edge.Operation, e Expectation) *edge.Error {
	a := e.Answer
	if a.Status == 0 && a.Headers == nil && a.Body == nil {
		if e.Fault.failure() {
			return nil
		}
		return edge.BadRequest("answer", "is required, but with a fault that answers nothing: %s", failures())
	}
	t, err := s.compileTemplate(op, e.When, a)
	if err != nil {
		return err
	}
	if t != nil {
		x.template = t
		return nil
	}
	x.answer, err = answer.Check(op.Spec, s.responses(op), answer.Given{Status: a.Status, Header: a.Headers, Body: a.Body}, "answer")
	return err
}

// failures lists the faults that answer nothing, for messages.
func failures() string {
	var names []string
	for _, f := range Faults {
		if f.failure() {
			names = append(names, string(f))
		}
	}
	return strings.Join(names, ", ")
}

// expectedPattern compiles the path pattern of a match, which goes with a
// template: path is "" for one.
func expectedPattern(m RequestMatch, path string) (*regexp.Regexp, *edge.Error) {
	if m.PathPattern == "" {
		return nil, nil
	}
	if path != "" {
		return nil, edge.BadRequest("when.pathPattern", "goes with a template in when.path, such as /pets/{petId}; %s is one path already", m.Path)
	}
	re, err := regexp.Compile(m.PathPattern)
	if err != nil {
		return nil, edge.BadRequest("when.pathPattern", "%s", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	return re, nil
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

// compileMatchers checks the path parameters, the query, the headers,
// the cookies and the body matchers a match gives, and compiles them: a
// name the operation does not declare, or a value its checks would
// refuse, could never match a request, nor could a declared parameter the
// operation requires be absent.
func (s *Steering) compileMatchers(x *expectation, op *edge.Operation, params map[string]string, m RequestMatch) *edge.Error {
	q := url.Values{}
	for _, name := range slices.Sorted(maps.Keys(m.Query)) {
		if e := s.queryDeclared(op, name); e != nil {
			return e
		}
		if _, twice := m.QueryMatches[name]; twice {
			return edge.BadRequest("when.query."+name, "given twice")
		}
		q.Set(name, m.Query[name])
		x.query = append(x.query, namedMatch{name: name, valueMatch: valueMatch{Match: Equal(m.Query[name])}})
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
	declared := func(in string) func(field, name string, mt Match) *edge.Error {
		return func(field, name string, mt Match) *edge.Error {
			var p *openapi3.Parameter
			if in == "header" {
				if e := checkHeaderName(field, name); e != nil {
					return e
				}
				p = headerParameter(op.Spec, name)
			} else {
				p = op.Spec.Parameter(in, name)
			}
			switch {
			case p == nil:
				return nil
			case mt.Absent && p.Required:
				return edge.BadRequest(field, "cannot be absent: %s requires it", op.Spec.ID)
			case mt.Equals != nil && in != "query":
				return s.checkValue(op, field, p, *mt.Equals)
			}
			return nil
		}
	}
	more, e := compileNamed("when.query", m.QueryMatches, func(field, name string, mt Match) *edge.Error {
		if e := s.queryDeclared(op, name); e != nil {
			return e
		}
		if p := op.Spec.Parameter("query", name); p != nil && mt.Equals != nil {
			return s.checkValue(op, field, p, *mt.Equals)
		}
		return declared("query")(field, name, mt)
	})
	if e != nil {
		return e
	}
	x.query = append(x.query, more...)
	if x.headers, e = compileNamed("when.headers", m.Headers, declared("header")); e != nil {
		return e
	}
	if x.cookies, e = compileNamed("when.cookies", m.Cookies, declared("cookie")); e != nil {
		return e
	}
	for i, bm := range m.BodyMatches {
		c, e := compileBodyMatch("when.bodyMatches["+strconv.Itoa(i)+"]", op, bm)
		if e != nil {
			return e
		}
		x.bodies = append(x.bodies, c)
	}
	return nil
}

// queryDeclared refuses a query parameter the operation does not declare.
func (s *Steering) queryDeclared(op *edge.Operation, name string) *edge.Error {
	if slices.Contains(op.QueryParams, name) {
		return nil
	}
	declared := "it declares none"
	if len(op.QueryParams) > 0 {
		declared = "its query parameters are " + strings.Join(op.QueryParams, ", ")
	}
	return edge.BadRequest("when.query."+name, "not a query parameter of %s; %s", op.Spec.ID, declared)
}

// checkValue checks a value a matcher requires of the parameter p, for the
// field named field, against the parameter's schema: one it refuses could
// never match.
func (s *Steering) checkValue(op *edge.Operation, field string, p *openapi3.Parameter, v string) *edge.Error {
	if p.Schema == nil || p.Schema.Value == nil {
		return nil
	}
	if p.In == "query" {
		q := url.Values{p.Name: {v}}
		if e := s.gate.CheckParameter(op, nil, q, p); e != nil {
			e.Message = field + ": " + e.Message
			return e
		}
		return nil
	}
	if err := p.Schema.Value.VisitJSON(spec.TextValue(p.Schema.Value, v), spec.SchemaOptions(s.contract.Doc)...); err != nil {
		return edge.BadRequest(field, "%q is no value of %s %s takes: %s", v, op.Spec.ID, p.Name, firstLine(err.Error()))
	}
	return nil
}

// firstLine returns the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
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

// Expected is what an expectation answers a request it matched with: its
// answer, made for the request, its delay and its fault.
type Expected struct {
	// ID is the id of the expectation.
	ID     int64
	answer *answer.Canned
	delay  time.Duration
	fault  injected
}

// Expected returns what the first expectation that matches r, a request
// to op, answers it with, and whether one matches. c is the call the edge
// checked, and body the body it read, nil for none.
func (s *Steering) Expected(op *edge.Operation, r *http.Request, c *edge.Call, body []byte) (Expected, bool) {
	ex := s.expecting
	if ex.n.Load() == 0 {
		return Expected{}, false
	}
	ex.mu.Lock()
	i := slices.IndexFunc(ex.list, func(x *expectation) bool { return ex.inState(x) && x.matches(op, r, c, body) })
	if i < 0 {
		ex.mu.Unlock()
		return Expected{}, false
	}
	x := ex.list[i]
	a := x.answer
	if x.template != nil {
		// Made under the lock, so that the expectation the request took
		// answers it, times and scenario included: a template makes an
		// answer in microseconds.
		var e *edge.Error
		if a, e = x.template.make(func(src *source) any {
			v, _ := src.value(r, c)
			return v
		}); e != nil {
			// The checks made when it was set found every value the
			// request gives to fit: this is a value they did not foresee.
			ex.mu.Unlock()
			if s.log != nil {
				s.log.Warn("an expectation's answer made of the request breaks the document; the request is answered as usual",
					"id", x.ID, "method", s.redact.Text(r.Method), "path", s.redact.Text(r.URL.Path), "err", s.redact.Text(e.Message))
			}
			return Expected{}, false
		}
	}
	x.Matched++
	ex.move(x)
	if x.Times > 0 {
		x.Remaining--
		if x.Remaining == 0 {
			ex.list = slices.Delete(ex.list, i, i+1)
			ex.bytes -= x.size
			ex.changed()
		}
	}
	delay := x.delay.Min
	ex.mu.Unlock()
	if x.delay.Max > x.delay.Min {
		delay, _, _ = s.chaos.draw(x.delay, 0, 0)
	}
	s.verify.answer(x, r, s.now())
	s.events.Publish(journal.ChangeExpectations)
	return Expected{ID: x.ID, answer: a, delay: delay, fault: x.fault}, true
}

// AnswerExpected answers r, a request to op, as the expectation that
// matched it says: after its delay, with its fault, or with its answer,
// and tells rec, when not nil, which one answered. It returns
// ErrAnswered for a fault below HTTP, or an error to answer instead, such
// as of a client that went away during the delay.
func (s *Steering) AnswerExpected(w http.ResponseWriter, r *http.Request, op *edge.Operation, rec *journal.Recorder, x Expected) error {
	if rec != nil {
		rec.Expectation = x.ID
	}
	if !sleep(r.Context(), x.delay) {
		return edge.NewError(http.StatusServiceUnavailable, "request", "cancelled by the client during the delay")
	}
	var v Verdict
	w, err := s.inject(&v, w, r, op, rec, x.fault)
	if err != nil {
		return err
	}
	x.answer.Write(w)
	v.Done()
	return nil
}

// matches reports whether r, a request to op with the call the edge
// checked and the body it read, matches x.
func (x *expectation) matches(op *edge.Operation, r *http.Request, c *edge.Call, body []byte) bool {
	path := r.URL.Path
	if x.op != op || x.path != "" && x.path != path || x.pattern != nil && !x.pattern.MatchString(path) {
		return false
	}
	for i := range x.query {
		m := &x.query[i]
		got, ok := c.Query[m.name]
		v := ""
		if ok && len(got) > 0 {
			v = got[0]
		}
		if !m.holds(v, ok && len(got) > 0) {
			return false
		}
	}
	for i := range x.headers {
		if !headerMatches(r, &x.headers[i]) {
			return false
		}
	}
	for i := range x.cookies {
		m := &x.cookies[i]
		if v, ok := cookieValue(r, m.name); !m.holds(v, ok) {
			return false
		}
	}
	for _, m := range x.body {
		got, ok := pointAt(c.Body, m.pointer)
		if !ok || !equalJSON(got, m.want) {
			return false
		}
	}
	for i := range x.bodies {
		if !x.bodies[i].holds(body, c.Body) {
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
	ex.changed()
	ex.mu.Unlock()
	s.events.Publish(journal.ChangeExpectations)
	return nil
}

// ClearExpectations drops every expectation, and moves every scenario
// back to ScenarioStarted.
func (s *Steering) ClearExpectations() {
	ex := s.expecting
	ex.mu.Lock()
	ex.list, ex.bytes, ex.states = nil, 0, nil
	ex.changed()
	ex.mu.Unlock()
	s.events.Publish(journal.ChangeExpectations)
}

// redactExpectation returns e without a key petmock accepts in any of
// its texts.
func (s *Steering) redactExpectation(e Expectation) Expectation {
	r := s.redact
	e.When.Path = r.Text(e.When.Path)
	e.When.PathPattern = r.Text(e.When.PathPattern)
	e.When.Query = r.Values(e.When.Query)
	e.When.QueryMatches = redactMatches(r, e.When.QueryMatches, false)
	e.When.Headers = redactMatches(r, e.When.Headers, true)
	e.When.Cookies = redactMatches(r, e.When.Cookies, false)
	if e.When.BodyMatches != nil {
		bms := make([]BodyMatch, len(e.When.BodyMatches))
		for i, bm := range e.When.BodyMatches {
			m := redactMatch(Match{Equals: bm.Equals, Contains: bm.Contains, Matches: bm.Matches, Absent: bm.Absent}, r.Text)
			bms[i] = BodyMatch{JSONPath: r.Text(bm.JSONPath), Equals: m.Equals, Contains: m.Contains, Matches: m.Matches, Absent: m.Absent,
				EqualsJSON: r.JSON(bm.EqualsJSON)}
		}
		e.When.BodyMatches = bms
	}
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

// redactMatches returns matches without a key petmock accepts in any of
// their texts; of the headers, those that carry credentials, such as
// Authorization, wholly, as the journal hides them.
func redactMatches(r *journal.Redactor, matches map[string]Match, headers bool) map[string]Match {
	if matches == nil {
		return nil
	}
	out := make(map[string]Match, len(matches))
	for name, m := range matches {
		text := r.Text
		if headers {
			text = func(v string) string {
				for _, hidden := range r.Values(map[string]string{name: v}) {
					return hidden
				}
				return v
			}
		}
		out[r.Text(name)] = redactMatch(m, text)
	}
	return out
}

// redactMatch returns m with each of its texts as hide returns it.
func redactMatch(m Match, hide func(string) string) Match {
	if m.Equals != nil {
		v := hide(*m.Equals)
		m.Equals = &v
	}
	if m.Contains != "" {
		m.Contains = hide(m.Contains)
	}
	if m.Matches != "" {
		m.Matches = hide(m.Matches)
	}
	return m
}
