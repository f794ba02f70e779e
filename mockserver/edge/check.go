package edge

import (
	"bytes"
	"context"
	"io"
	"maps"
	"math"
	"net/http"
	"net/url"
	"slices"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"

	"github.com/petstore/contract/spec"
)

// The request pipeline checks the parameters and the body of every request
// against the document in one place, checkRequest, once the key has been
// checked (authenticate). Each part of a request is decided by a compiled
// check when it can tell that the part is valid (see compiled.go), and by
// openapi3filter otherwise, which also words the error. Handlers receive
// what checkRequest returns, valid, and refuse nothing themselves.

// validation returns the options of openapi3filter's checks of the
// parameters and the body of a request of c, once the key has been
// checked.
func validation(c *spec.Contract) *openapi3filter.Options {
	return &openapi3filter.Options{
		ExcludeRequestBody:      true, // read and checked separately, within MaxBodyBytes
		SkipSettingDefaults:     true, // handlers apply defaults; the request is not rewritten
		SchemaValidationOptions: spec.SchemaOptions(c.Doc),
	}
}

// Call is a request the gate checked, valid, as a handler receives it.
type Call struct {
	// Op is the operation of the request.
	Op *Operation
	// Params are the path parameters, by name, as the path has them.
	Params map[string]string
	// Query is the query, every parameter of it, declared or not; nil
	// when the operation declares none and lists nothing.
	Query map[string][]string
	// Body is the decoded JSON body, with its numbers as json.Number; nil
	// for an operation without one, or one left unread.
	Body any
	// After is, of a list or a find of a resource, the id its cursor
	// points after: math.MinInt64 for the first page.
	After int64
}

// First returns the first value of the query parameter name, or "".
func (c *Call) First(name string) string {
	return first(c.Query, name)
}

// BodyRecorder is told the body of a request the gate read, valid or not,
// as the journal keeps it.
type BodyRecorder interface {
	RecordRequestBody(body []byte)
}

