package mockserver

import (
	"encoding/json"
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
	methods map[string]*operation
}

// compiledRouter finds the operation of a plain request path.
type compiledRouter struct {
	base   string
	routes []compiledRoute
}

// compileRouter makes the router of every path of c.
func compileRouter(c *spec.Contract, ops map[string]*operation) *compiledRouter {
	cr := &compiledRouter{base: c.Base}
	for path, item := range c.Doc.Paths.Map() {
		route := compiledRoute{methods: map[string]*operation{}}
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
	return cr
}

// find returns the operation and path parameters of a request, or false
// when it cannot tell: the path needs escaping (gorillamux matches the
// escaped path), is unknown, matches more than one template, or has no
// operation for the method.
func (cr *compiledRouter) find(method string, target *url.URL) (*operation, map[string]string, bool) {
	u := target.Path
	if target.EscapedPath() != u || !strings.HasPrefix(u, cr.base+"/") {
		return nil, nil, false
	}
	rest := u[len(cr.base):]
	var found *compiledRoute
	var params map[string]string
	for i := range cr.routes {
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

// paramCheck is the compiled check of one parameter.
type paramCheck struct {
	name     string
	in       string
	required bool

	integer  bool
	bits     int   // of an integer: 32 or 64
	min, max int64 // of an integer, inclusive

	enum     []string // of a string; nil for any
	maxBytes int      // of a string; -1 for no limit
}

// compileParams compiles the parameters of an operation, or reports that
// one of them is not simple enough.
func compileParams(params []*openapi3.Parameter) ([]paramCheck, bool) {
	var checks []paramCheck
	for _, p := range params {
		c, ok := compileParam(p)
		if !ok {
			return nil, false
		}
		checks = append(checks, c)
	}
	return checks, true
}

func compileParam(p *openapi3.Parameter) (paramCheck, bool) {
	if p == nil || p.Content != nil || p.Schema == nil || p.Schema.Value == nil || p.AllowEmptyValue ||
		p.Style != "" || p.Explode != nil || (p.In != openapi3.ParameterInQuery && p.In != openapi3.ParameterInPath) {
		return paramCheck{}, false
	}
	s := p.Schema.Value
	if s.Nullable || len(s.AllOf)+len(s.AnyOf)+len(s.OneOf) > 0 || s.Not != nil || s.Pattern != "" ||
		s.MultipleOf != nil || s.ExclusiveMin.IsSet() || s.ExclusiveMax.IsSet() || s.MinLength != 0 || s.Type == nil || len(s.Type.Slice()) != 1 {
		return paramCheck{}, false
	}
	c := paramCheck{name: p.Name, in: p.In, required: p.Required, maxBytes: -1}
	switch {
	case s.Type.Is("integer") && len(s.Enum) == 0 && (s.Format == "int32" || s.Format == "int64" || s.Format == ""):
		c.integer, c.bits = true, 64
		if s.Format == "int32" {
			c.bits = 32
		}
		c.min, c.max = -1<<(c.bits-1), 1<<(c.bits-1)-1
		if s.Min != nil {
			if *s.Min != float64(int64(*s.Min)) {
				return paramCheck{}, false
			}
			c.min = max(c.min, int64(*s.Min))
		}
		if s.Max != nil {
			if *s.Max != float64(int64(*s.Max)) {
				return paramCheck{}, false
			}
			c.max = min(c.max, int64(*s.Max))
		}
	case s.Type.Is("string") && s.Format == "":
		for _, v := range s.Enum {
			str, ok := v.(string)
			if !ok {
				return paramCheck{}, false
			}
			c.enum = append(c.enum, str)
		}
		if s.MaxLength != nil {
			c.maxBytes = int(*s.MaxLength)
		}
	default:
		return paramCheck{}, false
	}
	return c, true
}

// ok reports whether raw, present or not, is surely a valid value.
func (c *paramCheck) ok(raw string, present bool) bool {
	switch {
	case !present:
		return !c.required
	case raw == "":
		return false // openapi3filter says whether empty is allowed
	case c.integer:
		v, err := strconv.ParseInt(raw, 10, c.bits)
		return err == nil && v >= c.min && v <= c.max
	case c.enum != nil && !slices.Contains(c.enum, raw):
		return false
	case c.maxBytes >= 0 && len(raw) > c.maxBytes:
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
	props    map[string]paramCheck // by property name; integers of any JSON spelling
}

// compileObject compiles a schema of an object whose properties are plain
// strings, string enumerations and integers, or reports that it is not
// that simple.
func compileObject(ref *openapi3.SchemaRef) (*objectCheck, bool) {
	if ref == nil || ref.Value == nil {
		return nil, false
	}
	s := ref.Value
	if s.Type == nil || !s.Type.Is("object") || s.Nullable || len(s.AllOf)+len(s.AnyOf)+len(s.OneOf) > 0 || s.Not != nil ||
		s.MinProps != 0 || s.MaxProps != nil || s.AdditionalProperties.Has != nil || s.AdditionalProperties.Schema != nil ||
		len(s.Enum) > 0 || s.ReadOnly || s.WriteOnly {
		return nil, false
	}
	oc := &objectCheck{required: s.Required, props: map[string]paramCheck{}}
	for name, pref := range s.Properties {
		if pref.Value != nil && (pref.Value.ReadOnly || pref.Value.WriteOnly || pref.Value.Default != nil) {
			return nil, false
		}
		c, ok := compileParam(&openapi3.Parameter{Name: name, In: openapi3.ParameterInQuery, Schema: pref})
		if !ok || (c.integer && (c.bits != 64 || c.min != -1<<63 || c.max != 1<<63-1)) {
			return nil, false
		}
		oc.props[name] = c
	}
	return oc, true
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
		if c.integer {
			n, isNumber := v.(json.Number)
			if _, exact := spec.ExactInt64(string(n)); !isNumber || !exact {
				return false
			}
			continue
		}
		str, isString := v.(string)
		if !isString || (c.enum != nil && !slices.Contains(c.enum, str)) || (c.maxBytes >= 0 && len(str) > c.maxBytes) {
			return false
		}
	}
	return true
}

// bearerOnly reports whether security asks for exactly one thing: an HTTP
// bearer token, which the server can then check without openapi3filter.
func bearerOnly(doc *openapi3.T, security openapi3.SecurityRequirements) bool {
	if len(security) != 1 || len(security[0]) != 1 || doc.Components == nil {
		return false
	}
	for name, scopes := range security[0] {
		ref := doc.Components.SecuritySchemes[name]
		return len(scopes) == 0 && ref != nil && ref.Value != nil && ref.Value.Type == "http" && strings.EqualFold(ref.Value.Scheme, "bearer")
	}
	return false
}
