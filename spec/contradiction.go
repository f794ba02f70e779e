package spec

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// A schema may contradict itself: a minimum over its maximum, a minLength
// over its maxLength, an enumeration of strings for an integer. No value
// matches it. petmock cannot answer with a value of such a schema, so a
// document with one where an answer is made is refused, lenient or not,
// in one line that names the place. Elsewhere, in a request's schema, it
// only means that no request can be valid: that is a warning, or a
// refusal when strict. An example that does not match a schema is not a
// contradiction of the schema: values.go drops it.

// contradiction says why no value can match s, from what s says itself:
// "" when nothing it says rules every value out. Its members' schemas are
// looked at where the walk meets them; one below not, if, then or else
// rules out no value of the schema it is below, and is not looked at.
// With nullable, s is of an OpenAPI 3.0 document, where nullable: true lets
// null be a value of any type: type: object, nullable: true, enum: [null]
// is a value that is always null.
func contradiction(s *openapi3.Schema, nullable bool) string {
	if s == nil {
		return ""
	}
	if why := emptyRange(s); why != "" {
		return why
	}
	switch {
	case s.MaxLength != nil && s.MinLength > *s.MaxLength:
		return fmt.Sprintf("minLength %d is over maxLength %d", s.MinLength, *s.MaxLength)
	case s.MaxItems != nil && s.MinItems > *s.MaxItems:
		return fmt.Sprintf("minItems %d is over maxItems %d", s.MinItems, *s.MaxItems)
	case s.MaxProps != nil && s.MinProps > *s.MaxProps:
		return fmt.Sprintf("minProperties %d is over maxProperties %d", s.MinProps, *s.MaxProps)
	case s.MaxProps != nil && uint64(len(distinct(s.Required))) > *s.MaxProps:
		return fmt.Sprintf("%d properties are required, over maxProperties %d", len(distinct(s.Required)), *s.MaxProps)
	}
	if has := s.AdditionalProperties.Has; has != nil && !*has && s.AdditionalProperties.Schema == nil && len(s.PatternProperties) == 0 {
		for _, name := range s.Required {
			if _, ok := s.Properties[name]; !ok {
				return fmt.Sprintf("%s is required but no property of that name is declared, and additionalProperties is false", name)
			}
		}
	}
	types := s.Type.Slice()
	if nullable && s.Nullable && len(types) > 0 {
		types = append(slices.Clip(types), "null")
	}
	if len(s.Enum) > 0 && len(types) > 0 && !slices.ContainsFunc(s.Enum, func(v any) bool { return ofTypes(v, types) }) {
		return fmt.Sprintf("no value of its enum is of its type, %s", strings.Join(types, " or "))
	}
	return ""
}

// emptyRange says why no number is within the bounds of s, or "".
func emptyRange(s *openapi3.Schema) string {
	lo, loOpen, loText := math.Inf(-1), false, ""
	hi, hiOpen, hiText := math.Inf(1), false, ""
	if s.Min != nil {
		lo, loOpen, loText = *s.Min, s.ExclusiveMin.IsTrue(), fmt.Sprintf("minimum %v", *s.Min)
		if loOpen {
			loText += " (exclusive)"
		}
	}
	if v := s.ExclusiveMin.Value; v != nil && *v >= lo {
		lo, loOpen, loText = *v, true, fmt.Sprintf("exclusiveMinimum %v", *v)
	}
	if s.Max != nil {
		hi, hiOpen, hiText = *s.Max, s.ExclusiveMax.IsTrue(), fmt.Sprintf("maximum %v", *s.Max)
		if hiOpen {
			hiText += " (exclusive)"
		}
	}
	if v := s.ExclusiveMax.Value; v != nil && *v <= hi {
		hi, hiOpen, hiText = *v, true, fmt.Sprintf("exclusiveMaximum %v", *v)
	}
	switch {
	case lo > hi:
		return fmt.Sprintf("%s is over %s", loText, hiText)
	case lo == hi && (loOpen || hiOpen):
		return fmt.Sprintf("%s and %s leave no number between them", loText, hiText)
	case s.Type != nil && s.Type.Is("integer") && !math.IsInf(lo, 0) && !math.IsInf(hi, 0):
		first, last := math.Ceil(lo), math.Floor(hi)
		if loOpen && first == lo {
			first++
		}
		if hiOpen && last == hi {
			last--
		}
		if first > last {
			return fmt.Sprintf("no integer is from %s to %s", loText, hiText)
		}
	}
	return ""
}

// distinct returns names without repeats.
func distinct(names []string) []string {
	out := slices.Clone(names)
	slices.Sort(out)
	return slices.Compact(out)
}

// ofTypes reports whether v, a value of a document, is of one of the JSON
// Schema types.
func ofTypes(v any, types []string) bool {
	for _, t := range types {
		switch v := v.(type) {
		case nil:
			if t == "null" {
				return true
			}
		case bool:
			if t == "boolean" {
				return true
			}
		case float64:
			if t == "number" || t == "integer" && v == math.Trunc(v) {
				return true
			}
		case string:
			if t == "string" {
				return true
			}
		case []any:
			if t == "array" {
				return true
			}
		case map[string]any:
			if t == "object" {
				return true
			}
		}
	}
	return false
}

// answered returns the schemas a value answered with may have to match:
// those of the operations' responses, and every schema below them but
// those of not, if, then and else, which a value need not match.
func answered(doc *openapi3.T) map[*openapi3.Schema]bool {
	seen := map[*openapi3.Schema]bool{}
	var walk func(ref *openapi3.SchemaRef)
	walk = func(ref *openapi3.SchemaRef) {
		if ref == nil || ref.Value == nil || seen[ref.Value] {
			return
		}
		s := ref.Value
		seen[s] = true
		for _, p := range s.Properties {
			walk(p)
		}
		for _, r := range []*openapi3.SchemaRef{s.Items, s.AdditionalProperties.Schema, s.Contains} {
			walk(r)
		}
		for _, list := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf, s.OneOf, s.PrefixItems} {
			for _, r := range list {
				walk(r)
			}
		}
		for _, m := range []map[string]*openapi3.SchemaRef{s.PatternProperties, s.DependentSchemas} {
			for _, r := range m {
				walk(r)
			}
		}
	}
	if doc.Paths == nil {
		return seen
	}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			if op.Responses == nil {
				continue
			}
			for _, r := range op.Responses.Map() {
				if r == nil || r.Value == nil {
					continue
				}
				for _, media := range r.Value.Content {
					if media != nil {
						walk(media.Schema)
					}
				}
				for _, h := range r.Value.Headers {
					if h != nil && h.Value != nil {
						walk(h.Value.Schema)
					}
				}
			}
		}
	}
	return seen
}

// contradictions refuses the document for the first of its schemas no
// value can match, by place, that petmock answers with, or, strict, for
// the first of all; the others are warnings.
func (o ReadOptions) contradictions(l *loaded, found []fault) error {
	if len(found) == 0 {
		return nil
	}
	slices.SortFunc(found, func(a, b fault) int { return strings.Compare(a.where, b.where) })
	answers := answered(l.doc)
	for _, f := range found {
		if o.Strict || answers[f.schema] {
			more := ""
			if n := len(found) - 1; n > 0 {
				more = fmt.Sprintf(" (and %d more such schemas)", n)
			}
			return fmt.Errorf("%s: no value can match this schema: %s; change one of them%s", l.place(f.where), f.why, more)
		}
	}
	for _, f := range found {
		l.warnings = append(l.warnings, fmt.Sprintf("%s: no value can match this schema: %s; every request that must match it is refused", l.place(f.where), f.why))
	}
	return nil
}
