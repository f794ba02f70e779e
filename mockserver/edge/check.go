package edge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

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
	// when the operation declares none and lists nothing. It may be
	// shared with other requests of the same query (querycache.go): it
	// is read, never changed.
	Query map[string][]string
	// Body is the decoded JSON body, with its numbers as json.Number; nil
	// for an operation without one, or one left unread.
	Body any
	// After is, of a list or a find of a resource, the id its cursor
	// points after: math.MinInt64 for the first page.
	After int64
	// MediaType is the media type of the answer the request's Accept
	// negotiated, as the document names it, such as application/xml;
	// "" for petmock's choice (Operation.DefaultMedia).
	MediaType string
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

// checkQuery checks the query and the path parameters params of r, a
// request of op, and sets c's Query and After; a query that passed by the
// compiled checks alone is kept, where keep says it may be.
func (g *Gate) checkQuery(r *http.Request, op *Operation, params map[string]string, c *Call, keep bool) error {
	lists := op.Spec.Role == spec.RoleList || op.Spec.Role == spec.RoleFind
	if r.URL.RawQuery != "" && (len(op.QueryParams) > 0 || lists) {
		var e *Error
		if c.Query, e = ParseQuery(r.URL.RawQuery); e != nil {
			return e
		}
		for _, name := range op.QueryParams {
			if len(c.Query[name]) > 1 {
				return BadRequest(name, "must be given at most once")
			}
		}
	}
	if op.ownParams != nil {
		if e := checkOwnParams(op.ownParams, c.Query, g.validation.SchemaValidationOptions); e != nil {
			return e
		}
	}
	if !op.paramsCompiled || !paramsOK(op.params, c.Query, params) {
		keep = false
		in := validationInput(r, op.route, params, c.Query, nil)
		in.Options = g.validation
		if err := openapi3filter.ValidateRequest(r.Context(), in); err != nil {
			return RequestError(err)
		}
	}
	if rs := op.Spec.Resource; rs != nil && lists {
		c.After = math.MinInt64
		if v := first(c.Query, rs.Cursor(op.Spec)); v != "" {
			keep = false // a walk through the pages asks each once
			after, e := DecodeCursor(v)
			if e != nil {
				return e
			}
			c.After = after
		}
	}
	if keep {
		op.keepQuery(&keptQuery{raw: r.URL.RawQuery, query: c.Query, after: c.After})
	}
	return nil
}

// Check checks the parameters and the body of r, a request of op with
// the path parameters params, against the document, and returns them as a
// Call. rec, when not nil, is told the body. With unread, the body is
// left for the handler to read as it comes: of it, only the Content-Type
// is checked.
func (g *Gate) Check(r *http.Request, op *Operation, params map[string]string, rec BodyRecorder, unread bool) (*Call, error) {
	c := &Call{Op: op, Params: params}
	if op.contentPath != nil {
		// The check below reads the JSON itself, from params.
		c.Params = contentPathParams(op.contentPath, params)
	}
	if accept := r.Header.Values("Accept"); len(accept) > 0 && op.offered != nil {
		name, ok := Negotiate(accept, op.offered)
		if !ok {
			return nil, NotAcceptable(strings.Join(accept, ", "), op.offered)
		}
		if name != op.offered[0] {
			c.MediaType = name
		}
	}
	// A query kept (querycache.go) is judged by its text: of an operation
	// whose parameters are all simple ones of the query.
	byText := op.paramsCompiled && op.ownParams == nil && len(params) == 0 && r.URL.RawQuery != ""
	var kept *keptQuery
	if byText {
		kept = op.keptQueryOf(r.URL.RawQuery)
	}
	if kept != nil {
		c.Query, c.After = kept.query, kept.after
	} else if err := g.checkQuery(r, op, params, c, byText); err != nil {
		return nil, err
	}
	if rb := op.Spec.Op.RequestBody; rb != nil && rb.Value != nil {
		if unread {
			if _, e := admitMediaType(r, rb.Value); e != nil {
				return nil, e
			}
			return c, nil
		}
		body, sent, err := g.checkBody(r, op, params, rb.Value, rec)
		if err != nil {
			return nil, err
		}
		c.Body = body
		_, isObject := body.(map[string]any)
		_, isPatch := body.([]any)
		isPatch = isPatch && op.Spec.Role == spec.RoleUpdate
		if op.writesItem() && sent && !isObject && !isPatch {
			// A schema without a type takes any JSON value, but a
			// resource keeps its items as objects; an update's array
			// is a JSON Patch (RFC 6902), which the catalogue applies
			// or refuses operation by operation.
			return nil, BadRequest("body", "must be a JSON object: the items of %s are objects", op.Spec.Resource.CollectionPath)
		}
	}
	if c.Body == nil && op.writesItem() {
		// An optional body left out: an item of nothing but its
		// defaults.
		c.Body = map[string]any{}
	}
	return c, nil
}

