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

// compiledRoute is one path of the document below one base path, with
// the operations served there.
type compiledRoute struct {
	// base is the base path, such as "/v1", or "" for the root.
	base     string
	template *spec.PathTemplate
	// literal says that the template has no parameters: it then matches
	// its own text alone, which a comparison tells without the map of
	// parameters Match makes.
	literal bool
	// methods are the operations of the path, by method.
	methods map[string]*Operation
}

// compiledRouter finds the operation of a plain request path.
type compiledRouter struct {
	routes []compiledRoute
	// bases are the routes below each base path, few: most documents
	// have one.
	bases []*baseRoutes
}

// baseRoutes are the routes below one base path. byFirst lists those
// whose first segment below the base path is text, by that text, and
// others the rest: a request is matched against those of its own first
// segment and the others, not against every path of a document of 60,000.
type baseRoutes struct {
	base    string
	byFirst map[string][]int
	others  []int
}

// compileRouter makes the router of every path of c, below the base path
// of each of its operations (spec.Operation.Base).
func compileRouter(c *spec.Contract, ops map[string]*Operation) *compiledRouter {
	cr := &compiledRouter{}
	type key struct{ base, path string }
	at := map[key]int{}
	route := func(base, path string, t *spec.PathTemplate) *compiledRoute {
		k := key{base, path}
		if i, ok := at[k]; ok {
			return &cr.routes[i]
		}
		at[k] = len(cr.routes)
		cr.routes = append(cr.routes, compiledRoute{base: base, template: t, literal: len(t.Params()) == 0, methods: map[string]*Operation{}})
		return &cr.routes[len(cr.routes)-1]
	}
	for _, so := range c.Operations {
		route(so.Base, so.Path, so.Template).methods[so.Method] = ops[so.ID]
	}
	for path, item := range c.Doc.Paths.Map() {
		if len(item.Operations()) > 0 {
			continue
		}
		// A path without operations, which gorillamux answers with 405:
		// it is routed too, so that a request it shares with another
		// path is left to gorillamux. spec.Read parsed it.
		if t, err := spec.ParsePath(path); err == nil {
			route(c.PathBase(path), path, t)
		}
	}
	byBase := map[string]*baseRoutes{}
	for i, r := range cr.routes {
		b := byBase[r.base]
		if b == nil {
			b = &baseRoutes{base: r.base, byFirst: map[string][]int{}}
			byBase[r.base] = b
			cr.bases = append(cr.bases, b)
		}
		if first := r.template.Segments()[0]; first.Kind == spec.SegmentLiteral {
			b.byFirst[first.Text] = append(b.byFirst[first.Text], i)
		} else {
			b.others = append(b.others, i)
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
	if target.EscapedPath() != u {
		return nil, nil, false
	}
	var found *compiledRoute
	var params map[string]string
	for _, b := range cr.bases {
		if !strings.HasPrefix(u, b.base+"/") {
			continue
		}
		rest := u[len(b.base):]
		first, _, _ := strings.Cut(rest[1:], "/")
		for i := range b.candidates(first) {
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

// candidates yields the routes a path whose first segment below the base
// path is first may match.
func (b *baseRoutes) candidates(first string) iter.Seq[int] {
	return func(yield func(int) bool) {
		for _, list := range [][]int{b.byFirst[first], b.others} {
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
