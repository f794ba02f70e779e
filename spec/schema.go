package spec

import (
	"slices"

	"github.com/getkin/kin-openapi/openapi3"
)

// objectProperties returns the properties of an object schema, those of
// its allOf members first, in the order the document gives them. A
// property named twice keeps its first place and its last schema, and is
// required if any member requires it.
func objectProperties(order propertyOrder, s *openapi3.Schema) []Property {
	var out []Property
	index := map[string]int{}
	// A member may require a property another member declares, as a
	// paging object of Spotify's requires the items its allOf's other
	// member declares: the required names are applied at the end.
	var required []string
	var visit func(s *openapi3.Schema, depth int)
	visit = func(s *openapi3.Schema, depth int) {
		if s == nil || depth > 32 {
			return
		}
		for _, member := range s.AllOf {
			if member != nil {
				visit(member.Value, depth+1)
			}
		}
		for _, name := range order.names(s) {
			ref := s.Properties[name]
			if ref == nil || ref.Value == nil {
				continue
			}
			if i, seen := index[name]; seen {
				out[i].Schema = ref.Value
				continue
			}
			index[name] = len(out)
			out = append(out, Property{Name: name, Schema: ref.Value})
		}
		required = append(required, s.Required...)
	}
	visit(s, 0)
	for _, name := range required {
		if i, ok := index[name]; ok {
			out[i].Required = true
		}
	}
	return out
}

// WithUndeclared returns props, the properties of the object schema s,
// and after them the names s or its allOf members require and declare
// nowhere, as Turbine Labs' listener requires a host its properties do
// not name: members every value holds all the same, which the items of a
// resource are made with and keep. Each is of the additionalProperties
// schema, or of any value where the object takes any member. (Where it
// takes none, no value is valid, and the document is refused before.)
func WithUndeclared(s *openapi3.Schema, props []Property) []Property {
	for _, name := range RequiredNames(s) {
		if slices.ContainsFunc(props, func(p Property) bool { return p.Name == name }) {
			continue
		}
		if extra := undeclared(s); extra != nil {
			props = append(props, Property{Name: name, Schema: extra, Required: true})
		}
	}
	return props
}

// RequiredNames returns the names s and its allOf members require.
func RequiredNames(s *openapi3.Schema) []string { return requiredNames(s, 0) }

func requiredNames(s *openapi3.Schema, depth int) []string {
	if s == nil || depth > 32 {
		return nil
	}
	out := slices.Clone(s.Required)
	for _, m := range s.AllOf {
		if m != nil {
			out = append(out, requiredNames(m.Value, depth+1)...)
		}
	}
	return out
}

// undeclared returns the schema of a member an object of s requires and
// declares nowhere: its additionalProperties schema, the schema of any
// value where it takes any member, or nil where it takes none.
func undeclared(s *openapi3.Schema) *openapi3.Schema {
	if ap := s.AdditionalProperties.Schema; ap != nil && ap.Value != nil {
		return ap.Value
	}
	if has := s.AdditionalProperties.Has; has != nil && !*has {
		return nil
	}
	return &openapi3.Schema{}
}

// schemaType returns the JSON type of the values of s: "object", "array",
// "string", "integer", "number", "boolean", or "" when the schema does not
// say. A schema without a type takes its allOf members', and one with
// properties is an object.
func schemaType(s *openapi3.Schema) string {
	return typeOf(s, 0)
}

// ofAllOf returns the first value of s, or of a member of its allOf, that
// holds: AWS's documents give each property as an allOf of a $ref and a
// description, the enum or the format in the $ref's schema.
func ofAllOf[T comparable](s *openapi3.Schema, get func(*openapi3.Schema) T) T {
	var walk func(s *openapi3.Schema, depth int) T
	walk = func(s *openapi3.Schema, depth int) T {
		var zero T
		if s == nil || depth > 32 {
			return zero
		}
		if v := get(s); v != zero {
			return v
		}
		for _, member := range s.AllOf {
			if member != nil {
				if v := walk(member.Value, depth+1); v != zero {
					return v
				}
			}
		}
		return zero
	}
	return walk(s, 0)
}

// EnumOf returns the enumeration of s, or of the first member of its
// allOf that has one, as AWS's properties of an allOf of a $ref and a
// description give theirs; nil for none.
func EnumOf(s *openapi3.Schema) []any {
	var walk func(s *openapi3.Schema, depth int) []any
	walk = func(s *openapi3.Schema, depth int) []any {
		if s == nil || depth > 32 {
			return nil
		}
		if len(s.Enum) > 0 {
			return s.Enum
		}
		for _, m := range s.AllOf {
			if m != nil {
				if e := walk(m.Value, depth+1); len(e) > 0 {
					return e
				}
			}
		}
		return nil
	}
	return walk(s, 0)
}

func typeOf(s *openapi3.Schema, depth int) string {
	if s == nil || depth > 32 {
		return ""
	}
	if s.Type != nil {
		for _, t := range s.Type.Slice() {
			if t != "null" {
				return t
			}
		}
	}
	for _, member := range s.AllOf {
		if member != nil {
			if t := typeOf(member.Value, depth+1); t != "" {
				return t
			}
		}
	}
	if len(s.Properties) > 0 {
		return "object"
	}
	return ""
}

// TypeOf returns the JSON type of the values of s, as schemaType does, for
// the readers of the contract.
func TypeOf(s *openapi3.Schema) string { return schemaType(s) }

// Required returns the names of the required properties of props.
func Required(props []Property) []string {
	var out []string
	for _, p := range props {
		if p.Required {
			out = append(out, p.Name)
		}
	}
	return slices.Clip(out)
}
