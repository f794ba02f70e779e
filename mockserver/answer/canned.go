package answer

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/petstore/contract/mockserver/edge"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/mockserver/shape"
	"github.com/petstore/contract/spec"
)

// A canned answer is one given whole ahead of the request that gets it: a
// named example of the document (Prefer: example=), or the answer of an
// expectation (expect.go). It is checked against the response the
// operation documents for its status when it is given: the status, the
// headers the document requires and the values of those it describes, and
// the body against the schema. So a canned answer, like every other,
// matches the contract. A request answered with one is not processed: it
// changes nothing.

// Canned is a checked answer, ready to write.
type Canned struct {
	status int
	header http.Header // Content-Type and Content-Length included
	body   []byte
}

// Write answers with c. The headers the pipeline set before, such as the
// deprecation's and CORS, stay; c's win.
func (c *Canned) Write(w http.ResponseWriter) {
	h := w.Header()
	for name, values := range c.header {
		h[name] = values
	}
	w.WriteHeader(c.status)
	if len(c.body) > 0 {
		w.Write(c.body)
	}
}

// Facts are what a canned answer is checked against: a response
// the operation documents, with its body's media type and schema.
type Facts struct {
	resp *openapi3.Response
	// mediaType is what petmock answers the body in: a JSON media type
	// the response documents, or text/plain; "" when it documents no
	// body, or, with others set, none petmock can check.
	mediaType string
	text      bool
	schema    *openapi3.Schema // nil takes any value
	shape     *shape.Shape
	// others are the media types of a response that documents neither
	// JSON nor text.
	others []string
	// examples are the named examples of the media type petmock answers
	// in, for Prefer: example=.
	examples openapi3.Examples
	// check are the options a value is checked against the schemas with:
	// as an answer, by the validator of the document's version
	// (spec.SchemaOptions).
	check []openapi3.SchemaValidationOption
}

// Responses are the facts of each response of an operation.
type Responses struct {
	contract *spec.Contract
	byStatus map[int]*Facts
	fallback *Facts // of the default response; nil if none
	// outage is the Error body of 500 and 503, which no operation needs
	// to document (see OutageCodes).
	outage *Facts
}

// NewResponses reads the responses of op, of the document of c. outage
// is the facts of an outage's error body. known holds the facts of each
// response read before, by the response: operations that refer to the
// same response of the components share its facts, so that a document
// of thousands of operations that all refer to a few responses holds a
// few facts, not thousands.
func NewResponses(c *spec.Contract, op *spec.Operation, shapes *shape.Builder, outage *Facts, known map[*openapi3.Response]*Facts) *Responses {
	rs := &Responses{contract: c, byStatus: map[int]*Facts{}, outage: outage}
	if op.Op.Responses == nil {
		return rs
	}
	for code, ref := range op.Op.Responses.Map() {
		if ref == nil || ref.Value == nil {
			continue
		}
		facts := known[ref.Value]
		if facts == nil {
			facts = newAnswerFacts(c, ref.Value, shapes)
			known[ref.Value] = facts
		}
		if code == "default" {
			rs.fallback = facts
		} else if n, err := strconv.Atoi(code); err == nil {
			rs.byStatus[n] = facts
		}
	}
	return rs
}

// newAnswerFacts reads one response.
func newAnswerFacts(c *spec.Contract, resp *openapi3.Response, shapes *shape.Builder) *Facts {
	f := &Facts{resp: resp, check: answerChecks(c)}
	if len(resp.Content) == 0 {
		return f
	}
	names := slices.Sorted(maps.Keys(resp.Content))
	// The JSON type petmock answers in, as every answer of its own: the
	// one the document names, or application/json for */*.
	if name, mt := spec.JSONMedia(resp.Content); mt != nil {
		f.mediaType = name
		if mt.Schema != nil {
			f.schema = mt.Schema.Value
		}
		f.shape = shapes.Of(f.schema)
		f.examples = mt.Examples
		return f
	}
	if mt := resp.Content.Get("text/plain"); mt != nil {
		f.mediaType, f.text = "text/plain; charset=utf-8", true
		if mt.Schema != nil {
			f.schema = mt.Schema.Value
		}
		f.examples = mt.Examples
		return f
	}
	f.others = names
	return f
}

