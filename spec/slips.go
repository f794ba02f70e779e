package spec

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// The repairs of the slips of a document's structure, one for each kind:
// see repair.go.

// conflictingPaths joins a path that is another but for the names of its
// parameters, such as /deployments/{idOrUrl} beside /deployments/{id}, to
// the one written first: no request can tell which of the two it is of.
// An operation of a method the first has not is served at the first, its
// path parameters named as the first names them; one of a method both
// have is left out.
func (r *repairs) conflictingPaths() {
	first := map[string]string{}
	for _, path := range r.pathsInOrder() {
		key := unnamed(path)
		kept, ok := first[key]
		if !ok {
			first[key] = path
			continue
		}
		item, into := r.doc.Paths.Value(path), r.doc.Paths.Value(kept)
		rename := renaming(path, kept)
		var moved, left []string
		ops := item.Operations()
		for _, m := range methodsOf(ops) {
			if into.GetOperation(m) != nil {
				left = append(left, m)
				continue
			}
			op := ops[m]
			op.Parameters = renamed(item.Parameters, op.Parameters, rename)
			into.SetOperation(m, op)
			moved = append(moved, m)
		}
		r.doc.Paths.Delete(path)
		var served []string
		if len(moved) > 0 {
			served = append(served, fmt.Sprintf("its %s served at %s", strings.Join(moved, ", "), kept))
		}
		if len(left) > 0 {
			served = append(served, fmt.Sprintf("its %s left out, as %s has one", strings.Join(left, ", "), kept))
		}
		if len(served) == 0 {
			served = append(served, "left out, as it has no operation")
		}
		r.add(slip{
			where:  "paths." + path,
			what:   fmt.Sprintf("the same path as %s but for the names of its parameters, so that no request can tell which of the two it is of", kept),
			served: strings.Join(served, "; "),
			change: "name the parameters of the two alike and join them, or leave one out",
		})
	}
}

// renaming maps the names of the parameters of the template from to
// those of the template to in the same places, such as id to idOrUrl.
func renaming(from, to string) map[string]string {
	f, err1 := ParsePath(from)
	t, err2 := ParsePath(to)
	if err1 != nil || err2 != nil || len(f.names) != len(t.names) {
		return nil
	}
	out := map[string]string{}
	for i, name := range f.names {
		out[name] = t.names[i]
	}
	return out
}

// renamed returns the parameters of an operation, those of its path
// included, with its path parameters renamed.
func renamed(common, own openapi3.Parameters, rename map[string]string) openapi3.Parameters {
	var out openapi3.Parameters
	for _, list := range []openapi3.Parameters{common, own} {
		for _, ref := range list {
			if ref == nil || ref.Value == nil {
				continue
			}
			if to, ok := rename[ref.Value.Name]; ok && ref.Value.In == openapi3.ParameterInPath {
				cp := *ref.Value
				cp.Name = to
				ref = &openapi3.ParameterRef{Value: &cp}
			}
			p := ref.Value
			out = slices.DeleteFunc(out, func(q *openapi3.ParameterRef) bool { return q.Value.In == p.In && q.Value.Name == p.Name })
			out = append(out, ref)
		}
	}
	return out
}

// unnamed returns a path template with the names of its parameters left
// out, as kin-openapi compares paths: /x/{} of /x/{id}.
func unnamed(path string) string {
	var b strings.Builder
	depth := 0
	for _, c := range path {
		switch {
		case c == '{':
			if depth == 0 {
				b.WriteRune(c)
			}
			depth++
		case c == '}' && depth > 0:
			if depth--; depth == 0 {
				b.WriteRune(c)
			}
		case depth == 0:
			b.WriteRune(c)
		}
	}
	return b.String()
}

