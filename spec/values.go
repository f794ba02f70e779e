package spec

import (
	"fmt"
	"maps"
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
	strict   bool
	opts     []openapi3.SchemaValidationOption
	warnings []string
	seen     map[any]bool // media types, parameters and headers checked, shared through $ref
}

// checkValues checks the examples and defaults of the document of l,
// dropping each that does not match its schema with a warning, or, strict,
// refusing the first.
func (o ReadOptions) checkValues(l *loaded) error {
	v := &valueCheck{strict: o.Strict, seen: map[any]bool{}, opts: []openapi3.SchemaValidationOption{openapi3.DisableSchemaErrorDetails()}}
	if l.doc.IsOpenAPI31OrLater() {
		v.opts = append(v.opts, openapi3.EnableJSONSchema2020())
	}
	if err := l.doc.WalkSchemas(v.schema); err != nil {
		return err
	}
	if err := v.document(l.doc); err != nil {
		return err
	}
	l.warnings = append(l.warnings, v.warnings...)
	return nil
}

// mismatch reports whether value does not match s, and why.
func (v *valueCheck) mismatch(s *openapi3.Schema, value any, dir direction) (string, bool) {
	opts := v.opts
	switch dir {
	case asRequest:
		opts = append(slices.Clip(opts), openapi3.VisitAsRequest())
	case asResponse:
		opts = append(slices.Clip(opts), openapi3.VisitAsResponse())
	}
	if err := s.VisitJSON(value, opts...); err != nil {
		return shortReason(err.Error()), true
	}
	return "", false
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

// bad deals with a value at where that does not match its schema: it
// returns the refusal, strict, and otherwise notes the warning and
// returns nil, for the value to be dropped.
func (v *valueCheck) bad(where, why string) error {
	if v.strict {
		return fmt.Errorf("%s: does not match its schema: %s; change it to match, or remove it", where, why)
	}
	v.warnings = append(v.warnings, fmt.Sprintf("%s: dropped, as it does not match its schema: %s", where, why))
	return nil
}

// schema checks the example and the default of one schema, at the JSON
// pointer ptr.
func (v *valueCheck) schema(ptr string, ref *openapi3.SchemaRef) error {
	s := ref.Value
	if s.Example == nil && s.Default == nil {
		return nil
	}
	where := dotted(ptr)
	if s.Example != nil {
		if why, bad := v.mismatch(s, s.Example, neither); bad {
			if err := v.bad(where+".example", why); err != nil {
				return err
			}
			s.Example = nil
		}
	}
	if s.Default != nil {
		if why, bad := v.mismatch(s, s.Default, neither); bad {
			if err := v.bad(where+".default", why); err != nil {
				return err
			}
			s.Default = nil
		}
	}
	return nil
}

// dotted writes a JSON pointer as this package names places in a
// document: "/paths/~1pets/get" is "paths./pets.get".
func dotted(ptr string) string {
	parts := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	for i, p := range parts {
		parts[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(p)
	}
	return strings.Join(parts, ".")
}

// document checks the examples of the media types, parameters and headers
// of the document: those of its components first, then of its paths and
// webhooks.
func (v *valueCheck) document(doc *openapi3.T) error {
	if c := doc.Components; c != nil {
		for _, name := range slices.Sorted(maps.Keys(c.Parameters)) {
			if ref := c.Parameters[name]; ref != nil {
				if err := v.parameter("components.parameters."+name, ref.Value); err != nil {
					return err
				}
			}
		}
		for _, name := range slices.Sorted(maps.Keys(c.Headers)) {
			if ref := c.Headers[name]; ref != nil && ref.Value != nil {
				if err := v.parameter("components.headers."+name, &ref.Value.Parameter); err != nil {
					return err
				}
			}
		}
		for _, name := range slices.Sorted(maps.Keys(c.RequestBodies)) {
			if ref := c.RequestBodies[name]; ref != nil && ref.Value != nil {
				if err := v.content("components.requestBodies."+name+".content", ref.Value.Content, asRequest); err != nil {
					return err
				}
			}
		}
		for _, name := range slices.Sorted(maps.Keys(c.Responses)) {
			if ref := c.Responses[name]; ref != nil {
				if err := v.response("components.responses."+name, ref.Value); err != nil {
					return err
				}
			}
		}
		for _, name := range slices.Sorted(maps.Keys(c.Callbacks)) {
			if ref := c.Callbacks[name]; ref != nil {
				if err := v.callback("components.callbacks."+name, ref.Value); err != nil {
					return err
				}
			}
		}
	}
	if doc.Paths != nil {
		items := doc.Paths.Map()
		for _, path := range slices.Sorted(maps.Keys(items)) {
			if err := v.pathItem("paths."+path, items[path]); err != nil {
				return err
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(doc.Webhooks)) {
		if err := v.pathItem("webhooks."+name, doc.Webhooks[name]); err != nil {
			return err
		}
	}
	return nil
}

func (v *valueCheck) pathItem(where string, item *openapi3.PathItem) error {
	if item == nil {
		return nil
	}
	for i, ref := range item.Parameters {
		if ref != nil {
			if err := v.parameter(where+".parameters."+strconv.Itoa(i), ref.Value); err != nil {
				return err
			}
		}
	}
	ops := item.Operations()
	for _, method := range slices.Sorted(maps.Keys(ops)) {
		if err := v.operation(where+"."+strings.ToLower(method), ops[method]); err != nil {
			return err
		}
	}
	return nil
}

func (v *valueCheck) operation(where string, op *openapi3.Operation) error {
	if op == nil {
		return nil
	}
	for i, ref := range op.Parameters {
		if ref != nil {
			if err := v.parameter(where+".parameters."+strconv.Itoa(i), ref.Value); err != nil {
				return err
			}
		}
	}
	if rb := op.RequestBody; rb != nil && rb.Value != nil {
		if err := v.content(where+".requestBody.content", rb.Value.Content, asRequest); err != nil {
			return err
		}
	}
	if op.Responses != nil {
		responses := op.Responses.Map()
		for _, code := range slices.Sorted(maps.Keys(responses)) {
			if ref := responses[code]; ref != nil {
				if err := v.response(where+".responses."+code, ref.Value); err != nil {
					return err
				}
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(op.Callbacks)) {
		if ref := op.Callbacks[name]; ref != nil {
			if err := v.callback(where+".callbacks."+name, ref.Value); err != nil {
				return err
			}
		}
	}
	return nil
}

func (v *valueCheck) callback(where string, cb *openapi3.Callback) error {
	if cb == nil || v.seen[cb] {
		return nil
	}
	v.seen[cb] = true
	items := cb.Map()
	for _, expr := range slices.Sorted(maps.Keys(items)) {
		if err := v.pathItem(where+"."+expr, items[expr]); err != nil {
			return err
		}
	}
	return nil
}

func (v *valueCheck) response(where string, r *openapi3.Response) error {
	if r == nil {
		return nil
	}
	for _, name := range slices.Sorted(maps.Keys(r.Headers)) {
		if ref := r.Headers[name]; ref != nil && ref.Value != nil {
			if err := v.parameter(where+".headers."+name, &ref.Value.Parameter); err != nil {
				return err
			}
		}
	}
	return v.content(where+".content", r.Content, asResponse)
}

// parameter checks the examples of a parameter or a header against its
// schema, and those of its content.
func (v *valueCheck) parameter(where string, p *openapi3.Parameter) error {
	if p == nil || v.seen[p] {
		return nil
	}
	v.seen[p] = true
	if p.Schema != nil && p.Schema.Value != nil {
		if err := v.examples(where, p.Schema.Value, &p.Example, p.Examples, neither); err != nil {
			return err
		}
	}
	return v.content(where+".content", p.Content, neither)
}

func (v *valueCheck) content(where string, content openapi3.Content, dir direction) error {
	for _, name := range slices.Sorted(maps.Keys(content)) {
		mt := content[name]
		if mt == nil || v.seen[mt] {
			continue
		}
		v.seen[mt] = true
		if mt.Schema == nil || mt.Schema.Value == nil {
			continue // nothing to match: the examples are the answer
		}
		if err := v.examples(where+"."+name, mt.Schema.Value, &mt.Example, mt.Examples, dir); err != nil {
			return err
		}
	}
	return nil
}

// examples checks the example and the named examples of a media type, a
// parameter or a header at where against s, and drops those that do not
// match it. An example given only by its externalValue is not read, and
// passes.
func (v *valueCheck) examples(where string, s *openapi3.Schema, example *any, examples openapi3.Examples, dir direction) error {
	if *example != nil {
		if why, bad := v.mismatch(s, *example, dir); bad {
			if err := v.bad(where+".example", why); err != nil {
				return err
			}
			*example = nil
		}
	}
	for _, name := range slices.Sorted(maps.Keys(examples)) {
		ref := examples[name]
		if ref == nil || ref.Value == nil || ref.Value.Value == nil {
			continue
		}
		ex := ref.Value
		if why, bad := v.mismatch(s, ex.Value, dir); bad {
			if err := v.bad(where+".examples."+name, why); err != nil {
				return err
			}
			delete(examples, name)
		}
	}
	return nil
}