// answerChecks are the options a value of an answer of the document of c
// is checked with.
func answerChecks(c *spec.Contract) []openapi3.SchemaValidationOption {
	return append(spec.SchemaOptions(c.Doc), openapi3.VisitAsResponse())
}

// OutageFacts are the facts of the error body of an outage an operation
// does not document: the document's error body, in which petmock answers
// one itself (spec.Contract.ErrorBody), or any JSON where that is problem
// details.
func OutageFacts(c *spec.Contract, shapes *shape.Builder) *Facts {
	b := c.ErrorBody(nil, http.StatusServiceUnavailable)
	f := &Facts{resp: &openapi3.Response{}, mediaType: b.MediaType, schema: b.Schema, check: answerChecks(c)}
	f.shape = shapes.Of(f.schema)
	return f
}

// of returns the facts of the response of status, or nil when op
// documents none and status is no outage.
func (rs *Responses) of(status int) *Facts {
	if f := rs.byStatus[status]; f != nil {
		return f
	}
	if rs.fallback != nil {
		return rs.fallback
	}
	if slices.Contains(OutageCodes, status) {
		return rs.outage
	}
	return nil
}

// Given is an answer as it is given, before it is checked: its status,
// headers and body, JSON text or nil for none.
type Given struct {
	Status int
	Header map[string]string
	Body   json.RawMessage
}

// hopHeaders are headers of the connection or of the framing of a body,
// which petmock sets itself.
var hopHeaders = []string{"Connection", "Content-Length", "Content-Type", "Keep-Alive", "Trailer", "Transfer-Encoding", "Upgrade"}

// Check checks the answer a to a request of op, whose responses are rs,
// and returns it ready to write. field names a in the message of
// the error, such as "answer": "answer.body.name: is required".
func Check(op *spec.Operation, rs *Responses, a Given, field string) (*Canned, *edge.Error) {
	if a.Status < 100 || a.Status > 599 {
		return nil, edge.BadRequest(field+".status", "%d: want an HTTP status such as 200", a.Status)
	}
	facts := rs.of(a.Status)
	if facts == nil {
		return nil, edge.BadRequest(field+".status", "%d is not documented for %s; use one of %s, or 500 or 503 to rehearse an outage",
			a.Status, op.ID, edge.StatusList(op.Statuses))
	}
	what := strconv.Itoa(a.Status) + " answer of " + op.ID
	header := http.Header{}
	given := map[string]string{} // the name given, of each header
	for _, name := range slices.Sorted(maps.Keys(a.Header)) {
		key := http.CanonicalHeaderKey(name)
		if e := checkHeaderText(field+".headers."+name, name, a.Header[name]); e != nil {
			return nil, e
		}
		if slices.Contains(hopHeaders, key) {
			return nil, edge.BadRequest(field+".headers."+name, "petmock sets it itself, from the document and the body")
		}
		header[key] = []string{a.Header[name]}
		given[key] = name
	}
	if e := checkDocumentedHeaders(facts, header, given, field+".headers", what); e != nil {
		return nil, e
	}
	if a.Status == http.StatusUnauthorized && header.Get("WWW-Authenticate") == "" {
		// HTTP requires a challenge with every 401.
		if c := edge.Challenge(op); c != "" {
			header.Set("WWW-Authenticate", c)
		}
	}
	body, e := checkCannedBody(facts, a, field+".body", what)
	if e != nil {
		return nil, e
	}
	if body != nil {
		header.Set("Content-Type", facts.mediaType)
		header.Set("Content-Length", strconv.Itoa(len(body)))
	}
	return &Canned{status: a.Status, header: header, body: body}, nil
}