// pathParameters declares a parameter of a path template that no parameter
// declares, as a required string: where every operation of the path lacks
// it, on the path, and otherwise on each operation that does.
func (r *repairs) pathParameters() {
	for _, path := range r.pathsInOrder() {
		item := r.doc.Paths.Value(path)
		tmpl, err := ParsePath(path)
		if err != nil {
			continue // refused by the validation, saying why
		}
		ops := item.Operations()
		for _, name := range tmpl.Params() {
			if declares(item.Parameters, name) {
				continue
			}
			var missing []string
			for _, m := range methodsOf(ops) {
				if !declares(ops[m].Parameters, name) {
					missing = append(missing, m)
				}
			}
			if len(missing) == 0 {
				continue
			}
			declared := func() *openapi3.ParameterRef {
				return &openapi3.ParameterRef{Value: &openapi3.Parameter{
					Name: name, In: openapi3.ParameterInPath, Required: true, Schema: openapi3.NewStringSchema().NewRef(),
				}}
			}
			s := slip{
				what:   fmt.Sprintf("{%s} is in the path, but no parameter declares it", name),
				served: "served as a parameter of type string",
				change: fmt.Sprintf("declare it, such as {name: %s, in: path, required: true, schema: {type: string}}", name),
			}
			if len(missing) == len(ops) {
				item.Parameters = append(item.Parameters, declared())
				s.where = "paths." + path
				r.add(s)
				continue
			}
			for _, m := range missing {
				ops[m].Parameters = append(ops[m].Parameters, declared())
				s.where = "paths." + path + "." + strings.ToLower(m)
				r.add(s)
			}
		}
	}
}

// declares reports whether params declare the path parameter name.
func declares(params openapi3.Parameters, name string) bool {
	return slices.ContainsFunc(params, func(ref *openapi3.ParameterRef) bool {
		return ref != nil && ref.Value != nil && ref.Value.In == openapi3.ParameterInPath && ref.Value.Name == name
	})
}

// responseDescriptions gives a response without a description an empty
// one.
func (r *repairs) responseDescriptions() {
	for _, p := range r.parts() {
		if resp, ok := p.value.(*openapi3.Response); ok && resp.Description == nil {
			resp.Description = new(string)
			r.add(slip{
				where:  p.where,
				what:   "no description, which every response must have",
				served: "served without one",
				change: "give the response a description",
			})
		}
	}
}

// parameterSchemas gives a parameter or a header of neither schema nor
// content the schema of a string, which is what a value of a query, a
// path or a header is written as. A parameter of the content of one media
// type that is not JSON, whose schema is of a scalar, as Telnyx's report
// ids of */* of a UUID, is read by that schema, without a word: its value
// is the text a schema's would be, where kin-openapi read it as JSON and
// refused the id 1 as no string.
func (r *repairs) parameterSchemas() {
	for _, p := range r.parts() {
		param, ok := p.value.(*openapi3.Parameter)
		if ok && param.Schema == nil && len(param.Content) == 1 {
			for mt, content := range param.Content {
				if !IsJSON(mt) && content != nil && content.Schema != nil && content.Schema.Value != nil && slices.Contains([]string{"string", "integer", "number", "boolean"}, TypeOf(content.Schema.Value)) {
					param.Schema, param.Content = content.Schema, nil
				}
			}
		}
		if ok && param.Schema == nil && len(param.Content) == 0 {
			param.Schema = openapi3.NewStringSchema().NewRef()
			what := "neither schema nor content, one of which a parameter must have"
			if param.In == "" {
				what = "neither schema nor content, one of which a header must have"
			}
			r.add(slip{
				where:  p.where,
				what:   what,
				served: "its values are read as strings",
				change: "give it a schema, such as {type: string}",
			})
		}
	}
}