// writesItem reports whether op writes an item of its resource from its
// body: a create, a replace or an update.
func (op *Operation) writesItem() bool {
	switch op.Spec.Role {
	case spec.RoleCreate, spec.RoleReplace, spec.RoleUpdate:
		return op.Spec.Resource != nil
	}
	return false
}

// first returns the first value of a query parameter, or "".
func first(query map[string][]string, name string) string {
	if vs := query[name]; len(vs) > 0 {
		return vs[0]
	}
	return ""
}

// checkBody reads the body within the edge's bound, checks it against the
// document and returns it decoded, and whether one was sent.
func (g *Gate) checkBody(r *http.Request, op *Operation, params map[string]string, rb *openapi3.RequestBody, rec BodyRecorder) (any, bool, error) {
	v, err := g.checkSentBody(r, op, params, rb, rec)
	if err == errNoBody {
		return nil, false, nil
	}
	return v, true, err
}

// errNoBody is what checkSentBody says of an optional body left out.
var errNoBody = errors.New("no body")

// checkSentBody is checkBody, with errNoBody for an optional body left
// out.
func (g *Gate) checkSentBody(r *http.Request, op *Operation, params map[string]string, rb *openapi3.RequestBody, rec BodyRecorder) (any, error) {
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
		return nil, errNoBody
	}
	ct, e := admitMediaType(r, rb)
	if e != nil {
		return nil, e
	}
	value, decodeErr := DecodeJSON(body)
	compiled := decodeErr == nil && op.body != nil && op.body.ok(value)
	if !compiled {
		switch mt, _, _ := mime.ParseMediaType(ct); {
		case mt == formMediaType && bytes.IndexByte(body, ';') >= 0:
			// A ';' in a form is a character of a value, as the URL
			// Standard reads application/x-www-form-urlencoded; Go's
			// url.ParseQuery, by which openapi3filter reads forms,
			// refuses it as a separator of old.
			body = bytes.ReplaceAll(body, []byte(";"), []byte("%3B"))
		case mt == multipartMediaType && anyParts(rb.Content.Get(ct)):
			return nil, checkParts(body, ct, rb.Content.Get(ct).Schema.Value, g.validation.SchemaValidationOptions)
		}
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

// Media types of forms.
const (
	formMediaType      = "application/x-www-form-urlencoded"
	multipartMediaType = "multipart/form-data"
)

// anyParts reports whether a multipart body of mt takes any parts: its
// schema declares none, as a schema of {type: object} does. openapi3filter
// refuses every part it finds no property of.
func anyParts(mt *openapi3.MediaType) bool {
	if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
		return false
	}
	return len((&spec.Contract{}).Properties(mt.Schema.Value)) == 0
}

// checkParts checks a multipart body whose schema s declares no part: it
// must be well formed, and its parts, by name, must be an object s takes,
// with its required parts and counts of parts.
func checkParts(body []byte, contentType string, s *openapi3.Schema, opts []openapi3.SchemaValidationOption) error {
	_, params, err := mime.ParseMediaType(contentType)
	if err != nil || params["boundary"] == "" {
		return BadRequest("content-type", "a multipart body needs a boundary")
	}
	parts := map[string]any{}
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return BadRequest("body", "malformed multipart body: %v", err)
		}
		data, err := io.ReadAll(part)
		if err != nil {
			return BadRequest("body", "malformed multipart body: %v", err)
		}
		if name := part.FormName(); name != "" {
			parts[name] = string(data)
		}
	}
	if err := s.VisitJSON(parts, opts...); err != nil {
		var se *openapi3.SchemaError
		if errors.As(err, &se) {
			return SchemaError("body", se)
		}
		return BadRequest("body", "%v", err)
	}
	return nil
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
	return &openapi3filter.RequestValidationInput{Request: &req, PathParams: decodedPathParams(route, params), QueryParams: query, Route: route}
}

