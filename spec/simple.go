package spec

import (
	"math"

	"github.com/getkin/kin-openapi/openapi3"
)

// Simple describes a parameter or property schema simple enough to be
// checked without a schema validator: an integer within bounds, or a
// string, of an enumeration or up to a length. petmock's fast path checks
// requests with it and leaves every other schema to openapi3filter.
type Simple struct {
	// Integer says that the values are integers; they are strings
	// otherwise.
	Integer bool
	// Bits is 32 or 64, for an integer.
	Bits int
	// Min and Max bound an integer, inclusive: the schema's bounds, or
	// those of its bits where it gives none.
	Min, Max int64
	// Enum lists the values a string may take; nil for any.
	Enum []string
	// MaxLength is the most characters of a string; -1 for no limit.
	MaxLength int
}

// SimpleOf describes s, or reports false when it asks for more than a
// Simple says: a pattern, a multiple, exclusive bounds, a minimum length,
// a format, alternatives, null, or no single type.
func SimpleOf(s *openapi3.Schema) (Simple, bool) {
	if s == nil || s.Nullable || len(s.AllOf)+len(s.AnyOf)+len(s.OneOf) > 0 || s.Not != nil || s.Pattern != "" ||
		s.MultipleOf != nil || s.ExclusiveMin.IsSet() || s.ExclusiveMax.IsSet() || s.MinLength != 0 || s.Type == nil || len(s.Type.Slice()) != 1 {
		return Simple{}, false
	}
	out := Simple{MaxLength: -1}
	switch {
	case s.Type.Is("integer") && len(s.Enum) == 0 && (s.Format == "int32" || s.Format == "int64" || s.Format == ""):
		out.Integer, out.Bits = true, 64
		if s.Format == "int32" {
			out.Bits = 32
		}
		out.Min, out.Max = -1<<(out.Bits-1), 1<<(out.Bits-1)-1
		if s.Min != nil {
			if *s.Min != float64(int64(*s.Min)) {
				return Simple{}, false
			}
			out.Min = max(out.Min, int64(*s.Min))
		}
		if s.Max != nil {
			if *s.Max != float64(int64(*s.Max)) {
				return Simple{}, false
			}
			out.Max = min(out.Max, int64(*s.Max))
		}
	case s.Type.Is("string") && s.Format == "":
		for _, v := range s.Enum {
			str, ok := v.(string)
			if !ok {
				return Simple{}, false
			}
			out.Enum = append(out.Enum, str)
		}
		if s.MaxLength != nil {
			out.MaxLength = int(min(*s.MaxLength, math.MaxInt))
		}
	default:
		return Simple{}, false
	}
	return out, true
}

// SimpleParam describes the schema of a query or path parameter sent in
// the default style, or reports false for any other parameter, or one
// whose schema is not simple.
func SimpleParam(p *openapi3.Parameter) (Simple, bool) {
	if p == nil || p.Content != nil || p.Schema == nil || p.Schema.Value == nil || p.AllowEmptyValue ||
		p.Style != "" || p.Explode != nil || (p.In != openapi3.ParameterInQuery && p.In != openapi3.ParameterInPath) {
		return Simple{}, false
	}
	return SimpleOf(p.Schema.Value)
}

// FlatObject describes an object schema whose properties are all simple.
type FlatObject struct {
	Required   []string
	Properties map[string]Simple
}

// FlatObjectOf describes s, or reports false when s is not an object of
// simple properties only, or asks for more of it: null, alternatives, a
// count of properties, additional properties, an enumeration, properties
// read-only, write-only or with a default, which a request's validation
// treats apart.
func FlatObjectOf(s *openapi3.Schema) (FlatObject, bool) {
	if s == nil || s.Type == nil || !s.Type.Is("object") || s.Nullable || len(s.AllOf)+len(s.AnyOf)+len(s.OneOf) > 0 || s.Not != nil ||
		s.MinProps != 0 || s.MaxProps != nil || s.AdditionalProperties.Has != nil || s.AdditionalProperties.Schema != nil ||
		len(s.Enum) > 0 || s.ReadOnly || s.WriteOnly {
		return FlatObject{}, false
	}
	out := FlatObject{Required: s.Required, Properties: make(map[string]Simple, len(s.Properties))}
	for name, ref := range s.Properties {
		p := ref.Value
		if p == nil || p.ReadOnly || p.WriteOnly || p.Default != nil {
			return FlatObject{}, false
		}
		simple, ok := SimpleOf(p)
		if !ok {
			return FlatObject{}, false
		}
		out.Properties[name] = simple
	}
	return out, true
}
