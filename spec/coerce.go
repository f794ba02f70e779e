package spec

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// A document often writes the values of an enum, a default or a const in
// the wrong JSON type: an integer's enumeration as strings, ['6', '12'],
// as YAML writes them quoted, or a string's default as a number. As for
// examples (values.go), the lenient reading takes such a value as the
// value of the right type that it reads as, 6 for '6', with one warning
// that names the place; the strict one refuses the document for the first.
// A value that reads as no value of the type is left as it is, for the
// checks of values and of contradictions to say so.

// reading is a keyword whose values were read as values of the schema's
// type.
type reading struct {
	where string
	// was is what the document wrote, as is what it was read as, both as
	// JSON; kinds names the JSON type of what it wrote, and types the
	// schema's.
	was, as, kinds, types string
}

// coerce reads the values of the enum, the default and the const of s that
// are not of s's type, but read as a value of it, as that value.
func (v *valueCheck) coerce(s *openapi3.Schema) {
	types := s.Type.Slice()
	if len(types) == 0 {
		return
	}
	fits := func(x any) bool { return ofTypes(x, types) || x == nil && v.nullable && s.Nullable }
	read := func(keyword string, values []any) ([]any, bool) {
		out := slices.Clone(values)
		var kinds []string
		for i, x := range values {
			if fits(x) {
				continue
			}
			if y, ok := readAs(x, types); ok {
				out[i] = y
				if k := jsonKind(x); !slices.Contains(kinds, k) {
					kinds = append(kinds, k)
				}
			}
		}
		if len(kinds) == 0 {
			return values, false
		}
		r := reading{where: strings.Join(append(slices.Clip(v.path), keyword), "."), kinds: strings.Join(kinds, " and "), types: strings.Join(types, " or ")}
		if keyword == "enum" {
			r.was, r.as = jsonText(values), jsonText(out)
		} else {
			r.was, r.as = jsonText(values[0]), jsonText(out[0])
		}
		v.readings = append(v.readings, r)
		return out, true
	}
	if len(s.Enum) > 0 {
		s.Enum, _ = read("enum", s.Enum)
	}
	if s.Default != nil {
		if out, ok := read("default", []any{s.Default}); ok {
			s.Default = out[0]
		}
	}
	if s.Const != nil {
		if out, ok := read("const", []any{s.Const}); ok {
			s.Const = out[0]
		}
	}
}

// readAs returns the value of one of types that x, a value of a document
// of another JSON type, reads as: the number of a string that is a JSON
// number, the boolean of "true" or "false", the text of a number or a
// boolean.
func readAs(x any, types []string) (any, bool) {
	for _, t := range types {
		switch x := x.(type) {
		case string:
			switch t {
			case openapi3.TypeInteger, openapi3.TypeNumber:
				var f float64
				if x != strings.TrimSpace(x) || json.Unmarshal([]byte(x), &f) != nil || math.IsInf(f, 0) {
					continue
				}
				if t == openapi3.TypeNumber || f == math.Trunc(f) {
					return f, true
				}
			case openapi3.TypeBoolean:
				if x == "true" || x == "false" {
					return x == "true", true
				}
			}
		case float64:
			if t == openapi3.TypeString {
				return strconv.FormatFloat(x, 'f', -1, 64), true
			}
		case bool:
			if t == openapi3.TypeString {
				return strconv.FormatBool(x), true
			}
		}
	}
	return nil, false
}

// jsonKind names the JSON type of a value of a document, for a message.
func jsonKind(x any) string {
	switch x.(type) {
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	}
	return "another type"
}

// readings warns of each keyword whose values were read as of their
// schema's type; strict, it refuses the document for the first, by place.
func (o ReadOptions) readings(l *loaded, found []reading) error {
	slices.SortFunc(found, func(a, b reading) int { return strings.Compare(a.where, b.where) })
	for _, r := range found {
		what := fmt.Sprintf("%s holds %s where the schema's type is %s", r.was, r.kinds, r.types)
		if o.Strict {
			more := ""
			if n := len(found) - 1; n > 0 {
				more = fmt.Sprintf(" (and %d more such values)", n)
			}
			return fmt.Errorf("%s: %s; write %s%s", l.place(r.where), what, r.as, more)
		}
		l.warnings = append(l.warnings, fmt.Sprintf("%s: %s; read as %s", l.place(r.where), what, r.as))
	}
	return nil
}
