package spec

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// Real documents slip where their meaning stays clear: a response without
// its description, a parameter without its schema, an OpenAPI 3.1 keyword
// in an OpenAPI 3.0 schema, a field of no such name beside the others.
// kin-openapi refuses the whole document for the first, as a validator
// should. A mock serves what the document means: the lenient reading
// repairs each slip in the loaded document, before it is validated, with
// one warning that names the place, in the document's own words, and says
// what is served; the strict one refuses the document for the first slip,
// by place, saying what to change. There is one repair for each kind of
// slip (slips.go, schema30.go).
//
// What is valid but kin-openapi does not read is put aside without a word:
// a keyword of JSON Schema it does not know in an OpenAPI 3.1 schema, and a
// server variable whose default is the empty string.

// slip is a part of a document that does not hold as written.
type slip struct {
	// where is the place, in the document as loaded: a Swagger 2.0
	// document's converted one, which repairs.place names in its own.
	where string
	// what is what the document says there, and why it does not hold.
	what string
	// served is what petmock serves instead, or "" for a slip it cannot
	// serve past, which is refused, strict or not.
	served string
	// change is what to change there.
	change string
}

// repairs are the slips of one document, and the repairs made of them.
type repairs struct {
	doc *openapi3.T
	// version is the version the document says it is, in its words:
	// "OpenAPI 3.0.3", or "Swagger 2.0" for a converted one.
	version string
	swagger bool
	// paths are the paths of the document in the order written.
	paths   []string
	outline *outline // of the loaded document
	slips   []slip
	// all are the parts of the document, walked once: see parts.
	all []part
	// restore undoes, once the document is validated, what was changed
	// for kin-openapi's validation only.
	restore []func()
	// notes say what of a valid document petmock cannot hold values to,
	// strict or not: see patterns.
	notes []string
}

// repair repairs the slips of the document of l, in place, before it is
// validated, with a warning each; strict, it refuses the document for the
// first, by place. A slip petmock cannot serve past is refused either way.
// The returned function undoes what was changed for the validation only,
// to be called once the document is validated.
func (o ReadOptions) repair(l *loaded) (func(), error) {
	r := &repairs{doc: l.doc, swagger: l.convertedFrom != "", paths: l.pathOrder, outline: l.outline}
	r.version = "OpenAPI " + l.doc.OpenAPI
	if r.swagger {
		r.version = l.convertedFrom
	}
	r.conflictingPaths()
	r.pathParameters()
	r.responseDescriptions()
	r.parameterSchemas()
	r.oauthScopes()
	r.serverVariables()
	r.emptyExamples()
	r.unknownFields()
	r.schemas()
	undo := func() {
		for _, f := range r.restore {
			f()
		}
	}
	slices.SortStableFunc(r.slips, func(a, b slip) int { return strings.Compare(a.where, b.where) })
	refused := func(s slip) bool { return o.Strict || s.served == "" }
	for _, s := range r.slips {
		if refused(s) {
			more := ""
			if n := len(slices.DeleteFunc(slices.Clone(r.slips), func(s slip) bool { return !refused(s) })) - 1; n > 0 {
				more = fmt.Sprintf(" (and %d more such slips)", n)
			}
			undo()
			return nil, fmt.Errorf("%s: %s; %s%s", r.place(s.where), s.what, s.change, more)
		}
	}
	for _, s := range r.slips {
		l.warnings = append(l.warnings, fmt.Sprintf("%s: %s; %s", r.place(s.where), s.what, s.served))
	}
	l.warnings = append(l.warnings, r.notes...)
	return undo, nil
}

// add notes a slip.
func (r *repairs) add(s slip) { r.slips = append(r.slips, s) }

// lacks says that the version the document says it is has no such thing,
// in its words: "OpenAPI 3.0.3 has no const (3.1 has)", "Swagger 2.0 has
// no const".
func (r *repairs) lacks(thing string) string {
	if r.swagger {
		return r.version + " has no " + thing
	}
	return r.version + " has no " + thing + " (3.1 has)"
}

