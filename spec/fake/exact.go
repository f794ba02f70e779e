package fake

import (
	"slices"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
)

// exactFormats are the string formats whose every made value is one of
// the format.
var exactFormats = []string{"", "date-time", "date", "email", "uuid", "uri", "url", "hostname", "ipv4", "ipv6", "byte", "password"}

// Exact reports whether every value a Generator makes for s matches it,
// so that a catalogue of a million items need not check each against
// its schema. Patterns, multiples, alternatives, unique items, counts of
// properties, examples, and the bounds of a value's allOf members may be
// missed; a schema with one of them, at any depth, is not exact, nor is
// an enumeration of a value its own schema refuses.
func Exact(s *openapi3.Schema) bool { return exact(s, 0) }

func exact(s *openapi3.Schema, depth int) bool {
	if s == nil || depth > 16 {
		return false
	}
	if len(s.Enum) > 0 {
		// A value is drawn from the enumeration, whatever else the schema
		// says: exact if every value of it matches the schema.
		for _, v := range s.Enum {
			if s.VisitJSON(v) != nil {
				return false
			}
		}
		return true
	}
	if s.Pattern != "" || s.MultipleOf != nil || s.Not != nil || len(s.OneOf)+len(s.AnyOf) > 0 || s.UniqueItems ||
		s.MinProps > 0 || s.MaxProps != nil || s.Example != nil || len(s.Examples) > 0 {
		return false
	}
	switch spec.TypeOf(s) {
	case "object":
		for _, m := range s.AllOf {
			if m.Value == nil || spec.TypeOf(m.Value) != "object" || !exact(m.Value, depth+1) {
				return false
			}
		}
		for _, p := range s.Properties {
			if !exact(p.Value, depth+1) {
				return false
			}
		}
		if ap := s.AdditionalProperties.Schema; ap != nil && !exact(ap.Value, depth+1) {
			return false
		}
		return true
	case "array":
		return s.Items != nil && exact(s.Items.Value, depth+1)
	case "string", "integer", "number", "boolean":
		// A value is made from the schema's own bounds, lengths and
		// format, not from those of its allOf members.
		return len(s.AllOf) == 0 && (spec.TypeOf(s) != "string" || slices.Contains(exactFormats, s.Format))
	}
	return false
}
