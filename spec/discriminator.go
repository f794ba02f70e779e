package spec

import (
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// OpenAPI 3.0 reads a discriminator by its mapping, and where the mapping
// does not name a member, by the member's name: {"petType": "Cat"} is a
// value of the member #/components/schemas/Cat of the oneOf, and is judged
// against Cat alone. kin-openapi reads the mapping only, and without one
// judges a value against every member: a Cat with a meow and no bark
// matches Cat and Dog alike where they differ in optional properties, and
// a correct answer is refused for matching two members of a oneOf. So the
// mapping the document implies is written out, where it can be told:
// every member is named by a $ref, and each value names one member. A
// member whose schema of the property takes some values only, as
// documents write {"type": {"enum": ["track"]}}, is named by those, unless
// its own name is one of them; a mapping the document gives is kept, and
// its values name the members it names. Where two members would take one
// value, or a member is written in place, nothing is written, and the
// value is judged against every member, as before.

// implicitMapping writes out the mapping of the discriminator of s, a
// schema with a oneOf or an anyOf, that OpenAPI implies.
func implicitMapping(s *openapi3.Schema) {
	d := s.Discriminator
	if d == nil || d.PropertyName == "" {
		return
	}
	members := s.OneOf
	if len(members) == 0 {
		members = s.AnyOf
	}
	if len(members) == 0 {
		return
	}
	named := map[string]bool{} // the members the mapping names
	for _, v := range d.Mapping {
		named[MappedRef(v.Ref)] = true
	}
	added := map[string]openapi3.MappingRef{}
	for _, m := range members {
		if m == nil || m.Ref == "" || m.Value == nil {
			return
		}
		if named[m.Ref] {
			continue
		}
		for _, key := range memberValues(m, d.PropertyName) {
			if _, taken := d.Mapping[key]; taken {
				return
			}
			if other, taken := added[key]; taken && other.Ref != m.Ref {
				return
			}
			added[key] = openapi3.MappingRef{Ref: m.Ref}
		}
	}
	if len(added) == 0 {
		return
	}
	if d.Mapping == nil {
		d.Mapping = make(map[string]openapi3.MappingRef, len(added))
	}
	for key, ref := range added {
		d.Mapping[key] = ref
	}
}

// MappedRef returns the reference a value of a discriminator's mapping
// stands for, as kin-openapi reads one: itself, or, for a plain name, the
// schema of that name of the components.
func MappedRef(v string) string {
	if v != "" && !strings.Contains(v, "/") {
		return "#/components/schemas/" + v
	}
	return v
}

// memberValues returns the values of the discriminator property name
// that name the member m: the values its schema of the property takes,
// where it takes some only and its own name is not one of them, or its
// name.
func memberValues(m *openapi3.SchemaRef, name string) []string {
	own := m.Ref[strings.LastIndexByte(m.Ref, '/')+1:]
	values := takenValues(m.Value, name, 0)
	for _, v := range values {
		if v == own {
			return []string{own}
		}
	}
	if len(values) > 0 {
		return values
	}
	return []string{own}
}

// takenValues returns the text values the property name of s, or of its
// allOf members, is held to by an enum or a const, or nil.
func takenValues(s *openapi3.Schema, name string, depth int) []string {
	if s == nil || depth > 32 {
		return nil
	}
	if p := s.Properties[name]; p != nil && p.Value != nil {
		var out []string
		for _, v := range p.Value.Enum {
			if t, ok := v.(string); ok {
				out = append(out, t)
			}
		}
		if t, ok := p.Value.Const.(string); ok {
			out = append(out, t)
		}
		if len(out) > 0 {
			return out
		}
	}
	for _, m := range s.AllOf {
		if m != nil {
			if out := takenValues(m.Value, name, depth+1); len(out) > 0 {
				return out
			}
		}
	}
	return nil
}
