package edge

import (
	"encoding/json"
	"iter"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
)

// The request pipeline checks every request against the document. Doing
// that with openapi3filter alone costs more than the rest of an answer, so
// the server compiles, once at start, the simple parts of the document
// into checks of its own: a router of the path templates spec parsed, the
// parameters, and flat object bodies.
//
// A compiled check only ever decides that a request is valid. Whenever it
// is not sure, or the request is not valid, openapi3filter decides and
// writes the error, so the answers are those of openapi3filter whichever
// path ran. Differential tests and fuzz targets hold the compiled checks to
// that: none may accept what openapi3filter refuses.

// compiledRoute is one path of the document, with its operations.
type compiledRoute struct {
	template *spec.PathTemplate
	// literal says that the template has no parameters: it then matches
	// its own text alone, which a comparison tells without the map of
	// parameters Match makes.
	literal bool
	// methods are the operations of the path, by method; nil where
	// gorillamux alone decides.
	methods map[string]*Operation
}

// compiledRouter finds the operation of a plain request path.
type compiledRouter struct {
	base   string
	routes []compiledRoute
	// byFirst lists the routes whose first segment is text, by that
	// text, and others the rest: a request is matched against those of
	// its own first segment and the others, not against every path of
	// a document of 60,000.
	byFirst map[string][]int
	others  []int
}

// compileRouter makes the router of every path of c.
func compileRouter(c *spec.Contract, ops map[string]*Operation) *compiledRouter {
	cr := &compiledRouter{base: c.Base}
	for path, item := range c.Doc.Paths.Map() {
		route := compiledRoute{methods: map[string]*Operation{}}
		for method := range item.Operations() {
			so := c.OperationAt(method, path)
			route.template, route.methods[method] = so.Template, ops[so.ID]
		}
		if route.template == nil {
			// A path without operations, which gorillamux answers with
			// 405: it is routed too, so that a request it shares with
			// another path is left to gorillamux. spec.Read parsed it.
			t, err := spec.ParsePath(path)
			if err != nil {
				continue
			}
			route.template = t
		}
		if len(item.Servers) > 0 {
			// A path served below base paths of its own, which gorillamux
			// knows and this router does not.
			route.methods = nil
		}
		route.literal = len(route.template.Params()) == 0
		cr.routes = append(cr.routes, route)
	}
	cr.byFirst = map[string][]int{}
	for i, route := range cr.routes {
		if first := route.template.Segments()[0]; first.Kind == spec.SegmentLiteral {
			cr.byFirst[first.Text] = append(cr.byFirst[first.Text], i)
		} else {
			cr.others = append(cr.others, i)
		}
	}
	return cr
}

// find returns the operation and path parameters of a request, or false
// when it cannot tell: the path needs escaping (gorillamux matches the
// escaped path), is unknown, matches more than one template, or has no
// operation for the method.
func (cr *compiledRouter) find(method string, target *url.URL) (*Operation, map[string]string, bool) {
	u := target.Path
	if target.EscapedPath() != u || !strings.HasPrefix(u, cr.base+"/") {
		return nil, nil, false
	}
	rest := u[len(cr.base):]
	first, _, _ := strings.Cut(rest[1:], "/")
	var found *compiledRoute
	var params map[string]string
	for i := range cr.candidates(first) {
		route := &cr.routes[i]
		var p map[string]string
		ok := route.literal && rest == route.template.String()
		if !route.literal {
			p, ok = route.template.Match(rest)
		}
		if !ok {
			continue
		}
		if found != nil {
			return nil, nil, false
		}
		found, params = route, p
	}
	if found == nil {
		return nil, nil, false
	}
	op := found.methods[method]
	if op == nil {
		return nil, nil, false
	}
	return op, params, true
}

// candidates yields the routes a path whose first segment is first may
// match.
func (cr *compiledRouter) candidates(first string) iter.Seq[int] {
	return func(yield func(int) bool) {
		for _, list := range [][]int{cr.byFirst[first], cr.others} {
			for _, i := range list {
				if !yield(i) {
					return
				}
			}
		}
	}
}

// paramCheck is the compiled check of one parameter.
type paramCheck struct {
	name     string
	in       string
	required bool
	spec.Simple
}

// compileParams compiles the parameters of an operation, or reports that
// one of them is not simple enough.
func compileParams(params []*openapi3.Parameter) ([]paramCheck, bool) {
	var checks []paramCheck
	for _, p := range params {
		simple, ok := spec.SimpleParam(p)
		if !ok {
			return nil, false
		}
		checks = append(checks, paramCheck{name: p.Name, in: p.In, required: p.Required, Simple: simple})
	}
	return checks, true
}

// ok reports whether raw, present or not, is surely a valid value.
func (c *paramCheck) ok(raw string, present bool) bool {
	switch {
	case !present:
		return !c.required
	case raw == "":
		return false // openapi3filter says whether empty is allowed
	case c.Integer:
		v, err := strconv.ParseInt(raw, 10, c.Bits)
		return err == nil && v >= c.Min && v <= c.Max
	case c.Enum != nil && !slices.Contains(c.Enum, raw):
		return false
	case c.MaxLength >= 0 && len(raw) > c.MaxLength:
		return false // a byte count at least the character count: be sure
	}
	return true
}

// paramsOK reports whether every parameter is surely valid.
func paramsOK(checks []paramCheck, query map[string][]string, path map[string]string) bool {
	for i := range checks {
		c := &checks[i]
		var raw string
		var present bool
		if c.in == openapi3.ParameterInPath {
			raw, present = path[c.name]
			if strings.ContainsRune(raw, '%') {
				return false
			}
		} else if vs := query[c.name]; len(vs) > 0 {
			raw, present = vs[0], true
		}
		if !c.ok(raw, present) {
			return false
		}
	}
	return true
}

// objectCheck is the compiled check of a flat object schema.
type objectCheck struct {
	required []string
	props    map[string]spec.Simple // by property name; integers of any JSON spelling
}

// compileObject compiles the schema of a flat object (spec.FlatObjectOf)
// whose integers may be any int64, or reports that it is not that simple.
// A body's integers are only checked to be exact int64s: narrower bounds
// are left to openapi3filter.
func compileObject(s *openapi3.Schema) (*objectCheck, bool) {
	flat, ok := spec.FlatObjectOf(s)
	if !ok {
		return nil, false
	}
	for _, p := range flat.Properties {
		if p.Integer && (p.Bits != 64 || p.Min != math.MinInt64 || p.Max != math.MaxInt64) {
			return nil, false
		}
	}
	return &objectCheck{required: flat.Required, props: flat.Properties}, true
}

// ok reports whether a decoded JSON value surely fits the schema.
func (oc *objectCheck) ok(v any) bool {
	m, isObject := v.(map[string]any)
	if !isObject {
		return false
	}
	for _, name := range oc.required {
		if _, present := m[name]; !present {
			return false
		}
	}
	for name, c := range oc.props {
		v, present := m[name]
		if !present {
			continue
		}
		if c.Integer {
			n, isNumber := v.(json.Number)
			if _, exact := spec.ExactInt64(string(n)); !isNumber || !exact {
				return false
			}
			continue
		}
		str, isString := v.(string)
		if !isString || (c.Enum != nil && !slices.Contains(c.Enum, str)) || (c.MaxLength >= 0 && len(str) > c.MaxLength) {
			return false
		}
	}
	return true
}
