package answer

import (
	"encoding/json"
	"net/url"
	"slices"
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/mockserver/edge"
	"github.com/petstore/contract/spec"
)

// A made answer follows the request it answers, as a client reading it
// expects: a limit-like query parameter, such as limit, size or per_page,
// bounds the list it holds, its minItems kept; a query parameter that
// names a property of the listed items, such as status=sold, gives them
// that value; and a path parameter gives its value to the property of
// the same name, or to id for the id of the path's last segment, so that
// /users/alice answers username alice and /pets/1 answers id 1. A value
// that does not fit the property's schema is left as made, and so is an
// answer that no longer fits its own. The same request gets the same
// answer for the same seed.

// fit is how the answers of one operation follow their requests.
type fit struct {
	schema *openapi3.Schema // of the answer
	// list is where the answer holds its list: the answer itself, when
	// an array, or the property of the answer object named list; hasList
	// is false for an answer with no list of objects.
	hasList  bool
	list     string
	minItems int
	limit    string    // the query parameter that bounds the list; "" for none
	filters  []fitProp // query parameters, to the items' properties
	inItems  []fitProp // path parameters, to the items' properties
	inAnswer []fitProp // path parameters, to the answer object's properties
}

// fitProp is a parameter and the property its value goes to.
type fitProp struct {
	param  string
	prop   string
	schema *openapi3.Schema // of the property
}

// limitNames are the names of query parameters, written as spec.NormName writes
// them, that bound a list: per_page and perPage are perpage.
var limitNames = map[string]bool{
	"limit": true, "size": true, "pagesize": true, "perpage": true, "count": true, "max": true,
	"maxresults": true, "maxitems": true, "top": true, "first": true, "take": true, "rows": true,
}

// newFit returns how the answers of op, of the schema s, follow their
// requests, or nil when nothing of a request can show in them.
func newFit(c *spec.Contract, op *spec.Operation, s *openapi3.Schema) *fit {
	if s == nil {
		return nil
	}
	f := &fit{schema: s}
	var items *openapi3.Schema
	switch spec.TypeOf(s) {
	case "array":
		if s.Items != nil && spec.TypeOf(s.Items.Value) == "object" {
			f.hasList, items, f.minItems = true, s.Items.Value, int(s.MinItems)
		}
	case "object":
		for _, p := range c.Properties(s) {
			if spec.TypeOf(p.Schema) == "array" && p.Schema.Items != nil && spec.TypeOf(p.Schema.Items.Value) == "object" {
				f.hasList, f.list, items, f.minItems = true, p.Name, p.Schema.Items.Value, int(p.Schema.MinItems)
				break
			}
		}
		f.inAnswer = pathProps(c, op, s)
	}
	if f.hasList {
		props := c.Properties(items)
		for _, p := range op.Parameters {
			if p.In != openapi3.ParameterInQuery || p.Schema == nil || p.Schema.Value == nil {
				continue
			}
			if f.limit == "" && limitNames[spec.NormName(p.Name)] && spec.TypeOf(p.Schema.Value) == "integer" {
				f.limit = p.Name
				continue
			}
			if prop, ok := simpleProperty(props, p.Name); ok {
				f.filters = append(f.filters, fitProp{param: p.Name, prop: p.Name, schema: prop.Schema})
			}
		}
		for _, name := range op.Template.Params() {
			if prop, ok := simpleProperty(props, name); ok {
				f.inItems = append(f.inItems, fitProp{param: name, prop: name, schema: prop.Schema})
			}
		}
	}
	if !f.hasList && len(f.inAnswer) == 0 || f.hasList && f.limit == "" && len(f.filters)+len(f.inItems)+len(f.inAnswer) == 0 {
		return nil
	}
	return f
}

// pathProps returns the path parameters of op that give their value to a
// property of an answer object of schema s: the one of the same name, or
// id, for the parameter of the path's last segment, such as petId of
// /pets/{petId}, when the object has no property of its name.
func pathProps(c *spec.Contract, op *spec.Operation, s *openapi3.Schema) []fitProp {
	props := c.Properties(s)
	var last string
	if segs := op.Template.Segments(); len(segs) > 0 && segs[len(segs)-1].Kind == spec.SegmentParam {
		last = segs[len(segs)-1].Param
	}
	var out []fitProp
	for _, name := range op.Template.Params() {
		if p, ok := simpleProperty(props, name); ok {
			out = append(out, fitProp{param: name, prop: name, schema: p.Schema})
		} else if p, ok := simpleProperty(props, "id"); ok && name == last {
			out = append(out, fitProp{param: name, prop: "id", schema: p.Schema})
		}
	}
	return out
}

