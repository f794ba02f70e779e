package fake

import (
	"fmt"
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
// an enumeration of a value its own schema refuses, nor a schema that asks
// for more than a Generator makes (MaxStringLength and the others).
func Exact(s *openapi3.Schema) bool {
	w := walk{}
	return w.exact(s, 0) && w.least(s, 0) <= MaxValueBytes/2
}

// walk remembers what it found of each schema at each depth: a schema
// whose properties refer to it, or to each other, would be visited a
// number of times that grows exponentially with the depth.
type walk struct {
	exacts  map[place]bool
	leasts  map[place]int
	cappeds map[place]string
}

// place is a schema at a depth of a value.
type place struct {
	s     *openapi3.Schema
	depth int
}

func (w *walk) exact(s *openapi3.Schema, depth int) bool {
	at := place{s, depth}
	if v, ok := w.exacts[at]; ok {
		return v
	}
	if w.exacts == nil {
		w.exacts = map[place]bool{}
	}
	v := w.exactOnce(s, depth)
	w.exacts[at] = v
	return v
}

func (w *walk) exactOnce(s *openapi3.Schema, depth int) bool {
	if s == nil || depth >= maxDepth {
		return false
	}
	if s.MinLength > MaxStringLength || s.MinItems > MaxArrayItems {
		return false
	}
	if len(s.Enum) > 0 {
		// A value is drawn from the enumeration, whatever else the schema
		// says: exact if every value of it matches the schema. Each is
		// one of the enumeration: checked against the rest of the schema,
		// a long one is not gone through once for each of its values.
		rest := *s
		rest.Enum = nil
		for _, v := range s.Enum {
			if rest.VisitJSON(v) != nil {
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
			if m.Value == nil || spec.TypeOf(m.Value) != "object" || !w.exact(m.Value, depth+1) {
				return false
			}
		}
		for _, p := range s.Properties {
			if !w.exact(p.Value, depth+1) {
				return false
			}
		}
		if ap := s.AdditionalProperties.Schema; ap != nil && !w.exact(ap.Value, depth+1) {
			return false
		}
		return true
	case "array":
		return s.Items != nil && w.exact(s.Items.Value, depth+1)
	case "string", "integer", "number", "boolean":
		// A value is made from the schema's own bounds, lengths and
		// format, not from those of its allOf members.
		return len(s.AllOf) == 0 && (spec.TypeOf(s) != "string" || slices.Contains(exactFormats, s.Format))
	}
	return false
}

// least returns about the least bytes a value of s takes, its required
// members and its least items counted, up to MaxValueBytes: a value made
// for an exact schema must not run out of room.
func (w *walk) least(s *openapi3.Schema, depth int) int {
	at := place{s, depth}
	if v, ok := w.leasts[at]; ok {
		return v
	}
	if w.leasts == nil {
		w.leasts = map[place]int{}
	}
	v := w.leastOnce(s, depth)
	w.leasts[at] = v
	return v
}

func (w *walk) leastOnce(s *openapi3.Schema, depth int) int {
	if s == nil || depth >= maxDepth {
		return 0
	}
	n := 8 + int(min(s.MinLength, MaxStringLength))
	switch spec.TypeOf(s) {
	case "array":
		if s.Items != nil {
			n += int(min(s.MinItems, MaxArrayItems)) * (1 + w.least(s.Items.Value, depth+1))
		}
	case "object":
		for _, name := range s.Required {
			if p := s.Properties[name]; p != nil {
				n = min(n+len(name)+4+w.least(p.Value, depth+1), MaxValueBytes)
			}
		}
		for _, m := range s.AllOf {
			n = min(n+w.least(m.Value, depth+1), MaxValueBytes)
		}
	}
	return min(n, MaxValueBytes)
}

// takesNull reports whether a member of refs takes null.
func takesNull(refs openapi3.SchemaRefs) bool {
	for _, ref := range refs {
		if ref != nil && ref.Value != nil && ref.Value.VisitJSON(nil, openapi3.DisableSchemaErrorDetails()) == nil {
			return true
		}
	}
	return false
}

// capped says why no value made for s can match it, as it asks for more
// than a Generator makes where a value must have it: its own lengths,
// those of its required members, its items; "" when it does not.
func (w *walk) capped(s *openapi3.Schema, depth int) string {
	at := place{s, depth}
	if v, ok := w.cappeds[at]; ok {
		return v
	}
	if w.cappeds == nil {
		w.cappeds = map[place]string{}
	}
	w.cappeds[at] = "" // a schema below itself is looked at once
	v := w.cappedOnce(s, depth)
	w.cappeds[at] = v
	return v
}

func (w *walk) cappedOnce(s *openapi3.Schema, depth int) string {
	if s == nil || depth >= maxDepth || len(s.Enum) > 0 || s.Const != nil || hasExample(s) {
		return ""
	}
	switch {
	case s.MinLength > MaxStringLength && spec.TypeOf(s) == "string":
		return fmt.Sprintf("minLength %d is more than the %d characters strings are made with", s.MinLength, MaxStringLength)
	case s.MinItems > MaxArrayItems:
		return fmt.Sprintf("minItems %d is more than the %d items arrays are made with", s.MinItems, MaxArrayItems)
	case s.MinProps > MaxObjectProperties:
		return fmt.Sprintf("minProperties %d is more than the %d properties objects are made with", s.MinProps, MaxObjectProperties)
	}
	if contradictory(s) {
		// As Vercel writes a nullable alternative: null is the one value
		// of the type, and no member takes it.
		return "its type is null, and no member of its oneOf or anyOf takes null"
	}
	if depth == 0 && w.least(s, 0) >= MaxValueBytes {
		return fmt.Sprintf("its values take more than the %d MiB values are made with", MaxValueBytes>>20)
	}
	// below is a slice of its own: appended to s.OneOf[:1], it wrote the
	// allOf members and required properties over the oneOf's other
	// members, in the document itself.
	var below []*openapi3.SchemaRef
	switch {
	case len(s.OneOf) > 0:
		below = append(below, s.OneOf[0])
	case len(s.AnyOf) > 0:
		below = append(below, s.AnyOf[0])
	}
	below = append(below, s.AllOf...)
	if s.Items != nil && s.MinItems > 0 {
		below = append(below, s.Items)
	}
	for _, name := range s.Required {
		below = append(below, s.Properties[name])
	}
	for _, ref := range below {
		if ref == nil {
			continue
		}
		if why := w.capped(ref.Value, depth+1); why != "" {
			return why
		}
	}
	return ""
}