// contentPathNames returns the names of the path parameters of op sent
// as JSON content rather than by a schema, as Stream's user id of content
// application/json; nil where there are none.
func contentPathNames(op *spec.Operation) []string {
	var out []string
	for _, p := range op.Parameters {
		if p.In == openapi3.ParameterInPath && spec.SentAsJSON(p) {
			out = append(out, p.Name)
		}
	}
	return out
}

// contentPathParams returns params with the values of names, path
// parameters of JSON content, read as what their JSON holds: the id 16 of
// the path /users/%2216%22, its text. A value that is no JSON stays as it
// is, which the check of the request refuses.
func contentPathParams(names []string, params map[string]string) map[string]string {
	out := maps.Clone(params)
	for _, name := range names {
		text, err := url.PathUnescape(out[name])
		if err != nil {
			continue
		}
		var value any
		dec := json.NewDecoder(strings.NewReader(text))
		dec.UseNumber()
		if dec.Decode(&value) != nil || dec.More() {
			continue // no JSON, or more than one value: the text as it is
		}
		out[name] = url.PathEscape(spec.ValueText(value))
	}
	return out
}

// decodedPathParams returns params with the values of the path parameters
// of route whose schema is of one value, not an array or an object, or
// that are sent as content, such as JSON, unescaped: the router gives them as the path has them, and
// openapi3filter checks them so, where a value is what the path escapes,
// "a/b" of a%2Fb, as an item's id is. The values of arrays and objects
// stay escaped, their escaped separators not theirs to split by.
func decodedPathParams(route *routers.Route, params map[string]string) map[string]string {
	if route == nil || route.Operation == nil || !slices.ContainsFunc(slices.Collect(maps.Values(params)), func(v string) bool { return strings.ContainsRune(v, '%') }) {
		return params
	}
	out := maps.Clone(params)
	refs := route.Operation.Parameters
	if route.PathItem != nil {
		refs = slices.Concat(route.PathItem.Parameters, refs)
	}
	for _, ref := range refs {
		if ref == nil || ref.Value == nil {
			continue
		}
		p := ref.Value
		if p.In != openapi3.ParameterInPath || (p.Schema == nil || p.Schema.Value == nil) && len(p.Content) == 0 {
			continue
		}
		if p.Schema != nil && p.Schema.Value != nil {
			if t := spec.TypeOf(p.Schema.Value); t == "array" || t == "object" {
				continue
			}
		}
		if v, err := url.PathUnescape(out[p.Name]); err == nil {
			out[p.Name] = v
		}
	}
	return out
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

// A query parameter of style deepObject whose schema is not an object,
// such as Stripe's expand, an array sent as expand[]=a&expand[]=b or
// expand[0]=a, is one openapi3filter cannot read: it refuses every query
// of the operation, a query without the parameter included. Such
// parameters are read and checked here, and left out of what
// openapi3filter checks.

// ownParams returns the parameters of route's operation, its own and its
// path's, that the gate checks itself, and route without them, nor the
// headers OpenAPI ignores (ignoredHeader), for openapi3filter; route
// itself where there are none.
func ownParams(route *routers.Route) ([]*openapi3.Parameter, *routers.Route) {
	var own []*openapi3.Parameter
	ignored := false
	keep := func(params openapi3.Parameters) openapi3.Parameters {
		var rest openapi3.Parameters
		for _, ref := range params {
			if p := ref.Value; p != nil && ignoredHeader(p) {
				ignored = true
				continue
			}
			if p := ref.Value; p != nil && deepArrayParam(p) {
				if !slices.ContainsFunc(own, func(o *openapi3.Parameter) bool { return o.Name == p.Name }) {
					own = append(own, p) // the operation's, which comes first, wins
				}
				continue
			}
			rest = append(rest, ref)
		}
		return rest
	}
	op := *route.Operation
	op.Parameters = keep(route.Operation.Parameters)
	var item openapi3.PathItem
	if route.PathItem != nil {
		item = *route.PathItem
		item.Parameters = keep(route.PathItem.Parameters)
	}
	if len(own) == 0 && !ignored {
		return nil, route
	}
	r := *route
	r.Operation, r.PathItem = &op, &item
	return own, &r
}

// ignoredHeader reports whether p is a header parameter OpenAPI says is
// ignored, Accept, Content-Type or Authorization (3.0, 4.7.12.1): rev.ai
// declares an Accept of an enumeration of one media type each, which
// openapi3filter held an Accept of both to. The media types of the
// responses and the request body, and the security schemes, say what
// these headers may be.
func ignoredHeader(p *openapi3.Parameter) bool {
	if p.In != openapi3.ParameterInHeader {
		return false
	}
	switch http.CanonicalHeaderKey(p.Name) {
	case "Accept", "Content-Type", "Authorization":
		return true
	}
	return false
}

// deepArrayParam reports whether p is a query parameter of style
// deepObject whose schema is an array.
func deepArrayParam(p *openapi3.Parameter) bool {
	return p.In == openapi3.ParameterInQuery && p.Style == openapi3.SerializationDeepObject &&
		p.Schema != nil && p.Schema.Value != nil && spec.TypeOf(p.Schema.Value) == openapi3.TypeArray
}

// checkOwnParams checks the parameters of own in query: an array sent as
// name[]=a, name[0]=a or name=a, each item read as its schema's type.
func checkOwnParams(own []*openapi3.Parameter, query map[string][]string, opts []openapi3.SchemaValidationOption) *Error {
	for _, p := range own {
		texts := deepArray(query, p.Name)
		if len(texts) == 0 {
			if p.Required {
				return BadRequest(p.Name, "is required")
			}
			continue
		}
		s := p.Schema.Value
		var items *openapi3.Schema
		if s.Items != nil {
			items = s.Items.Value
		}
		value := make([]any, len(texts))
		for i, text := range texts {
			v, ok := scalarOf(items, text)
			if !ok {
				return BadRequest(fmt.Sprintf("%s.%d", p.Name, i), "must be %s", describeType(items))
			}
			value[i] = v
		}
		if err := s.VisitJSON(value, opts...); err != nil {
			var se *openapi3.SchemaError
			if errors.As(err, &se) {
				e := SchemaError(p.Name, se)
				if !strings.HasPrefix(e.Message, p.Name) {
					e.Message = p.Name + "." + e.Message // an item's
				}
				return e
			}
			return BadRequest(p.Name, "%v", err)
		}
	}
	return nil
}

// deepArray returns the items of the array name in query: name=a, and
// name[]=a or name[0]=a, in the order of their indexes.
func deepArray(query map[string][]string, name string) []string {
	out := slices.Clone(query[name])
	out = append(out, query[name+"[]"]...)
	var indexed []string
	for key := range query {
		if inner, ok := strings.CutPrefix(key, name+"["); ok && inner != "]" && strings.HasSuffix(inner, "]") {
			indexed = append(indexed, key)
		}
	}
	slices.SortFunc(indexed, func(a, b string) int {
		ia, _ := strconv.Atoi(a[len(name)+1 : len(a)-1])
		ib, _ := strconv.Atoi(b[len(name)+1 : len(b)-1])
		return ia - ib
	})
	for _, key := range indexed {
		out = append(out, query[key]...)
	}
	return out
}

// scalarOf reads text as a value of s: a number, a boolean or a string.
func scalarOf(s *openapi3.Schema, text string) (any, bool) {
	switch spec.TypeOf(s) {
	case openapi3.TypeInteger, openapi3.TypeNumber:
		if _, err := strconv.ParseFloat(text, 64); err != nil {
			return nil, false
		}
		return json.Number(text), true
	case openapi3.TypeBoolean:
		b, err := strconv.ParseBool(text)
		return b, err == nil
	}
	return text, true
}
