// Package answercheck holds one answer at a time to the document that
// describes it: its status is one the operation documents, its headers,
// Content-Type and body match the document, and an error's code, message
// and status, where its documented body has them, say what the Petstore's
// interface says they do (errorshape.go). It returns what an answer breaks
// as Violations, each naming its rule, and decides nothing else: the
// conformance suite turns them into its verdicts, and petmock's proxy
// records them.
//
// The checks are those of openapi3filter, read once from the document,
// with messages that name the field at fault instead of dumping a schema.
package answercheck

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"

	"github.com/petstore/contract/spec"
)

// Checker checks answers against the document of a contract. It is safe
// for concurrent use.
type Checker struct {
	contract *spec.Contract
	router   routers.Router
	// ops are the routes answers are checked against, by the document's
	// operation, which the router finds, and by operation id.
	ops  map[*openapi3.Operation]*routes
	byID map[string]*routes
	// fast are the fast checks of the schemas of the responses, where
	// they have one (fast.go).
	fast map[*openapi3.Schema]*fast
	// shapes are what the error-shape rule asks of the JSON bodies of the
	// error responses, by schema, where it asks anything.
	shapes map[*openapi3.Schema]errorShape
}

// routes are the two routes one operation's answers are checked against.
type routes struct {
	id string
	// headers is the operation's route, without the header schemas that
	// are petmock's choices unless the checker is strict: its status and
	// headers are checked against it.
	headers *routers.Route
	// body is the same route, its responses documenting no header, so
	// that the body is checked whatever is wrong with the headers.
	body *routers.Route
}

// Answer is an answer to check.
type Answer struct {
	Status int
	Header http.Header
	Body   []byte
	// Unread says that Body is not the whole body, such as one too large
	// to read: then only the status and the headers are checked.
	Unread bool
}

// New returns a Checker of the document of c. With strict, answers are
// held to the whole document, petmock's choices included, such as the
// pattern of its Deprecation header. Without, they are held to the
// interface alone: a header the document marks as petmock's choice
// (x-petmock-choice) is not checked.
func New(c *spec.Contract, strict bool) (*Checker, error) {
	router, err := spec.NewRouter(c.Doc)
	if err != nil {
		return nil, err
	}
	k := &Checker{
		contract: c,
		router:   router,
		ops:      make(map[*openapi3.Operation]*routes, len(c.Operations)),
		byID:     make(map[string]*routes, len(c.Operations)),
		fast:     map[*openapi3.Schema]*fast{},
		shapes:   map[*openapi3.Schema]errorShape{},
	}
	for _, op := range c.Operations {
		checked := op.Op
		if choices := op.ChoiceHeaders(); !strict && len(choices) > 0 {
			checked = withoutHeaders(op.Op, choices)
		}
		route := func(o *openapi3.Operation) *routers.Route {
			return &routers.Route{Spec: c.Doc, Path: op.Path, PathItem: op.Item, Method: op.Method, Operation: o}
		}
		rs := &routes{id: op.ID, headers: route(checked), body: route(withoutHeaders(op.Op, nil))}
		k.ops[op.Op] = rs
		k.byID[op.ID] = rs
		for code, ref := range rs.body.Operation.Responses.Map() {
			if ref == nil || ref.Value == nil {
				continue
			}
			for _, mt := range ref.Value.Content {
				if mt != nil && mt.Schema != nil && mt.Schema.Value != nil {
					if f := compileFast(mt.Schema.Value, 0); f != nil {
						k.fast[mt.Schema.Value] = f
					}
				}
			}
			if code == "default" || code >= "4" {
				k.readShape(ref.Value.Content)
			}
		}
	}
	// An error no operation documents is answered in the document's error
	// body (CheckError).
	k.keepShape(c.ErrorBody(nil, 0).Schema)
	return k, nil
}

// ErrNoOperation says that a request is no operation of the document, so
// that nothing in the document says what its answer should be.
var ErrNoOperation = errors.New("not an operation of the document")