// Check checks the parameters and the body of r, a request of op with
// the path parameters params, against the document, and returns them as a
// Call. rec, when not nil, is told the body. With unread, the body is
// left for the handler to read as it comes: of it, only the Content-Type
// is checked.
func (g *Gate) Check(r *http.Request, op *Operation, params map[string]string, rec BodyRecorder, unread bool) (*Call, error) {
	c := &Call{Op: op, Params: params}
	lists := op.Spec.Role == spec.RoleList || op.Spec.Role == spec.RoleFind
	if r.URL.RawQuery != "" && (len(op.QueryParams) > 0 || lists) {
		var e *Error
		if c.Query, e = ParseQuery(r.URL.RawQuery); e != nil {
			return nil, e
		}
		for _, name := range op.QueryParams {
			if len(c.Query[name]) > 1 {
				return nil, BadRequest(name, "must be given at most once")
			}
		}
	}
	if !op.paramsCompiled || !paramsOK(op.params, c.Query, params) {
		in := validationInput(r, op.route, params, c.Query, nil)
		in.Options = g.validation
		if err := openapi3filter.ValidateRequest(r.Context(), in); err != nil {
			return nil, RequestError(err)
		}
	}
	if rs := op.Spec.Resource; rs != nil && lists {
		c.After = math.MinInt64
		if v := first(c.Query, rs.Cursor(op.Spec)); v != "" {
			after, e := DecodeCursor(v)
			if e != nil {
				return nil, e
			}
			c.After = after
		}
	}
	if rb := op.Spec.Op.RequestBody; rb != nil && rb.Value != nil {
		if unread {
			if _, e := admitMediaType(r, rb.Value); e != nil {
				return nil, e
			}
			return c, nil
		}
		body, err := g.checkBody(r, op, params, rb.Value, rec)
		if err != nil {
			return nil, err
		}
		c.Body = body
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

// checkBody reads the body within the edge's bound, checks it against the
// document and returns it decoded.
func (g *Gate) checkBody(r *http.Request, op *Operation, params map[string]string, rb *openapi3.RequestBody, rec BodyRecorder) (any, error) {
	body, e := readBody(r, g.maxBody)
	if e != nil {
		return nil, e
	}
	if rec != nil {
		rec.RecordRequestBody(body)
	}
	if len(body) == 0 {
		if rb.Required {
			return nil, BadRequest("body", "is required")
		}
		return nil, nil
	}
	ct, e := admitMediaType(r, rb)
	if e != nil {
		return nil, e
	}
	value, decodeErr := DecodeJSON(body)
	compiled := decodeErr == nil && op.body != nil && op.body.ok(value)
	if !compiled {
		in := validationInput(r, op.route, params, nil, body)
		if name, mt := spec.JSONMedia(rb.Content); mt != nil && spec.IsJSON(ct) && rb.Content.Get(ct) == nil {
			// JSON sent as application/json where the document names
			// another JSON type, such as application/json;charset=UTF-8:
			// it is checked against the schema of that type.
			in.Request.Header = in.Request.Header.Clone()
			in.Request.Header.Set("Content-Type", name)
		}
		in.Options = g.validation
		if err := openapi3filter.ValidateRequestBody(r.Context(), in, rb); err != nil {
			return nil, RequestError(err)
		}
	}
	switch {
	case decodeErr != nil && spec.IsJSON(ct):
		return nil, decodeErr
	case decodeErr != nil:
		// A body of another media type that the document allows: it
		// passed, and no handler reads its value.
		return nil, nil
	case !compiled && op.bodyShape != nil:
		// openapi3filter reads numbers as float64s, so an integer beyond
		// int64 passes it, rounded: its digits are checked here.
		if e := op.bodyShape.ExactIntegers(value, "body"); e != nil {
			return nil, BadRequest(e.Field, "must be an integer (int%d)", e.Bits)
		}
	}
	return value, nil
}

// admitMediaType returns the Content-Type of r, or the 415 of one that rb
// does not take.
func admitMediaType(r *http.Request, rb *openapi3.RequestBody) (string, *Error) {
	ct := r.Header.Get("Content-Type")
	if ct != "application/json" && rb.Content.Get(ct) == nil {
		return "", UnsupportedMediaType(slices.Sorted(maps.Keys(rb.Content)), ct)
	}
	return ct, nil
}

// validationInput is the input of openapi3filter for r, with body, which
// may be nil, as its body. The body a client sent is kept away from
// openapi3filter, which would read all of it, whatever its size: it is
// given the body the edge read, within its bound.
func validationInput(r *http.Request, route *routers.Route, params map[string]string, query url.Values, body []byte) *openapi3filter.RequestValidationInput {
	req := *r
	req.Body = http.NoBody
	if body != nil {
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.ContentLength = int64(len(body))
	}
	return &openapi3filter.RequestValidationInput{Request: &req, PathParams: params, QueryParams: query, Route: route}
}

// ReadBody reads the body of r within the gate's bound: a larger one is
// the 413 to answer.
func (g *Gate) ReadBody(r *http.Request) ([]byte, *Error) {
	return readBody(r, g.maxBody)
}

// CheckParameter checks the value of p, a parameter of op, that a request
// of op with the path parameters params and the query query gives, as
// Check would, and returns the 400 it would answer, or nil.
func (g *Gate) CheckParameter(op *Operation, params map[string]string, query url.Values, p *openapi3.Parameter) *Error {
	req := &http.Request{Method: op.Spec.Method, URL: &url.URL{Path: "/", RawQuery: query.Encode()}, Header: http.Header{}, Body: http.NoBody}
	in := validationInput(req, op.route, params, query, nil)
	in.Options = g.validation
	if err := openapi3filter.ValidateParameter(context.Background(), in, p); err != nil {
		return RequestError(err)
	}
	return nil
}
