package mockserver

import (
	"context"
	"errors"
	"net/http"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"

	"github.com/petstore/contract/mockserver/shape"
	"github.com/petstore/contract/spec"
)

// The edge checks a request against a document before any handler runs:
// it finds the operation (404, or 405 with Allow), checks the key the
// operation asks for (401), and then its parameters and its body (400, 413,
// 415). The API's pipeline runs it on the server's document, doing what
// the API adds between the key and the parameters (pipeline.go); an Edge
// runs it on another document, such as the admin API's (edgehandler.go).

// edge is what the checks of one document need: its operations, with
// their compiled checks, its routers and the keys it accepts.
type edge struct {
	contract *spec.Contract
	ops      map[string]*operation // by operation id
	// router is openapi3filter's router of the document, made the first
	// time fast cannot tell: it takes 4 KB a path, 250 MB for a document
	// of 60,000 paths, which a mock whose requests all take the compiled
	// router never needs.
	router  func() (routers.Router, error)
	fast    *compiledRouter
	keys    keyring
	maxBody int64 // of a body read whole, such as MaxBodyBytes
	// validation are the options of openapi3filter's checks.
	validation *openapi3filter.Options
	// errorBody writes the errors of a request of no operation, and of a
	// status an operation does not document.
	errorBody *errorPlan
}

// newEdge compiles the checks of every operation of c, until ctx is done.
func newEdge(ctx context.Context, c *spec.Contract, keys keyring, shapes *shape.Builder, maxBody int64) (*edge, error) {
	if err := checkRouter(c.Doc); err != nil {
		return nil, err
	}
	router := sync.OnceValues(func() (routers.Router, error) { return spec.NewRouter(c.Doc) })
	ed := &edge{contract: c, router: router, keys: keys, maxBody: maxBody, validation: validation(c), ops: make(map[string]*operation, len(c.Operations))}
	doc := c.Doc
	plans := newErrorPlans(c)
	ed.errorBody = plans.of(c.ErrorBody(nil, 0))
	for _, so := range c.Operations {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		op := &operation{spec: so, contentType: jsonContentType}
		op.planErrors(c, plans)
		if ct := so.JSONContentType(so.Success); ct != jsonContentType[0] {
			op.contentType = []string{ct}
		}
		op.params, op.paramsCompiled = compileParams(so.Parameters)
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
		for _, p := range so.Parameters {
			if p.In == openapi3.ParameterInQuery && !repeats(p) {
				op.queryParams = append(op.queryParams, p.Name)
			}
		}
		ed.ops[so.ID] = op
	}
	ed.fast = compileRouter(c, ed.ops)
	return ed, nil
}

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
	form := p.Style == "" || p.Style == openapi3.SerializationForm
	return form && (p.Explode == nil || *p.Explode)
}

// route finds the operation of a request, with the compiled router when
// it can tell, and with openapi3filter's otherwise.
func (ed *edge) route(r *http.Request) (*operation, map[string]string, error) {
	method := r.Method
	if method == http.MethodHead {
		method = http.MethodGet
	}
	if op, params, ok := ed.fast.find(method, r.URL); ok {
		return op, params, nil
	}
	route, params, err := ed.findRoute(r)
	if err != nil {
		return nil, nil, err
	}
	// The router reads the contract's own document, and findRoute asks
	// it with GET for HEAD: every route it finds is an operation of the
	// contract.
	return ed.ops[ed.contract.RouteOperation(route).ID], params, nil
}

// findRoute finds the operation of a request. A HEAD request is routed as
// a GET; net/http drops the body of its answer.
func (ed *edge) findRoute(r *http.Request) (*routers.Route, map[string]string, error) {
	rr := r
	if r.Method == http.MethodHead {
		get := *r
		get.Method = http.MethodGet
		rr = &get
	}
	router, err := ed.router()
	if err != nil {
		return nil, nil, err
	}
	route, params, err := router.FindRoute(rr)
	switch {
	case err == nil:
		return route, params, nil
	case errors.Is(err, routers.ErrMethodNotAllowed):
		return nil, nil, methodNotAllowed(r.Method, r.URL.Path, ed.methodsFor(r))
	default:
		return nil, nil, notAnOperation(r.URL.Path)
	}
}

// methodsFor returns the methods of the operations of the path of r, as
// an Allow header lists them (see allow), or nil for a path that is no
// operation's.
func (ed *edge) methodsFor(r *http.Request) []string {
	router, err := ed.router()
	if err != nil {
		return nil
	}
	var methods []string
	for _, m := range allowOrder {
		probe := *r
		probe.Method = m
		if _, _, err := router.FindRoute(&probe); err == nil {
			methods = append(methods, m)
		}
	}
	return allow(methods)
}

// checkRouter fails where spec.NewRouter would fail for doc, without
// making its router: on a server URL, of the document or of a path, it
// cannot read. It makes the router of the paths with servers of their own,
// which few documents have, and of one path more, for the document's own
// servers; spec.Read has checked every path's template already.
func checkRouter(doc *openapi3.T) error {
	probe := *doc
	probe.Paths = openapi3.NewPaths()
	for path, item := range doc.Paths.Map() {
		if len(item.Servers) > 0 || probe.Paths.Len() == 0 {
			probe.Paths.Set(path, item)
		}
	}
	_, err := spec.NewRouter(&probe)
	return err
}
