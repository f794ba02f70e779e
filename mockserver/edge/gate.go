package edge

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"

	"github.com/petstore/contract/mockserver/shape"
	"github.com/petstore/contract/spec"
)

// Gate is what the checks of one document need: its operations, with
// their compiled checks, its routers and the keys it accepts.
type Gate struct {
	contract *spec.Contract
	ops      []*Operation          // in the contract's order: see Operation.Index
	byID     map[string]*Operation // by operation id
	// router is openapi3filter's router of the document, made the first
	// time fast cannot tell: it takes 4 KB a path, 250 MB for a document
	// of 60,000 paths, which a mock whose requests all take the compiled
	// router never needs.
	router func() (routers.Router, error)
	fast   *compiledRouter
	// bases are the base paths the operations are served below, the
	// document's first: see Below.
	bases   []string
	keys    Keyring
	maxBody int64 // of a body read whole, such as MaxBodyBytes
	// validation are the options of openapi3filter's checks.
	validation *openapi3filter.Options
	// errorBody writes the errors of a request of no operation, and of a
	// status an operation does not document.
	errorBody *ErrorPlan
}

// Operation is what the gate knows of one operation of the document: its
// checks, and the bodies of the errors it answers.
type Operation struct {
	// Spec is the operation as the document gives it.
	Spec *spec.Operation
	// Index is the operation's place among the contract's operations, by
	// which a handler of it is found without a map.
	Index int
	// QueryParams are the names of the declared query parameters that
	// may be given once only.
	QueryParams []string
	// ContentType is the Content-Type of a JSON answer of the success
	// status: application/json, or the JSON type the document names.
	ContentType []string

	// params are the compiled parameter checks; paramsCompiled is false
	// when the parameters are not simple enough to compile.
	params         []paramCheck
	paramsCompiled bool
	// contentPath are the path parameters of JSON content rather than a
	// schema, read as their JSON (contentPathParams); nil for most.
	contentPath []string
	// queries are the queries kept, judged by their text
	// (querycache.go); nil until the first.
	queries atomic.Pointer[queryTable]
	// body is the compiled check of a JSON body; nil when there is none
	// or it is not simple enough.
	body *objectCheck
	// bodyShape is the shape of the JSON body, whose integers are checked
	// digit for digit; nil when there is none.
	bodyShape *shape.Shape
	// route is the route of the operation, for openapi3filter, without
	// its security: the key is checked before (Authenticate), so that
	// Prefer can force an answer between the key and the rest.
	route *routers.Route
	// errorBodies write the errors of the statuses the operation
	// documents, errorRanges those of the ranges it documents, such as
	// 4XX, by their first digit, and errorDefault those of its default
	// response; nil for none. unprocessable answers a refused request
	// 422, which it documents, rather than 400, which it does not.
	errorBodies   map[int]*ErrorPlan
	errorRanges   map[int]*ErrorPlan
	errorDefault  *ErrorPlan
	unprocessable bool
	// headers are the headers its responses require, made; nil for none.
	headers *headerPlan
	// ownParams are the query parameters openapi3filter cannot read,
	// which the gate checks itself (see ownParams); nil for none.
	ownParams []*openapi3.Parameter
	// offered are the media types of its success, petmock's choice
	// first, among which Accept chooses (negotiate.go); nil for none.
	offered []string
}

// ContentTypeOf returns the Content-Type of a JSON answer of op with
// status.
func (op *Operation) ContentTypeOf(status int) []string {
	if status == op.Spec.Success {
		return op.ContentType
	}
	return []string{op.Spec.JSONContentType(status)}
}

// ChangesItems reports whether op changes the items of its resource.
func (op *Operation) ChangesItems() bool {
	switch op.Spec.Role {
	case spec.RoleCreate, spec.RoleReplace, spec.RoleUpdate, spec.RoleDelete:
		return true
	}
	return false
}

// New compiles the checks of every operation of c, until ctx is done. The
// gate accepts the keys of keys, and reads a body of at most maxBody
// bytes whole; shapes are the shapes of c's schemas.
func New(ctx context.Context, c *spec.Contract, keys Keyring, shapes *shape.Builder, maxBody int64) (*Gate, error) {
	readUntypedFormMembersAsText()
	if err := checkRouter(c.Doc); err != nil {
		return nil, err
	}
	router := sync.OnceValues(func() (routers.Router, error) { return spec.NewRouter(c.Doc) })
	g := &Gate{contract: c, router: router, keys: keys, maxBody: maxBody, validation: validation(c),
		byID: make(map[string]*Operation, len(c.Operations)), bases: c.Bases()}
	doc := c.Doc
	plans := newErrorPlans(c)
	g.errorBody = plans.of(c.ErrorBody(nil, 0))
	for i, so := range c.Operations {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		op := &Operation{Spec: so, Index: i, ContentType: JSONContentType}
		op.planErrors(c, plans)
		op.headers = planHeaders(c, so)
		op.offered = op.Offered(so.Success)
		if ct := so.JSONContentType(so.Success); ct != JSONContentType[0] {
			op.ContentType = []string{ct}
		}
		op.params, op.paramsCompiled = compileParams(so.Parameters)
		op.contentPath = contentPathNames(so)
		if rb := so.Op.RequestBody; rb != nil && rb.Value != nil {
			if _, mt := spec.JSONMedia(rb.Value.Content); mt != nil && len(rb.Value.Content) == 1 {
				if mt.Schema != nil {
					op.body, _ = compileObject(mt.Schema.Value)
				}
			}
		}
		if rs := so.RequestSchema(); rs != nil {
			op.bodyShape = shapes.Of(rs)
		}
		keyless := *so.Op
		keyless.Security = &openapi3.SecurityRequirements{}
		op.route = &routers.Route{Spec: doc, Path: so.Path, PathItem: so.Item, Method: so.Method, Operation: &keyless}
		op.ownParams, op.route = ownParams(op.route)
		for _, p := range so.Parameters {
			if p.In == openapi3.ParameterInQuery && !repeats(p) {
				op.QueryParams = append(op.QueryParams, p.Name)
			}
		}
		g.ops = append(g.ops, op)
		g.byID[so.ID] = op
	}
	g.fast = compileRouter(c, g.byID)
	return g, nil
}

// Contract returns the contract of the gate's document.
func (g *Gate) Contract() *spec.Contract { return g.contract }

// Operations returns the operations, in the contract's order.
func (g *Gate) Operations() []*Operation { return g.ops }

// Operation returns the operation of the given id, or nil.
func (g *Gate) Operation(id string) *Operation { return g.byID[id] }

// ErrorBody returns the plan of the errors of a request of no operation.
func (g *Gate) ErrorBody() *ErrorPlan { return g.errorBody }

// repeats says whether a query parameter may be given more than once: an
// array or an object written in the form style, exploded as it is unless
// the document says otherwise (?status=a&status=b).
func repeats(p *openapi3.Parameter) bool {
	if p.Schema == nil || p.Schema.Value == nil {
		return false
	}
	t := spec.TypeOf(p.Schema.Value)
	if t != openapi3.TypeArray && t != openapi3.TypeObject {
		return false
	}
	st := spec.StyleOf(p)
	return st.Name == openapi3.SerializationForm && st.Explode
}
