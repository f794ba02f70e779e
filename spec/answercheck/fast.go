package answercheck

import (
	"slices"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/petstore/contract/spec"
)

// A proxy checks every answer it relays, so the common case, a body that
// matches its schema, is decided without openapi3filter where the schema
// is simple enough: an object of simple properties (spec.FlatObjectOf),
// all of several such objects (allOf, as the Petstore's Pet), or an array
// of one of those. The body is read where it lies, without decoding it
// into values. A fast check only ever decides that a body is valid;
// whenever it is not sure, openapi3filter decides, and words the error. A
// differential test and a fuzz target hold it to openapi3filter.

// fast is the fast check of a schema: of an object, or of an array.
type fast struct {
	object *objectCheck
	items  *fast
}

// objectCheck is the fast check of an object: the members it requires,
// and the simple schemas each member it names must match, all of them,
// as allOf asks.
type objectCheck struct {
	required []string
	props    map[string][]spec.Simple
}

// maxFastDepth bounds the nesting of the schemas compiled, such as an
// array of objects that are all of two objects.
const maxFastDepth = 4

// compileFast returns the fast check of s, or nil when s asks for more
// than a fast check decides.
func compileFast(s *openapi3.Schema, depth int) *fast {
	if s == nil || depth > maxFastDepth || s.Nullable || s.Not != nil || len(s.AnyOf)+len(s.OneOf) > 0 || len(s.Enum) > 0 {
		return nil
	}
	switch {
	case len(s.AllOf) > 0:
		// Nothing beside the parts may hold the value to more.
		if s.Type != nil && !s.Type.Is("object") || len(s.Properties) > 0 || len(s.Required) > 0 || s.MinProps != 0 || s.MaxProps != nil ||
			s.AdditionalProperties.Has != nil || s.AdditionalProperties.Schema != nil {
			return nil
		}
		all := &objectCheck{props: map[string][]spec.Simple{}}
		for _, ref := range s.AllOf {
			if ref == nil {
				return nil
			}
			part := compileFast(ref.Value, depth+1)
			if part == nil || part.object == nil {
				return nil
			}
			all.required = append(all.required, part.object.required...)
			for name, cs := range part.object.props {
				all.props[name] = append(all.props[name], cs...)
			}
		}
		return &fast{object: all}
	case s.Type.Is("array"):
		if s.MinItems != 0 || s.MaxItems != nil || s.UniqueItems || s.Items == nil {
			return nil
		}
		items := compileFast(s.Items.Value, depth+1)
		if items == nil {
			return nil
		}
		return &fast{items: items}
	}
	flat, ok := spec.FlatObjectOf(s)
	if !ok {
		return nil
	}
	oc := &objectCheck{required: slices.Clone(flat.Required), props: make(map[string][]spec.Simple, len(flat.Properties))}
	for name, c := range flat.Properties {
		oc.props[name] = []spec.Simple{c}
	}
	return &fast{object: oc}
}

// ok reports whether body, which is valid JSON, surely matches the
// schema.
func (f *fast) ok(body []byte) bool {
	s := scanner{b: body}
	s.space()
	if !s.value(f) {
		return false
	}
	s.space()
	return s.i == len(s.b)
}

// scanner reads a valid JSON text where it lies.
type scanner struct {
	b []byte
	i int
}

func (s *scanner) space() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\t' || s.b[s.i] == '\n' || s.b[s.i] == '\r') {
		s.i++
	}
}

// value reads the value at s.i and reports whether it surely matches f.
func (s *scanner) value(f *fast) bool {
	if s.i >= len(s.b) {
		return false
	}
	if f.items != nil {
		if s.b[s.i] != '[' {
			return false
		}
		s.i++
		s.space()
		if s.i < len(s.b) && s.b[s.i] == ']' {
			s.i++
			return true
		}
		for {
			s.space()
			if !s.value(f.items) {
				return false
			}
			s.space()
			if s.i >= len(s.b) {
				return false
			}
			c := s.b[s.i]
			s.i++
			switch c {
			case ']':
				return true
			case ',':
			default:
				return false
			}
		}
	}
	return s.object(f.object)
}