// simpleProperty returns the property of props named name, if it holds a
// string, a number or a boolean.
func simpleProperty(props []spec.Property, name string) (spec.Property, bool) {
	for _, p := range props {
		if p.Name == name {
			switch spec.TypeOf(p.Schema) {
			case "string", "integer", "number", "boolean":
				return p, true
			}
			return spec.Property{}, false
		}
	}
	return spec.Property{}, false
}

// request is what of a request a made answer may follow: its path
// parameters, as the path has them, and its query.
type request struct {
	params map[string]string
	query  map[string][]string
}

// follow returns v, a value made for the answer, made to follow req; with
// check, one that no longer fits the answer's schema is returned as it was
// made.
func (f *fit) follow(v any, req request, check bool) any {
	followed, set := f.apply(spec.CopyJSON(v), req)
	if set && check && f.schema.VisitJSON(followed, openapi3.VisitAsResponse(), openapi3.DisableSchemaErrorDetails()) != nil {
		return v
	}
	return followed
}

// apply makes v, a value made for the answer, follow req, and reports
// whether it set a property, which the answer's schema is to judge.
func (f *fit) apply(v any, req request) (any, bool) {
	set := false
	if obj, ok := v.(map[string]any); ok {
		for _, p := range f.inAnswer {
			set = p.setFrom(obj, pathValue(req.params[p.param])) || set
		}
	}
	if !f.hasList {
		return v, set
	}
	list, _ := v.([]any)
	holder, _ := v.(map[string]any)
	if f.list != "" {
		list, _ = holder[f.list].([]any)
	}
	if vs := req.query[f.limit]; f.limit != "" && len(vs) > 0 {
		if n, err := strconv.Atoi(vs[0]); err == nil && n >= 0 && n < len(list) {
			list = list[:max(n, f.minItems, 0)]
		}
	}
	for _, e := range list {
		item, ok := e.(map[string]any)
		if !ok {
			continue
		}
		for _, p := range f.filters {
			if vs := req.query[p.param]; len(vs) > 0 {
				set = p.setFrom(item, vs[0]) || set
			}
		}
		for _, p := range f.inItems {
			set = p.setFrom(item, pathValue(req.params[p.param])) || set
		}
	}
	if f.list != "" {
		holder[f.list] = list
		return holder, set
	}
	return list, set
}

// pathValue returns a path parameter's value unescaped.
func pathValue(v string) string {
	if u, err := url.PathUnescape(v); err == nil {
		return u
	}
	return v
}

// setFrom sets the property of obj to the value text gives it, when that
// fits the property's schema, and reports whether it did.
func (p fitProp) setFrom(obj map[string]any, text string) bool {
	if text == "" {
		return false
	}
	var v any = text
	switch spec.TypeOf(p.schema) {
	case "integer":
		if _, ok := spec.ExactInt64(text); !ok {
			return false
		}
		v = json.Number(text)
	case "number":
		if _, err := strconv.ParseFloat(text, 64); err != nil {
			return false
		}
		v = json.Number(text)
	case "boolean":
		b, err := strconv.ParseBool(text)
		if err != nil {
			return false
		}
		v = b
	}
	if p.schema.VisitJSON(v, openapi3.VisitAsResponse()) != nil {
		return false
	}
	obj[p.prop] = v
	return true
}

// requestOf returns what of the request c a made answer may follow:
// the values of its path parameters and query that hold none of the keys
// petmock hides, which an answer must not repeat.
func requestOf(c *edge.Call, hides func(string) bool) request {
	req := request{params: map[string]string{}, query: map[string][]string{}}
	for name, v := range c.Params {
		if !hides(pathValue(v)) {
			req.params[name] = v
		}
	}
	for name, vs := range c.Query {
		if !slices.ContainsFunc(vs, hides) {
			req.query[name] = vs
		}
	}
	return req
}
