package spec

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/getkin/kin-openapi/openapi3"
)

// An OpenAPI 3.0 document, or a Swagger 2.0 one, often uses a keyword of
// OpenAPI 3.1's schemas, such as type: 'null' in an anyOf, const, or a
// list of types: their authors' tools read them, and kin-openapi refuses
// them with a word of OpenAPI 3.1, which the document never claimed.
// Where OpenAPI 3.0 says the same in its own words, the schema is read so,
// as a repair (see repair.go); where it cannot, as of if, then and else,
// the document is refused, naming the keyword and the version the
// document says it is.

// schemas repairs the schemas of the document, in one walk of them: the
// keywords a schema has none of (see unknownKeywords), and the keywords
// of OpenAPI 3.1 in a document of an earlier version.
func (r *repairs) schemas() {
	v31 := r.doc.IsOpenAPI31OrLater()
	r.schemaWalk(func(at func() string, s *openapi3.Schema) {
		r.unknownKeywords(at, s)
		r.patterns(at, s)
		r.enumOfItems(at, s)
		r.repeatedAlternatives(at, s)
		r.undeclaredRequired(at, s)
		if v31 {
			return
		}
		r.types(at, s)
		r.constant(at, s)
		r.schemaExamples(at, s)
		r.exclusiveBounds(at, s)
		r.annotations(at, s)
		r.unread(at, s)
		implicitMapping(s)
	})
}

// types reads a list of types, or type 'null', as OpenAPI 3.0 writes them:
// one type and nullable, an anyOf of one type each, or a value always
// null, nullable and of the enumeration [null].
func (r *repairs) types(at func() string, s *openapi3.Schema) {
	types := s.Type.Slice()
	if len(types) < 2 && !slices.Contains(types, "null") {
		return
	}
	nullable := slices.Contains(types, "null")
	others := slices.DeleteFunc(slices.Clone(types), func(t string) bool { return t == "null" })
	var served, change string
	switch len(others) {
	case 0:
		s.Type, s.Nullable = nil, true
		if len(s.Enum) == 0 {
			s.Enum = []any{nil}
		}
		served, change = "read as a value that is always null", r.nullable("enum: [null]")
	case 1:
		s.Type, s.Nullable = &openapi3.Types{others[0]}, s.Nullable || nullable
		served, change = "read as type: "+others[0], "type: "+others[0]
		if nullable {
			served, change = served+" or null", r.nullable(change)
		}
	default:
		branches := make(openapi3.SchemaRefs, len(others))
		for i, t := range others {
			branches[i] = &openapi3.SchemaRef{Value: &openapi3.Schema{Type: &openapi3.Types{t}, Nullable: nullable}}
		}
		s.Type, s.Nullable = nil, s.Nullable || nullable
		if len(s.AnyOf) == 0 {
			s.AnyOf = branches
		} else {
			s.AllOf = append(s.AllOf, &openapi3.SchemaRef{Value: &openapi3.Schema{AnyOf: branches}})
		}
		served, change = "read as a value of any of them", "anyOf: a schema of each type"
		if nullable {
			served, change = served+", or null", r.nullable(change)
		}
	}
	what := jsonText(types) + ": " + r.lacks("list of types")
	if len(types) == 1 {
		what = `"null": ` + r.lacks("type null")
	}
	r.add(slip{where: at() + ".type", what: what, served: served, change: "write " + change})
}

// nullable says a schema of the keywords given is nullable, in the words
// of the document's version.
func (r *repairs) nullable(keywords string) string {
	if r.swagger {
		return keywords + ", x-nullable: true"
	}
	return keywords + ", nullable: true"
}

// constant reads const as an enumeration of its one value.
func (r *repairs) constant(at func() string, s *openapi3.Schema) {
	if s.Const == nil {
		return
	}
	c := s.Const
	s.Const = nil
	if len(s.Enum) == 0 {
		s.Enum = []any{c}
	} else {
		s.Enum = slices.DeleteFunc(s.Enum, func(v any) bool { return !reflect.DeepEqual(v, c) })
	}
	r.add(slip{
		where:  at() + ".const",
		what:   jsonText(c) + ": " + r.lacks("const"),
		served: "read as enum: [" + jsonText(c) + "]",
		change: "write enum: [" + jsonText(c) + "]",
	})
}