// Check checks a, the answer to req, against the operation of the
// document that req is a request of, and returns what it breaks, in the
// order a reader would fix them: the status, then the body's syntax, the
// headers, the body, and the shape of an error. When req is no operation
// of the document, the error wraps ErrNoOperation. A HEAD request is of
// the operation of its GET.
func (k *Checker) Check(req *http.Request, a Answer) ([]Violation, error) {
	probe := req
	if req.Method == http.MethodHead {
		// HEAD is GET without the body, which no document describes on
		// its own.
		get := *req
		get.Method = http.MethodGet
		probe = &get
	}
	route, params, err := k.router.FindRoute(probe)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w: %v", req.Method, req.URL.Path, ErrNoOperation, err)
	}
	return k.check(k.ops[route.Operation], params, req, a), nil
}

// CheckOperation checks a, the answer to req, a request of op found
// already with its path parameters, as Check does without finding it
// again. It returns nil for an operation of another document.
func (k *Checker) CheckOperation(op *spec.Operation, params map[string]string, req *http.Request, a Answer) []Violation {
	rs := k.byID[op.ID]
	if rs == nil || k.contract.Operation(op.ID) != op {
		return nil
	}
	return k.check(rs, params, req, a)
}

// check checks a against the routes of its operation.
func (k *Checker) check(rs *routes, params map[string]string, req *http.Request, a Answer) []Violation {
	var out []Violation
	// The body's route has the statuses of the operation, and responses
	// even where the document has none.
	responses := rs.body.Operation.Responses
	if responses.Status(a.Status) == nil && responses.Default() == nil {
		out = append(out, Violation{Rule: RuleStatus, Message: fmt.Sprintf("status %d is not documented for %s (documented: %s)",
			a.Status, rs.id, strings.Join(documentedStatuses(rs.body.Operation), ", "))})
	} else {
		out = k.validate(rs, params, req, a, out)
	}
	if a.Status >= 400 && !a.Unread && req.Method != http.MethodHead {
		if problem := k.shapeProblem(rs.body.Operation, a); problem != "" {
			out = append(out, Violation{Rule: RuleErrorShape, Message: problem})
		}
	}
	return out
}

// validate appends what a, an answer of a documented status, breaks of
// its headers and body to out.
func (k *Checker) validate(rs *routes, params map[string]string, req *http.Request, a Answer, out []Violation) []Violation {
	answered := func(rule, detail string) Violation {
		return Violation{Rule: rule, Message: fmt.Sprintf("%s answered %d: %s", rs.id, a.Status, detail)}
	}
	syntax := false
	if mediaType, _, _ := mime.ParseMediaType(a.Header.Get("Content-Type")); !a.Unread && len(a.Body) > 0 && isJSON(mediaType) && !json.Valid(a.Body) {
		syntax = true
		out = append(out, answered(RuleBody, invalidJSON(a.Header, a.Body)))
	}
	// openapi3filter stops at the first header it finds wrong, before the
	// body: the headers and the body are checked apart, so that an answer
	// wrong in both says so.
	if documentsHeaders(rs.headers.Operation, a.Status) {
		if err := validateResponse(rs.headers, params, req, a, true); err != nil {
			out = append(out, answered(RuleHeader, describeValidation(err)))
		}
	}
	if syntax || a.Unread || bodiless(a.Status) || documentedOtherThanJSON(rs.body.Operation, a) {
		// A body the document gives in another format than JSON, such as
		// XML, is one no schema here can read: being documented, it
		// passes.
		return out
	}
	if k.surelyValid(rs.body.Operation, a) {
		return out
	}
	if err := validateResponse(rs.body, params, req, a, false); err != nil {
		rule := RuleBody
		switch re := (*openapi3filter.ResponseError)(nil); {
		case errors.As(err, &re) && strings.HasPrefix(re.Reason, "response header Content-Type"):
			rule = RuleMediaType
		case uncompiled(err):
			rule = RuleUncheckable
		}
		out = append(out, answered(rule, describeValidation(err)))
	}
	return out
}

// uncompiled reports whether err says that the validator could not make a
// validator of the schema, rather than that the body does not match it:
// kin-openapi's JSON Schema 2020-12 validator, for a 3.1 document, says so
// in these words only.
func uncompiled(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "failed to compile schema") || strings.Contains(msg, "failed to prepare schema references") || strings.Contains(msg, "failed to add schema resource")
}