// checkHeaderText checks that a header's name is a token and its value
// holds no character HTTP does not allow.
func checkHeaderText(field, name, value string) *edge.Error {
	if name == "" || strings.ContainsFunc(name, func(r rune) bool {
		return r <= ' ' || r >= 0x7f || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, r)
	}) {
		return edge.BadRequest(field, "the name is not a valid HTTP token")
	}
	if strings.ContainsAny(value, "\r\n\x00") {
		return edge.BadRequest(field, "the value holds a character HTTP does not allow")
	}
	return nil
}

// checkDocumentedHeaders checks header against the headers the response
// of facts documents: each one it requires is there, and each one with a
// schema holds a value of it. given are the names as they were given,
// which the messages use.
func checkDocumentedHeaders(facts *Facts, header http.Header, given map[string]string, field, what string) *edge.Error {
	resp := facts.resp
	for _, name := range slices.Sorted(maps.Keys(resp.Headers)) {
		ref := resp.Headers[name]
		if ref == nil || ref.Value == nil {
			continue
		}
		key := http.CanonicalHeaderKey(name)
		values, present := header[key]
		if !present {
			if ref.Value.Required {
				return edge.BadRequest(field+"."+name, "is required: the document requires it on the %s", what)
			}
			continue
		}
		if ref.Value.Schema == nil || ref.Value.Schema.Value == nil {
			continue
		}
		s := ref.Value.Schema.Value
		if err := s.VisitJSON(spec.TextValue(s, values[0]), facts.check...); err != nil {
			return schemaViolation(field+"."+given[key], err)
		}
	}
	return nil
}

// schemaViolation is the 400 of a value that breaks its schema, named
// field, or a member of it.
func schemaViolation(field string, err error) *edge.Error {
	var se *openapi3.SchemaError
	if !errors.As(err, &se) {
		return edge.BadRequest(field, "%v", err)
	}
	e := edge.SchemaError(field, se)
	if !strings.HasPrefix(e.Message, field) {
		e.Message = field + "." + e.Message
	}
	return e
}

// checkCannedBody checks the body of a against facts, and returns it as
// it is sent: JSON text in petmock's one way, or the text of a text/plain
// string; nil for none.
func checkCannedBody(facts *Facts, a Given, field, what string) ([]byte, *edge.Error) {
	switch {
	case a.Body == nil && facts.mediaType == "" && facts.others == nil:
		return nil, nil
	case a.Body == nil && facts.others == nil:
		return nil, edge.BadRequest(field, "is required: the %s has a body of %s", what, strings.TrimSuffix(facts.mediaType, "; charset=utf-8"))
	case facts.others != nil:
		return nil, edge.BadRequest(field, "the %s is %s, which petmock cannot check: it answers JSON or text", what, strings.Join(facts.others, ", "))
	case facts.mediaType == "":
		return nil, edge.BadRequest(field, "the %s has no body", what)
	}
	dec := json.NewDecoder(bytes.NewReader(a.Body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, edge.BadRequest(field, "malformed JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, edge.BadRequest(field, "malformed JSON: data after the JSON value")
	}
	if facts.schema != nil {
		if err := facts.schema.VisitJSON(v, facts.check...); err != nil {
			return nil, schemaViolation(field, err)
		}
	}
	if facts.text {
		text, ok := v.(string)
		if !ok {
			return nil, edge.BadRequest(field, "must be a string: the %s is text/plain", what)
		}
		return []byte(text), nil
	}
	if facts.shape != nil {
		if e := facts.shape.ExactIntegers(v, field); e != nil {
			return nil, edge.BadRequest(e.Field, "must be an integer (int%d)", e.Bits)
		}
	}
	if a.Status >= 400 {
		// Every error is an Error body whose status is the HTTP status.
		if m, ok := v.(map[string]any); ok {
			if n, ok := m["status"].(json.Number); ok && string(n) != strconv.Itoa(a.Status) {
				return nil, edge.BadRequest(field+".status", "%s, but the answer's status is %d", n, a.Status)
			}
		}
	}
	return append(facts.shape.AppendKept(nil, v), '\n'), nil
}

// OutageCodes may be forced on any operation although no operation
// documents them, so that an app can rehearse an outage. They lie outside
// the contract.
var OutageCodes = []int{http.StatusInternalServerError, http.StatusServiceUnavailable}