// object reads the object at s.i and reports whether it surely matches
// oc.
func (s *scanner) object(oc *objectCheck) bool {
	if s.b[s.i] != '{' {
		return false
	}
	s.i++
	var seen uint64 // of oc.required, by index
	if len(oc.required) > 64 {
		return false
	}
	s.space()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		return len(oc.required) == 0
	}
	for {
		s.space()
		raw, escaped, ok := s.str()
		if !ok || escaped {
			return false // a name with an escape is left to openapi3filter
		}
		s.space()
		if s.i >= len(s.b) || s.b[s.i] != ':' {
			return false
		}
		s.i++
		s.space()
		for i, name := range oc.required {
			if string(raw) == name {
				seen |= 1 << i
			}
		}
		if cs, named := oc.props[string(raw)]; named {
			if !s.simple(cs) {
				return false
			}
		} else if !s.skip() {
			return false
		}
		s.space()
		if s.i >= len(s.b) {
			return false
		}
		c := s.b[s.i]
		s.i++
		switch c {
		case '}':
			for i := range oc.required {
				if seen&(1<<i) == 0 {
					return false
				}
			}
			return true
		case ',':
		default:
			return false
		}
	}
}

// simple reads the value at s.i and reports whether it surely matches
// every one of cs.
func (s *scanner) simple(cs []spec.Simple) bool {
	if s.b[s.i] == '"' {
		raw, escaped, ok := s.str()
		if !ok {
			return false
		}
		for _, c := range cs {
			if c.Integer {
				return false
			}
			// An escape is longer than what it stands for, and a length
			// counted in bytes is never less than one counted in
			// characters: the raw text within the length is.
			if c.MaxLength >= 0 && len(raw) > c.MaxLength {
				return false
			}
			if c.Enum != nil && (escaped || !slices.ContainsFunc(c.Enum, func(e string) bool { return string(raw) == e })) {
				return false // an escaped value of an enumeration is left to openapi3filter
			}
		}
		return true
	}
	start := s.i
	for s.i < len(s.b) && (s.b[s.i] == '-' || s.b[s.i] == '+' || s.b[s.i] == '.' || s.b[s.i] == 'e' || s.b[s.i] == 'E' || s.b[s.i] >= '0' && s.b[s.i] <= '9') {
		s.i++
	}
	if s.i == start {
		return false // null, true, false, an object or an array
	}
	n, exact := integer(s.b[start:s.i])
	for _, c := range cs {
		if !c.Integer || !exact || n < c.Min || n > c.Max {
			return false
		}
	}
	return true
}

// integer reads a JSON number that is exactly an integer in the int64
// range; spec.ExactInt64 reads any spelling of one, and the digits alone
// are read here, without an allocation.
func integer(num []byte) (int64, bool) {
	digits := num
	neg := len(digits) > 0 && digits[0] == '-'
	if neg {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 18 || len(digits) > 1 && digits[0] == '0' {
		return spec.ExactInt64(string(num))
	}
	var n int64
	for _, d := range digits {
		if d < '0' || d > '9' {
			return spec.ExactInt64(string(num))
		}
		n = n*10 + int64(d-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// str reads the string at s.i, and returns its text between the quotes,
// as written, and whether it holds an escape.
func (s *scanner) str() (raw []byte, escaped, ok bool) {
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return nil, false, false
	}
	start := s.i + 1
	for s.i++; s.i < len(s.b); s.i++ {
		switch s.b[s.i] {
		case '\\':
			escaped = true
			s.i++
		case '"':
			s.i++
			return s.b[start : s.i-1], escaped, true
		}
	}
	return nil, false, false
}

// skip passes the value at s.i, of any kind, in a text known to be valid
// JSON.
func (s *scanner) skip() bool {
	depth := 0
	for s.i < len(s.b) {
		switch c := s.b[s.i]; c {
		case '"':
			if _, _, ok := s.str(); !ok {
				return false
			}
			if depth == 0 {
				return true
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return true // the end of the object or array a scalar was last in
			}
			depth--
			if depth == 0 {
				s.i++
				return true
			}
		case ',', ':', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return true
			}
		}
		s.i++
	}
	return depth == 0
}