// oauthScopes gives an OAuth 2 flow without scopes none.
func (r *repairs) oauthScopes() {
	for _, p := range r.parts() {
		scheme, ok := p.value.(*openapi3.SecurityScheme)
		if !ok || scheme.Flows == nil {
			continue
		}
		f := scheme.Flows
		for _, flow := range [...]struct {
			name string
			flow *openapi3.OAuthFlow
		}{{"implicit", f.Implicit}, {"password", f.Password}, {"clientCredentials", f.ClientCredentials}, {"authorizationCode", f.AuthorizationCode}} {
			if flow.flow != nil && flow.flow.Scopes == nil {
				flow.flow.Scopes = map[string]string{}
				r.add(slip{
					where:  p.where + ".flows." + flow.name,
					what:   "no scopes, which every OAuth 2 flow must list",
					served: "served as a flow of no scopes",
					change: "list its scopes, or write scopes: {} for none",
				})
			}
		}
	}
}

// serverVariables gives a variable of a server URL without a default its
// first value, or the empty string. A default that is the empty string is
// valid, where kin-openapi takes it for none: it is let through its
// validation.
func (r *repairs) serverVariables() {
	check := func(where string, servers openapi3.Servers, outlined *outline) {
		for i, s := range servers {
			if s == nil {
				continue
			}
			vars := outlined.item(i).member("variables")
			for _, name := range slices.Sorted(maps.Keys(s.Variables)) {
				v := s.Variables[name]
				if v == nil || v.Default != "" {
					continue
				}
				if !vars.member(name).has("default") {
					if len(v.Enum) > 0 {
						v.Default = v.Enum[0]
					}
					r.add(slip{
						where:  fmt.Sprintf("%s.%d.variables.%s", where, i, name),
						what:   "no default, which every server variable must have",
						served: fmt.Sprintf("served with the default %q", v.Default),
						change: "give it a default",
					})
					if v.Default != "" {
						continue
					}
				}
				// Valid, and kin-openapi refuses it: let it through.
				v.Default = "-"
				r.restore = append(r.restore, func() { v.Default = "" })
			}
		}
	}
	check("servers", r.doc.Servers, r.outline.member("servers"))
	// The outline's paths are walked in their order, not looked up one by
	// one, which for 60,000 paths is 1.8 billion comparisons.
	r.outline.member("paths").members(func(path string, at *outline) {
		item := r.doc.Paths.Value(path)
		if item == nil {
			return
		}
		check("paths."+path+".servers", item.Servers, at.member("servers"))
		ops := item.Operations()
		for _, m := range methodsOf(ops) {
			if op := ops[m]; op.Servers != nil {
				check("paths."+path+"."+strings.ToLower(m)+".servers", *op.Servers, at.member(strings.ToLower(m)).member("servers"))
			}
		}
	})
}

// unknownFields leaves out the fields of an object but a schema that the
// object has none of, such as sumary for summary in an operation.
func (r *repairs) unknownFields() {
	type object struct {
		where, kind string
		ext         map[string]any
	}
	var objects []object
	doc := r.doc
	objects = append(objects, object{"", "OpenAPI Object", doc.Extensions})
	if doc.Info != nil {
		objects = append(objects, object{"info", "Info Object", doc.Info.Extensions})
	}
	for i, t := range doc.Tags {
		if t != nil {
			objects = append(objects, object{fmt.Sprintf("tags.%d", i), "Tag Object", t.Extensions})
		}
	}
	if doc.Components != nil {
		objects = append(objects, object{"components", "Components Object", doc.Components.Extensions})
	}
	for _, p := range r.parts() {
		switch v := p.value.(type) {
		case *openapi3.PathItem:
			objects = append(objects, object{p.where, "Path Item Object", v.Extensions})
		case *openapi3.Operation:
			objects = append(objects, object{p.where, "Operation Object", v.Extensions})
			if v.Responses != nil {
				objects = append(objects, object{p.where + ".responses", "Responses Object", v.Responses.Extensions})
			}
		case *openapi3.Parameter:
			objects = append(objects, object{p.where, "Parameter Object", v.Extensions})
		case *openapi3.RequestBody:
			objects = append(objects, object{p.where, "Request Body Object", v.Extensions})
		case *openapi3.Response:
			objects = append(objects, object{p.where, "Response Object", v.Extensions})
		case *openapi3.MediaType:
			objects = append(objects, object{p.where, "Media Type Object", v.Extensions})
			for _, name := range slices.Sorted(maps.Keys(v.Encoding)) {
				if e := v.Encoding[name]; e != nil {
					objects = append(objects, object{p.where + ".encoding." + name, "Encoding Object", e.Extensions})
				}
			}
		case *openapi3.SecurityScheme:
			objects = append(objects, object{p.where, "Security Scheme Object", v.Extensions})
			if v.Flows != nil {
				objects = append(objects, object{p.where + ".flows", "OAuth Flows Object", v.Flows.Extensions})
			}
		case *openapi3.Server:
			objects = append(objects, object{p.where, "Server Object", v.Extensions})
		}
	}
	for _, o := range objects {
		if names := unknown(o.ext); len(names) > 0 {
			r.leaveOut(o.where, o.kind, o.ext, names)
		}
	}
}

