package edge

import (
	"errors"
	"net/http"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"

	"github.com/petstore/contract/spec"
)

// Route finds the operation of a request, with the compiled router when
// it can tell, and with openapi3filter's otherwise: a 404 of a path that
// is no operation's, or a 405, with Allow, of a method its path does not
// take.
func (g *Gate) Route(r *http.Request) (*Operation, map[string]string, error) {
	method := r.Method
	if method == http.MethodHead {
		// A HEAD the document gives is its own; any other is a GET's.
		if op, params, ok := g.fast.find(method, r.URL); ok {
			return op, params, nil
		}
		method = http.MethodGet
	}
	if op, params, ok := g.fast.find(method, r.URL); ok {
		return op, params, nil
	}
	route, params, err := g.findRoute(r)
	if err != nil {
		return nil, nil, err
	}
	// The router reads the contract's own document, and findRoute asks
	// it with GET for a HEAD it does not give: every route it finds is an
	// operation of the contract.
	return g.byID[g.contract.RouteOperation(route).ID], params, nil
}

// findRoute finds the operation of a request. A HEAD request is routed as
// a GET, net/http dropping the body of its answer, unless the document
// gives a HEAD of its path.
func (g *Gate) findRoute(r *http.Request) (*routers.Route, map[string]string, error) {
	rr := r
	if r.Method == http.MethodHead {
		get := *r
		get.Method = http.MethodGet
		rr = &get
	}
	router, err := g.router()
	if err != nil {
		return nil, nil, err
	}
	if rr != r {
		if route, params, err := router.FindRoute(r); err == nil {
			return route, params, nil // a HEAD the document gives
		}
	}
	route, params, err := router.FindRoute(rr)
	switch {
	case err == nil:
		return route, params, nil
	case errors.Is(err, routers.ErrMethodNotAllowed):
		return nil, nil, MethodNotAllowed(r.Method, r.URL.Path, g.MethodsFor(r))
	default:
		return nil, nil, NotAnOperation(r.URL.Path)
	}
}

// MethodsFor returns the methods of the operations of the path of r, as
// an Allow header lists them (see Allow), or nil for a path that is no
// operation's.
func (g *Gate) MethodsFor(r *http.Request) []string {
	router, err := g.router()
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
	return Allow(methods)
}

// checkRouter fails where spec.NewRouter would fail for doc, without
// making its router: on a server URL, of the document, of a path or of an
// operation, it cannot read, or a base path below which a template is no
// route. It makes the router of the paths with servers of their own, or
// of operations with theirs, which few documents have, and of one path
// more, for the document's own servers; spec.Read has checked every path's
// template already.
func checkRouter(doc *openapi3.T) error {
	probe := *doc
	probe.Paths = openapi3.NewPaths()
	for path, item := range doc.Paths.Map() {
		if len(item.Servers) > 0 || ownServers(item) || probe.Paths.Len() == 0 {
			probe.Paths.Set(path, item)
		}
	}
	_, err := spec.NewRouter(&probe)
	return err
}

// ownServers reports whether an operation of item has servers of its own.
func ownServers(item *openapi3.PathItem) bool {
	for _, op := range item.Operations() {
		if op.Servers != nil && len(*op.Servers) > 0 {
			return true
		}
	}
	return false
}
