package mockserver

import (
	"bytes"
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

// checkRequest checks the parameters and the body of r against op, and
// returns them as a call. rec, when not nil, is told the body. With
// unread, the body is left for the handler to read as it comes: of it,
// only the Content-Type is checked.
func (ed *edge) checkRequest(r *http.Request, op *operation, params map[string]string, rec *recorder, unread bool) (*call, error) {
	c := &call{op: op, params: params}
	lists := op.spec.Role == spec.RoleList || op.spec.Role == spec.RoleFind
	if r.URL.RawQuery != "" && (len(op.queryParams) > 0 || lists) {
		var e *Error
		if c.query, e = parseQuery(r.URL.RawQuery); e != nil {
			return nil, e
		}
		for _, name := range op.queryParams {
			if len(c.query[name]) > 1 {
				return nil, badRequest(name, "must be given at most once")
			}
		}
	}
	if !op.paramsCompiled || !paramsOK(op.params, c.query, params) {
		in := validationInput(r, op.route, params, c.query, nil)
		in.Options = ed.validation
		if err := openapi3filter.ValidateRequest(r.Context(), in); err != nil {
			return nil, requestError(err)
		}
	}
	if rs := op.resource; rs != nil && lists {
		c.after = math.MinInt64
		if v := first(c.query, rs.spec.Paging.Cursor); v != "" {
			after, e := decodeCursor(v)
			if e != nil {
				return nil, e
			}
			c.after = after
		}
	}
	if rb := op.spec.Op.RequestBody; rb != nil && rb.Value != nil {
		if unread {
			if _, e := admitMediaType(r, rb.Value); e != nil {
				return nil, e
			}
			return c, nil
		}
		body, err := ed.checkBody(r, op, params, rb.Value, rec)
		if err != nil {
			return nil, err
		}
		c.body = body
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
func (ed *edge) checkBody(r *http.Request, op *operation, params map[string]string, rb *openapi3.RequestBody, rec *recorder) (any, error) {
	body, e := readBody(r, ed.maxBody)
	if e != nil {
		return nil, e
	}
	if rec != nil {
		rec.reqBody = body
	}
	if len(body) == 0 {
		if rb.Required {
			return nil, badRequest("body", "is required")
		}
		return nil, nil
	}
	ct, e := admitMediaType(r, rb)
	if e != nil {
		return nil, e
	}
	value, decodeErr := decodeJSON(body)
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
		in.Options = ed.validation
		if err := openapi3filter.ValidateRequestBody(r.Context(), in, rb); err != nil {
			return nil, requestError(err)
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
			return nil, integerError(e)
		}
	}
	return value, nil
}

// admitMediaType returns the Content-Type of r, or the 415 of one that rb
// does not take.
func admitMediaType(r *http.Request, rb *openapi3.RequestBody) (string, *Error) {
	ct := r.Header.Get("Content-Type")
	if ct != "application/json" && rb.Content.Get(ct) == nil {
		return "", unsupportedMediaType(slices.Sorted(maps.Keys(rb.Content)), ct)
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