// schemaExamples reads the first of a schema's examples as its example.
func (r *repairs) schemaExamples(at func() string, s *openapi3.Schema) {
	if len(s.Examples) == 0 {
		return
	}
	served := "left out, as the schema has an example"
	if s.Example == nil {
		s.Example = s.Examples[0]
		served = "the first read as its example"
	}
	s.Examples = nil
	r.add(slip{
		where:  at() + ".examples",
		what:   r.lacks("examples of a schema"),
		served: served,
		change: "write example: " + jsonText(s.Example),
	})
}

// exclusiveBounds reads a number given as exclusiveMinimum or
// exclusiveMaximum as the bound it is, made exclusive.
func (r *repairs) exclusiveBounds(at func() string, s *openapi3.Schema) {
	for _, b := range [...]struct {
		name, bound string
		excl        *openapi3.ExclusiveBound
		at          **float64
		tighter     func(v, old float64) bool
	}{
		{"exclusiveMinimum", "minimum", &s.ExclusiveMin, &s.Min, func(v, old float64) bool { return v >= old }},
		{"exclusiveMaximum", "maximum", &s.ExclusiveMax, &s.Max, func(v, old float64) bool { return v <= old }},
	} {
		if b.excl.Value == nil {
			continue
		}
		v := *b.excl.Value
		served := fmt.Sprintf("read as %s: %v, %s: true", b.bound, v, b.name)
		if *b.at == nil || b.tighter(v, **b.at) {
			*b.at = &v
			b.excl.Value, b.excl.Bool = nil, new(bool)
			*b.excl.Bool = true
		} else {
			b.excl.Value = nil
			served = fmt.Sprintf("left out, as %s: %v is tighter", b.bound, **b.at)
		}
		r.add(slip{
			where:  at() + "." + b.name,
			what:   fmt.Sprintf("%v, a number: %s", v, r.lacks(b.name+" of a number")),
			served: served,
			change: fmt.Sprintf("write %s: %v, %s: true", b.bound, v, b.name),
		})
	}
}

// annotations leaves out the keywords of OpenAPI 3.1 that only annotate a
// schema, or name it, and $defs, whose schemas are read where they are
// referred to.
func (r *repairs) annotations(at func() string, s *openapi3.Schema) {
	for _, a := range [...]struct {
		name string
		set  bool
		drop func()
	}{
		{"$comment", s.Comment != "", func() { s.Comment = "" }},
		{"$id", s.SchemaID != "", func() { s.SchemaID = "" }},
		{"$schema", s.SchemaDialect != "", func() { s.SchemaDialect = "" }},
		{"$anchor", s.Anchor != "", func() { s.Anchor = "" }},
		{"contentMediaType", s.ContentMediaType != "", func() { s.ContentMediaType = "" }},
		{"contentEncoding", s.ContentEncoding != "", func() { s.ContentEncoding = "" }},
		{"$defs", len(s.Defs) > 0, func() { s.Defs = nil }},
	} {
		if !a.set {
			continue
		}
		a.drop()
		r.add(slip{
			where:  at() + "." + a.name,
			what:   r.lacks(a.name),
			served: "left out, as it changes no value the schema matches",
			change: "remove it",
		})
	}
}

// unread refuses the keywords of OpenAPI 3.1 that say what a value must be
// in words OpenAPI 3.0 has none of: served without them, a schema would
// let values pass that the document refuses.
func (r *repairs) unread(at func() string, s *openapi3.Schema) {
	for _, k := range [...]struct {
		name string
		set  bool
	}{
		{"prefixItems", len(s.PrefixItems) > 0},
		{"contains", s.Contains != nil},
		{"minContains", s.MinContains != nil},
		{"maxContains", s.MaxContains != nil},
		{"patternProperties", len(s.PatternProperties) > 0},
		{"dependentSchemas", len(s.DependentSchemas) > 0},
		{"dependentRequired", len(s.DependentRequired) > 0},
		{"propertyNames", s.PropertyNames != nil},
		{"unevaluatedItems", s.UnevaluatedItems.Has != nil || s.UnevaluatedItems.Schema != nil},
		{"unevaluatedProperties", s.UnevaluatedProperties.Has != nil || s.UnevaluatedProperties.Schema != nil},
		{"if", s.If != nil},
		{"then", s.Then != nil},
		{"else", s.Else != nil},
		{"$dynamicRef", s.DynamicRef != ""},
		{"$dynamicAnchor", s.DynamicAnchor != ""},
		{"contentSchema", s.ContentSchema != nil},
	} {
		if !k.set {
			continue
		}
		change := "declare openapi: 3.1.0 if the document is OpenAPI 3.1, or say the same in the words of " + r.version
		if r.swagger {
			change = "say the same in the words of Swagger 2.0, or write the document in OpenAPI 3.1"
		}
		r.add(slip{
			where:  at() + "." + k.name,
			what:   r.lacks(k.name),
			change: change,
		})
	}
}