// place names a place of the loaded document as the document names it:
// a Swagger 2.0 document's definitions and body parameters where its
// conversion has components and request bodies.
func (r *repairs) place(where string) string {
	if !r.swagger {
		return where
	}
	return swaggerPlace(where)
}

// swaggerPlace names a place of a Swagger 2.0 document converted to
// OpenAPI 3.0 as the Swagger document does.
func swaggerPlace(where string) string {
	for _, p := range [...]struct{ from, to string }{
		{"components.schemas.", "definitions."},
		{"components.parameters.", "parameters."},
		{"components.responses.", "responses."},
		{"components.securitySchemes.", "securityDefinitions."},
		{"components.requestBodies.", "parameters."},
	} {
		if rest, ok := strings.CutPrefix(where, p.from); ok {
			where = p.to + rest
			break
		}
	}
	if i := strings.Index(where, ".flows."); i >= 0 && strings.HasPrefix(where, "securityDefinitions.") {
		// Swagger 2.0 has one flow a scheme, written in the scheme.
		rest := where[i+len(".flows."):]
		if j := strings.IndexByte(rest, '.'); j >= 0 {
			where = where[:i] + rest[j:]
		} else {
			where = where[:i]
		}
	}
	where = strings.Replace(where, ".requestBody.content.", ".parameters(in: body).content.", 1)
	// The schema of a body or an answer is the body parameter's or the
	// response's own, where OpenAPI 3 gives one a media type.
	if i := strings.Index(where, ".content."); i >= 0 {
		if j := strings.Index(where[i:], ".schema"); j >= 0 {
			where = where[:i] + where[i+j:]
		}
	}
	return where
}

