package spec

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// The examples and defaults a document gives are checked against their
// schemas here rather than by kin-openapi's validation, which refuses the
// whole document for the first that does not match, with the schema and
// the value dumped after it. Real documents often have one: a date where a
// date-time is asked, a value beside the enumeration, an object that
// matches two members of a oneOf. A mock answers without it, so the
// lenient reading drops it with one line that says where; the strict one
// refuses the document with that line. The checks are those kin-openapi
// makes: an example of a request body is read as a request, one of a
// response as a response, and others as neither.
//
// The walk goes through the document's maps in whatever order they come,
// which costs a start-up nothing, and tells the faults in the order of
// their places. A part the document refers to with a $ref is checked at
// its own place, under components, and only there.

// direction is how a value is read against its schema, as a request
// (where a read-only property may not be sent) or as a response (where a
// write-only one may not), or neither.
type direction int

const (
	neither direction = iota
	asRequest
	asResponse
)

// valueCheck walks the examples and defaults of a document.
type valueCheck struct {
	opts []openapi3.SchemaValidationOption
	// path is where the walk is, as the segments of the place a fault
	// names, joined only for a fault.
	path   []string
	faults []fault
	// contradictions are the schemas no value can match: see
	// contradiction.go. conditional counts the not, if, then and else
	// the walk is below, where they are not looked for.
	contradictions []fault
	conditional    int
	// elsewhere are the schemas of other files met, which may refer to
	// themselves.
	elsewhere map[*openapi3.Schema]bool
	// nullable is set for a document whose nullable: true lets null be a
	// value of any type: one of OpenAPI 3.0, or converted from Swagger 2.0.
	nullable bool
	// readings are the values of an enum, a default or a const that were
	// not of their schema's type, and were read as it: see coerce.
	readings []reading
}

// fault is a value that does not match its schema, or a schema no value
// matches: where it is and why.
type fault struct {
	where, why string
	schema     *openapi3.Schema // of a contradiction
}

// checkValues checks the examples and defaults of the document of l, and
// drops each that does not match its schema with a warning; strict, it
// refuses the document for the first, by place.
func (o ReadOptions) checkValues(ctx context.Context, l *loaded) error {
	v := &valueCheck{opts: SchemaOptions(l.doc), nullable: !l.doc.IsOpenAPI31OrLater()}
	v.document(ctx, l.doc)
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := o.readings(l, v.readings); err != nil {
		return err
	}
	if err := o.contradictions(l, v.contradictions); err != nil {
		return err
	}
	slices.SortFunc(v.faults, func(a, b fault) int { return strings.Compare(a.where, b.where) })
	for _, f := range v.faults {
		if o.Strict {
			more := ""
			if n := len(v.faults) - 1; n > 0 {
				more = fmt.Sprintf(" (and %d more such values)", n)
			}
			return fmt.Errorf("%s: does not match its schema: %s; change it to match, or remove it%s", l.place(f.where), f.why, more)
		}
		l.warnings = append(l.warnings, fmt.Sprintf("%s: dropped, as it does not match its schema: %s", l.place(f.where), f.why))
	}
	return nil
}

// in runs walk with the segments pushed on the path.
func (v *valueCheck) in(walk func(), segments ...string) {
	v.path = append(v.path, segments...)
	walk()
	v.path = v.path[:len(v.path)-len(segments)]
}

// matches reports whether value matches s, read in the direction dir;
// where it does not, it notes the fault at the path and then last.
func (v *valueCheck) matches(s *openapi3.Schema, value any, dir direction, last string) bool {
	opts := v.opts
	switch dir {
	case asRequest:
		opts = append(slices.Clip(opts), openapi3.VisitAsRequest())
	case asResponse:
		opts = append(slices.Clip(opts), openapi3.VisitAsResponse())
	}
	err := s.VisitJSON(value, opts...)
	if err == nil {
		return true
	}
	v.faults = append(v.faults, fault{where: strings.Join(append(slices.Clip(v.path), last), "."), why: shortReason(err.Error())})
	return false
}

// shortReason is the first line of a schema error, without the pattern
// a format is checked by, which says no more than the format's name.
func shortReason(msg string) string {
	msg = firstLine(msg)
	const format = `doesn't match the format "`
	if i := strings.Index(msg, format); i >= 0 {
		if end := strings.IndexByte(msg[i+len(format):], '"'); end >= 0 {
			msg = msg[:i+len(format)+end+1]
		}
	}
	return msg
}