// unknownKeywords leaves out the fields of a schema that a schema has
// none of: in an OpenAPI 3.1 schema, keywords JSON Schema lets a schema
// have, without a word. The walk of schemas calls it (see schemas).
func (r *repairs) unknownKeywords(at func() string, s *openapi3.Schema) {
	if len(s.Extensions) == 0 {
		return
	}
	names := unknown(s.Extensions)
	if len(names) == 0 {
		return
	}
	if r.doc.IsOpenAPI31OrLater() {
		for _, n := range names {
			delete(s.Extensions, n)
		}
		return
	}
	r.leaveOut(at(), "Schema Object", s.Extensions, names)
}

// leaveOut leaves the fields names out of ext, the extensions of an
// object of the kind at where.
func (r *repairs) leaveOut(where, kind string, ext map[string]any, names []string) {
	for _, n := range names {
		delete(ext, n)
	}
	fields, them := "field", "it"
	if len(names) > 1 {
		fields, them = "fields", "them"
	}
	if where == "" {
		where = "(the top level)"
	}
	r.add(slip{
		where:  where,
		what:   fmt.Sprintf("%s %s, which %s does not have", fields, strings.Join(names, ", "), article(kind)),
		served: "left out",
		change: fmt.Sprintf("remove %s, or begin %s with x- to make %s extensions", them, map[bool]string{true: "their names", false: "its name"}[len(names) > 1], them),
	})
}

// article returns a name with its indefinite article: an Operation
// Object, a Schema Object.
func article(name string) string {
	if strings.ContainsRune("AEIOU", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}

// unknown returns the names of ext, the fields kin-openapi read no meaning
// of, that are not extensions (x-...), sorted.
func unknown(ext map[string]any) []string {
	var out []string
	for k := range ext {
		if !strings.HasPrefix(k, "x-") {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// emptyExamples lets an Example Object of neither value nor externalValue,
// as Microsoft Graph's 119 examples of {}, through the validation:
// OpenAPI asks for neither, and kin-openapi refuses the whole document for
// it. Such an example holds no value, and none is read of it.
func (r *repairs) emptyExamples() {
	seen := map[*openapi3.Example]bool{}
	let := func(examples openapi3.Examples) {
		for _, ref := range examples {
			if ref == nil || ref.Value == nil || seen[ref.Value] {
				continue
			}
			ex := ref.Value
			seen[ex] = true
			if ex.Value == nil && ex.ExternalValue == "" {
				ex.ExternalValue = "about:blank"
				r.restore = append(r.restore, func() { ex.ExternalValue = "" })
			}
		}
	}
	if c := r.doc.Components; c != nil {
		let(c.Examples)
		for _, h := range c.Headers {
			if h != nil && h.Value != nil {
				let(h.Value.Examples)
			}
		}
	}
	for _, p := range r.parts() {
		switch v := p.value.(type) {
		case *openapi3.MediaType:
			let(v.Examples)
		case *openapi3.Parameter:
			let(v.Examples)
		case *openapi3.Response:
			for _, h := range v.Headers {
				if h != nil && h.Value != nil {
					let(h.Value.Examples)
				}
			}
		}
	}
}