// jsonText writes a value of a document as JSON, for a message.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// enumOfItems reads the enum of an array, none of whose values is an
// array, and all of which its items' schema takes, as the enum of its
// items: Vimeo's content_filter and VisageCloud's purposes, arrays of
// strings beside an enum of strings, as Swagger 2.0 tools write an
// enumerated query parameter of several values. As written no value is
// valid: an array is none of the strings.
func (r *repairs) enumOfItems(at func() string, s *openapi3.Schema) {
	if len(s.Enum) == 0 || TypeOf(s) != "array" || s.Items == nil || s.Items.Value == nil {
		return
	}
	items := s.Items.Value
	for _, v := range s.Enum {
		if _, ok := v.([]any); ok || v == nil {
			return
		}
		if err := (&openapi3.Schema{Type: items.Type, Format: items.Format}).VisitJSON(v); err != nil {
			return
		}
	}
	enum := s.Enum
	s.Enum = nil
	if len(items.Enum) == 0 {
		// The items' schema may be shared: the enum goes on a copy.
		copied := *items
		copied.Enum = enum
		s.Items = &openapi3.SchemaRef{Value: &copied}
	}
	r.add(slip{
		where:  at() + ".enum",
		what:   jsonText(enum) + ": an array is none of these values",
		served: "read as the enum of its items",
		change: "move the enum into items",
	})
}

// repeatedAlternatives reads a oneOf that lists one schema twice, as App
// Store Connect's included: oneOf [AppCategory, AppCategory], as a oneOf
// that lists it once: as written, a value of it matches two alternatives,
// and so none is valid.
func (r *repairs) repeatedAlternatives(at func() string, s *openapi3.Schema) {
	if len(s.OneOf) < 2 {
		return
	}
	var kept openapi3.SchemaRefs
	var twice []string
	for _, ref := range s.OneOf {
		if ref == nil {
			continue
		}
		if slices.ContainsFunc(kept, func(k *openapi3.SchemaRef) bool {
			return k.Value == ref.Value && ref.Value != nil || ref.Ref != "" && k.Ref == ref.Ref
		}) {
			name := ref.Ref
			if name == "" {
				name = "a schema"
			}
			twice = append(twice, name)
			continue
		}
		kept = append(kept, ref)
	}
	if len(twice) == 0 {
		return
	}
	s.OneOf = kept
	r.add(slip{
		where:  at() + ".oneOf",
		what:   "lists " + twice[0] + " more than once, so that no value matches one alternative alone",
		served: "read as listing it once",
		change: "list each alternative once",
	})
}

// undeclaredRequired reads a name an object requires, that it does not
// declare and its additionalProperties: false refuses, as not required:
// Jira's ScreenTypes requires a defaultScreen it declares as default. As
// written no value matches the schema.
func (r *repairs) undeclaredRequired(at func() string, s *openapi3.Schema) {
	if s.AdditionalProperties.Has == nil || *s.AdditionalProperties.Has || len(s.PatternProperties) > 0 || len(s.Required) == 0 {
		return
	}
	var kept, dropped []string
	for _, name := range s.Required {
		if _, ok := s.Properties[name]; ok {
			kept = append(kept, name)
		} else {
			dropped = append(dropped, name)
		}
	}
	if len(dropped) == 0 {
		return
	}
	s.Required = kept
	r.add(slip{
		where:  at() + ".required",
		what:   jsonText(dropped) + ": required, but not declared, and additionalProperties: false refuses every other property",
		served: "read as not required",
		change: "declare them, or leave them out of required",
	})
}