// local reports whether ref refers to another place of the document, the
// place where what it refers to is checked.
func local(ref string) bool { return strings.HasPrefix(ref, "#/") }

// document checks the values of the document: those of its components,
// and of its paths and webhooks.
func (v *valueCheck) document(ctx context.Context, doc *openapi3.T) {
	if c := doc.Components; c != nil {
		v.in(func() {
			for name, ref := range c.Schemas {
				if ref != nil {
					v.in(func() { v.schema(ref.Value) }, "schemas", name)
				}
			}
			for name, ref := range c.Parameters {
				if ref != nil {
					v.in(func() { v.parameter(ref.Value) }, "parameters", name)
				}
			}
			for name, ref := range c.Headers {
				if ref != nil && ref.Value != nil {
					v.in(func() { v.parameter(&ref.Value.Parameter) }, "headers", name)
				}
			}
			for name, ref := range c.RequestBodies {
				if ref != nil && ref.Value != nil {
					v.in(func() { v.content(ref.Value.Content, asRequest) }, "requestBodies", name, "content")
				}
			}
			for name, ref := range c.Responses {
				if ref != nil {
					v.in(func() { v.response(ref.Value) }, "responses", name)
				}
			}
			for name, ref := range c.Callbacks {
				if ref != nil {
					v.in(func() { v.callback(ref.Value) }, "callbacks", name)
				}
			}
		}, "components")
	}
	if doc.Paths != nil {
		for path, item := range doc.Paths.Map() {
			if ctx.Err() != nil {
				return
			}
			v.in(func() { v.pathItem(item) }, "paths", path)
		}
	}
	for name, item := range doc.Webhooks {
		v.in(func() { v.pathItem(item) }, "webhooks", name)
	}
}

func (v *valueCheck) pathItem(item *openapi3.PathItem) {
	if item == nil || local(item.Ref) {
		return
	}
	v.parameters(item.Parameters)
	for method, op := range item.Operations() {
		v.in(func() { v.operation(op) }, strings.ToLower(method))
	}
}

func (v *valueCheck) parameters(params openapi3.Parameters) {
	for i, ref := range params {
		if ref != nil && !local(ref.Ref) {
			v.in(func() { v.parameter(ref.Value) }, "parameters", strconv.Itoa(i))
		}
	}
}

func (v *valueCheck) operation(op *openapi3.Operation) {
	if op == nil {
		return
	}
	v.parameters(op.Parameters)
	if rb := op.RequestBody; rb != nil && rb.Value != nil && !local(rb.Ref) {
		v.in(func() { v.content(rb.Value.Content, asRequest) }, "requestBody", "content")
	}
	if op.Responses != nil {
		for code, ref := range op.Responses.Map() {
			if ref != nil && !local(ref.Ref) {
				v.in(func() { v.response(ref.Value) }, "responses", code)
			}
		}
	}
	for name, ref := range op.Callbacks {
		if ref != nil && !local(ref.Ref) {
			v.in(func() { v.callback(ref.Value) }, "callbacks", name)
		}
	}
}

func (v *valueCheck) callback(cb *openapi3.Callback) {
	if cb == nil {
		return
	}
	for expr, item := range cb.Map() {
		v.in(func() { v.pathItem(item) }, expr)
	}
}

func (v *valueCheck) response(r *openapi3.Response) {
	if r == nil {
		return
	}
	for name, ref := range r.Headers {
		if ref != nil && ref.Value != nil && !local(ref.Ref) {
			v.in(func() { v.parameter(&ref.Value.Parameter) }, "headers", name)
		}
	}
	v.in(func() { v.content(r.Content, asResponse) }, "content")
}

// parameter checks the examples of a parameter or a header against its
// schema, its schema's values, and those of its content.
func (v *valueCheck) parameter(p *openapi3.Parameter) {
	if p == nil {
		return
	}
	if p.Schema != nil && p.Schema.Value != nil {
		v.examples(p.Schema.Value, &p.Example, p.Examples, neither)
		v.in(func() { v.schemaRef(p.Schema) }, "schema")
	}
	v.in(func() { v.content(p.Content, neither) }, "content")
}

