package fake

import (
	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
)

// A value of a schema with allOf members matches every member: its object
// members are gathered with the document's properties (spec.Contract
// Properties), and the keywords of a value that is not an object, such as
// an enumeration, a format or bounds, are taken from the first member that
// gives them where the schema itself does not, as Box writes an enumeration
// of its own: {"allOf": [{"$ref": "#/components/schemas/EventType"}]}.

// scalarView returns s with the keywords of its allOf members it lacks,
// or s itself where it has no allOf member; each once.
func (g *Generator) scalarView(s *openapi3.Schema) *openapi3.Schema {
	if len(s.AllOf) == 0 {
		return s
	}
	if v, ok := g.views[s]; ok {
		return v
	}
	if g.views == nil {
		g.views = map[*openapi3.Schema]*openapi3.Schema{}
	}
	v := scalarView(s)
	g.views[s] = v
	return v
}

func scalarView(s *openapi3.Schema) *openapi3.Schema {
	v := *s
	// The schema's own examples were weighed against the whole schema
	// (see plan); the view, without its allOf, would take an example
	// the whole refuses.
	v.Example, v.Examples = nil, nil
	var fill func(m *openapi3.Schema, depth int)
	fill = func(m *openapi3.Schema, depth int) {
		if m == nil || depth > 32 {
			return
		}
		if m != s {
			take(&v, m)
		}
		for _, ref := range m.AllOf {
			if ref != nil {
				fill(ref.Value, depth+1)
			}
		}
	}
	fill(s, 0)
	v.AllOf = nil
	return &v
}

// take sets the keywords of v it lacks to those of m.
func take(v, m *openapi3.Schema) {
	if v.Type == nil || len(v.Type.Slice()) == 0 {
		v.Type = m.Type
	}
	if v.Format == "" {
		v.Format = m.Format
	}
	if len(v.Enum) == 0 {
		v.Enum = m.Enum
	}
	if v.Const == nil {
		v.Const = m.Const
	}
	if v.Pattern == "" {
		v.Pattern = m.Pattern
	}
	if v.Min == nil {
		v.Min, v.ExclusiveMin = m.Min, m.ExclusiveMin
	}
	if v.Max == nil {
		v.Max, v.ExclusiveMax = m.Max, m.ExclusiveMax
	}
	if v.MultipleOf == nil {
		v.MultipleOf = m.MultipleOf
	}
	v.MinLength = max(v.MinLength, m.MinLength)
	if v.MaxLength == nil {
		v.MaxLength = m.MaxLength
	}
	v.MinItems = max(v.MinItems, m.MinItems)
	if v.MaxItems == nil {
		v.MaxItems = m.MaxItems
	}
	v.UniqueItems = v.UniqueItems || m.UniqueItems
	switch {
	case v.Items == nil:
		v.Items = m.Items
	case m.Items != nil && m.Items != v.Items && m.Items.Value != v.Items.Value:
		// Items of every member's items: the train travel API's data is an
		// allOf of a wrapper's array of any object and one of Stations.
		v.Items = &openapi3.SchemaRef{Value: &openapi3.Schema{AllOf: openapi3.SchemaRefs{v.Items, m.Items}}}
	}
	// An example of a member is one of the value only where the member
	// is of the value's type, and a scalar: Box's members give arrays as
	// examples of objects.
	if t := spec.TypeOf(m); v.Example == nil && len(v.Examples) == 0 && t == spec.TypeOf(v) && t != "object" && t != "array" && t != "" {
		v.Example, v.Examples = m.Example, m.Examples
	}
}