// bodiless reports whether an answer of status has no body, whatever its
// document says of its content: HTTP gives a 1xx, a 204 and a 304 none
// (RFC 9110, 15.2, 15.3.5 and 15.4.5), so that a server that sends one
// sends it without a body, and that is all there is to judge of it:
// OSIsoft's channels switch to a WebSocket with a 101 whose document gives
// it the JSON the socket then carries.
func bodiless(status int) bool {
	return status < 200 || status == http.StatusNoContent || status == http.StatusNotModified
}

// response returns the response op documents for status, or nil.
func response(op *openapi3.Operation, status int) *openapi3.Response {
	ref := op.Responses.Status(status)
	if ref == nil {
		ref = op.Responses.Default()
	}
	if ref == nil {
		return nil
	}
	return ref.Value
}

// documentsHeaders reports whether op's response of status documents a
// header to check, or may: openapi3filter checks none but those.
func documentsHeaders(op *openapi3.Operation, status int) bool {
	resp := response(op, status)
	if resp == nil {
		return true
	}
	for name := range resp.Headers {
		if name != "Content-Type" {
			return true
		}
	}
	return false
}

// surelyValid reports whether the body of a, served as JSON and valid
// JSON, surely matches the schema op documents for it, by the fast check
// of that schema; false says only that openapi3filter must decide.
func (k *Checker) surelyValid(op *openapi3.Operation, a Answer) bool {
	if mediaType, _, _ := mime.ParseMediaType(a.Header.Get("Content-Type")); len(a.Body) == 0 || !isJSON(mediaType) {
		return false
	}
	resp := response(op, a.Status)
	if resp == nil || len(resp.Content) == 0 {
		return false
	}
	mt := resp.Content.Get(a.Header.Get("Content-Type"))
	if mt == nil || mt.Schema == nil {
		return false
	}
	f := k.fast[mt.Schema.Value]
	return f != nil && f.ok(a.Body)
}

// validateResponse runs openapi3filter's check of a against route: of its
// status and headers only, or of its body too.
func validateResponse(route *routers.Route, params map[string]string, req *http.Request, a Answer, headersOnly bool) error {
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
		Status:                 a.Status,
		Header:                 a.Header,
		Options: &openapi3filter.Options{
			IncludeResponseStatus:   true,
			MultiError:              true,
			ExcludeResponseBody:     headersOnly,
			SchemaValidationOptions: spec.SchemaOptions(route.Spec),
		},
	}
	if !headersOnly {
		in.SetBodyBytes(a.Body)
	}
	return openapi3filter.ValidateResponse(context.Background(), in)
}

// documentedOtherThanJSON reports whether a is an answer of op in a media
// type its response documents, one that is not JSON.
func documentedOtherThanJSON(op *openapi3.Operation, a Answer) bool {
	mediaType, _, _ := mime.ParseMediaType(a.Header.Get("Content-Type"))
	if mediaType == "" || isJSON(mediaType) {
		return false
	}
	resp := op.Responses.Status(a.Status)
	if resp == nil {
		resp = op.Responses.Default()
	}
	return resp != nil && resp.Value != nil && documentsMedia(resp.Value.Content, mediaType)
}

// documentsMedia reports whether content documents mediaType, written
// with parameters or without: zuora's "text/xml; charset=utf-8" documents
// text/xml, which kin-openapi's Content.Get finds only as written.
func documentsMedia(content openapi3.Content, mediaType string) bool {
	if content.Get(mediaType) != nil {
		return true
	}
	for name := range content {
		if mt, _, err := mime.ParseMediaType(name); err == nil && strings.EqualFold(mt, mediaType) {
			return true
		}
	}
	return false
}

// isJSON reports whether a media type is JSON: application/json, or one
// whose subtype ends in +json.
func isJSON(mediaType string) bool {
	return mediaType == "application/json" || strings.HasSuffix(mediaType, "+json")
}

// documentedStatuses lists the statuses op documents, as written in the
// document, sorted.
func documentedStatuses(op *openapi3.Operation) []string {
	var out []string
	for code := range op.Responses.Map() {
		out = append(out, code)
	}
	slices.Sort(out)
	return out
}