func (v *valueCheck) content(content openapi3.Content, dir direction) {
	for name, mt := range content {
		if mt == nil || mt.Schema == nil || mt.Schema.Value == nil {
			continue // nothing to match: the examples are the answer
		}
		v.in(func() {
			v.examples(mt.Schema.Value, &mt.Example, mt.Examples, dir)
			v.in(func() { v.schemaRef(mt.Schema) }, "schema")
			v.in(func() { v.schemaRef(mt.ItemSchema) }, "itemSchema")
		}, name)
	}
}

// examples checks the example and the named examples of a media type, a
// parameter or a header at the path against s, and drops those that do
// not match it. An example given only by its externalValue is not read,
// and passes.
func (v *valueCheck) examples(s *openapi3.Schema, example *any, examples openapi3.Examples, dir direction) {
	if *example != nil && !v.matches(s, *example, dir, "example") {
		*example = nil
	}
	for name, ref := range examples {
		if ref != nil && ref.Value != nil && ref.Value.Value != nil && !v.matches(s, ref.Value.Value, dir, "examples."+name) {
			delete(examples, name)
		}
	}
}

// schemaRef checks the schema ref gives in place; one it refers to in
// the document is checked where it is defined, and one of another file
// once, where it is first met.
func (v *valueCheck) schemaRef(ref *openapi3.SchemaRef) {
	if ref == nil || local(ref.Ref) {
		return
	}
	if ref.Ref != "" {
		if v.elsewhere[ref.Value] {
			return
		}
		if v.elsewhere == nil {
			v.elsewhere = map[*openapi3.Schema]bool{}
		}
		v.elsewhere[ref.Value] = true
	}
	v.schema(ref.Value)
}

// schema checks the example and the default of s, and of every schema it
// gives in place below it.
func (v *valueCheck) schema(s *openapi3.Schema) {
	if s == nil {
		return
	}
	v.coerce(s)
	if why := contradiction(s, v.nullable); why != "" && v.conditional == 0 {
		v.contradictions = append(v.contradictions, fault{where: strings.Join(v.path, "."), why: why, schema: s})
	}
	if s.Example != nil && !v.matches(s, s.Example, neither, "example") {
		s.Example = nil
	}
	if s.Default != nil && !v.matches(s, s.Default, neither, "default") {
		s.Default = nil
	}
	for name, ref := range s.Properties {
		v.in(func() { v.schemaRef(ref) }, "properties", name)
	}
	subs := [...]struct {
		key string
		ref *openapi3.SchemaRef
	}{
		{"items", s.Items}, {"additionalProperties", s.AdditionalProperties.Schema}, {"not", s.Not},
		{"contains", s.Contains}, {"propertyNames", s.PropertyNames}, {"if", s.If}, {"then", s.Then}, {"else", s.Else},
		{"unevaluatedItems", s.UnevaluatedItems.Schema}, {"unevaluatedProperties", s.UnevaluatedProperties.Schema},
		{"contentSchema", s.ContentSchema},
	}
	for _, sub := range subs {
		if sub.ref == nil {
			continue
		}
		conditional := sub.key == "not" || sub.key == "if" || sub.key == "then" || sub.key == "else"
		if conditional {
			v.conditional++
		}
		v.in(func() { v.schemaRef(sub.ref) }, sub.key)
		if conditional {
			v.conditional--
		}
	}
	lists := [...]struct {
		key  string
		refs openapi3.SchemaRefs
	}{{"allOf", s.AllOf}, {"anyOf", s.AnyOf}, {"oneOf", s.OneOf}, {"prefixItems", s.PrefixItems}}
	for _, list := range lists {
		for i, ref := range list.refs {
			v.in(func() { v.schemaRef(ref) }, list.key, strconv.Itoa(i))
		}
	}
	named := [...]struct {
		key  string
		refs map[string]*openapi3.SchemaRef
	}{{"patternProperties", s.PatternProperties}, {"dependentSchemas", s.DependentSchemas}, {"$defs", s.Defs}}
	for _, m := range named {
		for name, ref := range m.refs {
			v.in(func() { v.schemaRef(ref) }, m.key, name)
		}
	}
}