// pointerPlace turns a JSON pointer into a place, such as
// "components.schemas.Pet.properties.tag".
func pointerPlace(ptr string) string {
	segs := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	for i, s := range segs {
		segs[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	}
	return strings.Join(segs, ".")
}

// part is an object of a document other than a schema, at its place.
type part struct {
	where string
	// value is an *openapi3.PathItem, *openapi3.Operation,
	// *openapi3.Parameter, *openapi3.RequestBody, *openapi3.Response,
	// *openapi3.MediaType, *openapi3.SecurityScheme or *openapi3.Server.
	value any
}

// parts returns the objects of a document but its schemas, each once, at
// the place it is written: what it refers to with a $ref is at its own
// place, under components. Paths come in the order written. A repair that
// joins or leaves out paths runs before the first asks for them.
func (r *repairs) parts() []part {
	if r.all == nil {
		r.all = r.walkParts()
	}
	return r.all
}

// walkParts walks the document for parts.
func (r *repairs) walkParts() []part {
	out := []part{}
	add := func(where string, v any) { out = append(out, part{where, v}) }
	var content func(where string, c openapi3.Content)
	content = func(where string, c openapi3.Content) {
		for _, name := range slices.Sorted(maps.Keys(c)) {
			if mt := c[name]; mt != nil {
				add(where+"."+name, mt)
			}
		}
	}
	parameter := func(where string, ref *openapi3.ParameterRef) {
		if ref == nil || ref.Value == nil || local(ref.Ref) {
			return
		}
		add(where, ref.Value)
		content(where+".content", ref.Value.Content)
	}
	header := func(where string, ref *openapi3.HeaderRef) {
		if ref == nil || ref.Value == nil || local(ref.Ref) {
			return
		}
		add(where, &ref.Value.Parameter)
		content(where+".content", ref.Value.Content)
	}
	response := func(where string, ref *openapi3.ResponseRef) {
		if ref == nil || ref.Value == nil || local(ref.Ref) {
			return
		}
		add(where, ref.Value)
		for _, name := range slices.Sorted(maps.Keys(ref.Value.Headers)) {
			header(where+".headers."+name, ref.Value.Headers[name])
		}
		content(where+".content", ref.Value.Content)
	}
	requestBody := func(where string, ref *openapi3.RequestBodyRef) {
		if ref == nil || ref.Value == nil || local(ref.Ref) {
			return
		}
		add(where, ref.Value)
		content(where+".content", ref.Value.Content)
	}
	servers := func(where string, ss openapi3.Servers) {
		for i, s := range ss {
			if s != nil {
				add(where+"."+strconv.Itoa(i), s)
			}
		}
	}
	seenCallbacks := map[*openapi3.Callback]bool{}
	var pathItem func(where string, item *openapi3.PathItem)
	callback := func(where string, ref *openapi3.CallbackRef) {
		if ref == nil || ref.Value == nil || local(ref.Ref) || seenCallbacks[ref.Value] {
			return
		}
		seenCallbacks[ref.Value] = true
		items := ref.Value.Map()
		for _, expr := range slices.Sorted(maps.Keys(items)) {
			pathItem(where+"."+expr, items[expr])
		}
	}
	pathItem = func(where string, item *openapi3.PathItem) {
		if item == nil || local(item.Ref) {
			return
		}
		add(where, item)
		servers(where+".servers", item.Servers)
		for i, p := range item.Parameters {
			parameter(where+".parameters."+strconv.Itoa(i), p)
		}
		ops := item.Operations()
		for _, method := range methodsOf(ops) {
			op := ops[method]
			at := where + "." + strings.ToLower(method)
			add(at, op)
			if op.Servers != nil {
				servers(at+".servers", *op.Servers)
			}
			for i, p := range op.Parameters {
				parameter(at+".parameters."+strconv.Itoa(i), p)
			}
			requestBody(at+".requestBody", op.RequestBody)
			if op.Responses != nil {
				responses := op.Responses.Map()
				for _, code := range slices.Sorted(maps.Keys(responses)) {
					response(at+".responses."+code, responses[code])
				}
			}
			for _, name := range slices.Sorted(maps.Keys(op.Callbacks)) {
				callback(at+".callbacks."+name, op.Callbacks[name])
			}
		}
	}
	doc := r.doc
	servers("servers", doc.Servers)
	if c := doc.Components; c != nil {
		for _, name := range slices.Sorted(maps.Keys(c.Parameters)) {
			parameter("components.parameters."+name, c.Parameters[name])
		}
		for _, name := range slices.Sorted(maps.Keys(c.Headers)) {
			header("components.headers."+name, c.Headers[name])
		}
		for _, name := range slices.Sorted(maps.Keys(c.RequestBodies)) {
			requestBody("components.requestBodies."+name, c.RequestBodies[name])
		}
		for _, name := range slices.Sorted(maps.Keys(c.Responses)) {
			response("components.responses."+name, c.Responses[name])
		}
		for _, name := range slices.Sorted(maps.Keys(c.SecuritySchemes)) {
			if ref := c.SecuritySchemes[name]; ref != nil && ref.Value != nil && !local(ref.Ref) {
				add("components.securitySchemes."+name, ref.Value)
			}
		}
		for _, name := range slices.Sorted(maps.Keys(c.Callbacks)) {
			callback("components.callbacks."+name, c.Callbacks[name])
		}
	}
	for _, path := range r.pathsInOrder() {
		pathItem("paths."+path, doc.Paths.Value(path))
	}
	for _, name := range slices.Sorted(maps.Keys(doc.Webhooks)) {
		pathItem("webhooks."+name, doc.Webhooks[name])
	}
	return out
}

// pathsInOrder returns the paths of the document in the order written, or
// sorted where that is not known.
func (r *repairs) pathsInOrder() []string {
	if r.doc.Paths == nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, p := range r.paths {
		if r.doc.Paths.Value(p) != nil && !seen[p] {
			out, seen[p] = append(out, p), true
		}
	}
	for _, p := range slices.Sorted(maps.Keys(r.doc.Paths.Map())) {
		if !seen[p] {
			out = append(out, p)
		}
	}
	return out
}

// methodsOf returns the methods of ops in methodOrder, and others after.
func methodsOf(ops map[string]*openapi3.Operation) []string {
	var out []string
	for _, m := range methodOrder {
		if ops[m] != nil {
			out = append(out, m)
		}
	}
	for _, m := range slices.Sorted(maps.Keys(ops)) {
		if !slices.Contains(methodOrder, m) && ops[m] != nil {
			out = append(out, m)
		}
	}
	return out
}

// schemaWalk calls f with every schema of the document, each once, and a
// function that names its place: one a $ref refers to where it is
// defined, under components. The place is made only when asked for: most
// schemas have no slip, and a document may have hundreds of thousands.
func (r *repairs) schemaWalk(f func(at func() string, s *openapi3.Schema)) {
	w := &schemaWalker{seen: map[*openapi3.Schema]bool{}, f: f}
	w.at = func() string { return strings.Join(w.segs, ".") }
	if c := r.doc.Components; c != nil {
		for _, name := range slices.Sorted(maps.Keys(c.Schemas)) {
			w.ref(c.Schemas[name], "components", "schemas", name)
		}
	}
	for _, p := range r.parts() {
		switch v := p.value.(type) {
		case *openapi3.Parameter:
			w.ref(v.Schema, p.where, "schema")
		case *openapi3.MediaType:
			w.ref(v.Schema, p.where, "schema")
			w.ref(v.ItemSchema, p.where, "itemSchema")
		}
	}
}

// schemaWalker walks the schemas of a document: see schemaWalk.
type schemaWalker struct {
	seen map[*openapi3.Schema]bool
	// segs are the segments of the place of the schema walked.
	segs []string
	at   func() string
	f    func(at func() string, s *openapi3.Schema)
}

// ref walks the schema of ref, and those below it, at the place of segs
// below the walker's.
func (w *schemaWalker) ref(ref *openapi3.SchemaRef, segs ...string) {
	if ref == nil || ref.Value == nil || w.seen[ref.Value] {
		return
	}
	s := ref.Value
	w.seen[s] = true
	w.segs = append(w.segs, segs...)
	defer func() { w.segs = w.segs[:len(w.segs)-len(segs)] }()
	w.f(w.at, s)
	if len(s.Properties) > 0 {
		for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
			w.ref(s.Properties[name], "properties", name)
		}
	}
	for _, sub := range [...]struct {
		key string
		ref *openapi3.SchemaRef
	}{
		{"items", s.Items}, {"additionalProperties", s.AdditionalProperties.Schema}, {"not", s.Not},
		{"contains", s.Contains}, {"propertyNames", s.PropertyNames}, {"if", s.If}, {"then", s.Then}, {"else", s.Else},
		{"unevaluatedItems", s.UnevaluatedItems.Schema}, {"unevaluatedProperties", s.UnevaluatedProperties.Schema},
		{"contentSchema", s.ContentSchema},
	} {
		w.ref(sub.ref, sub.key)
	}
	for _, list := range [...]struct {
		key  string
		refs openapi3.SchemaRefs
	}{{"allOf", s.AllOf}, {"anyOf", s.AnyOf}, {"oneOf", s.OneOf}, {"prefixItems", s.PrefixItems}} {
		for i, sub := range list.refs {
			w.ref(sub, list.key, strconv.Itoa(i))
		}
	}
	for _, named := range [...]struct {
		key  string
		refs openapi3.Schemas
	}{{"patternProperties", s.PatternProperties}, {"dependentSchemas", s.DependentSchemas}, {"$defs", s.Defs}} {
		if len(named.refs) > 0 {
			for _, name := range slices.Sorted(maps.Keys(named.refs)) {
				w.ref(named.refs[name], named.key, name)
			}
		}
	}
}
